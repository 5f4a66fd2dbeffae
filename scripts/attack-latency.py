#!/usr/bin/env python3
"""How late one client's events are while other clients attack the daemon (issue 25), and how
much memory the daemon holds meanwhile. A real daemon, real sockets, real processes:

  scripts/attack-latency.py [--gestured BIN] [--seconds S] [--warmup S] [--fifo] [--turns] [ATTACK ...]

For each ATTACK it starts `gestured replay --socket … --realtime` on a synthetic recording (two
fingers panning through a view nested 24 levels deep, a frame every 8 ms, for the whole run),
subscribes one well-behaved client to everything, and after --warmup seconds (the baseline)
starts the attack in separate processes for --seconds seconds. The subscriber stamps every
event's arrival with CLOCK_MONOTONIC; an event's lateness is (arrival - its recorded `time`)
minus the smallest such difference of the run, so the baseline is the machine's own jitter.
Prints, per attack, the lateness of the events published during the baseline and during the
attack (median, 99th percentile, maximum, in ms), the daemon's peak and last RSS, and what the
attackers saw (replies, errors, refusals).

With --fifo (root), the daemon and the subscriber run SCHED_FIFO (`chrt -f 10`): on a machine
busy with other work their lateness is then the daemon's own (a loop blocked by a client's
request), not the time the scheduler gave to other processes. The attackers run as usual.
The kernel's real-time throttling (kernel.sched_rt_runtime_us, 950,000 of every 1,000,000 µs by
default) is switched off meanwhile and restored at the end: a daemon kept busy by an attacker
(pipelined requests take 93 % of a core) otherwise reaches the limit and the kernel stops it for
the rest of the period, ~50 ms — late events that are the measurement's, not the daemon's.
With --turns, the daemon runs under `perf trace -e epoll_wait`, and the longest turns of its
loop (from one epoll_wait's return to the next call: its own work, whoever reads) are printed.

Attacks (default: all of them):
  none          nothing: the machine's jitter
  long-type     1 MiB unknown request types, one after the other
  long-field    1 MiB unknown field names of `subscribe`, one after the other
  globs         subscriptions with 150,000 `views` and `recognizers` globs, read continuously
  long-globs    subscriptions with globs of 1,000 stars, read continuously
  pipelined     64 KiB writes of small `status` requests as fast as the daemon takes them
  big-lines     1 MiB lines that parse (an array of 500,000 numbers), one after the other
  layouts       layout.set of 10,000 views with a recognizer each (the layout limits, 1 MB),
                one after the other, from a client allowed to control (run the script as
                root, or as a control user)
  crowd-lines   600 clients that each send 1 MiB - 1 bytes without a newline and hold them
  crowd-readers 600 subscribers that never read
The exit status is 0; the numbers are for a person to read (docs/limits.md quotes them).
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HEADER = """# EVEMU 1.3
# attack-latency.py: an 800 x 480 panel whose units are screen points
N: Atmel maXTouch Touchscreen
I: 0018 0000 0000 0000
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 e0 0a
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 799 0 0 0
A: 01 0 479 0 0 0
A: 2f 0 9 0 0 0
A: 35 0 799 0 0 0
A: 36 0 479 0 0 0
A: 37 0 2 0 0 0
A: 39 0 65535 0 0 0
A: 3b 0 1 0 0 0
"""

DEPTH = 24


def recording(seconds):
    """Two fingers panning back and forth on the nested view, one frame every 8 ms; they lift
    and land again every 2 s, so there are taps, pans and their ends all along."""
    lines = [HEADER]
    frame, t = 0, 0.001
    stroke = 250
    while t < seconds:
        stamp = f"{t:.6f}"
        phase = frame % stroke

        def event(kind, code, value):
            lines.append(f"E: {stamp} {kind:04x} {code:04x} {value:04d}\n")

        x = 300 + (phase if phase < 125 else 250 - phase)
        if phase == 0:
            for slot in (0, 1):
                event(3, 0x2F, slot); event(3, 0x39, frame + slot); event(3, 0x35, x + 40 * slot); event(3, 0x36, 200)
            event(1, 0x14A, 1)
        elif phase == stroke - 1:
            for slot in (0, 1):
                event(3, 0x2F, slot); lines.append(f"E: {stamp} 0003 0039 -001\n")
            event(1, 0x14A, 0)
        else:
            for slot in (0, 1):
                event(3, 0x2F, slot); event(3, 0x35, x + 40 * slot); event(3, 0x36, 200 + phase % 40)
        event(0, 0, 0)
        frame += 1
        t += 0.008
    return "".join(lines)


def configuration():
    """An 800 x 480 screen; the panned view is nested DEPTH levels deep, so every touch event
    names DEPTH + 1 responders for view filters to match."""
    view = {"id": "leaf-view-with-a-longish-identifier", "frame": [0, 0, 800, 480],
            "recognizers": [{"id": "leafPan", "type": "pan"}, {"id": "leafTap", "type": "tap"}]}
    for level in range(DEPTH):
        view = {"id": f"container-level-{level:02d}-of-the-kiosk", "frame": [0, 0, 800, 480], "subviews": [view]}
    layout = {"id": "screen", "frame": [0, 0, 800, 480], "subviews": [view]}
    return json.dumps({"screen": {"width": 800, "height": 480}, "layout": layout})


def connect(path, timeout=None):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(path)
    client.settimeout(timeout)
    return client


def read_lines(sock, count):
    """Reads until `count` newlines arrived; returns the text (for small replies)."""
    data = b""
    while data.count(b"\n") < count:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    return data


def drain_forever(sock, counter, closed=None):
    """Reads everything as it comes (an attacker that must not be dropped as slow); sets
    `closed` at the end of the stream."""
    try:
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            counter[0] += chunk.count(b"\n")
            counter[1] += chunk.count(b'"type":"error"')
    except OSError:
        pass
    if closed is not None:
        closed.set()


def attacker(kind, path, seconds, report):
    """One attacking process: does `kind` until `seconds` have passed, then writes a summary."""
    end = time.monotonic() + seconds
    counter = [0, 0]  # lines received, errors received
    note = ""
    if kind == "layouts":
        # The same screen, with 10,000 small views beside the nested one: valid, applied.
        sock = connect(path, seconds)
        threading.Thread(target=drain_forever, args=(sock, counter), daemon=True).start()
        layout = json.loads(configuration())["layout"]
        layout["subviews"] = [{"id": f"tile-long-identifier-{i:05d}", "frame": [i % 100, i // 100, 1, 1],
                               "recognizers": [{"id": f"tap{i:05d}", "type": "tap"}]}
                              for i in range(9_970)] + layout["subviews"]
        line = json.dumps({"type": "layout.set", "layout": layout}, separators=(",", ":")).encode() + b"\n"
        sent = 0
        try:
            while time.monotonic() < end:
                sock.sendall(line)
                sent += 1
                while counter[0] < sent + 1 and time.monotonic() < end:
                    time.sleep(0.001)
        except OSError as error:
            note = f"{error}"
        note = f"{sent} layouts of {len(line)} bytes sent {note}".strip()
    elif kind in ("long-type", "long-field", "big-lines"):
        name = "x" * ((1 << 20) - 100)
        if kind == "long-type":
            line = json.dumps({"type": name}).encode() + b"\n"
        elif kind == "long-field":
            line = json.dumps({"type": "subscribe", name: 1}).encode() + b"\n"
        else:
            line = b'{"type":"status","pad":[' + b",".join([b"0"] * 500_000) + b"]}\n"
        sent, connections = 0, 0
        # One line at a time, each after the answer to the last (the daemon's own pace); a
        # connection the daemon closes (an answer over the queue limit) is opened again.
        while time.monotonic() < end:
            sock = connect(path, max(0.1, end - time.monotonic()))
            connections += 1
            closed = threading.Event()
            threading.Thread(target=drain_forever, args=(sock, counter, closed), daemon=True).start()
            try:
                while time.monotonic() < end and not closed.is_set():
                    answered = counter[0]
                    sock.sendall(line)
                    sent += 1
                    while counter[0] == answered and time.monotonic() < end and not closed.is_set():
                        time.sleep(0.001)
            except OSError as error:
                note = f"{error}"
        note = f"{sent} lines sent on {connections} connections"
    elif kind in ("globs", "long-globs"):
        socks = []
        for index in range(4):
            sock = connect(path, max(0.1, end - time.monotonic()))
            if kind == "globs":
                views = [f"*{chr(97 + i % 26)}" for i in range(100_000)]
                recognizers = [f"*{chr(97 + i % 26)}" for i in range(50_000)]
            else:
                views = ["*" * 1000 + "q"] * 400
                recognizers = ["*" * 1000 + "q"] * 400
            line = json.dumps({"type": "subscribe", "id": index, "views": views, "recognizers": recognizers}).encode()
            try:
                sock.sendall(line + b"\n")
            except OSError as error:
                note = f"{error} "
                break
            sock.settimeout(None)
            threading.Thread(target=drain_forever, args=(sock, counter), daemon=True).start()
            socks.append(sock)
        while time.monotonic() < end:
            time.sleep(0.05)
        note = f"{note}{len(socks)} subscribers with {kind}"
    elif kind == "pipelined":
        # Small requests with short replies (the attacker must keep up reading them, or it is
        # dropped as a slow consumer), 64 KiB at a time; it reconnects when dropped.
        chunk = b'{"type":"unsubscribe"}\n' * (65536 // 23)
        sent, connections = 0, 0
        while time.monotonic() < end:
            sock = connect(path, max(0.1, end - time.monotonic()))
            connections += 1
            threading.Thread(target=drain_forever, args=(sock, counter), daemon=True).start()
            try:
                while time.monotonic() < end:
                    sock.sendall(chunk)
                    sent += chunk.count(b"\n")
            except OSError as error:
                note = f"{error}"
        note = f"{sent} requests sent on {connections} connections".strip()
    elif kind in ("crowd-lines", "crowd-readers"):
        socks, refused = [], 0
        payload = b'{"type":"status","pad":"' + b"x" * ((1 << 20) - 30)
        for index in range(600):
            try:
                sock = connect(path, 1)
                sock.setblocking(False)
                if kind == "crowd-readers":
                    sock.send(b'{"type":"subscribe"}\n')
            except OSError:
                refused += 1
                continue
            socks.append(sock)
        if kind == "crowd-lines":
            # Every client's unfinished line a bit at a time, round robin, as the daemon takes them.
            sent = [0] * len(socks)
            while time.monotonic() < end and any(n < len(payload) for n in sent):
                progress = False
                for index, sock in enumerate(socks):
                    if sent[index] >= len(payload):
                        continue
                    try:
                        count = sock.send(payload[sent[index]:sent[index] + 65536])
                        sent[index] += count
                        progress = progress or count > 0
                    except BlockingIOError:
                        pass
                    except OSError:
                        sent[index] = len(payload)
                if not progress:
                    time.sleep(0.005)
        while time.monotonic() < end:
            time.sleep(0.05)
        # What the daemon said to them (bye, errors) before they go.
        said = {}
        for sock in socks:
            sock.setblocking(False)
            try:
                data = sock.recv(1 << 16)
            except OSError:
                data = b""
            for line in data.split(b"\n"):
                if b'"type":"bye"' in line or b'"type":"error"' in line:
                    try:
                        obj = json.loads(line)
                        key = obj.get("reason") or obj.get("error", {}).get("code")
                    except ValueError:
                        key = "partial"
                    said[key] = said.get(key, 0) + 1
        note = f"{len(socks)} connected, {refused} refused at connect; told: {said}"
    elif kind == "none":
        time.sleep(seconds)
    with open(report, "w") as out:
        out.write(f"{note}; lines received {counter[0]}, errors {counter[1]}")


def rss(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024
    except (OSError, KeyError, ValueError):
        return 0, 0


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def turn_lengths(trace):
    """The work between the loop's epoll_wait calls in a `perf trace -e epoll_wait` log of the
    main thread, in ms: (start of a call) - (start + duration of the one before)."""
    pattern = re.compile(r"^\s*([\d.]+)\s+\(\s*([\d.]+)\s+ms\):\s+\S+?/(\d+)\s+epoll_wait\(")
    calls = []
    with open(trace) as text:
        for line in text:
            match = pattern.match(line)
            if match:
                calls.append((match.group(3), float(match.group(1)), float(match.group(2))))
    main = calls[0][0] if calls else None
    calls = [(start, duration) for thread, start, duration in calls if thread == main]
    return [later[0] - (earlier[0] + earlier[1]) for earlier, later in zip(calls, calls[1:])]


def run(kind, gestured, seconds, warmup, fifo=False, turns=False, nice=False):
    work = tempfile.mkdtemp(prefix="gestured-attack-")
    config = os.path.join(work, "gestured.json5")
    with open(config, "w") as out:
        out.write(configuration())
    record = os.path.join(work, "pan.evemu")
    with open(record, "w") as out:
        out.write(recording(warmup + seconds + 10))
    path = os.path.join(work, "gestured.sock")
    log = open(os.path.join(work, "daemon.log"), "wb")
    trace = os.path.join(work, "turns.txt")
    wrap = ["perf", "trace", "-e", os.environ.get("ATTACK_TRACE_EVENTS", "epoll_wait"), "-o", trace, "--"] if turns else []
    priority = ["chrt", "-f", "10"] if fifo else ["nice", "-n", "-10"] if nice else []
    daemon = subprocess.Popen(wrap + priority + [gestured, "replay", "--config", config, "--socket", path, "--wait-clients", "1",
                               "--realtime", record], stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(500):
        if os.path.exists(path):
            break
        time.sleep(0.01)
    pid = daemon.pid
    if turns:  # perf's child is the daemon
        with open(f"/proc/{daemon.pid}/task/{daemon.pid}/children") as children:
            pid = int(children.read().split()[0])
    sub = connect(path)
    sub.sendall(b'{"type":"subscribe","id":"s"}\n')
    arrivals = []  # (arrival µs, recorded time µs)
    buffer = b""
    start = time.monotonic()
    attack_started = attack_ended = None
    procs, reports = [], []
    peak_rss, samples = 0, []
    cpu_before = None
    sub.settimeout(0.05)
    while True:
        now = time.monotonic()
        if attack_started is None and now - start >= warmup:
            attack_started = now
            cpu_before = cpu_seconds(pid)
            report = os.path.join(work, "attacker")
            # The attackers at the usual priority, whatever this process runs at.
            procs.append(subprocess.Popen(["nice", "-n", "10" if nice else "0", sys.executable, __file__, "--attacker",
                                           kind, path, str(seconds), report],
                                          preexec_fn=lambda: os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))))
            reports.append(report)
        if attack_started is not None and attack_ended is None and now - attack_started >= seconds:
            attack_ended = now
            cpu_used = cpu_seconds(pid) - cpu_before
        # Until every event recorded during the attack has arrived (or 60 s more).
        if attack_ended is not None and (now - attack_ended >= 60 or
                                         (arrivals and arrivals[-1][1] - arrivals[0][1] >= (warmup + seconds + 0.5) * 1e6)):
            break
        current, hwm = rss(pid)
        samples.append(current)
        peak_rss = max(peak_rss, hwm)
        try:
            chunk = sub.recv(1 << 20)
        except socket.timeout:
            continue
        except OSError:
            break
        stamp = time.monotonic_ns() // 1000
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            if b'"time":' not in line:
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if "time" in event and event.get("type") in ("touches", "gesture", "control"):
                arrivals.append((stamp, event["time"], now))
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    told = []
    for report in reports:
        try:
            with open(report) as text:
                told.append(text.read())
        except OSError:
            told.append("(no report)")
    # The daemon itself (under --turns, perf's child): perf does not pass SIGTERM on.
    os.kill(pid, signal.SIGTERM)
    try:
        daemon.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.kill(pid, signal.SIGKILL)
        daemon.kill()
    log.close()
    offsets = [arrival - recorded for arrival, recorded, _ in arrivals]
    base = min(offsets) if offsets else 0
    # By recorded time: the replay publishes an event at the subscription plus its offset in
    # the recording, so the offset says whether it was due during the baseline or the attack.
    first = arrivals[0][1] if arrivals else 0
    due = attack_started - start if attack_started else warmup
    before = [(a - r - base) / 1000 for (a, r, _) in arrivals if (r - first) / 1e6 < due]
    during = [(a - r - base) / 1000 for (a, r, _) in arrivals if due <= (r - first) / 1e6 < due + seconds]
    with open(os.path.join(work, "daemon.log"), "rb") as text:
        log_lines = text.read().count(b"\n")

    def stats(values):
        return f"n={len(values)} p50={percentile(values, 0.5):.1f} p99={percentile(values, 0.99):.1f} max={max(values, default=float('nan')):.1f}"

    if turns:
        lengths = turn_lengths(trace)
        print(f"{kind}: the loop's turns: n={len(lengths)} p99={percentile(lengths, 0.99):.2f} "
              f"max={max(lengths, default=float('nan')):.2f} ms", flush=True)
    print(f"{kind}: baseline {stats(before)} | attack {stats(during)} ms late; "
          f"daemon RSS peak {peak_rss} MiB, last {samples[-1] if samples else 0} MiB, CPU {cpu_used:.2f} s "
          f"in {seconds} s, {log_lines} log lines; attacker: {'; '.join(told)}", flush=True)
    if os.environ.get("ATTACK_KEEP"):
        print(f"kept {work}")
    else:
        subprocess.run(["rm", "-rf", work])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--attacker":
        attacker(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--gestured", default=os.path.join(root, ".build", "debug", "gestured"))
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--fifo", action="store_true", help="run the daemon and the subscriber SCHED_FIFO")
    parser.add_argument("--nice", action="store_true",
                        help="run the daemon and the subscriber at nice -10 instead: no real-time throttling "
                             "(a SCHED_FIFO task that keeps a CPU busy is stopped for the rest of each second "
                             "after 0.95 s: sched_rt_runtime_us)")
    parser.add_argument("--turns", action="store_true",
                        help="run the daemon under `perf trace -e epoll_wait` and report how long its loop's turns took "
                             "(from the return of one epoll_wait to the next call: the daemon's own work)")
    parser.add_argument("attacks", nargs="*", default=["none", "long-type", "long-field", "globs", "long-globs",
                                                        "pipelined", "big-lines", "layouts", "crowd-lines",
                                                        "crowd-readers"])
    args = parser.parse_args()
    throttle_path = "/proc/sys/kernel/sched_rt_runtime_us"
    throttle = None
    if args.fifo:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        with open(throttle_path) as f:
            throttle = f.read().strip()
        with open(throttle_path, "w") as f:
            f.write("-1")
    elif args.nice:
        os.nice(-10)
    try:
        for kind in args.attacks:
            run(kind, args.gestured, args.seconds, args.warmup, args.fifo, args.turns, args.nice)
    finally:
        if throttle is not None:
            with open(throttle_path, "w") as f:
                f.write(throttle)


if __name__ == "__main__":
    main()
