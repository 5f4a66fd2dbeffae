"""gestured-web out of descriptors (issue 25): the real bridge under `prlimit --nofile=32`, and
more connections than it can accept. accept(2) fails with EMFILE; the bridge must pause
accepting instead of retrying at once (before, NIO retried tens of thousands of times a second
at full CPU), log at most a line a second, and serve again once descriptors are free.

The check counts failed accepts (the log's alsoSinceLastLine), not time: a spin makes thousands
a second however loaded the machine is, a pause of 200 ms at most five.

usage: descriptors_test.py --gestured BIN --bridge BIN --workdir DIR
"""

import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

ORIGIN = "http://127.0.0.1:8080"


def ok(message):
    print("ok:", message, flush=True)


def main():
    args, work, sock, port, config = harness.test_setup()
    with open(config, "w") as f:
        f.write(harness.config_text(sock, port, [ORIGIN]))
    idle = os.path.join(work, "idle.evemu")
    recording = evemu.Recording(1920, 1080)
    recording.tap(0.0, 10, 10)
    recording.write(idle)
    daemon = harness.start_replay(args.gestured, config, sock, idle, work, wait_clients=100)
    bridge = harness.Process("bridge", ["prlimit", "--nofile=32:32", args.bridge, "--config", config], work)
    try:
        harness.wait_for(lambda: "listening on" in open(bridge.out).read() or not bridge.alive(), 30, "the bridge to listen")
        run(port, bridge)
    except Exception:
        for process in [daemon, bridge]:
            print(f"--- {process.name} ---\n{process.text()[-4000:]}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
        bridge.stop()


def run(port, bridge):
    # 40 connections that never send a request: the bridge runs out of descriptors.
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
    harness.wait_for(lambda: bridge.text().count("could not be accepted") >= 4, 60, "four seconds of failed accepts")
    counts = [int(n) for n in re.findall(r"alsoSinceLastLine=(\d+)", bridge.text())]
    assert "Too many open files" in bridge.text() or "EMFILE" in bridge.text(), bridge.text()[-2000:]
    assert counts and max(counts) <= 20, f"failed accepts per logged line: {counts} (a spin)"
    ok(f"out of descriptors: accepting paused, {max(counts)} failed accepts at most between log lines a second apart")
    for connection in held:
        connection.close()
    status, _, body = harness.wait_for(lambda: try_get(port), 30, "the bridge to serve again")
    assert status == 200 and b"sourceMappingURL=gestured.js.map" in body
    page = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
    assert page.recv_json()["type"] == "hello"
    page.close()
    ok("descriptors free again: the bridge serves the module and WebSockets")


def try_get(port):
    try:
        return wsclient.http_get("127.0.0.1", port, "/gestured.js", origin=ORIGIN, timeout=5)
    except OSError:
        time.sleep(0.2)
        return None


if __name__ == "__main__":
    main()
