/* codereward: the recorder of a lifted C assert test (reward_api/verify/lifted.py), compiled
   after the program in the candidate's build. It writes on fd 3 one line of the call sites'
   types (before any code of the program's runs), then, as each call of the program returns,
   one line of its value: 'r' and the bytes of the value's object in hexadecimal. Nothing
   here calls a function of the C library's, which the program may define: the system calls
   are made as the system calls themselves (x86-64). */
static long __cr_lift_sys3(long nr, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
static void __cr_lift_write(const volatile char *p, unsigned long n) {
  char out[4096];
  if (n > sizeof out) n = sizeof out;
  for (unsigned long i = 0; i < n; i++) out[i] = p[i];
  unsigned long done = 0;
  while (done < n) {
    long r = __cr_lift_sys3(1, 3, (long)(out + done), (long)(n - done));
    if (r <= 0) return;
    done += (unsigned long)r;
  }
}
/* a value's object, its padding zeroed by the caller, as one line */
static void __cr_lift_put(const volatile unsigned char *b, unsigned long n) {
  static const char hex[] = "0123456789abcdef";
  volatile char out[2 + 2 * 64];
  unsigned long k = 0;
  if (n > 64) n = 64;
  out[k++] = 'r';
  for (unsigned long i = 0; i < n; i++) {
    out[k++] = hex[b[i] >> 4];
    out[k++] = hex[b[i] & 15];
  }
  out[k++] = '\n';
  __cr_lift_write(out, k);
}
/* the types' line: one name a call site, '?' for a type the recorder does not write */
static void __cr_lift_types_line(const char *const *names, unsigned long n) {
  volatile char out[4096];
  unsigned long k = 0;
  for (unsigned long i = 0; i < n; i++) {
    if (i && k < sizeof out) out[k++] = ' ';
    for (const char *c = names[i]; *c && k < sizeof out; c++) out[k++] = *c;
  }
  if (k < sizeof out) out[k++] = '\n';
  __cr_lift_write(out, k);
}
