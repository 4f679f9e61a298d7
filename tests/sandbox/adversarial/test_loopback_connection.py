"""Exploit: connect to a server on the host's loopback (Redis, the gateway) from the sandbox."""

import socket
import threading

from tests.conftest import run

PROBE = """
import socket
port = int(input())
results = []
for host in ("127.0.0.1", "localhost", "::1"):
    try:
        s = socket.create_connection((host, port), timeout=1)
        s.sendall(b"hello")
        results.append(host)
    except OSError:
        pass
print("blocked" if not results else "connected %s" % results)
"""


def test_host_loopback_server_is_unreachable(verifier):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                accepted.append(conn)
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        problem = {"tests": [{"type": "stdio", "input": f"{port}\n", "output": "blocked"}]}
        result = run(verifier, problem, PROBE)
    finally:
        stop.set()
        thread.join(2)
        server.close()
    assert result.accepted, result.tests
    assert accepted == []


def test_no_network_route_out(verifier):
    probe = (
        "import socket\n"
        "try:\n    socket.create_connection(('10.0.0.1', 80), timeout=1)\n    print('out')\n"
        "except OSError:\n    print('no route')\n"
    )
    problem = {"tests": [{"type": "stdio", "input": "", "output": "no route"}]}
    assert run(verifier, problem, probe).accepted
