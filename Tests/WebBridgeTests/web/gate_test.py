"""The token gate end to end (issue 25): a page without the token must not get a change
through the running bridge to a running gestured, whatever shape the message has. Every
changing request (layout.set, view.update, screen.set, reload) is sent in every shape of the
bypass class — raw CR or LF inside strings (which the bridge turns into spaces), several
lines, NUL, invalid UTF-8, duplicate keys, escapes, odd whitespace — on a connection opened
without the token. Each must be answered with an error (the bridge's forbidden, or the
daemon's own error for what it cannot read) and nothing else, and a direct subscriber of the
daemon must see no layout or screen event: the daemon changed nothing. Then, as proof that
the check can fail, the same shapes with the token do change the daemon.

usage: gate_test.py --gestured BIN --bridge BIN --workdir DIR
"""

import json
import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

ORIGIN = "http://127.0.0.1:8080"
TOKEN = "gate-test-0123456789abcdef"


def ok(message):
    print("ok:", message, flush=True)


def config_text(sock, port, layout_id):
    return json.dumps({
        "screen": {"width": 1920, "height": 1080},
        "socket": {"path": sock},
        "layout": {"id": layout_id, "frame": [0, 0, 1920, 1080],
                   "subviews": [{"id": "button", "frame": [100, 100, 200, 200]}]},
        "web": {"listen": f"127.0.0.1:{port}", "origins": [ORIGIN], "token": TOKEN},
    }, indent=2)


# The body of each changing request, without its braces; each changes something a subscriber
# to layout and screen events sees (the file on disk differs from the running layout, so a
# reload that went through replaces it).
CHANGES = {
    "layout.set": b'"type":"layout.set","layout":{"id":"intruder","frame":[0,0,1920,1080]}',
    "view.update": b'"type":"view.update","view":"button","set":{"hidden":true}',
    "screen.set": b'"type":"screen.set","rotation":90',
    "reload": b'"type":"reload"',
}

# The shapes: each turns a request body into the bytes of one WebSocket text message.
SHAPES = {
    "plain": lambda b: b"{" + b + b',"id":1}',
    "raw CR inside a string": lambda b: b"{" + b + b',"id":"a\rb"}',
    "raw LF inside a string": lambda b: b"{" + b + b',"id":"a\nb"}',
    "raw CRLF inside a string": lambda b: b"{" + b + b',"id":"a\r\nb"}',
    "raw CR inside a key": lambda b: b"{" + b + b',"i\rd":1}',
    "raw CR inside the type": lambda b: b"{" + b.replace(b'"type":"', b'"type":"\r', 1) + b"}",
    "raw CR between members": lambda b: b"{" + b + b'\r,"id":2}',
    "a trailing CR": lambda b: b"{" + b + b"}\r",
    "a trailing CR LF": lambda b: b"{" + b + b"}\r\n",
    "a leading LF": lambda b: b"\n{" + b + b"}",
    "two lines": lambda b: b'{"type":"status","id":3}\n{' + b + b"}",
    "two lines, CR only": lambda b: b'{"type":"status","id":3}\r{' + b + b"}",
    "a blank line first": lambda b: b"\r\n{" + b + b"}",
    "NUL inside a string": lambda b: b"{" + b + b',"id":"a\x00b"}',
    "NUL after the object": lambda b: b"{" + b + b"}\x00",
    "invalid UTF-8 inside a string": lambda b: b"{" + b + b',"id":"\xff\xfe"}',
    "an overlong UTF-8 slash": lambda b: b"{" + b + b',"id":"\xc0\xaf"}',
    "a byte-order mark": lambda b: b"\xef\xbb\xbf{" + b + b"}",
    "duplicate type, status first": lambda b: b'{"type":"status",' + b + b"}",
    "duplicate type, status last": lambda b: b"{" + b + b',"type":"status"}',
    "an escaped key": lambda b: b"{" + b.replace(b'"type"', b'"\\u0074ype"', 1) + b"}",
    "a raw tab inside a string": lambda b: b"{" + b + b',"id":"a\tb"}',
    "a form feed before": lambda b: b"\x0c{" + b + b"}",
    "U+2028 inside a string": lambda b: b"{" + b + b',"id":"a\xe2\x80\xa8b"}',
    "a vertical tab between members": lambda b: b"{" + b + b'\x0b,"id":4}',
}


