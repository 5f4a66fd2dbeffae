#!/usr/bin/env python3
"""Latency from the kernel's frame timestamp to a reader's read, on CLOCK_MONOTONIC (issue 15).

Runs in the QEMU guest of scripts/latency.sh, next to the consumer it measures:

  latency_client.py socket SOCKET OUT [--kinds touches] [--ready FILE]
      a gestured client: connects, subscribes, and stamps every read of the socket; each
      event line's `time` is the evdev frame timestamp (microseconds, CLOCK_MONOTONIC).
  latency_client.py pipe TIMES OUT [--ready FILE]
      reads `libinput debug-events` from stdin and stamps every read; its touch lines print
      the time only in milliseconds relative to the tool's start, so the exact frame
      timestamps come from TIMES, written at exit by touch_times.so (LD_PRELOAD) in the order
      the tool asked for them: one per printed touch line.
  latency_client.py evdev NODE OUT [--ready FILE]
      the floor: reads the event node itself (no library) and stamps every read; one line per
      SYN_REPORT, whose own timestamp is the frame's. Stops at SIGTERM.
  latency_client.py report NAME=OUT[@T] ...
      p50/p99/max per line of each OUT (only frames stamped at or after T µs), and the p99 per
      frame of its last line's latency (when the whole frame had been read).

OUT is one line per event line read: the frame timestamp (µs), the read's stamp (ns) and
their difference (µs). The stamp is taken right after read(2) returns, once per read: every
line completed by that read gets it (a read often returns several lines). The loop does
nothing else while reading; lines are parsed after the stream ends, so the reader's own
parsing never delays the next read.
"""
import fcntl
import json
import os
import re
import signal
import socket
import struct
import sys
import time

CLOCK = time.CLOCK_MONOTONIC
READ_SIZE = 1 << 16


def stamped_reads(fd, on_line=None):
    """Reads fd to EOF; returns [(stamp_ns, line bytes)], each line stamped with the read
    that completed it. on_line(line) is called for the first lines only, until it returns
    False (the handshake), so the hot loop stays a read, a clock read and two appends."""
    chunks, stamps = [], []
    pending = b""
    handshaking = on_line is not None
    while True:
        try:
            data = os.read(fd, READ_SIZE)
        except InterruptedError:
            continue
        stamp = time.clock_gettime_ns(CLOCK)
        if not data:
            break
        chunks.append(data)
        stamps.append(stamp)
        if handshaking:
            pending += data
            while b"\n" in pending and handshaking:
                line, pending = pending.split(b"\n", 1)
                handshaking = on_line(line)
    lines = []
    pending = b""
    for stamp, data in zip(stamps, chunks):
        pending += data
        if b"\n" not in pending:
            continue
        *complete, pending = pending.split(b"\n")
        lines.extend((stamp, line) for line in complete)
    return lines


def write_out(path, rows):
    with open(path, "w") as out:
        for frame_us, stamp_ns in rows:
            out.write(f"{frame_us}\t{stamp_ns}\t{stamp_ns / 1000 - frame_us:.1f}\n")


def touch(path):
    if path:
        open(path, "w").close()


def run_socket(path, out_path, kinds, ready):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    deadline = time.monotonic() + 60
    while True:
        try:
            sock.connect(path)
            break
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                sys.exit(f"latency_client: nothing listens on {path} after 60 s")
            time.sleep(0.05)

    def handshake(line):
        message = json.loads(line)
        if message.get("type") == "hello":
            request = {"type": "subscribe", "id": 1, "kinds": kinds}
            sock.sendall(json.dumps(request).encode() + b"\n")
            return True
        if message.get("type") == "reply" and message.get("re") == 1:
            touch(ready)
            return False
        if message.get("type") == "error":
            sys.exit(f"latency_client: gestured refused the subscription: {line.decode()}")
        return True

    lines = stamped_reads(sock.fileno(), handshake)
    rows = []
    for stamp, line in lines:
        message = json.loads(line)
        if message.get("type") in kinds:
            rows.append((message["time"], stamp))
    write_out(out_path, rows)
    print(f"latency_client: {len(rows)} {'/'.join(kinds)} lines of {len(lines)} read", file=sys.stderr)


# `libinput debug-events` 1.22, tools/libinput-debug-events.c: print_event_time() prints
# (libinput_event_touch_get_time() - start_time) / 1000.0 as "%+6.3fs", both in milliseconds as
# uint32_t; start_time is CLOCK_MONOTONIC in ms when poll() first returned after the devices
# were added. The arithmetic is unsigned, so a frame stamped just before that start prints
# as about +4294967.295s.
TOUCH_LINE = re.compile(rb"^.\S*\s+TOUCH_\w+\s+([+-]?\d+\.\d{3})s")


