#!/usr/bin/python3
"""Prints what each observer of scripts/display-stacks.sh saw, episode by episode.

usage: summarise.py OUT RUN...

Each observer's log (libinput debug-events on the copy, `xinput test-xi2 --root`, Chromium's
WAYLAND_DEBUG wl_touch events, the page's event log) is cut into episodes where more than
GAP_SECONDS pass without an event (the session's episodes are 3 s apart, its events within
0.4 s of each other), and each episode printed as its events in order, repeated events folded
("TOUCH_MOTION x4"). The session's episodes (late-claim.touches): 1 tap, 2 one finger claimed
late, 3 tap, 4 three fingers claimed late, 5 tap.
"""
import json
import os
import re
import sys

GAP_SECONDS = 1.5
EPISODES = ["1 tap", "2 one finger claimed late", "3 tap", "4 three fingers claimed late", "5 tap"]


def libinput(path):
    """(seconds, event) from libinput debug-events: TOUCH_* with its seat slot."""
    events, clock = [], 0.0
    for line in open(path, errors="replace"):
        m = re.search(r"\b(TOUCH_\w+)\s+\+(\d+\.\d+)s(?:\s+(\d+) \((\d+)\))?", line)
        if not m:
            continue
        kind, delta = m.group(1), float(m.group(2))
        # The first event prints a bogus delta (docs/routing.md): count only plausible ones.
        clock = clock + delta if delta < 100000 else clock
        if kind == "TOUCH_FRAME":
            continue
        events.append((clock, kind + (f"({m.group(4)})" if m.group(4) else "")))
    return events


def xi2(path):
    """(seconds, event) from xinput test-xi2: touch and ownership events with their detail
    (the touch id), from the copy's device only (the panel is grabbed and sends nothing)."""
    events, current = [], None
    for line in open(path, errors="replace"):
        m = re.match(r"EVENT type \d+ \((\w+)\)", line)
        if m:
            current = {"kind": m.group(1)}
            continue
        if current is None:
            continue
        m = re.match(r"\s+(time|detail|flags):\s*(.*)", line)
        if m:
            current[m.group(1)] = m.group(2).strip()
            if "time" in current and "detail" in current and "flags" in current:
                if current["kind"].startswith("Touch"):
                    flags = f" [{current['flags']}]" if current["flags"] not in ("", "0") else ""
                    events.append((int(current["time"]) / 1000, f"{current['kind']}({current['detail']}){flags}"))
                current = None
    return events


def wayland(path):
    """(seconds, event) from WAYLAND_DEBUG=client: wl_touch events the client received."""
    events = []
    for line in open(path, errors="replace"):
        m = re.match(r"\[(\d+):(\d+):(\d+\.\d+)\]\s+wl_touch[#@]\d+\.(\w+)\((.*)\)", line)
        if not m:
            continue
        seconds = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
        kind, args = m.group(4), m.group(5).split(", ")
        if kind == "frame":
            continue
        touch = {"down": 3, "up": 2, "motion": 1}.get(kind)
        events.append((seconds, f"{kind}({args[touch]})" if touch is not None and touch < len(args) else kind))
    return events


def page(path):
    """(seconds, event) from the page's log: touch, pointer, click events."""
    events = []
    for line in open(path):
        entry = json.loads(line)
        kind = entry["type"]
        if kind == "ready":
            continue
        detail = ""
        if "changed" in entry:
            detail = "(" + ",".join(str(t[0]) for t in entry["changed"]) + f"; {entry['down']} down)"
        elif "id" in entry:
            detail = f"({entry['id']})"
        events.append((entry["t"] / 1000, kind + detail))
    return events


def episodes(events):
    groups, last = [], None
    for seconds, event in events:
        if last is None or seconds - last > GAP_SECONDS:
            groups.append([])
        groups[-1].append(event)
        last = seconds
    return groups


def folded(events):
    out = []
    for event in events:
        if out and out[-1][0] == event:
            out[-1][1] += 1
        else:
            out.append([event, 1])
    return " ".join(e if n == 1 else f"{e} x{n}" for e, n in out)


OBSERVERS = [
    ("libinput on the copy", "libinput.txt", libinput),
    ("X: xinput test-xi2 --root", "xi2.txt", xi2),
    ("cage: Chromium's wl_touch (WAYLAND_DEBUG)", "cage.out", wayland),
    ("page (Chromium)", "page.jsonl", page),
]


def main():
    out, runs = sys.argv[1], sys.argv[2:]
    versions = os.path.join(out, "versions.txt")
    if os.path.exists(versions):
        print(open(versions).read().rstrip())
    for run in runs:
        print(f"\n== {run}")
        for title, name, reader in OBSERVERS:
            path = os.path.join(out, run, name)
            if not os.path.exists(path):
                continue
            groups = episodes(reader(path))
            print(f"  {title}: {len(groups)} episodes")
            for i, group in enumerate(groups):
                label = EPISODES[i] if i < len(EPISODES) and len(groups) == len(EPISODES) else f"{i + 1}"
                print(f"    {label}: {folded(group)}")


if __name__ == "__main__":
    main()
