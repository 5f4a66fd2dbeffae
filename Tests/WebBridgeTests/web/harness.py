"""Processes for the web bridge's tests and benchmark: a gestured replay serving a socket, the
bridge, a page server; and a plain client of the daemon's Unix socket. Everything listens on
loopback or in a temporary directory and is stopped by the test."""

import argparse
import contextlib
import functools
import http.server
import json
import os
import signal
import socket
import subprocess
import threading
import time


def test_setup(add_arguments=None):
    """What every bridge test starts from: its arguments (`--gestured`, `--bridge`, `--workdir`,
    and those `add_arguments(parser)` adds), and the daemon's socket, a free port for the bridge
    and the configuration's path in the work directory: (args, work, sock, port, config)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--gestured", required=True)
    parser.add_argument("--bridge", required=True)
    parser.add_argument("--workdir", required=True)
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args()
    work = args.workdir
    return args, work, os.path.join(work, "gestured.sock"), free_port(), os.path.join(work, "kiosk.json5")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout, what, interval=0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


# A command prefix for every child (the benchmark's `chrt -f 10`).
PREFIX = []


class Process:
    """A child process whose stderr goes to a file of the work directory."""

    def __init__(self, name, argv, workdir, env=None):
        self.name = name
        self.log = os.path.join(workdir, name + ".log")
        self.out = os.path.join(workdir, name + ".out")
        self.proc = subprocess.Popen(PREFIX + argv, stdout=open(self.out, "w"), stderr=open(self.log, "w"),
                                     env=env, start_new_session=True)

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=10):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def text(self):
        with open(self.log) as f:
            log = f.read()
        with open(self.out) as f:
            return f.read() + log


class UnixClient:
    """A client of gestured's own socket: JSON Lines."""

    def __init__(self, path, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 1000
        self.hello = self.recv()

    def recv(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError("gestured closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, obj):
        self.next_id += 1
        obj = dict(obj, id=self.next_id)
        self.sock.sendall(json.dumps(obj).encode() + b"\n")
        while True:
            message = self.recv()
            if message.get("type") in ("reply", "error") and message.get("re") == obj["id"]:
                return message

    def hit(self, x, y):
        return self.request({"type": "hitTest", "x": x, "y": y})["view"]

    def close(self):
        self.sock.close()


def serve_directory(directory, port):
    """A static HTTP server for the example page on 127.0.0.1:port, in a thread."""
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def config_text(socket_path, bridge_port, origins, token=None, width=1920, height=1080, routing=None):
    web = {"listen": f"127.0.0.1:{bridge_port}", "origins": origins}
    if token:
        web["token"] = token
    config = {
        "screen": {"width": width, "height": height},
        "socket": {"path": socket_path},
        "layout": {"id": "boot", "frame": [0, 0, width, height]},
        "web": web,
    }
    if routing:
        config["routing"] = routing
    return json.dumps(config, indent=2)


@contextlib.contextmanager
def stopping(*processes):
    try:
        yield
    finally:
        for p in processes:
            if p is not None:
                p.stop()


def start_bridge(binary, config, workdir, name="bridge"):
    bridge = Process(name, [binary, "--config", config], workdir)
    wait_for(lambda: "listening on" in open(bridge.out).read() or not bridge.alive(), 30, "the bridge to listen")
    assert bridge.alive(), "the bridge did not start:\n" + bridge.text()
    return bridge


def start_replay(binary, config, socket_path, recording, workdir, wait_clients, realtime=False, name="gestured"):
    if os.path.exists(socket_path):
        os.unlink(socket_path)
    argv = [binary, "replay", "--config", config, "--socket", socket_path, "--wait-clients", str(wait_clients)]
    if realtime:
        argv.append("--realtime")
    daemon = Process(name, argv + [recording], workdir)
    wait_for(lambda: os.path.exists(socket_path) or not daemon.alive(), 30, "gestured's socket")
    assert daemon.alive(), "gestured did not start:\n" + daemon.text()
    return daemon
