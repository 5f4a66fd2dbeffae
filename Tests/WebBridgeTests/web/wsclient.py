"""A small WebSocket client (RFC 6455) in Python's standard library, for the bridge's tests
and benchmark: it can also send what a well-behaved client never would (binary frames,
oversized frames, garbage), and leave frames unread."""

import base64
import hashlib
import json
import os
import socket
import struct
import time

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class HandshakeRefused(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body!r}")
        self.status = status
        self.body = body


class Closed(Exception):
    def __init__(self, code=None, reason=""):
        super().__init__(f"closed ({code}) {reason}")
        self.code = code
        self.reason = reason


class WebSocket:
    def __init__(self, host, port, path="/socket", origin=None, timeout=10.0, rcvbuf=None):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin is not None:
            lines.append(f"Origin: {origin}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise HandshakeRefused(0, self.buffer)
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status = int(head.split(b" ", 2)[1])
        if status != 101:
            headers = dict(line.split(b": ", 1) for line in head.split(b"\r\n")[1:] if b": " in line)
            length = int(headers.get(b"Content-Length", b"0"))
            while len(self.buffer) < length:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.buffer += chunk
            raise HandshakeRefused(status, self.buffer[:length].decode(errors="replace"))
        expected = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest())
        if expected not in head:
            raise RuntimeError("bad Sec-WebSocket-Accept")

    # Sending

    def send_frame(self, opcode, payload, fin=True, mask=True, length=None):
        header = bytes([(0x80 if fin else 0) | opcode])
        n = len(payload) if length is None else length
        bit = 0x80 if mask else 0
        if n < 126:
            header += bytes([bit | n])
        elif n < 65536:
            header += bytes([bit | 126]) + struct.pack("!H", n)
        else:
            header += bytes([bit | 127]) + struct.pack("!Q", n)
        if mask:
            key = os.urandom(4)
            header += key
            payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload)) if len(payload) < 4096 else _mask(payload, key)
        self.sock.sendall(header + payload)

    def send_text(self, text):
        self.send_frame(0x1, text.encode() if isinstance(text, str) else text)

    def send_json(self, obj):
        self.send_text(json.dumps(obj, separators=(",", ":")))

    def close(self, code=1000):
        try:
            self.send_frame(0x8, struct.pack("!H", code))
        except OSError:
            pass
        self.sock.close()

    # Receiving

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise Closed(None, "connection closed without a close frame")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def recv_frame(self):
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._read(8))[0]
        if b1 & 0x80:
            raise RuntimeError("the server masked a frame")
        return b0 & 0x0F, self._read(n)

    def recv(self):
        """The next text message (answering pings), or Closed."""
        while True:
            opcode, payload = self.recv_frame()
            if opcode == 0x1:
                return payload.decode()
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise Closed(code, payload[2:].decode(errors="replace"))
            if opcode == 0x9:
                self.send_frame(0xA, payload)

    def recv_json(self):
        return json.loads(self.recv())

    def settimeout(self, seconds):
        self.sock.settimeout(seconds)

    def request(self, obj, timeout=10.0):
        """Sends a request and returns its reply or error, skipping events."""
        self.send_json(obj)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            message = self.recv_json()
            if message.get("type") in ("reply", "error") and message.get("re") == obj.get("id"):
                return message
        raise TimeoutError(f"no answer to {obj}")


def _mask(payload, key):
    # Fast enough for megabytes: XOR as big integers.
    n = len(payload)
    repeated = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big")


def http_get(host, port, path, origin=None, timeout=10.0):
    """(status, headers dict with lowercase names, body bytes) of a plain GET."""
    sock = socket.create_connection((host, port), timeout=timeout)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    sock.close()
    head, body = data.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        name, value = line.decode().split(": ", 1)
        headers[name.lower()] = value
    return status, headers, body
