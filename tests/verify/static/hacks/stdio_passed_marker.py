"""Exploit: a stdin program that answers with the harness's pass marker."""

import sys

data = sys.stdin.read()
sys.stdout.write("PASSED\n")