def answers(ws, message, probe_id):
    """Sends one raw text message, then a status probe; returns everything before the probe's reply."""
    ws.send_frame(0x1, message)
    ws.send_json({"type": "status", "id": probe_id})
    seen = []
    while True:
        m = ws.recv_json()
        if m.get("type") == "reply" and m.get("re") == probe_id:
            return seen
        seen.append(m)


def drain(client, timeout):
    """Events a direct subscriber received within `timeout` seconds."""
    client.sock.settimeout(timeout)
    events = []
    try:
        while True:
            events.append(client.recv())
    except (socket.timeout, TimeoutError):
        pass
    return events


def main():
    args, work, sock, port, config = harness.test_setup()
    with open(config, "w") as f:
        f.write(config_text(sock, port, "boot"))
    idle = os.path.join(work, "idle.evemu")
    recording = evemu.Recording(1920, 1080)
    recording.tap(0.0, 10, 10)
    recording.write(idle)
    daemon = harness.start_replay(args.gestured, config, sock, idle, work, wait_clients=100)
    bridge = harness.start_bridge(args.bridge, config, work)
    try:
        run(config, sock, port)
    except Exception:
        for process in [daemon, bridge]:
            print(f"--- {process.name} ---\n{process.text()[-6000:]}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
        bridge.stop()


def run(config, sock, port):
    # From now on the file differs from the running layout: a reload that got through would
    # replace it and publish a layout event.
    with open(config, "w") as f:
        f.write(config_text(sock, port, "reloaded"))
    watcher = harness.UnixClient(sock)
    assert watcher.request({"type": "subscribe", "kinds": ["layout", "screen"]})["ok"]
    assert watcher.hit(150, 150) == "button"

    page = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    assert page.recv_json()["canControl"] is False
    probe = 1000
    codes = {}
    through = []
    for change, body in CHANGES.items():
        for shape, make in SHAPES.items():
            probe += 1
            seen = answers(page, make(body), probe)
            assert seen, f"{change} as {shape}: no answer at all"
            for m in seen:
                if m.get("type") != "error":
                    through.append(f"{change} as {shape}: {m}")
                    continue
                codes[m["error"]["code"]] = codes.get(m["error"]["code"], 0) + 1
            if shape == "plain":
                assert seen[0]["error"]["code"] == "forbidden", seen
    assert not through, f"{len(through)} changes got through without the token:\n" + "\n".join(through)
    events = drain(watcher, 1.0)
    assert events == [], f"the daemon changed: {events}"
    assert watcher.hit(150, 150) == "button", "the layout changed"
    status = watcher.request({"type": "status"})
    assert status["screen"]["rotation"] == 0, status
    ok(f"{len(CHANGES)} changing requests in {len(SHAPES)} shapes each, without the token: every one answered "
       f"with an error ({', '.join(f'{n} {c}' for c, n in sorted(codes.items()))}), and the daemon changed nothing")
    page.close()

    # The check can fail: with the token, the same shapes reach the daemon and change it.
    trusted = wsclient.WebSocket("127.0.0.1", port, path=f"/socket?token={TOKEN}", origin=ORIGIN)
    assert trusted.recv_json()["canControl"] is True
    seen = answers(trusted, SHAPES["raw CR inside a string"](CHANGES["screen.set"]), 2001)
    assert [m["type"] for m in seen] == ["reply"], seen
    seen = answers(trusted, SHAPES["two lines"](CHANGES["screen.set"]), 2002)
    assert seen[0]["type"] == "error" and seen[0]["error"]["code"] == "bad_json", seen
    seen = answers(trusted, SHAPES["raw LF inside a string"](CHANGES["reload"]), 2003)
    assert [m["type"] for m in seen] == ["reply"], seen
    kinds = sorted(e["type"] for e in drain(watcher, 1.0))
    assert "screen" in kinds and "layout" in kinds, kinds
    ok(f"with the token the same shapes reach gestured (events {kinds}): the check above can fail")
    trusted.close()
    watcher.close()


if __name__ == "__main__":
    main()
