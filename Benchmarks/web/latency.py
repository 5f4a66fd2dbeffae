"""Latency the web bridge adds per event, over loopback (issue 16: under 1 ms).

gestured replays a recording in real time (`replay --socket --realtime`, as a live device
publishes) to three subscribers read by this one process: two direct clients of its Unix
socket and one WebSocket through gestured-web. For every event (by seq) the arrival times
give bridge − direct (the added latency) and direct₂ − direct (the floor of the method: the
same path twice, so what this process's own scheduling adds). Prints p50, p90, p99, max.

usage: latency.py --gestured BIN --bridge BIN --workdir DIR [--seconds S] [--sessions N]
"""

import argparse
import json
import os
import selectors
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../Tests/WebBridgeTests/web"))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gestured", required=True)
    parser.add_argument("--bridge", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--sessions", type=int, default=50, help="idle browsers for the RSS figure")
    parser.add_argument("--realtime-priority", action="store_true",
                        help="run gestured, the bridge and this reader as SCHED_FIFO (root): what the bridge adds "
                             "when other programs do not compete for the CPU")
    args = parser.parse_args()
    if args.realtime_priority:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        harness.PREFIX[:] = ["chrt", "-f", "10"]
    work = args.workdir
    sock = os.path.join(work, "gestured.sock")
    port = harness.free_port()
    origin = "http://127.0.0.1:8080"
    config = os.path.join(work, "bench.json5")
    with open(config, "w") as f:
        f.write(harness.config_text(sock, port, [origin]).replace(
            '"frame": [\n      0,', '"handlesTouches": true, "multipleTouchEnabled": true, "frame": [\n      0,'))
    # Two fingers drawing circles at 100 Hz: one touches event per frame.
    recording = evemu.Recording(1920, 1080)
    frames = int(args.seconds * 100)
    recording.frame(0.0, [("a", "down", 500, 500), ("b", "down", 1400, 500)])
    for n in range(1, frames):
        d = (n % 200) - 100
        recording.frame(n * 0.01, [("a", "move", 500 + d, 500 + d / 2), ("b", "move", 1400 - d, 500 + d / 2)])
    recording.frame(frames * 0.01, [("a", "up", 0, 0), ("b", "up", 0, 0)])
    path = os.path.join(work, "circles.evemu")
    recording.write(path)

    daemon = harness.start_replay(args.gestured, config, sock, path, work, wait_clients=3, realtime=True)
    bridge = harness.start_bridge(args.bridge, config, work)
    try:
        direct = harness.UnixClient(sock)
        direct2 = harness.UnixClient(sock)
        web = wsclient.WebSocket("127.0.0.1", port, origin=origin)
        web.recv_json()
        assert web.request({"type": "subscribe", "id": 1, "kinds": ["touches"]})["ok"]
        assert direct2.request({"type": "subscribe", "kinds": ["touches"]})["ok"]
        idle_rss = rss(bridge.proc.pid)
        cpu_before = cpu_seconds(bridge.proc.pid)
        daemon_cpu_before = cpu_seconds(daemon.proc.pid)
        arrivals = {"direct": {}, "direct2": {}, "web": {}}
        selector = selectors.DefaultSelector()
        # Readers that take whatever is there and stamp every complete message with the time
        # the read returned.
        streams = {"direct": LineStream(direct.sock, direct.buffer), "direct2": LineStream(direct2.sock, direct2.buffer),
                   "web": FrameStream(web.sock, web.buffer)}
        for name, stream in streams.items():
            stream.sock.setblocking(False)
            selector.register(stream.sock, selectors.EVENT_READ, name)
        # The third subscription starts the replay.
        direct.sock.setblocking(True)
        assert direct.request({"type": "subscribe", "kinds": ["touches"]})["ok"]
        streams["direct"].buffer = direct.buffer
        direct.sock.setblocking(False)
        open_streams = set(streams)
        while open_streams:
            ready = selector.select(timeout=30)
            # One time for everything ready: its data arrived before select returned, and
            # stamping in the order this loop handles them would favour the first.
            now = time.perf_counter_ns()
            for key, _ in ready:
                name = key.data
                messages, done = streams[name].read()
                for message in messages:
                    if "seq" in message:
                        arrivals[name][message["seq"]] = now
                if done:
                    selector.unregister(key.fileobj)
                    open_streams.discard(name)
        serving_rss = rss(bridge.proc.pid) if bridge.alive() else None
        cpu = cpu_seconds(bridge.proc.pid) - cpu_before
        daemon_cpu = cpu_seconds(daemon.proc.pid) - daemon_cpu_before
        common = sorted(set(arrivals["direct"]) & set(arrivals["web"]) & set(arrivals["direct2"]))
        added = [(arrivals["web"][s] - arrivals["direct"][s]) / 1000 for s in common]
        floor = [(arrivals["direct2"][s] - arrivals["direct"][s]) / 1000 for s in common]
        print(f"events compared: {len(common)} (of {len(arrivals['direct'])} published to the direct client)")
        for label, values in [("bridge - direct", added), ("direct2 - direct (method floor)", floor)]:
            print(f"{label:32s} p50 {percentile(values, 50):7.1f} µs  p90 {percentile(values, 90):7.1f} µs  "
                  f"p99 {percentile(values, 99):7.1f} µs  max {max(values):7.1f} µs")
        # What scheduling cannot blur: the bridge's own CPU time per relayed event.
        print(f"bridge CPU time: {cpu * 1e6 / len(common):.1f} µs per event ({cpu:.3f} s for {len(common)} events, "
              f"all threads, /proc/PID/task/*/schedstat); gestured itself: {daemon_cpu * 1e6 / len(common):.1f} µs per event "
              f"(engine, encoding, three clients)")
        print(f"load average during the run: {open('/proc/loadavg').read().split()[0]} on {os.cpu_count()} cores")
        # Memory: the bridge with one session, after the stream, and with many idle sessions.
        daemon.proc.wait(20)
        idle = start_idle(args, work, sock, config)
        sessions = []
        for _ in range(args.sessions):
            ws = wsclient.WebSocket("127.0.0.1", port, origin=origin)
            ws.recv_json()
            assert ws.request({"type": "subscribe", "id": 1, "kinds": ["touches"]})["ok"]
            sessions.append(ws)
        many_rss = rss(bridge.proc.pid)
        for ws in sessions:
            ws.close()
        idle.stop()
        print(f"bridge RSS: {idle_rss} KiB with 1 session before the stream, {serving_rss} KiB after "
              f"{len(common)} events, {many_rss} KiB with {args.sessions} subscribed sessions")
    finally:
        daemon.stop()
        bridge.stop()


def start_idle(args, work, sock, config):
    idle = os.path.join(work, "idle.evemu")
    r = evemu.Recording(1920, 1080)
    r.tap(0.0, 10, 10)
    r.write(idle)
    return harness.start_replay(args.gestured, config, sock, idle, work, wait_clients=1000, name="gestured-idle")


def cpu_seconds(pid):
    """Time on a CPU, all threads, from the scheduler's own nanosecond clock (schedstat), not
    the statistical tick counts of /proc/PID/stat."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{thread}/schedstat") as f:
            total += int(f.read().split()[0])
    return total / 1e9


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1])


class LineStream:
    def __init__(self, sock, buffer):
        self.sock, self.buffer = sock, buffer

    def read(self):
        try:
            chunk = self.sock.recv(1 << 20)
        except BlockingIOError:
            return [], False
        if not chunk:
            return [], True
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        messages = [json.loads(line) for line in lines if line]
        return messages, any(m.get("type") == "bye" for m in messages)


class FrameStream:
    def __init__(self, sock, buffer):
        self.sock, self.buffer = sock, buffer

    def read(self):
        try:
            chunk = self.sock.recv(1 << 20)
        except BlockingIOError:
            return [], False
        if not chunk:
            return [], True
        self.buffer += chunk
        messages, done = [], False
        while len(self.buffer) >= 2:
            b0, b1 = self.buffer[0], self.buffer[1]
            n, offset = b1 & 0x7F, 2
            if n == 126:
                if len(self.buffer) < 4:
                    break
                n, offset = int.from_bytes(self.buffer[2:4], "big"), 4
            elif n == 127:
                if len(self.buffer) < 10:
                    break
                n, offset = int.from_bytes(self.buffer[2:10], "big"), 10
            if len(self.buffer) < offset + n:
                break
            payload, self.buffer = self.buffer[offset:offset + n], self.buffer[offset + n:]
            if b0 & 0x0F == 0x1:
                message = json.loads(payload)
                messages.append(message)
                done = done or message.get("type") == "bye"
            elif b0 & 0x0F == 0x8:
                done = True
        return messages, done


if __name__ == "__main__":
    main()
