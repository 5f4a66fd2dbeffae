"""The web bridge with a real browser (SPEC 13): headless Chromium loads the example lobby
page, which imports gestured.js from the bridge and makes itself gestured's layout.

Checks, each printed as "ok: …" (the first failure raises and exits 1):
- the layout gestured holds, read back with hitTest on its Unix socket, answers every probe
  point as the browser's own hit testing does (elementFromPoint), at a window that is not the
  screen's size (so the scale is not 1);
- moving an element in the page changes gestured's hit result (through a view.update);
- a page origin that is not allowed gets 403, and no Access-Control-Allow-Origin for the module;
- a layout change without the token is refused with forbidden; with it, accepted;
- after gestured restarts, the page reconnects and sends its layout again, and a recording
  made from the page's own rectangles, served by `gestured replay --socket --realtime` through
  the bridge, fires the expected DOM events on the expected elements: a tap on the help
  button, touchUpInside on check-in, a pan on the carousel, a pinch on the map;
- every event the page's g object dispatched is one the daemon sent (same seq, in order);
- a screenshot of the page with the debug overlay, taken while two fingers pinch the map.

usage: browser_test.py --gestured BIN --bridge BIN --root PACKAGE_ROOT --workdir DIR [--screenshot PNG]
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
import wsclient  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

TOKEN = "web-test-0123456789abcdef"
WINDOW = (1280, 720)  # the screen is 1920 × 1080: a scale of 1.5


def ok(message):
    print("ok:", message, flush=True)


def chrome():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}", "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    for binary in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]:
        if os.path.exists(binary):
            options.binary_location = binary
            break
    driver_path = next((p for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(p)), None)
    driver = webdriver.Chrome(options=options, service=Service(driver_path) if driver_path else None)
    # --window-size is the window's, not the page's: make the viewport itself the size.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": 1, "mobile": False})
    return driver


# JavaScript run in the page.

RECORD_EVENTS = """
window.__domEvents = []; window.__gEvents = [];
for (const type of ["gestured:touches", "gestured:gesture", "gestured:control"]) {
  document.addEventListener(type, (e) => window.__domEvents.push({
    type: e.type, target: e.target.dataset.gesturedView, view: e.detail.view, seq: e.detail.seq,
    recognizer: e.detail.recognizer, state: e.detail.state, event: e.detail.event, scale: e.detail.scale,
    translationX: e.detail.translationX }));
}
window.gestured.addEventListener("event", (e) => window.__gEvents.push({ type: e.detail.type, seq: e.detail.seq }));
"""

# For every rendered marked element: its rectangle, and probe points (a 7 × 7 grid inset from
# the edges) with the id of the marked element the browser's own hit test lands on. Points
# within 1 CSS px of an element's edge are left out: Chrome snaps the hit point to its layout
# grid there, while gestured compares exact numbers.
PROBES = """
const out = [];
const marked = [...document.querySelectorAll("[data-gestured-view]")].filter((e) => e.getClientRects().length > 0);
const rects = marked.map((e) => e.getBoundingClientRect());
const nearEdge = (x, y) => rects.some((r) =>
  (y > r.top - 1 && y < r.bottom + 1 && (Math.abs(x - r.left) < 1 || Math.abs(x - r.right) < 1)) ||
  (x > r.left - 1 && x < r.right + 1 && (Math.abs(y - r.top) < 1 || Math.abs(y - r.bottom) < 1)));
