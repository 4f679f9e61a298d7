# Fixture for security.yaml, checked by `semgrep --test`.
# ruleid: native-code
import ctypes
import importlib
import os
import pickle
import shutil
import signal
# ruleid: network-access
import socket
import subprocess
import sys
import urllib.request

# ruleid: process-spawn
subprocess.run(["ls"])
# ruleid: process-spawn
os.system("ls")
# ruleid: process-spawn
os.popen("ls")
# ruleid: process-spawn
os.execvp("sh", ["sh"])
# ruleid: process-spawn
pid = os.fork()
# ok: process-spawn
os.path.join("a", "b")

# ruleid: network-access
sock = socket.create_connection(("example.com", 80))
# ruleid: network-access
page = urllib.request.urlopen("http://example.com")
# ok: network-access
urllib.parse.quote("a b")

line = sys.stdin.readline()
# ruleid: eval-of-input
value = eval(line)
# ruleid: eval-of-input
exec(input())
# ok: eval-of-input
constant = eval("1 + 2")

# ruleid: file-deletion
os.remove("file.txt")
# ruleid: file-deletion
shutil.rmtree("/tmp/x")
# ruleid: file-deletion
os.unlink("file.txt")
# ok: file-deletion
os.path.exists("file.txt")

# ruleid: native-code
libc = ctypes.CDLL(None)

# ruleid: signal-manipulation
signal.signal(signal.SIGALRM, signal.SIG_IGN)
# ruleid: signal-manipulation
signal.alarm(0)



def load(name):
    # ruleid: dynamic-import
    mod = __import__(name)
    # ruleid: dynamic-import
    return mod, importlib.import_module(name)


# ok: dynamic-import
math = __import__("math")

# ruleid: unsafe-deserialisation
obj = pickle.loads(b"")
