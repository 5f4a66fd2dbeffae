#!/usr/bin/env python3
"""The soak test of issue 12: gestured serves a long replayed stream in real time while clients
connect, misbehave and leave for minutes; its resident memory must stay flat and a
well-behaved subscriber must get the whole stream, in order, as `gestured replay` prints it.

usage: soak.py GESTURED GESTURED_WEB CONFIG RECORDING SECONDS WORKDIR

RECORDING is an evemu recording; it is repeated (timestamps shifted) into WORKDIR until it
lasts SECONDS, then `gestured replay --socket --realtime` serves it. Misbehaving clients, a
few at a time, for the whole run:
  - connect and leave at once, or after half a request line;
  - subscribe and never read (the daemon must drop them as slow consumers);
  - pipeline thousands of hitTest requests and never read the replies;
  - send garbage, unknown request types, numbers too large, nesting too deep;
  - send a request line longer than 1 MiB (line_too_long);
  - send layout.set and view.update requests with deadly values (durations of 1e13 s,
    a billion touches): each must get an error reply and change nothing;
  - send request lines of a megabyte whose request type or field name is unknown (the "did you
    mean" search must not cost the other clients their frame);
  - subscribe with 150,000 glob filters (refused: a filter list has a documented limit);
  and, through `gestured-web` (GESTURED_WEB, run on the same socket with a token):
  - a page that floods pings, binary frames, unparseable text and token-less changing
    requests (the gate's known bypass shapes among them) and never reads;
  - a page without the token that tries those changes and reads the answers (`forbidden`).
Checks, printed one per line with PASS or FAIL; the exit status is the number of failures:
  - the daemon is alive the whole time and exits 0 when the replay has ended;
  - peak RSS after the warm-up (the first fifth) grows by at most 2 MiB;
  - the subscriber's events have consecutive seq numbers, and without seq and the daemon's
    warnings about the clients it dropped they are exactly the lines `gestured replay`
    prints for the same recording;
  - every misbehaving client got the answer the protocol promises (counted);
  - the bridge's RSS, like the daemon's, grows by at most a few MiB after the warm-up;
  - a second well-behaved subscriber, a process of its own (tools/soak/timed_subscriber.py),
    gets every event on time: `arrival - time` varies by at most a frame (16.7 ms) for 99 % of
    the events and never by more than 100 ms, whatever the others do.
"""
import atexit
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

gestured, gestured_web, config, recording = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
seconds, work = float(sys.argv[5]), sys.argv[6]
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
# Two subscribers start the replay: the one below, and the timed one, a process of its own.
daemon = subprocess.Popen([gestured, "replay", "--config", config, "--socket", path, "--realtime",
                           "--wait-clients", "2", long_path],
                          stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "soak.err"), "w"))
for _ in range(200):
    if os.path.exists(path):
        break
    time.sleep(0.05)
timed_path = os.path.join(work, "timed.tsv")
timed = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "timed_subscriber.py"),
                          path, timed_path], stdout=subprocess.DEVNULL)

# --- the web bridge, on the daemon's socket, with a token ------------------------------------------
TOKEN = "soak-token-0123456789"
bridge_config = os.path.join(work, "bridge.json5")
with open(bridge_config, "w") as f:
    # The bridge reads only `socket` and `web`, but validates the whole file, layout included.
    f.write('{ layout: { id: "unused", frame: [0, 0, 100, 100] }, socket: { path: "%s" }, web: { token: "%s" } }\n'
            % (path, TOKEN))
bridge = subprocess.Popen([gestured_web, "--config", bridge_config, "--listen", "127.0.0.1:0"],
                          stdout=subprocess.PIPE, stderr=open(os.path.join(work, "bridge.err"), "w"), text=True)
children = [daemon, timed, bridge]


@atexit.register
def _stop_children():
    """Whatever ends this script (a failed check, an exception), no child outlives it."""
    for child in children:
        if child.poll() is None:
            child.kill()


bridge_line = bridge.stdout.readline()
if "listening on " not in bridge_line:
    sys.exit("soak: gestured-web did not start: " + open(os.path.join(work, "bridge.err")).read())
bridge_port = int(bridge_line.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def rss_kib(process=None):
    try:
        with open(f"/proc/{(process or daemon).pid}/status") as f:
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
           "invalid_layout": 0, "hitTest replies unread": 0, "left": 0, "unknown long names": 0,
           "long name replies": 0, "longest reply to a long name": 0, "glob limit": 0,
           "pages that never read": 0, "changes refused without the token": 0,
           "changes accepted without the token": 0}
