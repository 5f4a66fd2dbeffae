#!/usr/bin/env python3
"""A gestured client in plain Python (standard library only).

gestured publishes touch deliveries, gestures and control events of a kiosk's touch panel as
JSON Lines on a Unix socket. This module is both a small library for kiosk programs and a
command-line tool:

    # print what happens on the screen, one sentence per event
    python3 gestured_client.py watch --kinds gesture,control

    # only the buttons of one panel
    python3 gestured_client.py watch --views 'buy*' --views checkout

    # which view is at a point, and why
    python3 gestured_client.py hit-test 120 40

    # send any request and print the reply (exit status 2 on an error reply)
    python3 gestured_client.py request '{"type":"view.update","view":"promo","set":{"hidden":true}}'

As a library:

    from gestured_client import GesturedClient
    with GesturedClient() as client:
        client.subscribe(kinds=["gesture", "control"])
        for event in client.events():
            if event["type"] == "control" and event["event"] == "touchUpInside":
                print("pressed", event["view"])

The protocol is described in docs/protocol.md of the gestured repository.
"""

import argparse
import collections
import json
import socket
import sys

DEFAULT_SOCKET = "/run/gestured/gestured.sock"


class GesturedError(Exception):
    """An error reply: `code` to branch on, `message` saying what to change, and for layouts
    `problems`, a list of {"path", "message"}."""

    def __init__(self, error):
        super().__init__("%s: %s" % (error.get("code"), error.get("message")))
        self.code = error.get("code")
        self.message = error.get("message")
        self.problems = error.get("problems", [])


class ConnectionClosed(Exception):
    """gestured closed the connection; `bye` is its goodbye line, if it sent one."""

    def __init__(self, bye=None):
        super().__init__(bye["message"] if bye else "gestured closed the connection")
        self.bye = bye


class GesturedClient:
    """One connection to gestured. Not thread-safe: read events and send requests from one
    thread. Events that arrive while a request waits for its reply are kept for events()."""

    def __init__(self, path=DEFAULT_SOCKET, timeout=None):
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.settimeout(timeout)
        self._socket.connect(path)
        self._reader = self._socket.makefile("rb")
        self._pending = collections.deque()
        self._next_id = 1
        self.bye = None
        self.hello = self._read()
        if self.hello.get("type") != "hello":
            raise RuntimeError("not a gestured socket: %r" % self.hello)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._reader.close()
        self._socket.close()

    # Requests ---------------------------------------------------------------------------

    def request(self, type, **fields):
        """Sends a request and returns its reply (a dict); raises GesturedError on an error reply."""
        request_id = self._next_id
        self._next_id += 1
        message = dict(fields, type=type, id=request_id)
        self._socket.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while True:
            line = self._read()
            kind = line.get("type")
            if kind == "reply" and line.get("re") == request_id:
                return line
            if kind == "error" and line.get("re") in (request_id, None):
                raise GesturedError(line["error"])
            self._pending.append(line)

    def subscribe(self, kinds=None, views=None, recognizers=None, trace=False):
        """Starts (or changes) the event stream: nothing arrives before this. Filters are lists;
        views and recognizers take * and ? globs."""
        fields = {}
        if kinds:
            fields["kinds"] = list(kinds)
        if views:
            fields["views"] = list(views)
        if recognizers:
            fields["recognizers"] = list(recognizers)
        if trace:
            fields["trace"] = True
        return self.request("subscribe", **fields)

    def set_layout(self, layout):
        """Replaces the layout (a root view dict); returns the new revision."""
        return self.request("layout.set", layout=layout)["revision"]

    def update_view(self, view, **changes):
        """Changes keys of one view, e.g. update_view("promo", hidden=True); returns the revision."""
        return self.request("view.update", view=view, set=changes)["revision"]

    def hit_test(self, x, y):
        """The view that would take a touch at (x, y) and the hit-test trace."""
        reply = self.request("hitTest", x=x, y=y)
        return reply["view"], reply["trace"]

    def status(self):
        return self.request("status")

    def reload(self):
        return self.request("reload")

    # Events -----------------------------------------------------------------------------

    def events(self):
        """Yields events (dicts with "type", "seq", "time", …) until gestured says goodbye."""
        while True:
            if self._pending:
                line = self._pending.popleft()
            else:
                try:
                    line = self._read()
                except ConnectionClosed:
                    return
            kind = line.get("type")
            if kind == "error":
                raise GesturedError(line["error"])
            if kind in ("reply", "hello"):
                continue
            yield line

    def _read(self):
        line = self._reader.readline()
        if not line:
            raise ConnectionClosed(self.bye)
        message = json.loads(line)
        if message.get("type") == "bye":
            self.bye = message
            raise ConnectionClosed(message)
        return message