for (const element of marked) {
  const r = element.getBoundingClientRect();
  const points = [];
  for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) {
    const x = r.left + 2 + (r.width - 4) * i / 6, y = r.top + 2 + (r.height - 4) * j / 6;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight || nearEdge(x, y)) continue;
    const hit = document.elementFromPoint(x, y);
    const marked = hit ? hit.closest("[data-gestured-view]") : null;
    points.push({ x, y, view: marked ? marked.dataset.gesturedView : null });
  }
  out.push({ id: element.dataset.gesturedView, rect: [r.left, r.top, r.width, r.height], points });
}
return { innerWidth, innerHeight, elements: out };
"""

RECTS = """
const out = {};
for (const e of document.querySelectorAll("[data-gestured-view]")) {
  const r = e.getBoundingClientRect();
  out[e.dataset.gesturedView] = [r.left, r.top, r.width, r.height];
}
return out;
"""


def screen_rect(rect, scale):
    return [v * scale for v in rect]


def center(rect):
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gestured", required=True)
    parser.add_argument("--bridge", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    work = args.workdir
    sock = os.path.join(work, "gestured.sock")
    page_port, bridge_port = harness.free_port(), harness.free_port()
    page_origin = f"http://127.0.0.1:{page_port}"
    config = os.path.join(work, "kiosk.json5")
    with open(config, "w") as f:
        # Touches are routed: the page marks its carousel as the browser's (docs/routing.md).
        f.write(harness.config_text(sock, bridge_port, [page_origin], TOKEN, routing={"default": "claim"}))
    # Until the page is measured, gestured serves a recording that never starts (it waits
    # for more subscribers than will come): only the layout requests matter.
    idle = os.path.join(work, "idle.evemu")
    idle_recording = evemu.Recording(1920, 1080)
    idle_recording.tap(0.0, 10, 10)
    idle_recording.write(idle)

    server = harness.serve_directory(os.path.join(args.root, "examples/web"), page_port)
    daemon = harness.start_replay(args.gestured, config, sock, idle, work, wait_clients=100, name="gestured-idle")
    bridge = harness.start_bridge(args.bridge, config, work)
    driver = None
    replay = None
    try:
        driver = chrome()
        driver.get(f"{page_origin}/index.html?bridge=127.0.0.1:{bridge_port}&token={TOKEN}&debug=1")
        harness.wait_for(lambda: driver.execute_script("return !!(window.gestured && window.gestured.layout)"), 30,
                         "the page to connect and its layout to be accepted")
        driver.execute_script(RECORD_EVENTS)
        ok("the page imported gestured.js from the bridge, connected and sent its layout")

        # 1. The layout gestured holds answers as the browser does. gestured's views are
        # rectangles; the browser cuts rounded corners out of its hit areas, so for this
        # comparison the corners are squared (docs/web.md lists the limit).
        client = harness.UnixClient(sock)
        driver.execute_script("const s = document.createElement('style'); s.id = 'square';"
                              "s.textContent = '* { border-radius: 0 !important; }'; document.head.appendChild(s)")
        probes = driver.execute_script(PROBES)
        driver.execute_script("document.getElementById('square').remove()")
        scale = 1920 / probes["innerWidth"]
        assert abs(scale - 1.5) < 0.01, f"the window is {probes['innerWidth']} CSS px wide, expected {WINDOW[0]}"
        compared, mismatches = 0, []
        for element in probes["elements"]:
            for point in element["points"]:
                expected = point["view"]
                got = client.hit(point["x"] * scale, point["y"] * scale)
                compared += 1
                if got != expected:
                    mismatches.append(f"({point['x']:.1f}, {point['y']:.1f}) px: browser {expected}, gestured {got}")
        assert not mismatches, f"{len(mismatches)} of {compared} probes differ:\n" + "\n".join(mismatches[:20])
        seen = {e["id"] for e in probes["elements"] if any(p["view"] == e["id"] for p in e["points"])}
        for view in ["lobby", "header", "logo", "language", "carouselBand", "photo1", "photo2", "venueMap",
                     "buttonRow", "checkIn", "map", "help", "welcomeDialog", "welcomeStart", "welcomeDismiss"]:
            assert view in seen, f"no probe landed on {view}"
        ok(f"gestured's layout answers {compared} probe points of {len(probes['elements'])} elements as the browser "
           f"does (scale {scale:g}, pass-through overlay, clipped photos, z-order included)")
        # The hidden staff panel is a hidden view: its area belongs to what is behind it.
        rects = driver.execute_script(RECTS)
        assert rects["staffPanel"][2] == 0, "the staff panel should not be rendered"

        # 2. Moving an element changes the hit result, through one view.update.
        watcher = harness.UnixClient(sock)
        assert watcher.request({"type": "subscribe", "kinds": ["layout"]})["ok"]
        help_rect = screen_rect(rects["help"], scale)
        old_only = (help_rect[0] + 20, help_rect[1] + help_rect[3] / 2)
        new_only = (help_rect[0] + help_rect[2] + 100, old_only[1])
        assert client.hit(*old_only) == "help" and client.hit(*new_only) == "buttonRow"
        driver.execute_script("document.getElementById('help').style.setProperty('--x', '1460')")
        harness.wait_for(lambda: client.hit(*new_only) == "help", 10, "gestured to see the moved button")
        assert client.hit(*old_only) == "buttonRow"
        message = watcher.recv()
        assert message["type"] == "layout" and "view.update of help" in message["message"], message
        watcher.close()
        ok("moving the help button moves its view in gestured (one view.update; hit results follow)")

        # 2b. A screen.set that halves gestured's screen: the page's layout follows (its
        # default scale is gestured's width over innerWidth), then back.
        check_in = center(screen_rect(rects["checkIn"], scale))
        assert client.hit(*check_in) == "checkIn"
        reply = client.request({"type": "screen.set", "rotation": 0, "width": 960, "height": 540})
        assert reply.get("ok"), reply
        harness.wait_for(lambda: client.hit(check_in[0] / 2, check_in[1] / 2) == "checkIn", 10,
                         "the page to send its layout in the halved screen's points")
        reply = client.request({"type": "screen.set", "rotation": 0, "width": 1920, "height": 1080})
        assert reply.get("ok"), reply
        harness.wait_for(lambda: client.hit(*check_in) == "checkIn", 10, "the page to follow the screen back")
        ok("after screen.set the page sends its layout in the new screen's points (and back)")

        # 3. Origins.
        try:
            wsclient.WebSocket("127.0.0.1", bridge_port, origin="http://evil.example:8080")
            raise AssertionError("a page from another origin opened the WebSocket")
        except wsclient.HandshakeRefused as refused:
            assert refused.status == 403, refused
        status, headers, body = wsclient.http_get("127.0.0.1", bridge_port, "/gestured.js", origin="http://evil.example")
        assert status == 200 and "access-control-allow-origin" not in headers, headers
        status, headers, body = wsclient.http_get("127.0.0.1", bridge_port, "/gestured.js", origin=page_origin)
        assert headers.get("access-control-allow-origin") == page_origin and headers["content-type"].startswith("text/javascript")
        # The minified build (web/dist), its source map named as the bridge serves it.
        with open(os.path.join(args.root, "web/dist/gestured.min.js"), "rb") as f:
            built = f.read().rstrip(b"\n")
        built = built[:built.rindex(b"\n//# sourceMappingURL=")] + b"\n//# sourceMappingURL=gestured.js.map\n"
        assert body == built, "the bridge serves another gestured.js than web/dist/gestured.min.js"
        ok("another origin gets 403 for /socket and no CORS header for /gestured.js; the module is web/dist/gestured.min.js")

        # 4. The token.
        layout = {"id": "intruder", "frame": [0, 0, 1920, 1080]}
        plain = wsclient.WebSocket("127.0.0.1", bridge_port, origin=page_origin)
        assert plain.recv_json()["canControl"] is False
        for request in [{"type": "layout.set", "layout": layout}, {"type": "view.update", "view": "help", "set": {"hidden": True}},
                        {"type": "reload"}]:
            answer = plain.request(dict(request, id=1))
            assert answer["type"] == "error" and answer["error"]["code"] == "forbidden", answer
        assert plain.request({"type": "subscribe", "id": 2, "kinds": ["gesture"]})["ok"], "subscribing needs no token"
        plain.close()
        assert client.hit(*new_only) == "help", "a refused layout.set changed the layout"
        ok("layout.set, view.update and reload without the token are refused (forbidden); subscribe is not")

        # 5. A recording made from the page's rectangles, through a restarted gestured. The
        # carousel is marked as the browser's first (data-gestured-routing="forward"): its
        # touches must come back forwarded, every other touch claimed.
        driver.execute_script('document.querySelector("[data-gestured-view=carousel]").dataset.gesturedRouting = "forward"')
        rects = {k: screen_rect(v, scale) for k, v in driver.execute_script(RECTS).items()}
        recording = evemu.Recording(1920, 1080)
        t = recording.tap(0.3, *center(rects["help"]))
        t = recording.tap(t + 0.5, *center(rects["checkIn"]))
        carousel = rects["carousel"]
        y = carousel[1] + 60  # above the welcome dialog
        t = recording.drag(t + 0.5, [(carousel[0] + 900, y), (carousel[0] + 400, y)], 0.5)
        map_center = center(rects["venueMap"])
        t = recording.pinch(t + 0.5, map_center, 80, 260, 0.5, hold=3.0)
        path = os.path.join(work, "lobby.evemu")
        recording.write(path)
        client.close()
        daemon.stop()
        harness.wait_for(lambda: not driver.execute_script("return window.gestured.connected"), 10, "the page to notice")
        daemon = harness.start_replay(args.gestured, config, sock, path, work, wait_clients=2, realtime=True,
                                      name="gestured-replay")
        tester = harness.UnixClient(sock)
        harness.wait_for(lambda: tester.request({"type": "status"})["clients"]["subscribed"] == 1
                         and tester.hit(*center(rects["help"])) == "help", 30,
                         "the page to reconnect, subscribe and send its layout again")
        ok("after gestured restarted, the page reconnected, subscribed and sent its layout again")
        assert tester.request({"type": "subscribe", "kinds": ["touches", "gesture", "control"]})["ok"]
        received = []
        shot = False
        while True:
            message = tester.recv()
            if message["type"] == "bye":
                break
            received.append(message)
            if (not shot and args.screenshot and message["type"] == "gesture" and message.get("recognizer") == "mapPinch"
                    and message["state"] == "changed" and message.get("scale", 0) > 3):
                # The fingers rest for 3 s now: the overlay shows them, their view and the winner.
                time.sleep(0.5)
                driver.save_screenshot(args.screenshot)
                shot = True
        harness.wait_for(lambda: driver.execute_script(
            "return window.__gEvents.length && window.__gEvents[window.__gEvents.length - 1].seq") == received[-1]["seq"],
            10, "the page to receive the last event")
        dom = driver.execute_script("return window.__domEvents")
        g_events = driver.execute_script("return window.__gEvents")

        assert [e["seq"] for e in g_events] == [e["seq"] for e in received], "g's events differ from the daemon's"
        ok(f"the page's g dispatched exactly the daemon's {len(received)} events, in order")
        routes = {}
        for message in received:
            if message["type"] == "touches":
                for touch in message["touches"]:
                    routes.setdefault(message["view"], set()).add(touch.get("route", "claimed"))
        # The carousel and the photos inside it inherit its rule.
        browser = {"carousel", "photo1", "photo2", "photo3", "photo4"}
        assert any(view in browser for view in routes), routes
        assert all(found == ({"forwarded"} if view in browser else {"claimed"}) for view, found in routes.items()), routes
        ok("data-gestured-routing: the carousel's touches are forwarded, every other touch claimed")
        for event in dom:
            assert event["target"] == event["view"], f"{event['type']} for {event['view']} was dispatched on {event['target']}"

        def find(**want):
            return [e for e in dom if all(e.get(k) == v for k, v in want.items())]

        assert find(type="gestured:gesture", recognizer="helpTap", state="recognized", target="help"), dom
        ok("a tap on the help button: gestured:gesture helpTap recognized on its element")
        assert find(type="gestured:control", event="touchUpInside", target="checkIn")
        assert find(type="gestured:touches", target="checkIn")
        ok("check-in: gestured:control touchUpInside (and its touches) on the button's element")
        pan = [e["state"] for e in find(type="gestured:gesture", recognizer="carouselPan", target="carousel")]
        assert pan and pan[0] == "began" and "changed" in pan and pan[-1] == "ended", pan
        translation = find(type="gestured:gesture", recognizer="carouselPan", state="ended")[0]["translationX"]
        assert abs(translation + 500) < 1, translation
        ok(f"a pan on the carousel: carouselPan began … ended on its element, translationX {translation:g} pt")
        pinch = find(type="gestured:gesture", recognizer="mapPinch", target="venueMap")
        assert pinch and pinch[0]["state"] == "began" and pinch[-1]["state"] == "ended", [p["state"] for p in pinch]
        final = max(p["scale"] for p in pinch if p["scale"] is not None)
        assert abs(final - 260 / 80) < 0.05, final
        ok(f"a pinch on the map: mapPinch began … ended on its element, scale {final:.3f}")
        assert driver.execute_script("return document.getElementById('ticker').textContent").startswith("Check-in"), \
            "the page did not act on touchUpInside"
        if args.screenshot:
            assert shot and os.path.getsize(args.screenshot) > 10000
            ok(f"screenshot with the debug overlay: {args.screenshot}")
        tester.close()
        assert daemon.proc.wait(20) == 0, "the replay did not end cleanly"
        assert bridge.alive(), "the bridge died"
    except Exception:
        for process in [daemon, bridge]:
            print(f"--- {process.name} ---\n{process.text()[-4000:]}", file=sys.stderr)
        if driver:
            for entry in driver.get_log("browser")[-30:]:
                print("browser:", entry.get("message"), file=sys.stderr)
        raise
    finally:
        if driver:
            driver.quit()
        daemon.stop()
        bridge.stop()
        server.shutdown()


if __name__ == "__main__":
    main()
