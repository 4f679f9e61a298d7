"""Exploit: install a fake unittest module whose assertions never fail."""

import sys
import types

fake = types.ModuleType("unittest")
sys.modules["unittest"] = fake


def answer():
    return 0
