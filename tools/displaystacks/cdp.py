#!/usr/bin/python3
"""Reads the display-stack page's event log through Chromium's DevTools protocol.

Used by tools/displaystacks/in-guest.sh (scripts/display-stacks.sh). Standard library only, with
the project's own WebSocket client (Tests/WebBridgeTests/web/wsclient.py).

  cdp.py load PORT FILE SECONDS
                              writes FILE (page.html) into the browser's first tab (started on
                              about:blank) and waits until it has logged "ready"; exit 1 if it
                              has not within SECONDS
  cdp.py log PORT             prints the page's log, one JSON object a line

The page is written into the tab (document.write) rather than loaded from a file: in the
emulated guest Chromium's network service crashed and restarted now and then, and a file://
navigation then never committed (the tab stayed on about:blank); a document written by script
needs no loader.
"""
import json
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "WebBridgeTests", "web"))
import wsclient  # noqa: E402

HOST = "127.0.0.1"


def page_socket(port):
    """The WebSocket path of the browser's first tab, or None while there is none."""
    with urllib.request.urlopen(f"http://{HOST}:{port}/json/list", timeout=10) as reply:
        targets = json.load(reply)
    for target in targets:
        if target.get("type") == "page" and not target.get("url", "").startswith("chrome"):
            return target["webSocketDebuggerUrl"].split(f":{port}", 1)[1]
    return None


def evaluate(port, expression):
    path = page_socket(port)
    if path is None:
        raise LookupError("no tab shows page.html")
    socket = wsclient.WebSocket(HOST, port, path=path, timeout=30)
    try:
        socket.send_json({"id": 1, "method": "Runtime.evaluate",
                          "params": {"expression": expression, "returnByValue": True}})
        while True:
            message = socket.recv_json()
            if message.get("id") == 1:
                break
    finally:
        socket.close()
    if "error" in message or "exceptionDetails" in message.get("result", {}):
        raise RuntimeError(f"Runtime.evaluate({expression}) failed: {message}")
    return message["result"]["result"].get("value")


def main():
    command, port = sys.argv[1], int(sys.argv[2])
    if command == "load":
        html = open(sys.argv[3]).read()
        deadline = time.monotonic() + float(sys.argv[4])
        problem = "not tried"
        written = False
        while time.monotonic() < deadline:
            try:
                if not written:
                    written = evaluate(port, f"document.open(); document.write({json.dumps(html)}); document.close(); true")
                state = evaluate(port, "[document.readyState, (window.stacksLog || []).length].join(' ')")
                if state.split(" ")[1] != "0":
                    return 0
                problem = f"the page has not logged ready (document state, entries: {state})"
            except (OSError, LookupError, RuntimeError, wsclient.Closed) as error:
                problem = str(error)
            time.sleep(1)
        print(f"cdp.py: the page was not ready on port {port} within {sys.argv[4]} s: {problem}", file=sys.stderr)
        return 1
    if command == "log":
        for entry in json.loads(evaluate(port, "JSON.stringify(window.stacksLog)")):
            print(json.dumps(entry, separators=(",", ":")))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