answers_lock = threading.Lock()
stop = threading.Event()


def read_until_closed(s, timeout):
    """Every byte `s` receives until the peer closes it or `timeout` passes without one."""
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
    return data


def replies(s, timeout=5.0):
    """Reads lines until the daemon closes the connection or `timeout` passes."""
    data = read_until_closed(s, timeout)
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


def long_unknown_names():
    """Megabyte request types and field names nobody knows: each is answered (unknown_type,
    bad_request) without a "did you mean" search over the whole name, so the daemon's other
    clients keep their frames. The replies stay short: the name is not echoed in full."""
    s = connect()
    s.settimeout(10)
    reader = s.makefile("rb")
    reader.readline()  # hello
    size = 1024 * 1024 - 64
    longest = 0
    codes = []
    for i in range(4):
        if i % 2 == 0:
            line = b'{"type":"' + b"q" * size + b'","id":%d}\n' % i
        else:
            line = b'{"type":"status","id":%d,"' % i + b"f" * size + b'":1}\n'
        s.sendall(line)
        reply = reader.readline()
        longest = max(longest, len(reply))
        codes += error_codes([json.loads(reply)])
    s.close()
    with answers_lock:
        answers["long name replies"] += 1
        answers["longest reply to a long name"] = max(answers["longest reply to a long name"], longest)
    if "unknown_type" in codes and "bad_request" in codes:
        count("unknown long names")


def many_globs():
    """A subscription with 150,000 view filters: refused with bad_request (the limit), never
    a per-event cost that grows with the filters."""
    s = connect()
    # 150,000 patterns in a line under the 1 MiB limit (750 KB), so the filter limit answers.
    s.sendall(json.dumps({"type": "subscribe", "id": 1, "views": ["v*"] * 150000}, separators=(",", ":")).encode()
              + b"\n")
    s.shutdown(socket.SHUT_WR)
    if "bad_request" in error_codes(replies(s, timeout=5.0)):
        count("glob limit")
    s.close()


