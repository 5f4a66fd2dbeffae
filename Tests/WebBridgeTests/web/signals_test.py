"""gestured-web under real signals (issue 25): the real bridge process, a real gestured, real
kill(2). Every signal a service may be sent has its meaning (docs/web.md § Signals):
- SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGPWR, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGPROF and
  the real-time signals: a log line naming the signal and its sender, and nothing else (the
  open page keeps working);
- SIGHUP: the web section is re-read for new connections (a new origin is allowed, a token is
  required), open pages keep what they were opened with; an invalid file is logged with its
  problem and the running settings are kept; a new web.listen is logged as needing a restart;
- SIGTERM and SIGINT: every page gets a close frame 1001 and the bridge exits 0.

usage: signals_test.py --gestured BIN --bridge BIN --workdir DIR
"""

import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

FIRST = "http://127.0.0.1:8080"
SECOND = "http://127.0.0.1:9090"
TOKEN = "signals-test-0123456789abcdef"


def ok(message):
    print("ok:", message, flush=True)


def write_config(path, sock, port, origins, token=None):
    web = {"listen": f"127.0.0.1:{port}", "origins": origins}
    if token:
        web["token"] = token
    with open(path, "w") as f:
        json.dump({"screen": {"width": 1920, "height": 1080}, "socket": {"path": sock},
                   "layout": {"id": "boot", "frame": [0, 0, 1920, 1080]}, "web": web}, f, indent=2)


def refused(port, origin):
    try:
        wsclient.WebSocket("127.0.0.1", port, origin=origin).close()
        return None
    except wsclient.HandshakeRefused as refusal:
        return refusal.status


