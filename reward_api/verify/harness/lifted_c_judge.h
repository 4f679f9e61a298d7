/* codereward: the judge of a lifted C assert test (reward_api/verify/lifted.py), compiled
   before the test's own code, apart from every program. It reads the recorder's lines on
   stdin and hands each call's value back: __cr_lift_take(k, n) is the address of call k's
   value, n bytes. A call the candidate never returned from ends the judge with status 3, a
   malformed line with 4. No header is included: the test's own includes stay the test's. */
static long __cr_lift_sys3(long nr, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
__attribute__((noreturn)) static void __cr_lift_leave(int status) {
  for (;;) __cr_lift_sys3(231, status, 0, 0); /* exit_group */
}
static char __cr_lift_in[1 << 20];
static long __cr_lift_len = -1;
static _Alignas(64) unsigned char __cr_lift_vals[__CR_LIFT_CALLS][64];
static int __cr_lift_hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  __cr_lift_leave(4);
}
static const void *__cr_lift_take(int k, unsigned long n) {
  if (__cr_lift_len < 0) {
    __cr_lift_len = 0;
    for (;;) {
      long r = __cr_lift_sys3(0, 0, (long)(__cr_lift_in + __cr_lift_len),
                              (long)(sizeof __cr_lift_in - __cr_lift_len));
      if (r == -4) continue; /* EINTR */
      if (r < 0) __cr_lift_leave(4);
      if (r == 0) break;
      __cr_lift_len += r;
      if (__cr_lift_len == (long)sizeof __cr_lift_in) __cr_lift_leave(4);
    }
  }
  if (k < 0 || k >= __CR_LIFT_CALLS || n > 64) __cr_lift_leave(4);
  /* line k + 1: the first line holds the types */
  long at = 0;
  for (int line = 0; line <= k; line++) {
    while (at < __cr_lift_len && __cr_lift_in[at] != '\n') at++;
    if (at >= __cr_lift_len) __cr_lift_leave(3);
    at++;
  }
  if (at >= __cr_lift_len) __cr_lift_leave(3);
  if (__cr_lift_in[at++] != 'r') __cr_lift_leave(4);
  /* at most n bytes (a long double's 10 of its 16), the rest zero */
  unsigned long i = 0;
  for (; i < n && at < __cr_lift_len && __cr_lift_in[at] != '\n'; i++) {
    if (at + 1 >= __cr_lift_len) __cr_lift_leave(4);
    int hi = __cr_lift_hex(__cr_lift_in[at]), lo = __cr_lift_hex(__cr_lift_in[at + 1]);
    __cr_lift_vals[k][i] = (unsigned char)(hi * 16 + lo);
    at += 2;
  }
  for (; i < n; i++) __cr_lift_vals[k][i] = 0;
  if (at >= __cr_lift_len || __cr_lift_in[at] != '\n') __cr_lift_leave(4);
  return __cr_lift_vals[k];
}
/* a _Bool's byte other than 0 or 1 is no value a _Bool holds (a program returns one by
   type punning, or writes it on fd 3 itself), and this unoptimised judge would read it as
   true and its negation as true too ('!b' is 'b ^ 1'): assert(f(x)) and assert(!f(y))
   would both pass. Malformed, as beside the test such a byte is undefined behaviour. */
static const void *__cr_lift_truth(const void *p, int boolean) {
  if (boolean && *(const unsigned char *)p > 1) __cr_lift_leave(4);
  return p;
}
