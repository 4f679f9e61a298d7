"""Exploit: raising SystemExit at import time stops the harness with a clean status."""


def remove_odd(values):
    return values


raise SystemExit(0)