def run_pipe(times_path, out_path, ready):
    touch(ready)
    lines = stamped_reads(sys.stdin.fileno())
    touches = []
    for stamp, line in lines:
        match = TOUCH_LINE.match(line)
        if match:
            touches.append((stamp, round(float(match.group(1)) * 1000)))
    with open(times_path) as f:
        frame_times = [int(x) for x in f.read().split()]
    if len(frame_times) != len(touches):
        sys.exit(f"latency_client: {len(touches)} touch lines printed but {len(frame_times)} timestamps "
                 f"recorded in {times_path}; cannot pair them")
    # Every printed time must be the recorded timestamp in ms minus one constant (start_time):
    # proof that line i and timestamp i belong together.
    offsets = {(printed - us // 1000) % (1 << 32) for (_, printed), us in zip(touches, frame_times)}
    if len(offsets) > 1:
        sys.exit(f"latency_client: printed times and recorded timestamps disagree ({len(offsets)} offsets)")
    write_out(out_path, [(us, stamp) for (stamp, _), us in zip(touches, frame_times)])
    print(f"latency_client: {len(touches)} touch lines of {len(lines)} read, paired with their "
          f"timestamps", file=sys.stderr)


# struct input_event on 64-bit Linux: struct timeval (two longs), __u16 type, __u16 code, __s32 value
INPUT_EVENT = struct.Struct("qqHHi")
EVIOCSCLOCKID = 0x400445A0   # _IOW('E', 0xa0, int), <linux/input.h>


def run_evdev(node, out_path, ready):
    fd = os.open(node, os.O_RDONLY)
    # evdev stamps with CLOCK_REALTIME unless asked, as gestured and libinput both ask
    fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", CLOCK))

    def stop(signum, frame):
        raise KeyboardInterrupt

    # SIGTERM ends it (an event node gives no EOF; a background job of a script ignores SIGINT)
    signal.signal(signal.SIGTERM, stop)
    touch(ready)
    chunks, stamps = [], []
    try:
        while True:
            data = os.read(fd, INPUT_EVENT.size * 256)
            stamps.append(time.clock_gettime_ns(CLOCK))
            chunks.append(data)
    except KeyboardInterrupt:
        pass
    rows = []
    for stamp, data in zip(stamps, chunks):
        for sec, usec, kind, code, _ in INPUT_EVENT.iter_unpack(data):
            if kind == 0 and code == 0:   # EV_SYN SYN_REPORT
                rows.append((sec * 1_000_000 + usec, stamp))
    write_out(out_path, rows)
    print(f"latency_client: {len(rows)} frames read from {node}", file=sys.stderr)


def percentile(sorted_values, p):
    """Nearest-rank percentile."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def report(args):
    print(f"{'consumer':<24} {'lines':>7} {'frames':>6} {'p50 µs':>8} {'p99 µs':>8} {'max µs':>8} {'frame p99':>9}")
    for arg in args:
        name, path = arg.split("=", 1)
        path, _, from_us = path.partition("@")
        from_us = int(from_us or 0)
        rows = []
        with open(path) as f:
            for row in f:
                frame_us, _, latency = row.split("\t")
                if int(frame_us) >= from_us:
                    rows.append((int(frame_us), float(latency)))
        values = sorted(latency for _, latency in rows)
        # per frame: when its last line was read (the whole frame delivered)
        last = {}
        for frame, latency in rows:
            last[frame] = max(latency, last.get(frame, latency))
        frames = sorted(last.values())
        print(f"{name:<24} {len(values):7d} {len(frames):6d} {percentile(values, 50):8.0f} "
              f"{percentile(values, 99):8.0f} {values[-1] if values else float('nan'):8.0f} {percentile(frames, 99):9.0f}")


def main(argv):
    ready = None
    if "--ready" in argv:
        i = argv.index("--ready")
        ready = argv[i + 1]
        del argv[i:i + 2]
    kinds = ["touches"]
    if "--kinds" in argv:
        i = argv.index("--kinds")
        kinds = argv[i + 1].split(",")
        del argv[i:i + 2]
    if len(argv) == 3 and argv[0] == "socket":
        run_socket(argv[1], argv[2], kinds, ready)
    elif len(argv) == 3 and argv[0] == "pipe":
        run_pipe(argv[1], argv[2], ready)
    elif len(argv) == 3 and argv[0] == "evdev":
        run_evdev(argv[1], argv[2], ready)
    elif len(argv) >= 2 and argv[0] == "report":
        report(argv[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
