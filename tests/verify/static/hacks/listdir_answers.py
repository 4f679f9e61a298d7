"""Exploit: list the working directory and print any answer file found there."""

import os

data = input()
for name in os.listdir("."):
    if name.endswith(".ans"):
        with open(name) as handle:
            print(handle.read())
