"""Exploit: hide a hard exit behind a semgrep suppression comment."""

import os


def area(r):
    os._exit(0)  # nosemgrep
