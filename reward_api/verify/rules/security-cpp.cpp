// Fixture for security-cpp.yaml (C++), checked by `semgrep --test`.
#include <bits/stdc++.h>
// ruleid: c-network-access
#include <sys/socket.h>
#include <unistd.h>

int run() {
    // ruleid: c-process-spawn
    int rc = system("ls /");
    // ruleid: c-process-spawn
    FILE* p = popen("cat /etc/passwd", "r");
    // ruleid: c-process-spawn
    pid_t child = fork();
    // ruleid: c-network-access
    int s = socket(AF_INET, SOCK_STREAM, 0);
    // ok: c-process-spawn
    std::vector<int> systems = {1, 2};
    return rc + (p != nullptr) + child + s + systems[0];
}
