#!/usr/bin/env python3
"""The boot test's client of the web bridge (SPEC 13), standard library only.

Usage: web-check.py HOST:PORT MODULE

1. GET /gestured.js: HTTP 200, Content-Type text/javascript, and exactly the bytes of MODULE
   (web/gestured.js of the source tree, which the bridge embeds at build time).
2. GET /socket as a WebSocket (no Origin: not a page, allowed): 101, then the daemon's hello
   relayed as the first text message; a masked {"type":"status","id":1} and the daemon's
   reply to it (so the session really reaches gestured's socket); a close frame answered by
   one. Prints what it saw, one line each, and `daemon pid N` last; exits 1 with the reason.
"""
import base64
import hashlib
import http.client
import json
import os
import socket
import struct
import sys

TIMEOUT = 60  # the guest's CPU is emulated


def fail(message):
    print("web-check: " + message)
    sys.exit(1)


def read_exactly(sock, count, buffered):
    while len(buffered) < count:
        chunk = sock.recv(65536)
        if not chunk:
            fail("the bridge closed the connection (%d bytes of %d read)" % (len(buffered), count))
        buffered += chunk
    return buffered[:count], buffered[count:]


def read_frame(sock, buffered):
    """One unfragmented frame from the server: (opcode, payload, rest of the buffer)."""
    head, buffered = read_exactly(sock, 2, buffered)
    fin, opcode, masked, length = head[0] & 0x80, head[0] & 0x0F, head[1] & 0x80, head[1] & 0x7F
    if masked:
        fail("the server masked a frame (RFC 6455 5.1)")
    if length == 126:
        raw, buffered = read_exactly(sock, 2, buffered)
        length = struct.unpack("!H", raw)[0]
    elif length == 127:
        raw, buffered = read_exactly(sock, 8, buffered)
        length = struct.unpack("!Q", raw)[0]
    payload, buffered = read_exactly(sock, length, buffered)
    if not fin:
        fail("a fragmented message (the bridge sends whole ones)")
    return opcode, payload, buffered


def send_frame(sock, opcode, payload):
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


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
    print("GET /gestured.js: HTTP 200, %s, %d bytes = web/gestured.js (sha256 %s), Server %s" % (
        content_type, len(body), hashlib.sha256(body).hexdigest()[:16], response.getheader("Server")))
    connection.close()

    sock = socket.create_connection((host, port), timeout=TIMEOUT)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET /socket HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (host, port, key)).encode())
    buffered = b""
    while b"\r\n\r\n" not in buffered:
        chunk = sock.recv(65536)
        if not chunk:
            fail("the bridge closed the connection during the handshake: %r" % buffered[:200])
        buffered += chunk
    head, buffered = buffered.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 101"):
        fail("GET /socket: %s" % lines[0])
    accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if headers.get("sec-websocket-accept") != accept:
        fail("wrong Sec-WebSocket-Accept: %r" % headers.get("sec-websocket-accept"))
    print("GET /socket: %s" % lines[0])

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
    main()
