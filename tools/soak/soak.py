#!/usr/bin/env python3
"""The soak test of issue 12: gestured serves a long replayed stream in real time while clients
connect, misbehave and leave for minutes; its resident memory must stay flat and a
well-behaved subscriber must get the whole stream, in order, as `gestured replay` prints it.

usage: soak.py GESTURED CONFIG RECORDING SECONDS WORKDIR

RECORDING is an evemu recording; it is repeated (timestamps shifted) into WORKDIR until it
lasts SECONDS, then `gestured replay --socket --realtime` serves it. Misbehaving clients, a
few at a time, for the whole run:
  - connect and leave at once, or after half a request line;
  - subscribe and never read (the daemon must drop them as slow consumers);
  - pipeline thousands of hitTest requests and never read the replies;
  - send garbage, unknown request types, numbers too large, nesting too deep;
  - send a request line longer than 1 MiB (line_too_long);
  - send layout.set and view.update requests with deadly values (durations of 1e13 s,
    a billion touches): each must get an error reply and change nothing.
Checks, printed one per line with PASS or FAIL; the exit status is the number of failures:
  - the daemon is alive the whole time and exits 0 when the replay has ended;
  - peak RSS after the warm-up (the first fifth) grows by at most 2 MiB;
  - the subscriber's events have consecutive seq numbers, and without seq and the daemon's
    warnings about the clients it dropped they are exactly the lines `gestured replay`
    prints for the same recording;
  - every misbehaving client got the answer the protocol promises (counted).
"""
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

gestured, config, recording, seconds, work = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
random.seed(12)
failures = 0


def check(ok, what):
    global failures
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures += 1


# --- the long recording ---------------------------------------------------------------------
header, events = [], []
with open(recording) as f:
    for line in f:
        (events if line.startswith("E:") else header).append(line)
first = float(events[0].split()[1])
last = float(events[-1].split()[1])
period = last - first + 1.0
copies = max(1, int(seconds / period) + 1)
long_path = os.path.join(work, "soak.evemu")
with open(long_path, "w") as out:
    out.writelines(header)
    for copy in range(copies):
        shift = copy * period
        for line in events:
            fields = line.split()
            fields[1] = "%.6f" % (float(fields[1]) - first + shift)
            out.write(" ".join(fields) + "\n")
print(f"soak: {copies} copies of {os.path.basename(recording)} ({period:.1f} s each), "
      f"{copies * period:.0f} s of input", flush=True)

reference = subprocess.run([gestured, "replay", "--config", config, long_path],
                           check=True, capture_output=True, text=True).stdout.splitlines()


def without_seq(line):
    event = json.loads(line)
    event.pop("seq", None)
    return json.dumps(event, sort_keys=True)


reference = [without_seq(line) for line in reference]

# --- the daemon -------------------------------------------------------------------------------
path = os.path.join(work, "soak.sock")
daemon = subprocess.Popen([gestured, "replay", "--config", config, "--socket", path, "--realtime",
                           "--wait-clients", "1", long_path],
                          stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "soak.err"), "w"))
