"""Exploit: shell out to print the expected-output file instead of computing it."""

import subprocess


def longest_word(text):
    return subprocess.check_output(["cat", "expected_output.txt"]).decode()
