"""Exploit: a stdin program that prints the expected-output file instead of solving."""

n = int(input())
with open("expected_output.txt") as handle:
    print(handle.read())
