#!/usr/bin/env python3
"""The soak test's timed subscriber: a process of its own (so the misbehaving clients' Python
threads, which hold the interpreter's lock while they build megabyte lines, cannot delay its
reads), subscribed to the daemon's socket, writing one line per event it receives:

    ARRIVAL_MICROSECONDS<TAB>EVENT_JSON

ARRIVAL_MICROSECONDS is CLOCK_MONOTONIC when the bytes were read. With `gestured replay
--realtime` an event's `time` is when the replay meant to send it (the recording's time), so
`arrival - time` is constant for events sent on time, and grows by exactly the delay any
other client's work caused.

usage: timed_subscriber.py SOCKET OUTPUT
"""
import socket
import sys
import time

path, output = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
for _ in range(200):
    try:
        s.connect(path)
        break
    except (FileNotFoundError, ConnectionRefusedError):
        time.sleep(0.05)
s.sendall(b'{"type":"subscribe","id":"timed"}\n')
buffer = b""
with open(output, "w") as out:
    while True:
        chunk = s.recv(1 << 16)
        arrival = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            out.write(f"{arrival}\t{line.decode()}\n")
