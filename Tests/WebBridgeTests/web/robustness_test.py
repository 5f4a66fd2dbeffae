"""The bridge under browsers that misbehave (SPEC 13, and the daemon's own rules of SPEC 9):
garbage on the HTTP port, a request never finished, invalid JSON, binary frames, frames that
break RFC 6455, messages over the limit in one frame or in fragments, a browser that vanishes
mid-stream and one that never reads while gestured publishes megabytes. Throughout, a
well-behaved browser must receive exactly the events a direct client of gestured's socket
receives, and the bridge must keep serving.

usage: robustness_test.py --gestured BIN --bridge BIN --workdir DIR
"""

import json
import os
import shutil
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

ORIGIN = "http://127.0.0.1:8080"


def ok(message):
    print("ok:", message, flush=True)


def big_recording(path, frames):
    """Ten fingers sweeping the screen for `frames` frames at 100 Hz: about 1.3 KB of events each."""
    r = evemu.Recording(1920, 1080)
    fingers = [f"f{i}" for i in range(10)]
    r.frame(0.0, [(f, "down", 100 + 170 * i, 100) for i, f in enumerate(fingers)])
    for n in range(1, frames):
        y = 100 + (n % 800)
        r.frame(n * 0.01, [(f, "move", 100 + 170 * i + (n % 7), y) for i, f in enumerate(fingers)])
    r.frame(frames * 0.01, [(f, "up", 0, 0) for f in fingers])
    r.write(path)


def expect_close(ws, codes, what, timeout=10):
    """Reads until the bridge closes; returns the messages before, checks the close code."""
    ws.settimeout(timeout)
    messages = []
    try:
        while True:
            messages.append(ws.recv_json())
    except wsclient.Closed as closed:
        assert closed.code in codes, f"{what}: closed with {closed.code}, expected {codes}"
    return messages


