"""Exploit: a stdin program that reads the input and exits without answering."""

import sys

n = int(sys.stdin.readline())
sys.exit(0)
