"""How the seccomp filters over this process answer every system call, without making one.

A program of its own (no import of ours: it runs in a cell as a sample's program, and in a
bare container): a thread installs one more filter that sends each probing call (its sixth
argument ``MAGIC``) to a listener of this process (``SECCOMP_RET_USER_NOTIF``), which answers
it with EHWPOISON at once. The kernel takes the strictest answer of all the filters, and an
error outranks a notification, so a probe comes back EHWPOISON only when every other filter
allows the call, and with their EPERM or ENOSYS otherwise: the call itself never runs.

``probe()`` answers ``{"nr/arg0": "allow" | "EPERM" | "ENOSYS" | errno}`` for every number of
the x86-64 and x32 ABIs below ``LAST`` (but ``UNFILTERED``) with its arguments 0, and for the calls whose answer
depends on their first argument (``clone``'s flags, ``personality``'s persona, ``socket``'s
family) with that argument varied. Run as a script it prints that JSON. x86-64 only.
"""

import ctypes
import errno
import json
import os
import select
import struct
import threading

MAGIC = 0x5EC0_C0DE_0BAD_F00D
LAST = 600
X32 = 0x40000000
UNFILTERED = (335, 336)
"""``uretprobe`` and ``uprobe`` (Linux 6.11, 6.16): the kernel passes them by every seccomp
filter, for its own trampolines; called from anywhere else the first raises SIGILL."""
VARIED = {
    56: [0, 0x3D0F00, 0x1200011] + [1 << k for k in range(33)],  # clone flags
    135: [0, 1, 8, 0x20000, 0x20008, 0x400000, 0xFFFFFFFF, 1 << 32],  # personality
    41: [1, 2, 10, 16, 38, 40],  # socket: AF_UNIX, INET, INET6, NETLINK, ALG, VSOCK
}
_NOTIF_RECV, _NOTIF_SEND = 0xC0502100, 0xC0182101  # SECCOMP_IOCTL_NOTIF_{RECV,SEND}
_REACHED = 133  # EHWPOISON: no filter answers it


def probes():
    """(nr, arg0) of every probing call."""
    out = [(base | nr, 0) for base in (0, X32) for nr in range(LAST) if nr not in UNFILTERED]
    out += [(nr, a0) for nr, values in VARIED.items() for a0 in values if a0]
    return out


def _notifying_filter():
    """USER_NOTIF for an x86-64 call whose sixth argument is MAGIC; allow the rest."""
    lo, hi = MAGIC & 0xFFFFFFFF, MAGIC >> 32
    rows = [
        (0x20, 0, 0, 4),  # ld arch
        (0x15, 0, 4, 0xC000003E),  # x86-64, else allow
        (0x20, 0, 0, 56),  # ld args[5] low
        (0x15, 0, 2, lo),
        (0x20, 0, 0, 60),  # ld args[5] high
        (0x15, 1, 0, hi),
        (0x06, 0, 0, 0x7FFF0000),  # allow
        (0x06, 0, 0, 0x7FC00000),  # user notification
    ]
    return b"".join(struct.pack("<HBBI", *r) for r in rows)


def probe():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.syscall.argtypes = [ctypes.c_long] * 7
    libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p]
    answers, listener, failure = {}, [], []

    def probing():
        prog = _notifying_filter()
        buf = ctypes.create_string_buffer(prog, len(prog))
        fprog = struct.pack("<HxxxxxxQ", len(prog) // 8, ctypes.addressof(buf))
        cfprog = ctypes.create_string_buffer(fprog, len(fprog))
        libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
        # seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER): this thread only
        fd = libc.syscall(317, 1, 8, ctypes.addressof(cfprog), 0, 0, 0)
        if fd < 0:
            failure.append(f"seccomp: errno {ctypes.get_errno()}")
            started.set()
            return
        listener.append(fd)
        started.set()
        for nr, a0 in probes():
            r = libc.syscall(nr, a0, 0, 0, 0, 0, MAGIC)
            e = ctypes.get_errno() if r < 0 else None
            answers[f"{nr}/{a0}"] = (
                "allow" if e == _REACHED else errno.errorcode.get(e, str(e)) if e else f"ran:{r}"
            )

    started = threading.Event()
    thread = threading.Thread(target=probing)
    thread.start()
    started.wait()
    if failure:
        raise OSError(failure[0])
    fd = listener[0]
    notif = ctypes.create_string_buffer(80)
    while thread.is_alive():
        if not select.select([fd], [], [], 0.1)[0]:
            continue
        ctypes.memset(notif, 0, 80)
        if libc.ioctl(fd, _NOTIF_RECV, notif) != 0:
            continue  # the thread ended, or its call was interrupted
        ident = struct.unpack_from("<Q", notif.raw)[0]
        resp = ctypes.create_string_buffer(struct.pack("<QqiI", ident, 0, -_REACHED, 0), 24)
        libc.ioctl(fd, _NOTIF_SEND, resp)
    thread.join()
    os.close(fd)
    return answers


if __name__ == "__main__":
    print(json.dumps(probe(), sort_keys=True))
