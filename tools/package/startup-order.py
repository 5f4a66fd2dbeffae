#!/usr/bin/env python3
"""Prints the functions `gestured run` executes from exec to READY=1, one symbol a line: the
symbol ordering file with which scripts/package-deb.sh links the release binary (lld's
--symbol-ordering-file), so that the start-up code sits together instead of spread over the
10 MB of text, and the daemon's resident memory at READY holds only the pages it uses.

    startup-order.py UNSTRIPPED-GESTURED CONFIG > order.txt

The binary runs under valgrind's callgrind (every function executed, not a sample) with a
stand-in NOTIFY_SOCKET, a temporary socket and no touchscreen (it waits for one, as a kiosk's
daemon does before the panel is up), and is stopped with SIGTERM once READY=1 arrives.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile


def main():
    binary, config = os.path.realpath(sys.argv[1]), sys.argv[2]
    work = tempfile.mkdtemp(prefix="gestured-order.")
    notify = os.path.join(work, "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(notify)
    listener.settimeout(300)
    profile = os.path.join(work, "callgrind.out")
    daemon = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile, "--compress-strings=no",
         binary, "run", "--config", config, "--socket", os.path.join(work, "gestured.sock"),
         "--device", os.path.join(work, "no-touchscreen")],
        env=dict(os.environ, NOTIFY_SOCKET=notify), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while b"READY=1" not in listener.recv(4096):
            pass
    finally:
        daemon.terminate()
        daemon.wait(60)
    # callgrind's "ob=" names the object of the "fn=" lines that follow; a recursion depth is
    # appended as 'N. Functions of other objects (libc, libevdev) are not ours to place.
    names, seen, current = [], set(), None
    with open(profile) as lines:
        for line in lines:
            if line.startswith("ob="):
                current = line[3:].strip()
            elif line.startswith("fn=") and current == binary:
                name = re.sub(r"'\d+$", "", line[3:].strip())
                if not name.startswith("0x") and name not in seen:
                    seen.add(name)
                    names.append(name)
    if len(names) < 100:
        sys.exit(f"startup-order: only {len(names)} functions profiled in {binary}: was it built with symbols?")
    print("\n".join(names))
    print(f"startup-order: {len(names)} functions run before READY=1", file=sys.stderr)


if __name__ == "__main__":
    main()
