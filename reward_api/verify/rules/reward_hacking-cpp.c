/* Fixture for reward_hacking-cpp.yaml (C), checked by `semgrep --test`. */
#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// ruleid: c-macro-redefinition
#define assert(x) (void)(x)
// ok: c-macro-redefinition
#define N 100

static void bye(int sig) {
    // ruleid: c-hard-exit
    _Exit(0);
}

int twice(int x) {
    // ruleid: c-signal-handler
    signal(SIGABRT, bye);
    // ruleid: c-hard-exit
    atexit(0);
    // ruleid: c-early-exit
    exit(0);
    // ruleid: c-pass-channel-or-self-read
    dprintf(3, "done");
    // ruleid: c-pass-channel-or-self-read
    FILE *mem = fopen("/proc/self/mem", "r");
    // ok: c-pass-channel-or-self-read
    int three = 3;
    // ruleid: c-reads-its-caller
    const unsigned char *caller = __builtin_return_address(0);
    // ruleid: c-reads-its-caller
    extern char __executable_start;
    // ok: c-reads-its-caller
    const char *text = "return address";
    // ruleid: c-reads-its-caller
    unsigned long anchor = (unsigned long)twice;
    // ok: c-reads-its-caller
    long widened = (long)three;
    // ok: c-reads-its-caller
    long again = (long)twice(1);
    return 2 * x + three - 3;
}
