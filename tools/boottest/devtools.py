#!/usr/bin/env python3
"""The boot test's client of Chromium's DevTools protocol, standard library only: evaluates a
JavaScript expression in the browser's page and prints its value as JSON.

Usage: devtools.py [--true] PORT EXPRESSION
       devtools.py --navigate PORT URL

PORT is Chromium's --remote-debugging-port on 127.0.0.1. The page is the first target of type
"page" (GET /json/list); the expression runs there with Runtime.evaluate, promises awaited, the
value returned by value. Exit status 0 with the value printed; 1 with the reason when the
browser, the page or the expression failed; with --true, also 1 unless the value is exactly
true (for the test's waits on a condition). --navigate loads URL in the page (Page.navigate)
and prints the reply.
"""
import http.client
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boot_websocket import WebSocketError, open_websocket, read_frame, send_frame  # noqa: E402

TIMEOUT = 60  # the guest's CPU is emulated


def fail(message):
    print("devtools: " + message)
    sys.exit(1)


def page_socket_path(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    connection.request("GET", "/json/list")
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 200:
        fail("GET /json/list: HTTP %d %s" % (response.status, response.reason))
    pages = [target for target in json.loads(body) if target.get("type") == "page"]
    if not pages or "webSocketDebuggerUrl" not in pages[0]:
        fail("no page among the browser's targets: %s" % body[:300].decode(errors="replace"))
    url = pages[0]["webSocketDebuggerUrl"]  # ws://127.0.0.1:PORT/devtools/page/ID
    return url[url.index("/devtools/"):]


def call(port, method, params):
    """One DevTools command on the page: its result, or exit 1 with the protocol's error."""
    sock, buffered, _ = open_websocket("127.0.0.1", port, page_socket_path(port), TIMEOUT)
    send_frame(sock, 1, json.dumps({"id": 1, "method": method, "params": params}).encode())
    while True:
        opcode, payload, buffered = read_frame(sock, buffered)
        if opcode == 8:
            fail("the browser closed the DevTools connection")
        if opcode != 1:
            continue
        message = json.loads(payload)
        if message.get("id") == 1:
            break
    send_frame(sock, 8, b"\x03\xe8")
    sock.close()
    if "error" in message:
        fail("%s: %s" % (method, json.dumps(message["error"])))
    return message["result"]


def evaluate(port, expression):
    result = call(port, "Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
    if "exceptionDetails" in result:
        details = result["exceptionDetails"]
        fail("the page threw: %s" % details.get("exception", {}).get("description", details.get("text")))
    return result["result"].get("value")


def main():
    arguments = sys.argv[1:]
    mode = arguments[0] if arguments[:1] in (["--true"], ["--navigate"]) else None
    if mode:
        arguments = arguments[1:]
    if len(arguments) != 2:
        fail("usage: devtools.py [--true] PORT EXPRESSION | devtools.py --navigate PORT URL")
    try:
        if mode == "--navigate":
            value = call(int(arguments[0]), "Page.navigate", {"url": arguments[1]})
        else:
            value = evaluate(int(arguments[0]), arguments[1])
    except (WebSocketError, OSError, ValueError) as error:
        fail(str(error))
    print(json.dumps(value))
    if mode == "--true" and value is not True:
        sys.exit(1)


if __name__ == "__main__":
    main()
