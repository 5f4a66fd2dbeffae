#!/usr/bin/env python3
"""The boot test's judge of the browser check (README.md, check browser_routing), standard
library only: compares what was played on the panel with what the page, gestured and libinput
saw.

Usage: browser-check.py RECORDING PAGE_JSON LIBINPUT_EVENTS COPY PANEL

RECORDING      the evemu recording played on the panel (its description gives the axes)
PAGE_JSON      what the page recorded (browser-page.html's window.boot, read by devtools.py):
               {geometry, touches (DOM), events (gestured's), errors, accepted}
LIBINPUT_EVENTS  `libinput debug-events` output while the recording played
COPY, PANEL    the event nodes of gestured's copy and of the panel (/dev/input/eventN)

Every played touch is placed on the output as libinput maps a direct-touch device onto it
(device value minus minimum, times the output's size, over the axis' range), and the page's own
boxes (getBoundingClientRect) say which element it landed on. Then:
- the page fills the output (kiosk mode): viewport = screen, device pixel ratio 1;
- gestured routed every touch as the element's rule says ("forwarded" on the element marked
  data-gestured-routing="forward", "claimed" elsewhere) and accepted the page's layout;
- each forwarded touch is one DOM touch sequence on that element: touchstart where it landed,
  touchmove when it moved, touchend where it lifted (within TOLERANCE), no touchcancel;
- no other DOM touch: nothing of a claimed touch reached the browser;
- gestured's tap and pan recognizers of the claimed element recognized and ended;
- libinput saw exactly the forwarded touches, on the copy, and nothing on the grabbed panel.
Prints one line per finding; exits 1 if any failed.
"""
import json
import os
import sys

# CSS pixels. Xwayland, through which Chromium gets the touches (in-guest.sh says why),
# truncates each wl_touch position to a whole pixel (wl_fixed_to_int), and run 5 of the check
# gave every DOM position up to 1.7 px up and left of libinput's mapping: (199, 199) for
# (200, 200), (165, 465) for (166.7, 466.7). Two pixels is 0.16 % of the output's width.
TOLERANCE = 2.0
FAILURES = []


def check(condition, message):
    print(("ok: " if condition else "FAILED: ") + message)
    if not condition:
        FAILURES.append(message)
    return condition


def played_touches(path):
    """The recording's touches, in the order they landed: down and last position (device
    values), whether they moved; and the x and y axes' (minimum, maximum)."""
    axes, touches, slots, current = {}, [], {}, 0
    for line in open(path):
        fields = line.split()
        if fields[:1] == ["A:"] and fields[1] in ("35", "36"):
            axes[fields[1]] = (int(fields[2]), int(fields[3]))
        if fields[:1] != ["E:"]:
            continue
        kind, code, value = int(fields[2], 16), int(fields[3], 16), int(fields[4])
        if kind != 3:
            continue
        if code == 0x2F:
            current = value
        elif code == 0x39:
            if value >= 0:
                slots[current] = {"down": None, "last": None, "moved": False}
                touches.append(slots[current])
            else:
                slots.pop(current, None)
        elif code in (0x35, 0x36) and current in slots:
            touch = slots[current]
            axis = 0 if code == 0x35 else 1
            if touch["down"] is None:
                touch["down"], touch["last"] = [None, None], [None, None]
            if touch["down"][axis] is None:
                touch["down"][axis] = value
            elif touch["last"][axis] != value:
                touch["moved"] = True
            touch["last"][axis] = value
    return touches, (axes["35"], axes["36"])


def on_output(point, axes, size):
    return tuple((value - low) * length / (high - low + 1) for value, (low, high), length in zip(point, axes, size))


def inside(point, box):
    return box["x"] <= point[0] < box["x"] + box["width"] and box["y"] <= point[1] < box["y"] + box["height"]


