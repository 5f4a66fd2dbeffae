"""The bridge and daemon side of web API v2 (issue 28) end to end, with the real gestured and
gestured-web and raw WebSocket clients:

- a page whose layout another page's layout.set replaces gets the daemon's `superseded`
  through the bridge (and only it), naming gestured-web as the new setter;
- `gestured replay --wait-layout` begins when a page has sent its layout through the bridge,
  and its touches land on the page's views;
- the preflight tells `daemon: up` with gestured running and `down` without it;
- every refusal is in the bridge's log with its reason: an origin that is not allowed (a
  page on localhost while 127.0.0.1 is), a wrong token, a request without the token, a
  daemon that cannot be reached, a frame that breaks RFC 6455.

usage: web_api_test.py --gestured BIN --bridge BIN --workdir DIR
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

ORIGIN = "http://127.0.0.1:8080"
TOKEN = "web-api-test-0123456789"


def ok(message):
    print("ok:", message, flush=True)


def layout(root, button):
    return {"id": root, "frame": [0, 0, 1920, 1080], "subviews": [{"id": button, "frame": [100, 100, 200, 200]}]}


def main():
    args, work, sock, port, config = harness.test_setup()
    with open(config, "w") as f:
        f.write(harness.config_text(sock, port, ["http://127.0.0.1:*"], token=TOKEN))
    taps = os.path.join(work, "taps.evemu")
    recording = evemu.Recording(1920, 1080)
    recording.tap(0.0, 150, 150)
    recording.tap(0.5, 1500, 900)
    # Replayed in real time, this keeps the daemon serving while the pages go on; the test
    # stops it long before.
    recording.tap(120.0, 10, 10)
    recording.write(taps)

    bridge = harness.start_bridge(args.bridge, config, work)
    daemon = None
    try:
        # Before gestured runs: the preflight says so, and a page's WebSocket is told why.
        check = json.loads(wsclient.http_get("127.0.0.1", port, f"/gestured/check?token={TOKEN}", origin=ORIGIN)[2])
        assert check["daemon"] == "down" and check["tokenAccepted"] is True, check
        assert check["reason"].startswith("gestured is not reachable on " + sock), check
        page = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
        bye = page.recv_json()
        assert bye["type"] == "bye" and bye["reason"] == "unavailable", bye
        ok("before gestured runs, the preflight says daemon down and the page gets bye unavailable")

        # --wait-layout: one subscriber is there, the replay waits for a layout all the same.
        argv = [args.gestured, "replay", "--config", config, "--socket", sock, "--wait-clients", "1", "--realtime", "--wait-layout",
                "--wait-layout-timeout", "60", taps]
        daemon = harness.Process("gestured", argv, work)
        harness.wait_for(lambda: os.path.exists(sock) or not daemon.alive(), 30, "gestured's socket")
        check = json.loads(wsclient.http_get("127.0.0.1", port, "/gestured/check", origin=ORIGIN)[2])
        assert check["daemon"] == "up" and check["reason"] is None and check["tokenAccepted"] is None, check
        ok("with gestured running the preflight says daemon up and no reason")

        first = wsclient.WebSocket("127.0.0.1", port, path=f"/socket?token={TOKEN}", origin=ORIGIN)
        assert first.recv_json()["canControl"] is True
        assert first.request({"type": "subscribe", "id": 1, "kinds": ["touches"]})["ok"]
        status = first.request({"type": "status", "id": 2})
        assert status["input"]["frames"] == 0, status
        second = wsclient.WebSocket("127.0.0.1", port, path=f"/socket?token={TOKEN}", origin=ORIGIN)
        assert second.recv_json()["type"] == "hello"

        # The first page's layout starts the replay; its touches land on its views.
        assert first.request({"type": "layout.set", "id": 3, "layout": layout("firstPage", "firstButton")})["ok"]
        began = []
        while len(began) < 2:
            message = first.recv_json()
            assert message["type"] != "bye", message
            if message["type"] == "touches" and message["phase"] == "began":
                began.append(message["view"])
        assert began == ["firstButton", "firstPage"], began
        ok("replay --wait-layout began with the page's layout: touches on firstButton, firstPage")

        # The second page takes the layout: the first is told, through the bridge.
        assert second.request({"type": "layout.set", "id": 4, "layout": layout("secondPage", "secondButton")})["ok"]
        while True:
            message = first.recv_json()
            if message["type"] == "superseded":
                break
        assert message["what"] == "layout" and message["revision"] == 3, message
        bridge_pid = bridge.proc.pid
        assert message["by"].startswith(f"gestured-web pid {bridge_pid} uid "), message
        assert message["by"] in message["message"], message
        second.settimeout(0.5)
        try:
            while True:
                extra = second.recv_json()
                assert extra["type"] != "superseded", extra
        except (TimeoutError, OSError):
            pass
        ok(f"superseded through the bridge to the earlier page only: by {message['by']}")
        first.close()
        second.close()
    except Exception:
        for process in [daemon, bridge]:
            if process is not None:
                print(f"--- {process.name} ---\n{process.text()[-6000:]}", file=sys.stderr)
        raise
    finally:
        if daemon is not None:
            daemon.stop()

    try:
        refusals(port, sock, bridge, args, work, config)
    except Exception:
        print(f"--- bridge ---\n{bridge.text()[-6000:]}", file=sys.stderr)
        raise
    finally:
        bridge.stop()


def refusals(port, sock, bridge, args, work, config):
    """Every refusal is logged with its reason."""
    daemon = harness.start_replay(args.gestured, config, sock, os.path.join(work, "taps.evemu"), work, wait_clients=100,
                                  name="gestured-idle")
    try:
        try:
            wsclient.WebSocket("127.0.0.1", port, origin="http://localhost:8080")
            raise AssertionError("a page on localhost was let in")
        except wsclient.HandshakeRefused as refused:
            assert refused.status == 403 and "open the page as http://127.0.0.1:8080" in refused.body, refused.body
        wrong = wsclient.WebSocket("127.0.0.1", port, path="/socket?token=not-the-token", origin=ORIGIN)
        assert wrong.recv_json()["canControl"] is False
        answer = wrong.request({"type": "layout.set", "id": 9, "layout": layout("x", "y")})
        assert answer["error"]["code"] == "forbidden", answer
        wrong.close()
        rude = wsclient.WebSocket("127.0.0.1", port, origin=ORIGIN)
        rude.recv_json()
        rude.send_frame(0x1, b'{"type":"status"}', mask=False)
        try:
            while True:
                rude.recv()
        except (wsclient.Closed, OSError, TimeoutError):
            pass
    finally:
        daemon.stop()
    expected = {
        "origin": "refused a WebSocket: the page's origin is not allowed",
        "wrong token": "a page gave a token that is not web.token",
        "without the token": "refused a request of a page without the token",
        "daemon unavailable": "cannot reach gestured's socket",
        "bad frame": "closing a browser that broke the WebSocket protocol",
    }
    harness.wait_for(lambda: all(line in bridge.text() for line in expected.values()), 10, "the refusals in the log")
    log = bridge.text()
    assert "http://localhost:8080" in log and "127.0.0.1:8080" in log, log
    ok("every refusal is logged with its reason: " + ", ".join(expected))


if __name__ == "__main__":
    main()
