#!/usr/bin/python3
"""A panel played through its own uinput descriptor, and a reader that keeps the kernel's times.

Used by the routing tests of tools/vmtest/kernel-tests.sh (runs in the test VM, as root).

  uinput-panel.py play [--phys PHYS] RECORDING GO LOG [EVENTS...]
      Creates a uinput device from RECORDING's description (evemu format: N:, I:, P:, B:, A:),
      with PHYS as its physical path when given (UI_SET_PHYS: two panels made from one
      description differ only there, as the two-panel tests' identical panels do), prints its event node ("node /dev/input/eventN"), waits until the file GO exists, then
      plays RECORDING's events: each frame, at its recording time after the start, written in
      one write(2) with its events stamped start + recording time (Linux 6.5 and later keep
      such a time, uinput_inject_events; older kernels stamp the write). Writes to LOG, one
      line a frame, "<recording time µs> <CLOCK_MONOTONIC µs just before the write>", and
      "start <µs>" first and "played" last. Then each EVENTS file (evemu E: lines, times from its
      own start) the same way, once GO.2, GO.3 … exists. Removes the device at SIGTERM.
      Why not evemu-play: it writes through the event node, whose writes the kernel stamps
      itself on every kernel, so the panel's times would be known only to the grabbing reader.

  uinput-panel.py read NODE OUT
      Reads NODE (CLOCK_MONOTONIC) and writes every event to OUT as
      "E: <sec>.<usec> <type> <code> <value> <read µs>" (hex type and code, as evemu), the
      event's own time absolute and when this reader got it; "ready" first, once NODE is open.
"""
import fcntl
import os
import signal
import struct
import sys
import time

EVENT = struct.Struct("qqHHi")   # struct input_event on 64-bit: timeval, type, code, value


def ioc(direction, number, size):
    return (direction << 30) | (size << 16) | (ord("U") << 8) | number


UI_DEV_CREATE = ioc(0, 1, 0)
UI_DEV_DESTROY = ioc(0, 2, 0)
UI_DEV_SETUP = ioc(1, 3, 92)        # struct uinput_setup: input_id, name[80], ff_effects_max
UI_ABS_SETUP = ioc(1, 4, 28)        # struct uinput_abs_setup: code (padded), input_absinfo
UI_SET_EVBIT = ioc(1, 100, 4)
UI_SET_PROPBIT = ioc(1, 110, 4)
UI_GET_SYSNAME = ioc(2, 44, 64)
# _IOW('U', 108, char *): the argument is a pointer to the string, which fcntl.ioctl passes for bytes.
UI_SET_PHYS = ioc(1, 108, 8)
SET_BIT = {0x01: ioc(1, 101, 4), 0x02: ioc(1, 102, 4), 0x03: ioc(1, 103, 4), 0x04: ioc(1, 104, 4)}
EVIOCSCLOCKID = 0x400445A0