# --- pages, through the bridge (RFC 6455 by hand: a client masks every frame) ---------------------
def ws_frame(opcode, payload):
    mask = os.urandom(4)
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        header += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def ws_connect(token=None, rcvbuf=None):
    s = socket.create_connection(("127.0.0.1", bridge_port))
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    target = "/socket" + (f"?token={token}" if token else "")
    s.sendall((f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{bridge_port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: c29hay10ZXN0LWtleS0xMjM0==\r\n"
               "Sec-WebSocket-Version: 13\r\nOrigin: http://localhost:8080\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            raise OSError("the bridge closed the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise OSError("no upgrade: " + head.split(b"\r\n")[0].decode())
    return s


def ws_messages(s, timeout=5.0):
    """Text messages and the close code (None without a close frame) until the bridge closes."""
    data = read_until_closed(s, timeout)
    texts, close, i = [], None, 0
    while i + 2 <= len(data):
        opcode, n, i = data[i] & 0x0F, data[i + 1] & 0x7F, i + 2
        if n == 126:
            n, i = int.from_bytes(data[i:i + 2], "big"), i + 2
        elif n == 127:
            n, i = int.from_bytes(data[i:i + 8], "big"), i + 8
        payload, i = data[i:i + n], i + n
        if opcode == 1:
            texts.append(payload)
        elif opcode == 8:
            close = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
    return texts, close


# Changes a page without the token must not get through, in the shapes that got past the gate
# before it decided on the bytes it forwards (a raw CR or LF inside a string, which the bridge
# turns into a space) and plain ones.
CHANGES = [b'{"type":"reload"}', b'{"type":"reload","id":"a\rb"}', b'{"type":"reload","id":"a\nb"}',
           b'{"type":"screen.set","rotation":90,"id":"\r"}',
           b'{"type":"layout.set","id":"x\r","layout":{"id":"evil","frame":[0,0,10,10]}}',
           b'{"type":"view.update","view":"lobby","set":{"hidden":true},"id":"\r\n"}']


def page_never_reads():
    """Floods the bridge with what it answers itself and never reads: the bridge must stay
    bounded (drop the page, or stop reading it), and nothing may reach the daemon as a change."""
    s = ws_connect(rcvbuf=4096)
    s.sendall(ws_frame(1, b'{"type":"subscribe"}'))
    s.settimeout(0.5)
    frames = [ws_frame(9, b"p" * 125), ws_frame(2, b"b" * 8192), ws_frame(1, b'{"type":'),
              ws_frame(1, b'{"type":"frobnicate"}')] + [ws_frame(1, change) for change in CHANGES]
    deadline = time.monotonic() + 8
    try:
        while not stop.is_set() and time.monotonic() < deadline:
            s.sendall(b"".join(frames) * 16)
    except (socket.timeout, BrokenPipeError, ConnectionResetError):
        pass  # the bridge stopped reading the page, or dropped it
    s.close()
    count("pages that never read")


def page_without_token():
    s = ws_connect()
    for change in CHANGES:
        s.sendall(ws_frame(1, change))
    s.sendall(ws_frame(8, (1000).to_bytes(2, "big")))
    texts, _ = ws_messages(s)
    s.close()
    replies_ = [json.loads(t) for t in texts]
    refused = [r for r in replies_ if r.get("type") == "error"]
    accepted = [r for r in replies_ if r.get("type") == "reply"]
    if len(refused) == len(CHANGES) and not accepted:
        count("changes refused without the token")
    elif accepted:
        print(f"soak: a page without the token got a change accepted: {accepted}", flush=True)
        count("changes accepted without the token")


behaviours = [leave_at_once, leave_mid_line, never_read, pipelined_hit_tests, garbage, long_line, deadly_layouts,
              long_unknown_names, many_globs, page_never_reads, page_without_token]


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
samples, bridge_samples = [], []
start = time.monotonic()
while daemon.poll() is None and time.monotonic() - start < copies * period + 60:
    rss = rss_kib()
    if rss is not None:
        samples.append((time.monotonic() - start, rss))
    rss = rss_kib(bridge)
    if rss is not None:
        bridge_samples.append((time.monotonic() - start, rss))
    time.sleep(1)
stop.set()
status = daemon.wait(timeout=60)
subscriber_done.wait(timeout=10)
timed.wait(timeout=10)
bridge.terminate()
bridge_status = bridge.wait(timeout=15)

check(status == 0, f"the daemon served the whole replay and exited 0 (status {status})")
warm = [rss for t, rss in samples if t >= (copies * period) / 5]
if warm:
    growth = max(warm) - warm[0]
    check(growth <= 2048, f"RSS flat after the warm-up: {warm[0] / 1024:.1f} MiB, at most "
                          f"{max(warm) / 1024:.1f} MiB over {len(warm)} samples (growth {growth} KiB, limit 2048)")
else:
    check(False, "RSS was sampled")
bridge_warm = [rss for t, rss in bridge_samples if t >= (copies * period) / 5]
if bridge_warm:
    growth = max(bridge_warm) - bridge_warm[0]
    check(growth <= 4096, f"the bridge's RSS flat after the warm-up: {bridge_warm[0] / 1024:.1f} MiB, at most "
                          f"{max(bridge_warm) / 1024:.1f} MiB over {len(bridge_warm)} samples (growth {growth} KiB, "
                          "limit 4096)")
else:
    check(False, "the bridge's RSS was sampled")
check(bridge_status == 0, f"the bridge served throughout and exited 0 on SIGTERM (status {bridge_status})")

# On time: `arrival - time` is constant for events sent when the replay meant to send them; its
# rise above the smallest value is how late an event was.
offsets = []
with open(timed_path) as f:
    for line in f:
        arrival, text = line.rstrip("\n").split("\t", 1)
        event = json.loads(text)
        if event.get("type") in ("touches", "gesture", "control"):
            offsets.append(int(arrival) - event["time"])
if offsets:
    base = min(offsets)
    late = sorted((o - base) / 1000 for o in offsets)
    p50, p99, worst = late[len(late) // 2], late[int(len(late) * 0.99)], late[-1]
    check(p99 <= 16.7 and worst <= 100,
          f"the timed subscriber's {len(late)} events on time: late by {p50:.2f} ms (median), "
          f"{p99:.2f} ms (99 %), {worst:.2f} ms (worst); limits 16.7 ms (99 %), 100 ms (worst)")
else:
    check(False, "the timed subscriber received events")
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
      and answers["unknown_type"] > 0 and answers["invalid_layout"] > 0 and answers["unknown long names"] > 0
      and answers["glob limit"] > 0 and answers["pages that never read"] > 0
      and answers["changes refused without the token"] > 0,
      "every kind of misbehaviour got its answer at least once")
check(answers["changes accepted without the token"] == 0, "no page without the token changed the daemon")
check(answers["longest reply to a long name"] <= 16384,
      f"replies to megabyte names stay short ({answers['longest reply to a long name']} bytes at most; limit 16384)")
sys.exit(failures)