def main():
    args, work, sock, port, config = harness.test_setup()
    with open(config, "w") as f:
        f.write(harness.config_text(sock, port, [ORIGIN]).replace(
            '"frame": [\n      0,', '"handlesTouches": true, "multipleTouchEnabled": true, "frame": [\n      0,'))
    recording = os.path.join(work, "sweep.evemu")
    big_recording(recording, 5000)
    # Four subscribers start the replay: a direct client (the reference), a browser that
    # reads, one that never reads and one that vanishes mid-stream.
    daemon = harness.start_replay(args.gestured, config, sock, recording, work, wait_clients=4)
    bridge = harness.start_bridge(args.bridge, config, work)
    try:
        run(args, work, sock, port, daemon, bridge)
    except Exception:
        for process in [daemon, bridge]:
            print(f"--- {process.name} ---\n{process.text()[-6000:]}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
        bridge.stop()


def run(args, work, sock, port, daemon, bridge):
    # A request that is never finished: closed after the bridge's request timeout.
    slow = socket.create_connection(("127.0.0.1", port))
    slow.sendall(b"GET /socket HTTP/1.1\r\nHost: x\r\n")
    slow_opened = time.monotonic()

    # Garbage instead of HTTP: a 400 and the connection closed (closing with our garbage still
    # unread makes the kernel send a reset, which may overtake the 400).
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(os.urandom(4096) + b"\r\n\r\n")
        answer = b""
        try:
            while chunk := raw.recv(65536):
                answer += chunk
        except ConnectionResetError:
            answer = answer or b"HTTP/1.1 400 (reset)"
        assert answer.startswith(b"HTTP/1.1 400"), answer[:100]
    status, _, _ = wsclient.http_get("127.0.0.1", port, "/nothing")
    assert status == 404

    # Invalid JSON and binary frames get error replies; the connection stays and works.
    ws = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    assert ws.recv_json()["type"] == "hello"
    ws.send_text("{not json")
    assert ws.recv_json()["error"]["code"] == "bad_json"
    ws.send_text("[1, 2, 3]")
    assert ws.recv_json()["error"]["code"] == "bad_request"
    ws.send_frame(0x2, os.urandom(300))
    assert ws.recv_json()["error"]["code"] == "bad_request"
    ws.send_text('{"type": "status",\n "id": 5}\n{"type": "reload", "id": 6}')  # one message is one line
    assert ws.recv_json()["error"]["code"] == "bad_json"
    ws.send_text("\xff\xfe garbage \x00")
    assert ws.recv_json()["error"]["code"] == "bad_json"
    assert ws.request({"type": "status", "id": 7})["ok"]
    ws.close()
    # Frames that break RFC 6455: unmasked, reserved opcode, continuation without a start.
    for name, frame in [("an unmasked frame", lambda w: w.send_frame(0x1, b'{"type":"status"}', mask=False)),
                        ("a reserved opcode", lambda w: w.send_frame(0x3, b"x")),
                        ("a stray continuation", lambda w: w.send_frame(0x0, b"x"))]:
        bad = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
        bad.recv_json()
        frame(bad)
        expect_close(bad, {1002}, name)
    ok("garbage, invalid JSON, binary frames and broken frames: error replies or a 1002 close, as each deserves")

    # Close frames (RFC 6455 §5.5.1, §7.4): a code that may be received is echoed, no code is
    # answered with 1000 (1005 may never be sent), and anything else is a protocol error.
    code = lambda n: struct.pack("!H", n)  # noqa: E731
    for payload, expected in [(b"", 1000), (code(1000), 1000), (code(1001), 1001), (code(4000) + "ünï".encode(), 4000),
                              (code(3000), 3000), (code(1005), 1002), (code(1006), 1002), (code(1015), 1002),
                              (code(1004), 1002), (code(999), 1002), (code(2000), 1002), (code(5000), 1002),
                              (b"\x03", 1002), (code(1000) + b"\xff\xfe", 1002)]:
        closing = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
        closing.recv_json()
        closing.send_frame(0x8, payload)
        expect_close(closing, {expected}, f"a close frame {payload!r}")
    # A ping is answered with a pong carrying its payload.
    pinger = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    pinger.recv_json()
    pinger.send_frame(0x9, b"are you there")
    assert pinger.recv_frame() == (0xA, b"are you there")
    pinger.close()
    ok("close frames: codes echoed, none answered with 1000, 1005/1006/1015, reserved codes, 1-byte payloads and "
       "reasons that are not UTF-8 closed with 1002; a ping gets its pong")

    # Over the limit (the daemon's 1 MiB line): in one frame (refused from its header) and in
    # fragments that add up; both get line_too_long and a 1009 close.
    big = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    big.recv_json()
    big.send_frame(0x1, b"x" * 1024, length=(1 << 20) + 1)  # the header claims more than the limit
    messages = expect_close(big, {1009}, "an oversized frame")
    assert messages and messages[-1]["error"]["code"] == "line_too_long", messages
    fragmented = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    fragmented.recv_json()
    piece = b" " * (400 * 1024)
    fragmented.send_frame(0x1, piece, fin=False)
    fragmented.send_frame(0x0, piece, fin=False)
    try:
        fragmented.send_frame(0x0, piece, fin=True)
    except OSError:
        pass
    messages = expect_close(fragmented, {1009}, "an oversized fragmented message")
    assert messages and messages[-1]["error"]["code"] == "line_too_long", messages
    ok("a message too long (one frame, or fragments): line_too_long, then a 1009 close")

    left_before = bridge.text().count("browser left")
    # The stream: a reference client on gestured's socket, a browser that reads everything,
    # one that never reads (a tiny receive buffer) and one that vanishes after 20 events.
    reference = harness.UnixClient(sock, timeout=60)
    reader = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN, timeout=60)
    stalled = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN, rcvbuf=4096)
    vanishing = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    for ws in (reader, stalled, vanishing):
        assert ws.recv_json()["type"] == "hello"
    got = {"reference": [], "reader": [], "vanishing": []}

    def read_reference():
        while (m := reference.recv())["type"] != "bye":
            if "seq" in m:
                got["reference"].append(m["seq"])

    def read_browser():
        try:
            while True:
                m = reader.recv_json()
                if m["type"] == "bye":
                    return
                if "seq" in m:
                    got["reader"].append(m["seq"])
        except wsclient.Closed:
            pass

    def vanish():
        while len(got["vanishing"]) < 20:
            m = vanishing.recv_json()
            if "seq" in m:
                got["vanishing"].append(m["seq"])
        # Gone without a close frame or FIN: a reset, as when a browser is killed.
        vanishing.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        vanishing.sock.close()

    for ws in (stalled, vanishing, reader):
        assert ws.request({"type": "subscribe", "id": 1, "kinds": ["touches"]})["ok"]
    threads = [threading.Thread(target=f) for f in (read_browser, vanish)]
    for t in threads:
        t.start()
    assert reference.request({"type": "subscribe", "kinds": ["touches"]})["ok"]
    read_reference()
    for t in threads:
        t.join(60)
    assert len(got["reference"]) >= 4900, len(got["reference"])
    assert got["reader"] == got["reference"], (len(got["reader"]), len(got["reference"]))
    ok(f"a browser that reads got exactly the daemon's {len(got['reference'])} events while the others misbehaved")
    left = bridge.text().count("browser left") - left_before
    assert left == 1, f"{left} browsers left during the stream, expected the vanished one:\n" + bridge.text()[-3000:]
    ok("a browser that vanished mid-stream (a reset) after 20 events was let go, and cost the others nothing")

    # The browser that never read: the bridge stopped reading its session, so gestured saw a
    # socket client that takes nothing and dropped it by its own rule (slow_consumer).
    harness.wait_for(lambda: "does not read its events fast enough" in daemon.text() + bridge.text(), 15,
                     "the browser that never reads to be dropped")
    stalled.settimeout(15)
    count, last = 0, None
    try:
        while True:
            last = stalled.recv_json()
            count += 1
    except wsclient.Closed as closed:
        assert closed.code in (1000, 1008, None), closed.code
    except OSError:
        pass
    assert count < len(got["reference"]), "a browser that never read got everything: nothing was bounded"
    assert last is None or last.get("type") != "touches" or count > 0
    who = "gestured" if "does not read its events fast enough" in daemon.text() else "the bridge"
    ok(f"a browser that never reads: dropped by {who} (slow_consumer) after {count} of {len(got['reference'])} "
       f"events, while the reading browser held the replay back as a direct client would")

    # The unfinished request was closed after the request timeout (10 s).
    slow.settimeout(max(1, 15 - (time.monotonic() - slow_opened)))
    assert slow.recv(100) == b"", "the unfinished request's connection is still open"
    ok("an HTTP request never finished: its connection was closed (the bridge allows 10 s)")

    # gestured has ended its replay; the bridge still serves, and says gestured is away.
    assert daemon.proc.wait(20) == 0
    assert bridge.alive(), "the bridge died"
    status, headers, body = wsclient.http_get("127.0.0.1", port, "/gestured.js", origin=ORIGIN)
    assert status == 200 and b"sourceMappingURL=gestured.js.map" in body
    late = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    messages = expect_close(late, {1013}, "a browser while gestured is away")
    assert messages and messages[0]["type"] == "bye" and messages[0]["reason"] == "unavailable", messages
    rss = int(next(line for line in open(f"/proc/{bridge.proc.pid}/status") if line.startswith("VmRSS")).split()[1])
    ok(f"the bridge still serves (module, and 'unavailable' while gestured is away); RSS {rss} KiB")

    # As its unit runs it: without any capability (DynamicUser=, CapabilityBoundingSet=). Run
    # as root, the bridge above had them all, and an option that needed CAP_NET_ADMIN once
    # went unnoticed here while under the unit it closed every connection (issue 16).
    if os.geteuid() == 0 and shutil.which("setpriv"):
        bare_port = harness.free_port()
        bare = harness.Process("bridge-without-capabilities",
                               ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs",
                                args.bridge, "--config", os.path.join(work, "kiosk.json5"),
                                "--listen", f"127.0.0.1:{bare_port}"], work)
        try:
            harness.wait_for(lambda: "listening on" in open(bare.out).read() or not bare.alive(), 30,
                             "the bridge without capabilities to listen")
            status, _, body = wsclient.http_get("127.0.0.1", bare_port, "/gestured.js", origin=ORIGIN)
            assert status == 200 and b"sourceMappingURL=gestured.js.map" in body, status
        except Exception:
            print(f"--- {bare.name} ---\n{bare.text()[-3000:]}", file=sys.stderr)
            raise
        finally:
            bare.stop()
        ok("a bridge without any capability, as its systemd unit runs it, serves the module too")


if __name__ == "__main__":
    main()
