#!/usr/bin/python3
"""Prints what each observer of scripts/display-stacks.sh saw, episode by episode.

usage: summarise.py OUT RUN...

Each observer's log (libinput debug-events on the copy, `xinput test-xi2 --root`, Chromium's
WAYLAND_DEBUG wl_touch events, the page's event log) is cut into episodes where more than
GAP_SECONDS pass without an event (the session's episodes are 3 s apart, its events within
0.4 s of each other), and each episode printed as its events in order, repeated events folded
("TOUCH_MOTION x4"). The session's episodes (late-claim.touches): 1 tap, 2 one finger claimed
late, 3 tap, 4 three fingers claimed late, 5 tap, 6 a short drag claimed late.
"""
import json
import os
import re
import sys

GAP_SECONDS = 1.5
EPISODES = ["1 tap", "2 one finger claimed late", "3 tap", "4 three fingers claimed late", "5 tap",
            "6 short drag claimed late"]


# Each reader gives (seconds, label, touch, change): change is +1 when the touch begins, -1
# when it ends (up or cancel), 0 otherwise; touch is None for events of no touch (a click).


def copy(path):
    """evemu-record of the copy, what gestured wrote: per slot, a contact down, its tool type
    changing (finger, palm), its lift; positions left out."""
    events, slot, tools = [], 0, {0: "finger", 1: "pen", 2: "palm"}
    for line in open(path, errors="replace"):
        fields = line.split()
        if len(fields) < 5 or fields[0] != "E:" or fields[2] != "0003":
            continue
        seconds, code, value = float(fields[1]), fields[3], int(fields[4])
        if code == "002f":
            slot = value
        elif code == "0039":
            events.append((seconds, f"down({slot})" if value >= 0 else f"lift({slot})", slot, 1 if value >= 0 else -1))
        elif code == "0037":
            events.append((seconds, f"{tools.get(value, value)}({slot})", slot, 0))
    return events


def libinput(path):
    """libinput debug-events: TOUCH_* with the seat slot; times are from libinput's first event."""
    events = []
    for line in open(path, errors="replace"):
        m = re.search(r"\b(TOUCH_\w+)\s+\+(\d+\.\d+)s(?:\s+(\d+) \((\d+)\))?", line)
        if not m or m.group(1) == "TOUCH_FRAME":
            continue
        kind, seconds, slot = m.group(1), float(m.group(2)), m.group(4)
        # The first event prints 2^32 ms (docs/routing.md): it is the start.
        seconds = 0.0 if seconds > 100000 else seconds
        change = {"TOUCH_DOWN": 1, "TOUCH_UP": -1, "TOUCH_CANCEL": -1}.get(kind, 0)
        events.append((seconds, f"{kind}({slot})", slot, change))
    return events


def xi2(path):
    """xinput test-xi2 --root: the copy's own touch events (device == source: X repeats each
    for the master pointer) with the touch id and flags; it prints no times, so episodes are
    cut where no touch is down."""
    events, current = [], None
    for line in open(path, errors="replace"):
        m = re.match(r"EVENT type \d+ \((\w+)\)", line)
        if m:
            current = {"kind": m.group(1)}
            continue
        if current is None:
            continue
        m = re.match(r"\s+(device|detail|flags):\s*(.*)", line)
        if m:
            current[m.group(1)] = m.group(2).strip()
        if all(k in current for k in ("device", "detail", "flags")):
            kind = current["kind"]
            device = current["device"].replace("(", "").replace(")", "").split()
            if kind in ("TouchBegin", "TouchUpdate", "TouchEnd", "TouchOwnership") and device[0] == device[-1]:
                flags = f" [{current['flags']}]" if current["flags"] not in ("", "0") else ""
                change = {"TouchBegin": 1, "TouchEnd": -1}.get(kind, 0)
                events.append((None, f"{kind}({current['detail']}){flags}", current["detail"], change))
            current = None
    return events


def wayland(path):
    """WAYLAND_DEBUG=client of Chromium under cage: the wl_touch events it received. Chromium's
    own libwayland prints `wl_touch#N` (cage's Xwayland, another client, prints `@`); cage's log
    shares the file, so a line may hold both."""
    events, ids = [], {}
    for line in open(path, errors="replace"):
        m = re.search(r"\[(\d+):(\d+):(\d+\.\d+)\]\s+(?:\{[^}]*\}\s+)?wl_touch#\d+\.(\w+)\(([^)]*)\)", line)
        if not m:
            continue
        seconds = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
        kind, args = m.group(4), [a.strip() for a in m.group(5).split(",")]
        if kind == "frame":
            continue
        index = {"down": 3, "up": 2, "motion": 1}.get(kind)
        touch = args[index] if index is not None and index < len(args) else None
        change = {"down": 1, "up": -1}.get(kind, 0)
        if kind == "cancel":
            events.append((seconds, "cancel", None, 0))
            continue
        events.append((seconds, f"{kind}({touch})", touch, change))
    return events


def page(path):
    """The page's log: touch, pointer and click events."""
    events = []
    for line in open(path):
        entry = json.loads(line)
        kind = entry["type"]
        if kind == "ready":
            continue
        seconds = entry["t"] / 1000
        if "changed" in entry:
            for identifier, _, _ in entry["changed"]:
                change = {"touchstart": 1, "touchend": -1, "touchcancel": -1}.get(kind, 0)
                events.append((seconds, f"{kind}({identifier})", f"t{identifier}", change))
        elif "id" in entry:
            change = {"pointerdown": 1, "pointerup": -1, "pointercancel": -1}[kind]
            events.append((seconds, f"{kind}({entry['id']})", f"p{entry['id']}", change))
        else:
            events.append((seconds, kind, None, 0))
    return events


def episodes(events):
    """Cut where a touch begins while none is down, or GAP_SECONDS after the last event (a
    stack that never ended a touch)."""
    groups, down, last = [], set(), None
    for seconds, label, touch, change in events:
        gap = seconds is not None and last is not None and seconds - last > GAP_SECONDS
        if change > 0 and (not down or gap) or not groups:
            groups.append([])
            if gap:
                down = set()
        if change > 0:
            down.add(touch)
        elif change < 0:
            down.discard(touch)
        groups[-1].append(label)
        last = seconds if seconds is not None else last
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
    ("the copy (evemu-record: what gestured wrote)", "copy.evemu", copy),
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
