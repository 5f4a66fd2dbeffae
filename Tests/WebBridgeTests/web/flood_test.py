"""Memory a page can take (issue 25): pages that send frames the bridge answers itself and never
read the answers. For each kind of frame — binary messages, changes without the token, pings,
text the gate cannot parse, and requests the daemon answers — one page that never reads sends
them as fast as the bridge takes them for a while; the bridge's resident memory (VmRSS, VmHWM
from /proc) must stay within the bound of docs/limits.md (§ Web bridge), the page must either
be held back (the bridge stopped reading it) or dropped as a slow consumer, and a page that
behaves must still be served throughout.

Prints one "ok: …" line per kind with the memory figures, and a last line with the peak.

usage: flood_test.py --gestured BIN --bridge BIN --workdir DIR [--scale X] [--limit-mib M]
"""

import errno
import os
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

ORIGIN = "http://127.0.0.1:8080"
TOKEN = "flood-test-0123456789abcdef"


def ok(message):
    print("ok:", message, flush=True)


def memory(pid):
    """(VmRSS, VmHWM) of a process, in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def masked_frame(opcode, payload):
    """One client frame (FIN set, masked with a fixed key: the bridge only unmasks)."""
    key = b"\x11\x22\x33\x44"
    n = len(payload)
    if n < 126:
        header = bytes([0x80 | opcode, 0x80 | n])
    else:
        header = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack("!H", n)
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


KINDS = [
    # name, frame, bytes the page sends, what the bridge did with it before issue 25
    ("binary messages", masked_frame(0x2, b"x"), 1 << 20, "a bad_request reply each, queued regardless of the limit"),
    ("changes without the token", masked_frame(0x1, b'{"type":"reload"}'), 2 << 20,
     "a forbidden reply each, queued regardless of the limit"),
    ("pings", masked_frame(0x9, b"p" * 125), 8 << 20, "a pong each, written past the channel's writability"),
    ("text the gate cannot parse", masked_frame(0x1, b"{"), 1 << 20, "forwarded; the daemon's bad_json came back"),
    ("requests the daemon answers", masked_frame(0x1, b'{"type":"status"}'), 2 << 20,
     "forwarded; the daemon's replies came back"),
]


def cpu_ticks(pid):
    """User and system time of a process, in clock ticks (/proc/PID/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


class KeepAlive:
    """Sends a status request on the page that behaves every few seconds (it reads the replies
    at the end): a page silent for 30 s is pinged, and one that does not answer is closed."""

    def __init__(self, page):
        self.page = page
        self.last = time.monotonic()

    def __call__(self):
        if self.page is not None and time.monotonic() - self.last > 5:
            self.last = time.monotonic()
            self.page.send_json({"type": "status", "id": 0})


def wait_idle(pid, quiet=2.0, timeout=600, tick=lambda: None):
    """Waits until the process used no CPU for `quiet` seconds: it has done all it will do
    with what it was sent (however slow the machine is; no wall-clock threshold)."""
    end = time.monotonic() + timeout
    last, since = cpu_ticks(pid), time.monotonic()
    while time.monotonic() < end:
        tick()
        time.sleep(0.25)
        now = cpu_ticks(pid)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
    raise AssertionError(f"the bridge did not become idle within {timeout} s")


def flood(port, pid, frame, budget, tick):
    """A page that never reads sends `frame` over and over, `budget`
    bytes at most, for as long as the bridge takes them. The flood ends when everything is
    sent, the bridge closed the connection, or the bridge is idle while the page's socket
    takes no more (it stopped reading the page). Returns (the page, bytes sent, how it ended)."""
    # The kernel's own receive buffer: a tiny one (SO_RCVBUF) makes loopback TCP stall in
    # retransmission back-off, which would hide what the bridge does with the frames.
    ws = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    ws.sock.setblocking(False)
    chunk = frame * max(1, 65536 // len(frame))
    sent = 0
    last, since = cpu_ticks(pid), time.monotonic()
    while sent < budget:
        tick()
        _, writable, _ = select.select([], [ws.sock], [], 0.25)
        now = cpu_ticks(pid)
        if now != last:
            last, since = now, time.monotonic()
        if not writable:
            if time.monotonic() - since >= 2.0:
                return ws, sent, "held back (the bridge, idle, reads no more of it)"
            continue
        try:
            sent += ws.sock.send(chunk[:budget - sent])
        except BlockingIOError:
            continue
        except OSError as error:
            if error.errno in (errno.EPIPE, errno.ECONNRESET):
                return ws, sent, "dropped (the bridge closed the connection)"
            raise
    wait_idle(pid, tick=tick)
    return ws, sent, "sent in full"


def main():
    def add_arguments(parser):
        parser.add_argument("--scale", type=float, default=1.0, help="multiplies the bytes each page sends")
        parser.add_argument("--limit-mib", type=float, default=None,
                            help="fail when the bridge's VmHWM grows by more than this (MiB)")

    args, work, sock, port, config = harness.test_setup(add_arguments)
    with open(config, "w") as f:
        f.write(harness.config_text(sock, port, [ORIGIN], TOKEN))
    idle = os.path.join(work, "idle.evemu")
    recording = evemu.Recording(1920, 1080)
    recording.tap(0.0, 10, 10)
    recording.write(idle)
    # A replay that never starts (it waits for more subscribers than will come): a daemon that
    # answers requests and publishes nothing.
    daemon = harness.start_replay(args.gestured, config, sock, idle, work, wait_clients=1000)
    worst = 0
    try:
        # A bridge of its own for each kind: the allocator reuses what one flood freed for the
        # next, which would hide the next one's growth.
        for number, kind in enumerate(KINDS, 1):
            bridge = harness.start_bridge(args.bridge, config, work, name=f"bridge-{number}")
            try:
                worst = max(worst, flood_one(args, port, bridge, kind))
            except Exception:
                print(f"--- {bridge.name} ---\n{bridge.text()[-4000:]}", file=sys.stderr)
                raise
            finally:
                bridge.stop()
    except Exception:
        print(f"--- {daemon.name} ---\n{daemon.text()[-4000:]}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
    ok(f"{len(KINDS)} kinds of flood: the bridge grew by {worst} KiB at most")


def flood_one(args, port, bridge, kind):
    """One kind of flood against a fresh bridge; returns its growth (VmHWM) in KiB."""
    name, frame, budget, before = kind
    pid = bridge.proc.pid
    # A page that behaves, with the token, served throughout.
    good = wsclient.WebSocket("127.0.0.1", port, path=f"/socket?token={TOKEN}", origin=ORIGIN)
    assert good.recv_json()["type"] == "hello"
    assert good.request({"type": "status", "id": 1})["type"] == "reply"
    wait_idle(pid)
    start_rss, start_hwm = memory(pid)
    ticks0 = cpu_ticks(pid)
    ws, sent, how = flood(port, pid, frame, int(budget * args.scale), KeepAlive(good))
    rss1, hwm1 = memory(pid)
    ticks = cpu_ticks(pid) - ticks0
    answer = good.request({"type": "status", "id": 2}, timeout=120)
    assert answer["type"] == "reply", answer
    ws.sock.close()
    wait_idle(pid, tick=KeepAlive(good))
    rss2, _ = memory(pid)
    grew = hwm1 - start_hwm
    dropped = "dropping a browser" in bridge.text()
    ok(f"{name}: a page that never reads sent {sent >> 10} KiB ({sent // len(frame)} frames) and was {how}"
       f"{', then dropped as a slow consumer' if dropped else ''}; bridge VmRSS {start_rss} -> {rss1} KiB while it "
       f"flooded ({ticks / os.sysconf('SC_CLK_TCK'):.1f} s of CPU), {rss2} KiB after it left; VmHWM +{grew} KiB; "
       f"the page that behaves was answered (before issue 25: {before})")
    good.close()
    assert bridge.alive(), "the bridge died"
    if args.limit_mib is not None:
        assert grew <= args.limit_mib * 1024, f"{name}: the bridge grew by {grew} KiB, more than the {args.limit_mib} MiB allowed"
    return grew


if __name__ == "__main__":
    main()
