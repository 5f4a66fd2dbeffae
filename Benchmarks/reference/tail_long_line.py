#!/usr/bin/env python3
"""A stand-in for gestured's socket, for measuring `gestured tail`'s line splitting (issue 25):
it accepts one client, reads its subscription, sends `hello`, then one line of LINE bytes
written PIECE bytes at a time, then `bye`, and closes.

    tail_long_line.py SOCKET LINE PIECE &
    valgrind --tool=callgrind gestured tail --socket SOCKET > /dev/null
"""
import os
import socket
import sys

path, line_bytes, piece = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
try:
    os.unlink(path)
except FileNotFoundError:
    pass
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(1)
connection, _ = server.accept()
connection.recv(65536)
connection.sendall(b'{"type":"hello","protocol":"gestured/1"}\n')
body = b"x" * piece
sent = 0
try:
    while sent < line_bytes:
        count = min(piece, line_bytes - sent)
        connection.sendall(body[:count])
        sent += count
    connection.sendall(b'\n{"type":"bye"}\n')
except (BrokenPipeError, ConnectionResetError):
    pass  # tail hung up: a line longer than it accepts
connection.close()
os.unlink(path)
