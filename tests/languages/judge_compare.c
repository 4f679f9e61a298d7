/* Comparisons whose result a lifted C test's judge must compute as gcc does: built in the
   cpp root by tcc (the judges' compiler, languages.C_JUDGE_BUILD) and by gcc -O2 (the
   program's), each prints one digit a comparison (tests/languages/test_runtimes.py). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include <limits.h>
#include <float.h>
volatile double z = 0.0;
volatile long double lz = 0.0L;
volatile float fz = 0.0f;
int main(void) {
  double nan_ = z / z; float fn = fz / fz; long double ln = lz / lz;
  int r = 0, k = 0;
#define T(e) r |= (!!(e)) << (k++ % 31); printf("%d", !!(e));
  T(nan_ == nan_) T(nan_ != nan_) T(nan_ < 1) T(nan_ > 1) T(nan_ <= nan_) T(nan_ >= 1) T(!(nan_ == 1))
  T(fn == fn) T(fn != fn) T(ln == ln) T(ln != ln) T(ln < 1) T(isnan(nan_)) T(isnan(ln))
  T(-2147483648 < 0) T(0x80000000 > 0) T(-1 < 0u) T((unsigned char)200 > (signed char)-1) T(1.0L/3 == (double)(1.0L/3))
  T(0.1 + 0.2 == 0.3) T(0.1f + 0.2f == 0.3f) T((float)0.1 == 0.1) T(fabs(-0.0) == 0.0)
  T(DBL_MAX * 2 == INFINITY) T(-0.0 == 0.0) T(1e308 * 10 > DBL_MAX) T(sizeof(long double)) T((long double)0.1 == 0.1L)
  T(strcmp("a", "b") < 0) T('a' == 97) T(sizeof('a') == 4) T((char)-1 < 0) T(5 / 2 == 2) T(-5 / 2 == -2) T(-5 % 2 == -1)
  T(1.0 / 3 * 3 == 1.0) T(0.1L * 3 == 0.3L) T((float)(1.0/3) == 1.0f/3) T(nextafter(1.0, 2.0) > 1.0) T(round(2.5) == 3) T(rint(2.5) == 2)
  T(ln >= ln) T(!(fn < fn)) T(nan_ != 0.0)
  printf("\n");
  return 0;
}
