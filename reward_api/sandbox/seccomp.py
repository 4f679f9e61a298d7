"""The docker cell's system-call filter: what Docker's default seccomp profile lets a
container without capabilities do on x86-64, plus ``mseal``, written here and installed by
the container's first process.

Why our own. The C/C++ assert harness seals the executable's code and RELRO with ``mseal``
(Linux 6.10, system call 462) before any constructor of the program runs
(``reward_api.verify.languages._X86_64_SEAL``); without it a program can ``mprotect`` the
GOT writable again and rewrite a slot (``strcmp``'s), which only the hack gate then stops.
Docker's default profile answers ``mseal`` with ENOSYS, and no profile passed through the
engine can allow it where the engine's libseccomp predates it (runc 1.1 with libseccomp
2.5, Debian 12's engine): runc drops a name it cannot resolve and answers every number
above the profile's highest with ENOSYS. So the container runs with the engine's filter
off (``seccomp=unconfined``) and its first process, trusted code of ours on the command line
(``boot_command``), installs ``cell_filter`` and then execs the runner: the runner and
everything it starts run under this filter, as they ran under the engine's, and nothing
of the sample's runs before it is in place. A filter that cannot be installed ends the
container with an error frame, so the cell never starts (``sandbox_error``, never a cell
without a filter).

What it answers (x86-64, the 64-bit system call ABI):

- ``ALLOWED``: the calls Docker's default profile allows a container with no capabilities
  (read back from the filter runc installed, engine 20.10 with runc 1.1.5 and libseccomp
  2.5.4; ``io_uring`` among them, which later engines refuse), plus ``mseal``, which can
  only take permissions away.
- ``clone`` only without namespace flags (``CLONE_NEWNS``, ``NEWCGROUP``, ``NEWUTS``,
  ``NEWIPC``, ``NEWUSER``, ``NEWPID``, ``NEWNET``); ``clone3``: ENOSYS (its flags lie in
  memory a filter cannot read), so the C library falls back to ``clone``.
- ``personality`` only for ``PER_LINUX``, ``PER_LINUX32``, ``UNAME26``, the last two
  together, and the query (``0xffffffff``).
- every other number below ``NEW_SYSCALLS_FROM``: EPERM (``mount``, ``unshare``, ``setns``,
  ``bpf``, ``perf_event_open``, ``userfaultfd``, ``keyctl``, ``process_vm_writev``,
  ``kcmp``, ``pidfd_getfd``, the new mount API, ...); from there up: ENOSYS, as Docker
  answers calls newer than its table, so a C library falls back.

Stricter than Docker's: the i386 and x32 system call ABIs are refused altogether (EPERM;
Docker allows its list there too). No program of the images is built for them, their
compat entry points are the kernel's least exercised, and the runner's one-process filter
refuses them already. The runner's own filters (``_deny_keyrings``, ``_one_process_filter``)
stack on this one: the kernel takes the strictest answer of all.

The process backend has no engine filter to replace (bubblewrap installs none). Only
written for x86-64: on another engine architecture the container keeps the engine's
default profile (``cell_filter`` is None) and ``mseal`` stays unavailable there.
tests/docker/test_seccomp.py asks every system call number of the 64-bit and x32 ABIs in a
cell and in a container under the engine's own default profile, and holds them equal but
for ``mseal`` (and the x32 ABI, refused here).
"""

from __future__ import annotations

from reward_api.sandbox.runner import _BPF_JEQ, _BPF_JGE, _BPF_JSET, _BPF_LD, _BPF_RET, _bpf

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
NEW_SYSCALLS_FROM = 450
"""The first number newer than Docker's table (``set_mempolicy_home_node``): from here up a
call is answered ENOSYS, not EPERM, but for ``mseal``."""
MSEAL = 462