def micros():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def parse(path):
    """The description and the frames of an evemu recording: frames are lists of
    (time µs, type, code, value), each ending in SYN_REPORT."""
    name, ids, props, bits, axes, frames, frame = "", (0, 0, 0, 0), [], {}, [], [], []
    offsets = {}
    for number, line in enumerate(open(path), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        tag = fields[0]
        if tag == "N:":
            name = line.split(":", 1)[1].strip()
        elif tag == "I:":
            ids = tuple(int(f, 16) for f in fields[1:5])
        elif tag == "P:":
            props += [int(f, 16) for f in fields[1:]]
        elif tag == "B:":
            kind = int(fields[1], 16)
            base = offsets.get(kind, 0)
            for i, byte in enumerate(fields[2:]):
                for bit in range(8):
                    if int(byte, 16) >> bit & 1:
                        bits.setdefault(kind, []).append((base + i) * 8 + bit)
            offsets[kind] = base + len(fields) - 2
        elif tag == "A:":
            axes.append([int(fields[1], 16)] + [int(f) for f in fields[2:7]])
        elif tag == "E:":
            sec, usec = fields[1].split(".")
            event = (int(sec) * 1000000 + int(usec), int(fields[2], 16), int(fields[3], 16), int(fields[4]))
            frame.append(event)
            if event[1] == 0 and event[2] == 0:
                frames.append(frame)
                frame = []
        else:
            sys.exit(f"{path}:{number}: not an evemu line")
    propbits = [i * 8 + bit for i, byte in enumerate(props) for bit in range(8) if byte >> bit & 1]
    return name, ids, propbits, bits, axes, frames


def play(path, go, log, *parts, phys=None):
    name, ids, props, bits, axes, frames = parse(path)
    fd = os.open("/dev/uinput", os.O_WRONLY)
    for kind in sorted(bits.get(0, [])):
        fcntl.ioctl(fd, UI_SET_EVBIT, kind)
        for code in bits.get(kind, []) if kind in SET_BIT else []:
            fcntl.ioctl(fd, SET_BIT[kind], code)
    for prop in props:
        fcntl.ioctl(fd, UI_SET_PROPBIT, prop)
    for code, minimum, maximum, fuzz, flat, resolution in axes:
        fcntl.ioctl(fd, UI_ABS_SETUP, struct.pack("Hxxiiiiii", code, 0, minimum, maximum, fuzz, flat, resolution))
    if phys is not None:
        fcntl.ioctl(fd, UI_SET_PHYS, phys.encode() + b"\0")
    fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", *ids, name.encode()[:79], 0))
    fcntl.ioctl(fd, UI_DEV_CREATE)
    signal.signal(signal.SIGTERM, lambda *_: (fcntl.ioctl(fd, UI_DEV_DESTROY), sys.exit(0)))
    sysname = fcntl.ioctl(fd, UI_GET_SYSNAME, bytes(64)).split(b"\0")[0].decode()
    node = [e for e in os.listdir(f"/sys/devices/virtual/input/{sysname}") if e.startswith("event")][0]
    print(f"node /dev/input/{node}", flush=True)
    while not os.path.exists(go):
        time.sleep(0.02)
    with open(log, "w", buffering=1) as out:
        for part, more in enumerate([None] + list(parts)):
            if more is not None:
                frames = parse(more)[5]
                while not os.path.exists(f"{go}.{part + 1}"):
                    time.sleep(0.02)
            start = micros()
            out.write(f"start {start}\n")
            for frame in frames:
                at = start + frame[0][0]
                while (wait := at - micros()) > 0:
                    time.sleep(min(5000, wait) / 1e6)
                data = b"".join(EVENT.pack((start + t) // 1000000, (start + t) % 1000000, k, c, v) for t, k, c, v in frame)
                out.write(f"{frame[0][0]} {micros()}\n")
                os.write(fd, data)
            out.write("played\n")
    signal.pause()


def read(node, out_path):
    fd = os.open(node, os.O_RDONLY)
    fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
    with open(out_path, "w", buffering=1) as out:
        out.write("ready\n")
        while True:
            try:
                data = os.read(fd, EVENT.size * 64)
            except OSError:   # the device went away
                return
            if not data:
                return
            now = micros()
            for i in range(0, len(data), EVENT.size):
                sec, usec, kind, code, value = EVENT.unpack_from(data, i)
                out.write(f"E: {sec}.{usec:06d} {kind:04x} {code:04x} {value:04d} {now}\n")


if __name__ == "__main__":
    if sys.argv[1:3] == ["play", "--phys"] and len(sys.argv) >= 7:
        play(*sys.argv[4:], phys=sys.argv[3])
    elif sys.argv[1:2] == ["play"] and len(sys.argv) >= 5 and sys.argv[2] != "--phys":
        play(*sys.argv[2:])
    elif sys.argv[1:2] == ["read"] and len(sys.argv) == 4:
        read(*sys.argv[2:])
    else:
        sys.exit(__doc__)