def main():
    if len(sys.argv) != 6:
        print("usage: browser-check.py RECORDING PAGE_JSON LIBINPUT_EVENTS COPY PANEL")
        sys.exit(2)
    recording, page_path, libinput_path, copy, panel = sys.argv[1:]
    page = json.load(open(page_path))
    geometry = page["geometry"]
    size = (geometry["screenWidth"], geometry["screenHeight"])
    check((geometry["innerWidth"], geometry["innerHeight"]) == size and geometry["devicePixelRatio"] == 1,
          "the page fills the output: viewport %dx%d, output %dx%d, device pixel ratio %s" % (
              geometry["innerWidth"], geometry["innerHeight"], size[0], size[1], geometry["devicePixelRatio"]))
    check(not page["errors"], "gestured.js reported no error %s" % (page["errors"] or ""))
    accepted = json.dumps(page["accepted"])
    check(page["accepted"] is not None and '"browserArea"' in accepted and '"gestureArea"' in accepted,
          "gestured accepted the page's layout (both boxes are views)")

    touches, axes = played_touches(recording)
    boxes = geometry["boxes"]
    forwarded, claimed = [], []
    for number, touch in enumerate(touches, 1):
        touch["number"] = number
        touch["downPx"], touch["lastPx"] = on_output(touch["down"], axes, size), on_output(touch["last"], axes, size)
        touch["box"] = next((name for name, box in boxes.items() if inside(touch["downPx"], box)), None)
        (forwarded if touch["box"] == "browserArea" else claimed).append(touch)
    print("played: %d touches, %d on browserArea (forward), %d elsewhere (claimed: %s)" % (
        len(touches), len(forwarded), len(claimed), ", ".join(str(t["box"]) for t in claimed)))
    check(forwarded and claimed, "the recording touches both the browser's element and another")

    # gestured's side: the route of each touch (ids in landing order) and the recognizers.
    routes = {}
    for event in page["events"]:
        if event.get("type") == "touches":
            for touch in event.get("touches", []):
                routes.setdefault(touch["id"], (touch.get("route", "claimed"), event.get("view")))
    in_order = [routes[key] for key in sorted(routes)]
    expected = [("forwarded" if t["box"] == "browserArea" else "claimed") for t in touches]
    check([route for route, _ in in_order] == expected,
          "gestured routed the touches %s (expected %s), views %s" % (
              [route for route, _ in in_order], expected, [view for _, view in in_order]))
    states = {}
    for event in page["events"]:
        if event.get("type") == "gesture":
            states.setdefault((event["recognizer"], event.get("view")), []).append(event["state"])
    print("gestures: %s" % json.dumps({"%s on %s" % key: value for key, value in states.items()}))
    check("recognized" in states.get(("areaTap", "gestureArea"), []), "gestured's areaTap recognized on gestureArea")
    pan = states.get(("areaPan", "gestureArea"), [])
    check(pan[:1] == ["began"] and pan[-1:] == ["ended"], "gestured's areaPan began and ended on gestureArea")

    # The browser's side: one DOM sequence per forwarded touch, in the places played.
    sequences, order = {}, []
    for event in page["touches"]:
        if event["type"] == "touchstart" or event["identifier"] not in sequences:
            sequences[event["identifier"]] = []
            order.append(sequences[event["identifier"]])
        sequences[event["identifier"]].append(event)
    pointers = {}
    for event in page.get("pointers", []):
        key = "%s %s on %s" % (event["type"], event["pointerType"], event["target"])
        pointers[key] = pointers.get(key, 0) + 1
    print("pointer events: %s" % (json.dumps(pointers) if pointers else "none"))
    check(len(order) == len(forwarded), "the browser got %d DOM touch sequences for %d forwarded touches, none for the %d claimed" % (
        len(order), len(forwarded), len(claimed)))
    for touch, events in zip(forwarded, order):
        first, last = events[0], events[-1]
        types = [event["type"] for event in events]
        start_ok = first["type"] == "touchstart" and first["target"] == "browserArea" \
            and abs(first["x"] - touch["downPx"][0]) <= TOLERANCE and abs(first["y"] - touch["downPx"][1]) <= TOLERANCE
        end_ok = last["type"] == "touchend" and "touchcancel" not in types \
            and abs(last["x"] - touch["lastPx"][0]) <= TOLERANCE and abs(last["y"] - touch["lastPx"][1]) <= TOLERANCE
        moves = types.count("touchmove")
        check(start_ok and end_ok and (moves > 0) == touch["moved"],
              "touch %d: %s on %s at (%.1f, %.1f) for (%.1f, %.1f) played, %d touchmove, %s at (%.1f, %.1f) for (%.1f, %.1f)" % (
                  touch["number"], first["type"], first["target"], first["x"], first["y"], *touch["downPx"],
                  moves, last["type"], last["x"], last["y"], *touch["lastPx"]))
    for touch in claimed:
        near = [event for event in page["touches"]
                if abs(event["x"] - touch["downPx"][0]) <= TOLERANCE and abs(event["y"] - touch["downPx"][1]) <= TOLERANCE]
        check(not near, "touch %d (claimed, on %s): no DOM touch where it landed" % (touch["number"], touch["box"]))

    # libinput's side: the copy's touches only, once each.
    copy_name, panel_name = os.path.basename(copy), os.path.basename(panel)
    downs = {}
    for line in open(libinput_path):
        fields = line.split()
        if len(fields) >= 2 and fields[1] in ("TOUCH_DOWN", "TOUCH_UP", "TOUCH_CANCEL"):
            device = fields[0].lstrip("-")
            downs.setdefault((device, fields[1]), 0)
            downs[(device, fields[1])] += 1
    print("libinput: %s" % ", ".join("%s %s x%d" % (device, kind, count) for (device, kind), count in sorted(downs.items())))
    check(downs.get((copy_name, "TOUCH_DOWN"), 0) == len(forwarded) and downs.get((copy_name, "TOUCH_UP"), 0) == len(forwarded)
          and not downs.get((copy_name, "TOUCH_CANCEL")),
          "libinput: %d TOUCH_DOWN and TOUCH_UP on the copy %s, no TOUCH_CANCEL" % (len(forwarded), copy_name))
    check(not any(device == panel_name for device, _ in downs), "libinput: nothing from the grabbed panel %s" % panel_name)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
