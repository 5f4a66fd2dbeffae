#!/usr/bin/env python3
"""Prints a JSON Lines event stream of gestured in the form two runs of the same recording
must share, one event a line: what a subscribed client received from the live daemon and what
`gestured replay` of the recording printed.

    normalise.py EVENTS.jsonl

Dropped, as in tools/vmtest/kernel-tests.sh: "seq" and "time" (live times are the kernel's,
replay times the recording's), device events (their messages name the source), and velocities
(they divide by the time between frames, which evemu-play reproduces only to within its sleep
granularity). Touch ids are renumbered by first appearance, so a stretch of a longer run (after
a replug or a restart) compares with a replay that starts from 1. Numbers are compared as
values (the client re-encodes the JSON it received). Every touch with its phase and position,
every view and responder list, every gesture with its state and translation, every control
event, and their order are kept.
"""
import json
import sys


def main():
    ids = {}

    def renumber(value):
        return ids.setdefault(value, len(ids) + 1)

    def walk(value):
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key in ("seq", "time"):
                    continue
                if key in ("velocityX", "velocityY"):
                    out[key] = "_"
                elif key in ("id", "touch") and isinstance(item, int):
                    out[key] = renumber(item)
                elif key == "touches" and isinstance(item, list) and all(isinstance(t, int) for t in item):
                    out[key] = [renumber(t) for t in item]
                else:
                    out[key] = walk(item)
            return out
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    with open(sys.argv[1]) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except ValueError as error:
                sys.exit("%s:%d: not JSON (%s)" % (sys.argv[1], number, error))
            if event.get("type") == "device":
                continue
            print(json.dumps(walk(event), separators=(",", ":")))


if __name__ == "__main__":
    main()
