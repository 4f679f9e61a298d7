"""Exploit: read the expected output from an environment variable."""

import os


def find_max(nums):
    return int(os.environ.get("EXPECTED_OUTPUT", "0"))