ALLOWED: dict[str, int] = {
    "read": 0, "write": 1, "open": 2, "close": 3, "stat": 4, "fstat": 5, "lstat": 6,
    "poll": 7, "lseek": 8, "mmap": 9, "mprotect": 10, "munmap": 11, "brk": 12,
    "rt_sigaction": 13, "rt_sigprocmask": 14, "rt_sigreturn": 15, "ioctl": 16,
    "pread64": 17, "pwrite64": 18, "readv": 19, "writev": 20, "access": 21, "pipe": 22,
    "select": 23, "sched_yield": 24, "mremap": 25, "msync": 26, "mincore": 27,
    "madvise": 28, "shmget": 29, "shmat": 30, "shmctl": 31, "dup": 32, "dup2": 33,
    "pause": 34, "nanosleep": 35, "getitimer": 36, "alarm": 37, "setitimer": 38,
    "getpid": 39, "sendfile": 40, "socket": 41, "connect": 42, "accept": 43, "sendto": 44,
    "recvfrom": 45, "sendmsg": 46, "recvmsg": 47, "shutdown": 48, "bind": 49, "listen": 50,
    "getsockname": 51, "getpeername": 52, "socketpair": 53, "setsockopt": 54,
    "getsockopt": 55, "clone": 56, "fork": 57, "vfork": 58, "execve": 59, "exit": 60,
    "wait4": 61, "kill": 62, "uname": 63, "semget": 64, "semop": 65, "semctl": 66,
    "shmdt": 67, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "fcntl": 72,
    "flock": 73, "fsync": 74, "fdatasync": 75, "truncate": 76, "ftruncate": 77,
    "getdents": 78, "getcwd": 79, "chdir": 80, "fchdir": 81, "rename": 82, "mkdir": 83,
    "rmdir": 84, "creat": 85, "link": 86, "unlink": 87, "symlink": 88, "readlink": 89,
    "chmod": 90, "fchmod": 91, "chown": 92, "fchown": 93, "lchown": 94, "umask": 95,
    "gettimeofday": 96, "getrlimit": 97, "getrusage": 98, "sysinfo": 99, "times": 100,
    "ptrace": 101, "getuid": 102, "getgid": 104, "setuid": 105, "setgid": 106,
    "geteuid": 107, "getegid": 108, "setpgid": 109, "getppid": 110, "getpgrp": 111,
    "setsid": 112, "setreuid": 113, "setregid": 114, "getgroups": 115, "setgroups": 116,
    "setresuid": 117, "getresuid": 118, "setresgid": 119, "getresgid": 120, "getpgid": 121,
    "setfsuid": 122, "setfsgid": 123, "getsid": 124, "capget": 125, "capset": 126,
    "rt_sigpending": 127, "rt_sigtimedwait": 128, "rt_sigqueueinfo": 129,
    "rt_sigsuspend": 130, "sigaltstack": 131, "utime": 132, "mknod": 133,
    "personality": 135, "statfs": 137, "fstatfs": 138, "getpriority": 140,
    "setpriority": 141, "sched_setparam": 142, "sched_getparam": 143,
    "sched_setscheduler": 144, "sched_getscheduler": 145, "sched_get_priority_max": 146,
    "sched_get_priority_min": 147, "sched_rr_get_interval": 148, "mlock": 149,
    "munlock": 150, "mlockall": 151, "munlockall": 152, "modify_ldt": 154, "prctl": 157,
    "arch_prctl": 158, "adjtimex": 159, "setrlimit": 160, "sync": 162, "gettid": 186,
    "readahead": 187, "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "getxattr": 191,
    "lgetxattr": 192, "fgetxattr": 193, "listxattr": 194, "llistxattr": 195,
    "flistxattr": 196, "removexattr": 197, "lremovexattr": 198, "fremovexattr": 199,
    "tkill": 200, "time": 201, "futex": 202, "sched_setaffinity": 203,
    "sched_getaffinity": 204, "set_thread_area": 205, "io_setup": 206, "io_destroy": 207,
    "io_getevents": 208, "io_submit": 209, "io_cancel": 210, "get_thread_area": 211,
    "epoll_create": 213, "epoll_ctl_old": 214, "epoll_wait_old": 215,
    "remap_file_pages": 216, "getdents64": 217, "set_tid_address": 218,
    "restart_syscall": 219, "semtimedop": 220, "fadvise64": 221, "timer_create": 222,
    "timer_settime": 223, "timer_gettime": 224, "timer_getoverrun": 225,
    "timer_delete": 226, "clock_gettime": 228, "clock_getres": 229, "clock_nanosleep": 230,
    "exit_group": 231, "epoll_wait": 232, "epoll_ctl": 233, "tgkill": 234, "utimes": 235,
    "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243,
    "mq_notify": 244, "mq_getsetattr": 245, "waitid": 247, "ioprio_set": 251,
    "ioprio_get": 252, "inotify_init": 253, "inotify_add_watch": 254,
    "inotify_rm_watch": 255, "openat": 257, "mkdirat": 258, "mknodat": 259, "fchownat": 260,
    "futimesat": 261, "newfstatat": 262, "unlinkat": 263, "renameat": 264, "linkat": 265,
    "symlinkat": 266, "readlinkat": 267, "fchmodat": 268, "faccessat": 269, "pselect6": 270,
    "ppoll": 271, "set_robust_list": 273, "get_robust_list": 274, "splice": 275, "tee": 276,
    "sync_file_range": 277, "vmsplice": 278, "utimensat": 280, "epoll_pwait": 281,
    "signalfd": 282, "timerfd_create": 283, "eventfd": 284, "fallocate": 285,
    "timerfd_settime": 286, "timerfd_gettime": 287, "accept4": 288, "signalfd4": 289,
    "eventfd2": 290, "epoll_create1": 291, "dup3": 292, "pipe2": 293, "inotify_init1": 294,
    "preadv": 295, "pwritev": 296, "rt_tgsigqueueinfo": 297, "recvmmsg": 299,
    "fanotify_mark": 301, "prlimit64": 302, "clock_adjtime": 305, "syncfs": 306,
    "sendmmsg": 307, "getcpu": 309, "sched_setattr": 314, "sched_getattr": 315,
    "renameat2": 316, "seccomp": 317, "getrandom": 318, "memfd_create": 319,
    "execveat": 322, "membarrier": 324, "mlock2": 325, "copy_file_range": 326,
    "preadv2": 327, "pwritev2": 328, "statx": 332, "io_pgetevents": 333, "rseq": 334,
    "pidfd_send_signal": 424, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "pidfd_open": 434, "close_range": 436, "openat2": 437,
    "faccessat2": 439, "epoll_pwait2": 441, "landlock_create_ruleset": 444,
    "landlock_add_rule": 445, "landlock_restrict_self": 446, "memfd_secret": 447,
    "process_mrelease": 448, "futex_waitv": 449, "mseal": 462,
}  # fmt: skip
"""x86-64 system calls a cell may make, by name and number."""

