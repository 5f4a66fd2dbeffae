"""The boot test's WebSocket client (RFC 6455), standard library only: what web-check.py (the
web bridge) and devtools.py (Chromium's DevTools protocol) both speak. Client frames are
masked (section 5.3); messages from the server must come unfragmented, as both servers send
them."""
import base64
import hashlib
import os
import socket
import struct


class WebSocketError(Exception):
    """The server broke the protocol or the connection; the message says how."""


def read_exactly(sock, count, buffered):
    while len(buffered) < count:
        chunk = sock.recv(65536)
        if not chunk:
            raise WebSocketError("the server closed the connection (%d bytes of %d read)" % (len(buffered), count))
        buffered += chunk
    return buffered[:count], buffered[count:]


def read_frame(sock, buffered):
    """One unfragmented frame from the server: (opcode, payload, rest of the buffer)."""
    head, buffered = read_exactly(sock, 2, buffered)
    fin, opcode, masked, length = head[0] & 0x80, head[0] & 0x0F, head[1] & 0x80, head[1] & 0x7F
    if masked:
        raise WebSocketError("the server masked a frame (RFC 6455 5.1)")
    if length == 126:
        raw, buffered = read_exactly(sock, 2, buffered)
        length = struct.unpack("!H", raw)[0]
    elif length == 127:
        raw, buffered = read_exactly(sock, 8, buffered)
        length = struct.unpack("!Q", raw)[0]
    payload, buffered = read_exactly(sock, length, buffered)
    if not fin:
        raise WebSocketError("a fragmented message (the boot test's servers send whole ones)")
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


def open_websocket(host, port, path, timeout):
    """The opening handshake (no Origin: a local program, not a page). Returns the socket, the
    bytes already read past the handshake and the response's status line."""
    sock = socket.create_connection((host, port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, host, port, key)).encode())
    buffered = b""
    while b"\r\n\r\n" not in buffered:
        chunk = sock.recv(65536)
        if not chunk:
            raise WebSocketError("the server closed the connection during the handshake: %r" % buffered[:200])
        buffered += chunk
    head, buffered = buffered.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 101"):
        raise WebSocketError("GET %s: %s" % (path, lines[0]))
    accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if headers.get("sec-websocket-accept") != accept:
        raise WebSocketError("wrong Sec-WebSocket-Accept: %r" % headers.get("sec-websocket-accept"))
    return sock, buffered, lines[0]
