/* codereward: the trusted harness of a C call test (reward_api/verify/calls.py). Its own
 * file, linked with the program and --wrap=main, so none of the program's macros reach it.
 * The entry point's signature was read on the host (LeetCode's conventions: an array is a
 * pointer and a size, a returned array's size is written through returnSize); the code
 * generated below this part decodes the argument stream on stdin into those types, calls,
 * encodes the result as JSON, reports NONCE LENGTH '\n' JSON on fd 3 and _exits. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *cr_nonce = "__CR_NONCE__";
static char *cr_s;
static size_t cr_n, cr_p;
static jmp_buf cr_jump;
static char cr_why[256];
static int cr_arg;

static char *cr_o;
static size_t cr_on, cr_ocap;

static void cr_put(const char *t, size_t n) {
  if (cr_on + n + 1 > cr_ocap) {
    cr_ocap = (cr_on + n + 1) * 2;
    cr_o = realloc(cr_o, cr_ocap);
    if (!cr_o) _exit(1);
  }
  memcpy(cr_o + cr_on, t, n);
  cr_on += n;
}
static void cr_puts(const char *t) { cr_put(t, strlen(t)); }

static void cr_report(void) {
  char head[64];
  int k = snprintf(head, sizeof head, "%s%zu\n", cr_nonce, cr_on);
  const char *parts[2] = {head, cr_o};
  size_t sizes[2] = {(size_t)k, cr_on};
  for (int i = 0; i < 2; i++) {
    size_t done = 0;
    while (done < sizes[i]) {
      ssize_t w = write(3, parts[i] + done, sizes[i] - done);
      if (w <= 0) _exit(1);
      done += (size_t)w;
    }
  }
  _exit(0);
}

static void cr_str(const char *t, size_t n) {
  static const char hex[] = "0123456789abcdef";
  cr_put("\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)t[i];
    if (c == '"' || c == '\\') { char e[2] = {'\\', (char)c}; cr_put(e, 2); }
    else if (c < 0x20) { char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]}; cr_put(e, 6); }
    else cr_put((const char *)&c, 1);
  }
  cr_put("\"", 1);
}

static void cr_fail(const char *kind, const char *why) {
  cr_on = 0;
  cr_puts("{\"error\":");
  cr_str(why, strlen(why));
  cr_puts(",\"kind\":\"");
  cr_puts(kind);
  cr_puts("\"}");
  cr_report();
}

static void cr_bad(const char *why) {
  snprintf(cr_why, sizeof cr_why, "%s", why);
  longjmp(cr_jump, 1);
}

static char cr_kind(void) {
  if (cr_p >= cr_n) cr_bad("the argument stream ended early");
  return cr_s[cr_p];
}
static const char *cr_kind_name(char k) {
  switch (k) {
    case 'n': return "null";
    case 't': case 'f': return "a boolean";
    case 'i': return "an integer";
    case 'd': return "a float";
    case 's': return "a string";
    case 'l': return "a list";
    case 'm': return "an object";
  }
  return "a value";
}
static void cr_mismatch(const char *want) {
  char m[128];
  snprintf(m, sizeof m, "expected %s, got %s", want, cr_kind_name(cr_kind()));
  cr_bad(m);
}
static char *cr_until(char end) {
  char *e = memchr(cr_s + cr_p, end, cr_n - cr_p);
  if (!e) cr_bad("the argument stream is malformed");
  *e = 0;
  char *t = cr_s + cr_p;
  cr_p = (size_t)(e - cr_s) + 1;
  return t;
}
static size_t cr_count(void) { return (size_t)strtoull(cr_until(':'), NULL, 10); }

static long long cr_int(long long lo, unsigned long long hi) {
  if (cr_kind() != 'i') cr_mismatch("an integer");
  cr_p++;
  char *t = cr_until(';');
  errno = 0;
  if (t[0] == '-') {
    long long v = strtoll(t, NULL, 10);
    if (errno || v < lo) goto out;
    return v;
  } else {
    unsigned long long v = strtoull(t, NULL, 10);
    if (errno || v > hi) goto out;
    return (long long)v;
  }
out:;
  char m[160];
  snprintf(m, sizeof m, "the integer %.60s does not fit the parameter type", t);
  cr_bad(m);
  return 0;
}
static double cr_real(void) {
  char k = cr_kind();
  if (k != 'i' && k != 'd') cr_mismatch("a number");
  cr_p++;
  return strtod(cr_until(';'), NULL);
}
static bool cr_bool(void) {
  char k = cr_kind();
  if (k != 't' && k != 'f') cr_mismatch("a boolean");
  cr_p++;
  return k == 't';
}
static char *cr_string(size_t *len) {
  if (cr_kind() != 's') cr_mismatch("a string");
  cr_p++;
  size_t n = cr_count();
  if (n > cr_n - cr_p) cr_bad("the argument stream is malformed");
  char *t = malloc(n + 1);
  if (!t) _exit(1);
  memcpy(t, cr_s + cr_p, n);
  t[n] = 0;
  cr_p += n;
  if (len) *len = n;
  return t;
}
static char cr_char(void) {
  size_t n;
  char *t = cr_string(&n);
  if (n != 1) cr_bad("expected a one-character string for a char");
  return t[0];
}
static size_t cr_list(void) {
  if (cr_kind() != 'l') cr_mismatch("a list");
  cr_p++;
  return cr_count();
}
static void *cr_alloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) _exit(1);
  return p;
}

static void cr_enc_int(long long v) { char b[32]; cr_put(b, (size_t)snprintf(b, sizeof b, "%lld", v)); }
static void cr_enc_uint(unsigned long long v) { char b[32]; cr_put(b, (size_t)snprintf(b, sizeof b, "%llu", v)); }
static void cr_enc_real(double v, int digits) {
  if (isnan(v)) { cr_puts("NaN"); return; }
  if (isinf(v)) { cr_puts(v > 0 ? "Infinity" : "-Infinity"); return; }
  char b[64];
  /* the shortest of %.{digits}g that reads back as the same value */
  for (int d = 1; d <= digits; d++) {
    snprintf(b, sizeof b, "%.*g", d, v);
    if ((digits == 9 && (float)strtod(b, NULL) == (float)v) || strtod(b, NULL) == v) break;
  }
  cr_puts(b);
}
static void cr_enc_bool(bool v) { cr_puts(v ? "true" : "false"); }
static void cr_enc_char(char c) { cr_str(&c, 1); }
static void cr_enc_string(const char *t) {
  if (!t) cr_puts("null");
  else cr_str(t, strlen(t));
}

static void cr_read_input(void) {
  size_t cap = 65536;
  cr_s = malloc(cap);
  if (!cr_s) _exit(1);
  for (;;) {
    if (cr_n == cap) {
      cap *= 2;
      cr_s = realloc(cr_s, cap);
      if (!cr_s) _exit(1);
    }
    ssize_t r = read(0, cr_s + cr_n, cap - cr_n);
    if (r <= 0) break;
    cr_n += (size_t)r;
  }
}
/* ---- generated for the entry point ---- */