for _ in range(200):
    if os.path.exists(path):
        break
    time.sleep(0.05)


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def rss_kib():
    try:
        with open(f"/proc/{daemon.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


# --- the well-behaved subscriber ----------------------------------------------------------------
received = []
subscriber_done = threading.Event()


def subscriber():
    s = connect()
    s.sendall(b'{"type":"subscribe","id":"soak"}\n')
    buffer = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            event = json.loads(line)
            if event.get("type") not in ("reply", "hello", "bye"):
                received.append(event)
    subscriber_done.set()


threading.Thread(target=subscriber, daemon=True).start()

# --- misbehaving clients -------------------------------------------------------------------------
answers = {"slow_consumer": 0, "line_too_long": 0, "bad_json": 0, "unknown_type": 0,
           "invalid_layout": 0, "hitTest replies unread": 0, "left": 0}
answers_lock = threading.Lock()
stop = threading.Event()


def replies(s, timeout=5.0):
    """Reads lines until the daemon closes the connection or `timeout` passes."""
    s.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return [json.loads(line) for line in data.split(b"\n") if line.strip()]


def error_codes(lines):
    """The codes of the error replies (`{"type":"error","error":{"code":…}}`) and the reasons
    of the goodbyes among `lines`."""
    codes = []
    for line in lines:
        if line.get("type") == "error" and isinstance(line.get("error"), dict):
            codes.append(line["error"].get("code"))
        elif line.get("type") == "bye":
            codes.append(line.get("reason"))
    return codes


def count(key):
    with answers_lock:
        answers[key] += 1


def leave_at_once():
    connect().close()
    count("left")


def leave_mid_line():
    s = connect()
    s.sendall(b'{"type":"hitTe')
    s.close()
    count("left")


def never_read():
    s = connect()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(b'{"type":"subscribe"}\n')
    deadline = time.monotonic() + 25
    while not stop.is_set() and time.monotonic() < deadline:
        time.sleep(0.5)
        try:
            # Peek only: the queue must overflow on the daemon's side.
            if s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                break
        except BlockingIOError:
            pass
    # Whether it was dropped shows in what it finally reads: the slow_consumer error last.
    lines = replies(s, timeout=2.0)
    if "slow_consumer" in error_codes(lines):
        count("slow_consumer")
    s.close()


def pipelined_hit_tests():
    """Asks and never reads: its replies fill its queue, and the daemon drops it."""
    s = connect()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    request = b'{"type":"hitTest","id":1,"x":100,"y":100}\n' * 2000
    try:
        for _ in range(20):
            s.sendall(request)
    except (BrokenPipeError, ConnectionResetError):
        pass
    count("hitTest replies unread")
    # Now read what is left: the last line is the slow_consumer error.
    if "slow_consumer" in error_codes(replies(s, timeout=6.0)):
        count("slow_consumer")
    s.close()


def garbage():
    s = connect()
    s.sendall(b'not json at all\n{"type":"frobnicate","id":2}\n{"type":"hitTest","id":3,"x":1e999,"y":0}\n'
              + b"[" * 200 + b"\n")
    s.shutdown(socket.SHUT_WR)
    codes = error_codes(replies(s))
    if "bad_json" in codes:
        count("bad_json")
    if "unknown_type" in codes:
        count("unknown_type")
    s.close()


def long_line():
    s = connect()
    try:
        s.sendall(b'{"type":"status","pad":"' + b"x" * (1024 * 1024 + 10))
    except (BrokenPipeError, ConnectionResetError):
        pass
    if "line_too_long" in error_codes(replies(s)):
        count("line_too_long")
    s.close()


def deadly_layouts():
    s = connect()
    layout = {"id": "root", "frame": [0, 0, 100, 100],
              "recognizers": [{"id": "t", "type": "tap", "maxDuration": 1e13, "touches": 1000000000}]}
    s.sendall(json.dumps({"type": "layout.set", "id": 7, "layout": layout}).encode() + b"\n"
              + json.dumps({"type": "view.update", "id": 8, "view": "lobby",
                            "set": {"alpha": 7}}).encode() + b"\n")
    s.shutdown(socket.SHUT_WR)
    codes = error_codes(replies(s))
    if codes and all(code in ("invalid_layout", "bad_request", "forbidden") for code in codes):
        count("invalid_layout")
    s.close()


behaviours = [leave_at_once, leave_mid_line, never_read, pipelined_hit_tests, garbage, long_line, deadly_layouts]


def churn():
    while not stop.is_set():
        behaviour = random.choice(behaviours)
        try:
            behaviour()
        except (ConnectionRefusedError, FileNotFoundError):
            return  # the daemon has finished
        except OSError as error:
            print(f"soak: {behaviour.__name__}: {error}", flush=True)
        time.sleep(random.uniform(0.05, 0.5))


time.sleep(1)
workers = [threading.Thread(target=churn, daemon=True) for _ in range(4)]
for worker in workers:
    worker.start()

# --- watching ------------------------------------------------------------------------------------
samples = []
start = time.monotonic()
while daemon.poll() is None and time.monotonic() - start < copies * period + 60:
    rss = rss_kib()
    if rss is not None:
        samples.append((time.monotonic() - start, rss))
    time.sleep(1)
stop.set()
status = daemon.wait(timeout=60)
subscriber_done.wait(timeout=10)

check(status == 0, f"the daemon served the whole replay and exited 0 (status {status})")
warm = [rss for t, rss in samples if t >= (copies * period) / 5]
if warm:
    growth = max(warm) - warm[0]
    check(growth <= 2048, f"RSS flat after the warm-up: {warm[0] / 1024:.1f} MiB, at most "
                          f"{max(warm) / 1024:.1f} MiB over {len(warm)} samples (growth {growth} KiB, limit 2048)")
else:
    check(False, "RSS was sampled")
seqs = [event.get("seq") for event in received]
check(all(b == a + 1 for a, b in zip(seqs, seqs[1:])),
      f"the subscriber's {len(seqs)} events have consecutive seq numbers")
mine = [without_seq(json.dumps(e)) for e in received if not (e.get("type") == "warning")]
reference_events = [line for line in reference if json.loads(line).get("type") != "warning"]
check(mine == reference_events,
      f"the subscriber got exactly the replay's {len(reference_events)} events (got {len(mine)})")
with answers_lock:
    summary = ", ".join(f"{k} {v}" for k, v in answers.items())
print(f"soak: misbehaving clients: {summary}", flush=True)
check(answers["slow_consumer"] > 0 and answers["line_too_long"] > 0 and answers["bad_json"] > 0
      and answers["unknown_type"] > 0 and answers["invalid_layout"] > 0,
      "every kind of misbehaviour got its answer at least once")
sys.exit(failures)
