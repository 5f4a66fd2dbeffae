#!/usr/bin/env python3
"""The boot test's client of the web bridge (SPEC 13), standard library only.

Usage: web-check.py HOST:PORT MODULE

1. GET /gestured.js: HTTP 200, Content-Type text/javascript, and exactly the bytes of MODULE
   (web/dist/gestured.min.js of the source tree, which the bridge embeds at build time, ending
   in `//# sourceMappingURL=gestured.js.map`).
2. GET /socket as a WebSocket (no Origin: not a page, allowed): 101, then the daemon's hello
   relayed as the first text message; a masked {"type":"status","id":1} and the daemon's
   reply to it (so the session really reaches gestured's socket); a close frame answered by
   one. Prints what it saw, one line each, and `daemon pid N` last; exits 1 with the reason.
"""
import hashlib
import http.client
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boot_websocket import WebSocketError, open_websocket, read_frame, send_frame  # noqa: E402

TIMEOUT = 60  # the guest's CPU is emulated


def fail(message):
    print("web-check: " + message)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail("usage: web-check.py HOST:PORT MODULE")
    host, port = sys.argv[1].rsplit(":", 1)
    port = int(port)
    module = open(sys.argv[2], "rb").read()

    connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    connection.request("GET", "/gestured.js")
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        fail("GET /gestured.js: HTTP %d %s" % (response.status, response.reason))
    content_type = response.getheader("Content-Type", "")
    if not content_type.startswith("text/javascript"):
        fail("GET /gestured.js: Content-Type %r" % content_type)
    if body != module:
        fail("GET /gestured.js: %d bytes (sha256 %s), not the module's %d (sha256 %s)" % (
            len(body), hashlib.sha256(body).hexdigest()[:16], len(module), hashlib.sha256(module).hexdigest()[:16]))
    print("GET /gestured.js: HTTP 200, %s, %d bytes = web/dist/gestured.min.js (sha256 %s), Server %s" % (
        content_type, len(body), hashlib.sha256(body).hexdigest()[:16], response.getheader("Server")))
    connection.close()

    sock, buffered, status_line = open_websocket(host, port, "/socket", TIMEOUT)
    print("GET /socket: %s" % status_line)

    opcode, payload, buffered = read_frame(sock, buffered)
    hello = json.loads(payload) if opcode == 1 else None
    if not hello or hello.get("type") != "hello":
        fail("the first message is not the daemon's hello: opcode %d, %r" % (opcode, payload[:200]))
    print("first message: %s" % payload.decode())

    send_frame(sock, 1, json.dumps({"type": "status", "id": 1}).encode())
    while True:
        opcode, payload, buffered = read_frame(sock, buffered)
        if opcode == 8:
            fail("the bridge closed the WebSocket: %r" % payload)
        if opcode != 1:
            continue  # a ping, answered by nobody: the bridge pings only after 30 s of silence
        message = json.loads(payload)
        if message.get("type") in ("reply", "error") and message.get("re") == 1:
            break
    if message.get("type") != "reply" or not message.get("ok"):
        fail("status: %s" % payload.decode())
    print("status reply: protocol %s, version %s, pid %s, input %s, clients %s" % (
        message.get("protocol"), message.get("version"), message.get("pid"),
        json.dumps(message.get("input", {}).get("source")), json.dumps(message.get("clients"))))

    send_frame(sock, 8, struct.pack("!H", 1000))
    while True:
        opcode, payload, buffered = read_frame(sock, buffered)
        if opcode == 8:
            break
    code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
    print("close: answered with code %s" % code)
    sock.close()
    print("daemon pid %s" % message.get("pid"))


if __name__ == "__main__":
    try:
        main()
    except (WebSocketError, OSError) as error:
        fail(str(error))