def main():
    args, work, sock, port, config = harness.test_setup()
    write_config(config, sock, port, [FIRST])
    idle = os.path.join(work, "idle.evemu")
    recording = evemu.Recording(1920, 1080)
    recording.tap(0.0, 10, 10)
    recording.write(idle)
    daemon = harness.start_replay(args.gestured, config, sock, idle, work, wait_clients=100)
    bridge = harness.start_bridge(args.bridge, config, work)
    second = None
    try:
        run(args, work, config, sock, port, bridge)
        second = harness.start_bridge(args.bridge, config, work, name="bridge-sigint")
        stops_with_going_away(second, port, signal.SIGINT)
        ok("SIGINT: the page got close 1001 and the bridge exited 0")
    except Exception:
        for process in [daemon, bridge, second]:
            if process is not None:
                print(f"--- {process.name} ---\n{process.text()[-6000:]}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
        bridge.stop()
        if second is not None:
            second.stop()


def stops_with_going_away(bridge, port, sig):
    page = wsclient.WebSocket("127.0.0.1", port, origin=FIRST)
    assert page.recv_json()["type"] == "hello"
    bridge.proc.send_signal(sig)
    page.settimeout(10)
    try:
        while True:
            page.recv_json()
    except wsclient.Closed as closed:
        assert closed.code == 1001, f"{sig.name}: closed with {closed.code}"
    assert bridge.proc.wait(10) == 0, f"{sig.name}: exit status {bridge.proc.returncode}"
    assert "stopping" in bridge.text() and sig.name in bridge.text(), bridge.text()[-2000:]


def run(args, work, config, sock, port, bridge):
    pid = bridge.proc.pid
    page = wsclient.WebSocket("127.0.0.1", port, origin=FIRST)
    assert page.recv_json()["canControl"] is True

    # Signals with no meaning: logged with their name, and ignored.
    ignored = [signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGVTALRM, signal.SIGIO, signal.SIGPWR,
               signal.SIGSTKFLT, signal.SIGXCPU, signal.SIGXFSZ, signal.SIGPROF]
    realtime = [signal.SIGRTMIN, signal.SIGRTMIN + 3, signal.SIGRTMAX]
    for number, sig in enumerate(ignored + realtime, 1):
        name = sig.name if isinstance(sig, signal.Signals) else (
            "SIGRTMIN" if sig == signal.SIGRTMIN else f"SIGRTMIN+{sig - signal.SIGRTMIN}")
        os.kill(pid, sig)
        harness.wait_for(lambda: f"signal={name}" in bridge.text() or not bridge.alive(), 10, f"the log line of {name}")
        assert bridge.alive(), f"{name} ended the bridge:\n" + bridge.text()[-2000:]
        assert page.request({"type": "status", "id": number})["type"] == "reply"
    assert f"sender={os.getpid()}" in bridge.text(), "the log does not name the sender"
    ok(f"{len(ignored) + len(realtime)} signals with no meaning (SIGUSR1 … SIGPROF, SIGRTMIN … SIGRTMAX): each logged "
       "with its name and sender, the bridge and its page carry on")

    # SIGHUP: a second origin and a token, for the connections opened from now on.
    assert refused(port, SECOND) == 403
    write_config(config, sock, port, [FIRST, SECOND], TOKEN)
    before = bridge.text().count("configuration reloaded")
    os.kill(pid, signal.SIGHUP)
    harness.wait_for(lambda: bridge.text().count("configuration reloaded") > before or not bridge.alive(), 10,
                     "the reload's log line")
    assert bridge.alive(), "SIGHUP ended the bridge"
    log = bridge.text()
    assert "web.origins: [http://127.0.0.1:8080] -> [http://127.0.0.1:8080, http://127.0.0.1:9090]" in log, log[-2000:]
    assert "web.token: set" in log and TOKEN not in log, log[-2000:]
    newcomer = wsclient.WebSocket("127.0.0.1", port, origin=SECOND)
    assert newcomer.recv_json()["canControl"] is False, "a new page without the token may change the layout"
    answer = newcomer.request({"type": "reload", "id": 1})
    assert answer["type"] == "error" and answer["error"]["code"] == "forbidden", answer
    trusted = wsclient.WebSocket("127.0.0.1", port, path=f"/socket?token={TOKEN}", origin=SECOND)
    assert trusted.recv_json()["canControl"] is True
    assert page.request({"type": "status", "id": 50})["type"] == "reply", "the page opened before SIGHUP was dropped"
    ok("SIGHUP: the new origin is allowed and the token required for new pages; the open page keeps its session; "
       "the log says what changed and never the token")

    # An invalid file: its problem is logged and the running settings stay.
    with open(config, "w") as f:
        f.write('{ web: { origins: ["not an origin"] }, ')
    os.kill(pid, signal.SIGHUP)
    harness.wait_for(lambda: "was not reloaded" in bridge.text() or not bridge.alive(), 10, "the refused reload's log line")
    assert bridge.alive()
    assert "kiosk.json5" in bridge.text().split("was not reloaded")[-1], bridge.text()[-2000:]
    assert refused(port, SECOND) is None, "an invalid file changed the origins"
    ok("SIGHUP with an invalid file: the problem is logged with the file, the running settings are kept")

    # A new listen address needs a restart: said, and the bridge still listens where it did.
    other = harness.free_port()
    write_config(config, sock, other, [FIRST, SECOND], TOKEN)
    os.kill(pid, signal.SIGHUP)
    harness.wait_for(lambda: "needs a restart" in bridge.text() or not bridge.alive(), 10, "the restart warning")
    assert f"127.0.0.1:{port} -> 127.0.0.1:{other}" in bridge.text()
    assert refused(port, SECOND) is None
    write_config(config, sock, port, [FIRST, SECOND], TOKEN)
    ok("SIGHUP with a new web.listen: logged as needing a restart; the bridge keeps listening where it did")

    # A burst of SIGHUPs and ignored signals: nothing is lost but the bridge.
    for _ in range(20):
        os.kill(pid, signal.SIGHUP)
        os.kill(pid, signal.SIGUSR1)
    time.sleep(1)
    assert bridge.alive() and page.request({"type": "status", "id": 60})["type"] == "reply"
    ok("a burst of 20 SIGHUP and 20 SIGUSR1: the bridge serves on")

    for ws in (newcomer, trusted):
        ws.close()
    page.close()
    stops_with_going_away(bridge, port, signal.SIGTERM)
    ok("SIGTERM: the page got close 1001 and the bridge exited 0")


if __name__ == "__main__":
    main()