def describe(event):
    """One sentence for a person: 'pan changed on "carousel" (carouselPan) translation 40,0'."""
    kind = event["type"]
    if kind == "gesture":
        text = '%s %s on "%s" (%s)' % (event["kind"], event["state"], event["view"], event["recognizer"])
        if "translationX" in event:
            text += " translation %g,%g" % (event["translationX"], event["translationY"])
        if "scale" in event:
            text += " scale %g" % event["scale"]
        if "rotation" in event:
            text += " rotation %g" % event["rotation"]
        if "direction" in event:
            text += " direction %s" % event["direction"]
        if "taps" in event:
            text += " taps %d" % event["taps"]
        return text
    if kind == "control":
        return '%s on "%s" (touch %d)' % (event["event"], event["view"], event["touch"])
    if kind == "touches":
        ids = ",".join(str(touch["id"]) for touch in event["touches"])
        return 'touches %s on "%s" via %s (touch %s)' % (event["phase"], event["view"], " > ".join(event["responders"]), ids)
    if kind == "hitTest":
        return "hit test at %g,%g => %s" % (event["x"], event["y"], event["view"] or "none")
    return "%s: %s" % (kind, event.get("message", ""))


def _split(values):
    return [item for value in values or [] for item in value.split(",") if item]


def main(argv=None):
    parser = argparse.ArgumentParser(description="A gestured client (Python standard library only).")
    parser.add_argument("--socket", default=DEFAULT_SOCKET, help="gestured's socket (default %(default)s)")
    commands = parser.add_subparsers(dest="command", required=True)
    watch = commands.add_parser("watch", help="subscribe and print one sentence per event")
    watch.add_argument("--kinds", action="append", help="event types, comma-separated")
    watch.add_argument("--views", action="append", help="view ids or globs")
    watch.add_argument("--recognizers", action="append", help="recognizer ids or globs")
    watch.add_argument("--json", action="store_true", help="print the events as JSON Lines instead")
    hit = commands.add_parser("hit-test", help="the view at a point, with the trace")
    hit.add_argument("x", type=float)
    hit.add_argument("y", type=float)
    commands.add_parser("status", help="the daemon's status")
    raw = commands.add_parser("request", help="send one request (JSON) and print the reply")
    raw.add_argument("json")
    args = parser.parse_args(argv)

    try:
        client = GesturedClient(args.socket)
    except OSError as error:
        print("%s: cannot connect (%s); is gestured running?" % (args.socket, error.strerror), file=sys.stderr)
        return 1
    with client:
        try:
            if args.command == "watch":
                client.subscribe(_split(args.kinds), _split(args.views), _split(args.recognizers))
                for event in client.events():
                    print(json.dumps(event, separators=(",", ":")) if args.json else describe(event), flush=True)
                if client.bye:
                    print("gestured: %s" % client.bye["message"], file=sys.stderr)
            elif args.command == "hit-test":
                view, trace = client.hit_test(args.x, args.y)
                print("\n".join(trace + ["=> %s" % (view or "none")]))
            elif args.command == "status":
                print(json.dumps(client.status(), indent=2))
            elif args.command == "request":
                request = json.loads(args.json)
                reply = client.request(request.pop("type"), **{k: v for k, v in request.items() if k != "id"})
                print(json.dumps(reply, separators=(",", ":")))
        except GesturedError as error:
            print(json.dumps({"code": error.code, "message": error.message, "problems": error.problems}))
            return 2
        except ConnectionClosed as closed:
            print("gestured closed the connection: %s" % closed, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
