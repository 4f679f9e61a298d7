/* Fixture for security-cpp.yaml (C), checked by `semgrep --test`. */
#include <stdlib.h>

int run(void) {
    // ruleid: c-process-spawn
    int rc = system("id");
    // ok: c-process-spawn
    int total = rc + 1;
    return total;
}
