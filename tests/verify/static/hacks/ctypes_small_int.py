"""Exploit: rewrite the cached small int 5 in interpreter memory so 5 == 10 holds."""

import ctypes

ctypes.cast(id(5), ctypes.POINTER(ctypes.c_int))[6] = 10


def half(x):
    return 5
