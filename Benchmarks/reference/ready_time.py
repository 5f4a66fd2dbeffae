#!/usr/bin/env python3
"""Startup measurement for scripts/bench.sh (issue 7): the time from exec to the READY=1
datagram of `gestured run`, on a stand-in NOTIFY_SOCKET, and the daemon's peak resident
memory (VmHWM) at that moment.

    ready_time.py RUNS gestured run ARGS...
"""
import os
import socket
import subprocess
import sys
import tempfile
import time


def main():
    runs, argv = int(sys.argv[1]), sys.argv[2:]
    path = os.path.join(tempfile.mkdtemp(), "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    times, peaks = [], []
    for _ in range(runs):
        started = time.monotonic_ns()
        daemon = subprocess.Popen(argv, env=dict(os.environ, NOTIFY_SOCKET=path), stderr=subprocess.DEVNULL)
        listener.settimeout(10)
        while b"READY=1" not in listener.recv(4096):
            pass
        times.append((time.monotonic_ns() - started) / 1e6)
        with open(f"/proc/{daemon.pid}/status") as status:
            peaks.append(next(int(line.split()[1]) for line in status if line.startswith("VmHWM")))
        daemon.terminate()
        daemon.wait(10)
        listener.settimeout(0.2)
        try:
            while True:
                listener.recv(4096)
        except OSError:
            pass
    times.sort()
    print(f"exec to READY=1 over {runs} runs: min {times[0]:.1f} ms, median {times[len(times) // 2]:.1f} ms, "
          f"max {times[-1]:.1f} ms; VmHWM at READY {max(peaks) / 1024:.1f} MB")


if __name__ == "__main__":
    main()