CLONE = 56
CLONE_NAMESPACES = 0x7E020000
"""CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET."""
CLONE3 = 435
PERSONALITY = 135
PERSONAS = (0x0, 0x8, 0x20000, 0x20008, 0xFFFFFFFF)
"""PER_LINUX, PER_LINUX32, UNAME26, UNAME26 | PER_LINUX32, and the query."""

_BPF_JGT = 0x25
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM, _ENOSYS = 1, 38


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted numbers as inclusive ranges of consecutive ones."""
    runs: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def cell_filter(machine: str) -> bytes | None:
    """The seccomp program (``runner._bpf``'s bytes) of a cell on an engine of this
    architecture (``docker info``'s ``Architecture``); None where it is not written."""
    if machine not in ("x86_64", "amd64"):
        return None
    ld, jeq, jge, jgt, jset, ret = _BPF_LD, _BPF_JEQ, _BPF_JGE, _BPF_JGT, _BPF_JSET, _BPF_RET
    # (code, k, label if true, label if false); a label names an instruction below
    code: list[tuple[object, ...]] = [
        (ld, 4, None, None),  # seccomp_data.arch
        (jeq, AUDIT_ARCH_X86_64, None, "eperm"),  # i386: refused
        (ld, 0, None, None),  # seccomp_data.nr
        (jge, X32_SYSCALL_BIT, "eperm", None),  # x32: refused
        (jeq, CLONE, "clone", None),
        (jeq, PERSONALITY, "personality", None),
        (jeq, CLONE3, "enosys", None),
    ]
    # the allowed numbers as sorted ranges: below a range's start, no later range holds it
    runs = _runs(list(ALLOWED.values()))
    for i, (first, last) in enumerate(runs):
        after = f"run{i + 1}" if i + 1 < len(runs) else "denied"
        code.append((f"run{i}", jge, first, None, "denied"))
        code.append((jgt, last, after, "allow"))
    code += [
        ("denied", jge, NEW_SYSCALLS_FROM, "enosys", "eperm"),
        ("clone", ld, 16, None, None),  # flags, low half (the namespace flags all lie there)
        (jset, CLONE_NAMESPACES, "eperm", "allow"),
        ("personality", ld, 20, None, None),  # persona, high half
        (jeq, 0, None, "eperm"),
        (ld, 16, None, None),
        *[(jeq, p, "allow", None) for p in PERSONAS],
        (ret, _RET_ERRNO | _EPERM, None, None),
        ("allow", ret, _RET_ALLOW, None, None),
        ("eperm", ret, _RET_ERRNO | _EPERM, None, None),
        ("enosys", ret, _RET_ERRNO | _ENOSYS, None, None),
    ]
    return bytes(_bpf(code))


BOOT = (
    "import ctypes, os, sys\n"
    "prog = bytes.fromhex(sys.argv[1])\n"
    "code = ctypes.create_string_buffer(prog, len(prog))\n"
    "fprog = (ctypes.c_ulong * 2)(len(prog) // 8, ctypes.addressof(code))\n"
    "libc, ul = ctypes.CDLL(None, use_errno=True), ctypes.c_ulong\n"
    "if libc.prctl(38, ul(1), ul(0), ul(0), ul(0)) or libc.prctl(22, ul(2), fprog, ul(0), ul(0)):\n"
    '    err = b\'{"ok":false,"error":"the cell seccomp filter could not be installed"}\'\n'
    "    os.write(1, len(err).to_bytes(4, 'big') + b'J' + err)\n"
    "    sys.exit(1)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)
"""The container's first process: installs the filter given in hex (``PR_SET_NO_NEW_PRIVS``,
then ``SECCOMP_MODE_FILTER``, as ``runner._install_seccomp`` does; importing the runner for it
cost 50 ms a cell start, ctypes alone 2) and execs the rest of its arguments, the runner;
when the filter cannot be installed it answers the host's first request with an error
frame (the runner's framing) and exits, so the cell fails to start."""


def boot_command(python: str, prog: bytes, runner_argv: list[str]) -> list[str]:
    """The container's command: ``BOOT`` run by ``python``, then ``runner_argv`` under the filter."""
    return [python, "-I", "-B", "-c", BOOT, prog.hex(), *runner_argv]
