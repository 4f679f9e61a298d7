"""Problems the exploit files attack, with honest solutions as controls."""

ADD_CALL = {
    "tests": [
        {"type": "call", "fn_name": "add", "args": [1, 2], "output": 3},
        {"type": "call", "fn_name": "add", "args": [10, -4], "output": 6},
        {"type": "call", "fn_name": "add", "args": [0, 0], "output": 0},
    ]
}
ADD_ASSERT = {
    "tests": [
        {"type": "assert", "code": "assert add(1, 2) == 3"},
        {"type": "assert", "code": "assert add(10, -4) == 6"},
        {
            "type": "assert",
            "code": "def check(candidate):\n    assert candidate(5, 5) == 10\ncheck(add)",
        },
    ]
}
ADD_STDIO = {
    "tests": [
        {"type": "stdio", "input": "1 2\n", "output": "3\n"},
        {"type": "stdio", "input": "10 -4\n", "output": "6\n"},
    ]
}
HONEST_ADD = "def add(a, b):\n    return a + b\n"
HONEST_STDIO = "a, b = map(int, input().split())\nprint(a + b)\n"
ALL_ADD = (ADD_CALL, ADD_ASSERT)
