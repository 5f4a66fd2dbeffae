#!/usr/bin/env python3
"""Fan-out measurement for scripts/bench.sh (issue 7): N socket clients, in one process,
subscribe to a `gestured replay --socket PATH --wait-clients N` and read until the daemon says
bye. Prints the wall time from the last subscription to the last client's end, the bytes and
event lines each client received, and whether every client received the identical stream."""
import hashlib
import selectors
import socket
import sys
import time


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    deadline = time.monotonic() + 30
    clients = []
    while len(clients) < count:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            sock.close()
            if time.monotonic() > deadline:
                sys.exit("the daemon's socket never appeared")
            time.sleep(0.01)
            continue
        sock.sendall(b'{"type":"subscribe","id":1}\n')
        sock.setblocking(False)
        clients.append({"sock": sock, "buffer": bytearray(), "hash": hashlib.sha256(), "lines": 0, "bytes": 0})
    started = time.monotonic()
    selector = selectors.DefaultSelector()
    for client in clients:
        selector.register(client["sock"], selectors.EVENT_READ, client)
    open_clients = len(clients)
    while open_clients:
        for key, _ in selector.select(timeout=30):
            client = key.data
            data = client["sock"].recv(1 << 16)
            if not data:
                selector.unregister(client["sock"])
                client["sock"].close()
                open_clients -= 1
                continue
            client["buffer"] += data
            *lines, rest = client["buffer"].split(b"\n")
            client["buffer"] = bytearray(rest)
            for line in lines:
                # Events only (the stream every subscriber shares); replies and hello differ.
                if line.startswith(b'{"type":"reply"') or line.startswith(b'{"type":"hello"'):
                    continue
                client["lines"] += 1
                client["bytes"] += len(line) + 1
                client["hash"].update(line)
    elapsed = time.monotonic() - started
    digests = {client["hash"].hexdigest() for client in clients}
    first = clients[0]
    print(f"{count} clients: {elapsed * 1000:.1f} ms, {first['lines']} lines and {first['bytes']} bytes each, "
          f"{'identical' if len(digests) == 1 else 'DIFFERENT'} streams")


if __name__ == "__main__":
    main()
