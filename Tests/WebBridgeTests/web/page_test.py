"""The page library (web/gestured.js) in headless Chromium, against the real gestured and
gestured-web (docs/web.md § The page library). The page is written into the work directory
with a copy of web/gestured.js beside it, as a page that copies the module would have it.

Checks, each printed as "ok: …" (the first failure raises and exits 1):
- the page loads while neither gestured nor the bridge runs, keeps trying, and connects once
  they come up;
- under a device pixel ratio of 1.5 and a page (pinch) zoom of 1.5, the layout gestured holds
  puts every card where the browser shows it, and gestured's events carry clientX/clientY,
  offsetX/offsetY that match getBoundingClientRect(), deltaX in CSS pixels, and a timeStamp on
  performance.now()'s clock; per-state events (gestured:panstart …) reach the element and the
  Recognizer of g.recognizer();
- an infinite CSS animation is followed every frame, by view.update and never layout.set,
  within one frame;
- an invalid recognizer is dropped alone, its element named in an error event, while the rest
  of the layout (the other recognizer on the same element too) applies; a JSON5 attribute that
  cannot be read is named in a warning;
- a viewport whose shape is not the screen's gets a warning;
- a refused request (a page without the token changing the layout) gets an error event;
- connect() rejects with "daemon-unavailable", "timeout" and "aborted" where it should;
- the debug overlay, turned on with `g.debug = true`, asks for the contacts stream and draws
  the two fingers of a pinch on #map where the recording has them (within 2 CSS px), marked as
  held by mapPinch, after the recognizer took them from the view; turned off, it asks no more.

With --contract (the bridge answers GET /gestured/check and the daemon sends `superseded`, the
two halves of issue 28 together): "origin-refused" (a page from localhost while web.origins
allows 127.0.0.1), "token-refused", and a `superseded` event when another client takes the
layout. Without it those checks print "waiting: …".

usage: page_test.py --gestured BIN --bridge BIN --root PACKAGE_ROOT --workdir DIR [--contract]
"""

import functools
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

TOKEN = "page-test-0123456789abcdef"
WINDOW = (1280, 720)
SCREEN = (1920, 1080)
RATIO = 1.5  # devicePixelRatio
ZOOM = 1.5  # the page's zoom (visualViewport.scale)
SLIDE = 200.0  # the animated element's speed, CSS px per second

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>gestured page test</title>
<style>
  html, body { margin: 0; width: 100vw; height: 100vh; overflow: hidden; background: #eee; }
  .card { position: absolute; top: 100px; width: 160px; height: 120px; background: #68a; }
  #card1 { left: 40px; } #card2 { left: 220px; } #card3 { left: 400px; }
  #bad { left: 40px; top: 260px; height: 100px; } #broken { left: 220px; top: 260px; height: 100px; }
  #spinner { position: absolute; left: 0; top: 400px; width: 80px; height: 40px; background: #a64;
             animation: slide 3s linear infinite alternate; }
  @keyframes slide { from { transform: translateX(0); } to { transform: translateX(600px); } }
</style></head>
<body data-gestured-view="page">
  <div id="card1" class="card" data-gestured-view="card1"></div>
  <div id="card2" class="card" data-gestured-view="card2"
       data-gestured-recognizers="[{id: 'card2Tap', type: 'tap'}, /* JSON5 */]"></div>
  <div id="card3" class="card" data-gestured-view="card3">
    <div id="badge" data-gestured-view="badge" style="position: fixed; left: 700px; top: 20px; width: 40px; height: 40px"></div>
  </div>
  <div id="tilted" data-gestured-view="tilted"
       style="position: absolute; left: 600px; top: 260px; width: 100px; height: 60px; transform: rotate(20deg)"></div>
  <div id="bad" class="card" data-gestured-view="bad"
       data-gestured-recognizers="[{id: 'badPan', type: 'pan', minimumTouches: -1}, {id: 'goodTap', type: 'tap'}]"></div>
  <div id="broken" class="card" data-gestured-view="broken" data-gestured-recognizers="[{id: 'x' type: 'tap'}]"></div>
  <div id="spinner" data-gestured-view="spinner"></div>
  <div id="map" data-gestured-view="map" data-gestured-recognizers="[{id: 'mapPinch', type: 'pinch'}]"
       style="position: absolute; left: 580px; top: 100px; width: 240px; height: 140px; background: #6a8"></div>
<script type="module">
import { connect } from "./gestured.js";
const params = new URLSearchParams(location.search);
window.__log = []; window.__errors = []; window.__warnings = []; window.__superseded = []; window.__own = [];
window.__state = "connecting";
const record = (event) => {
  const d = event.detail;
  window.__log.push({ type: event.type, target: event.currentTarget.id, at: performance.now(), seq: d.seq,
    recognizer: d.recognizer, state: d.state, clientX: d.clientX, clientY: d.clientY, offsetX: d.offsetX,
    offsetY: d.offsetY, deltaX: d.deltaX, translationX: d.translationX, velocityX: d.velocityX,
    screenVelocityX: d.screenVelocityX, timeStamp: d.timeStamp, x: d.x, y: d.y });
};
for (const id of ["card1", "card2", "card3", "bad"]) {
  for (const type of ["gestured:tap", "gestured:panstart", "gestured:panmove", "gestured:panend", "gestured:gesture"]) {
    document.getElementById(id).addEventListener(type, record);
  }
}
try {
  const g = await connect({ bridge: params.get("bridge"), token: params.get("token") ?? undefined,
                            timeout: 120000, kinds: ["gesture", "control", "touches"] });
  window.gestured = g;
  g.addEventListener("error", (e) => window.__errors.push({ code: e.detail.code, message: e.detail.message,
    request: e.detail.request, selector: e.detail.selector, selectors: (e.detail.elements ?? []).map((x) => x.selector) }));
  g.addEventListener("warning", (e) => window.__warnings.push({ code: e.detail.code, message: e.detail.message,
    selector: e.detail.selector }));
  g.addEventListener("superseded", (e) => window.__superseded.push(e.detail));
  const pan = g.recognizer("#card1", { id: "card1Pan", type: "pan" });
  pan.on("panstart panmove panend", (e) => window.__own.push(e.type));
  g.observe(document.body);
  window.__state = "connected";
} catch (error) {
  window.__state = "failed: " + error.code + ": " + error.message;
}
</script>
</body></html>
"""

# connect() in the page with the given options; resolves to the code it rejected with.
CONNECT = """
const [options, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
const { connect } = await import("./gestured.js");
const controller = new AbortController();
if (options.abortAfter) { setTimeout(() => controller.abort(), options.abortAfter); options.signal = controller.signal; }
delete options.abortAfter;
const started = performance.now();
try {
  const g = await connect(options);
  g.close();
  done({ code: "connected", ms: performance.now() - started });
} catch (error) {
  done({ code: error.code, cause: error.cause, message: error.message, ms: performance.now() - started,
         isError: error instanceof Error });
}
})();
"""

RECTS = """
const out = {};
for (const e of document.querySelectorAll("[data-gestured-view]")) {
  const r = e.getBoundingClientRect();
  out[e.dataset.gesturedView] = [r.left, r.top, r.width, r.height];
}
const v = visualViewport;
return { rects: out, innerWidth, innerHeight, ratio: devicePixelRatio,
         zoom: v.scale, left: v.offsetLeft, top: v.offsetTop };
"""


# The JSON5 reader: a text, and the value it reads or a part of its error message.
JSON5_CASES = [
    ("[{id: 'a', type: \"pan\", // a comment\n maximumTouches: 1,}, /* another */]",
     [{"id": "a", "type": "pan", "maximumTouches": 1}]),
    ("{a: +.5, b: 0x1F, c: -2e3, d: [1, [2,],], e: 'it\\'s', f: \"\\u00e9\\n\", $g_1: null, h: true}",
     {"a": 0.5, "b": 31, "c": -2000, "d": [1, [2]], "e": "it's", "f": "\u00e9\n", "$g_1": None, "h": True}),
    ("{__proto__: 1}", {"__proto__": 1}),
    ("{a: 1,\n  b: 2\n  c: 3}", "line 3, column 3"),
    ("{a: 1, a: 2}", 'the key "a" is repeated'),
    ("['x]", "a string that is not closed"),
    ("[1,,2]", "expected a value"),
    ("[1] x", 'unexpected "x" after the value'),
    ("/* open", "a comment that is not closed"),
    ("[" * 33 + "]" * 33, "more than 32 levels of nesting"),
    ("[" * 32 + "]" * 32, functools.reduce(lambda inner, _: [inner], range(31), [])),
    ('"' + "x" * 65536 + '"', "at most 65536 are read"),
]


def ok(message):
    print("ok:", message, flush=True)


def waiting(message):
    print("waiting:", message, flush=True)


def chrome():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}", "--hide-scrollbars",
                     f"--force-device-scale-factor={RATIO}"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for binary in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]:
        if os.path.exists(binary):
            options.binary_location = binary
            break
    driver_path = next((p for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(p)), None)
    driver = webdriver.Chrome(options=options, service=Service(driver_path) if driver_path else None)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": RATIO, "mobile": False})
    driver.set_script_timeout(30)
    return driver


def to_screen(metrics, x, y):
    """Where a client CSS pixel is on the screen: the visual viewport fills it."""
    scale = SCREEN[0] * metrics["zoom"] / metrics["innerWidth"]
    return (x - metrics["left"]) * scale, (y - metrics["top"]) * scale


def center(rect):
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def main():
    args, work, sock, bridge_port, config = harness.test_setup(lambda p: (
        p.add_argument("--root", required=True), p.add_argument("--contract", action="store_true")))
    page_port = harness.free_port()
    page_origin = f"http://127.0.0.1:{page_port}"
    with open(config, "w") as f:
        f.write(harness.config_text(sock, bridge_port, [page_origin], TOKEN, width=SCREEN[0], height=SCREEN[1]))
    site = os.path.join(work, "site")
    os.makedirs(site)
    shutil.copy(os.path.join(args.root, "web/gestured.js"), os.path.join(site, "gestured.js"))
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(PAGE)
    server = harness.serve_directory(site, page_port)
    daemon = bridge = driver = None
    try:
        # 1. The page loads first: no bridge, no daemon.
        driver = chrome()
        driver.get(f"{page_origin}/index.html?bridge=127.0.0.1:{bridge_port}&token={TOKEN}")
        driver.execute_cdp_cmd("Emulation.setPageScaleFactor", {"pageScaleFactor": ZOOM})
        harness.wait_for(lambda: abs(driver.execute_script("return visualViewport.scale") - ZOOM) < 1e-3, 10,
                         "the page zoom to apply")
        time.sleep(2.0)
        state = driver.execute_script("return window.__state")
        assert state == "connecting", f"with no bridge the page should still be connecting, it is {state!r}"
        metrics = driver.execute_script(RECTS)
        assert abs(metrics["ratio"] - RATIO) < 1e-3 and abs(metrics["zoom"] - ZOOM) < 1e-3, metrics
        rects = metrics["rects"]

        # A recording made from the page's rectangles, in the screen's points.
        recording = evemu.Recording(*SCREEN)
        t = recording.tap(0.3, *to_screen(metrics, *center(rects["card2"])))
        t = recording.tap(t + 0.4, *to_screen(metrics, *center(rects["bad"])))
        start = to_screen(metrics, *center(rects["card1"]))
        t = recording.drag(t + 0.4, [start, (start[0] + 150, start[1])], 0.4)
        # A pinch on #map, spreading from 40 to 160 CSS px, then resting 1.2 s before lifting.
        map_center = to_screen(metrics, *center(rects["map"]))
        points_per_px = SCREEN[0] * ZOOM / WINDOW[0]
        pinch_gaps = (40 * points_per_px, 160 * points_per_px)
        t = recording.pinch(t + 0.4, map_center, *pinch_gaps, 0.5, hold=1.2)
        path = os.path.join(work, "page.evemu")
        recording.write(path)

        # The replay starts when three clients subscribed: the page and the two of step 8 (the
        # watcher of step 4 and the page sessions of steps 6 and 7 never make three with it).
        daemon = harness.start_replay(args.gestured, config, sock, path, work, wait_clients=3, realtime=True)
        came_up = time.monotonic()
        bridge = harness.start_bridge(args.bridge, config, work)
        harness.wait_for(lambda: driver.execute_script("return window.__state") != "connecting", 20,
                         "the page to connect once the bridge is up")
        state = driver.execute_script("return window.__state")
        assert state == "connected", state
        ok(f"the page loaded with no bridge, kept trying, and connected {time.monotonic() - came_up:.1f} s after "
           "gestured and the bridge came up")

        # 2. The layout in CSS pixels under the device pixel ratio and the zoom.
        client = harness.UnixClient(sock)
        cards = ["card1", "card2", "card3", "bad", "broken"]
        harness.wait_for(lambda: all(client.hit(*to_screen(metrics, *center(rects[c]))) == c for c in cards), 10,
                         "gestured to hold the page's layout")
        for card in cards:
            left, top, width, height = rects[card]
            for fx, fy in [(0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)]:
                point = to_screen(metrics, left + width * fx, top + height * fy)
                assert client.hit(*point) == card, f"{card} at {fx}, {fy}: gestured hits {client.hit(*point)}"
        ok(f"devicePixelRatio {metrics['ratio']:g}, visualViewport.scale {metrics['zoom']:g}: every card is hit "
           "by gestured where the browser shows it (corners included)")

        # g.simulate(): the same conversion and listeners, from CSS pixels.
        sim = driver.execute_script("""
const card = document.getElementById("card3"); const got = [];
card.addEventListener("gestured:panmove", (e) => got.push(e.detail.deltaX), { once: true });
const r = card.getBoundingClientRect();
const detail = window.gestured.simulate({ type: "gesture", kind: "pan", recognizer: "sim", state: "changed",
  x: r.left + 10, y: r.top + 20, translationX: -30, translationY: 5, velocityX: 100, velocityY: 0, touches: [1] },
  { in: "client", element: card });
return { got, detail, rect: [r.left, r.top] };""")
        detail, scale = sim["detail"], SCREEN[0] * ZOOM / WINDOW[0]
        expected_x, expected_y = to_screen(metrics, sim["rect"][0] + 10, sim["rect"][1] + 20)
        assert sim["got"] == [-30] and detail["view"] == "card3" and detail["seq"] < 0, sim
        assert abs(detail["x"] - expected_x) < 1e-6 and abs(detail["y"] - expected_y) < 1e-6, (detail, expected_x)
        assert abs(detail["offsetX"] - 10) < 1e-6 and abs(detail["offsetY"] - 20) < 1e-6, detail
        assert abs(detail["translationX"] + 30 * scale) < 1e-6 and abs(detail["velocityX"] - 100) < 1e-6, detail
        ok(f"g.simulate() in CSS pixels: gestured:panmove on #card3 with deltaX -30, translationX "
           f"{detail['translationX']:g} pt, offsetX 10")

        # The JSON5 reader of the attributes: what it accepts, and its errors and bounds.
        json5 = driver.execute_async_script("""
const [cases, done] = [arguments[0], arguments[arguments.length - 1]];
import("./gestured.js").then(({ parseJSON5 }) => done(cases.map((text) => {
  try { return { json: JSON.stringify(parseJSON5(text)) }; } catch (error) { return { error: error.message }; }
})));""", [case for case, _ in JSON5_CASES])
        for (case, expected), got in zip(JSON5_CASES, json5):
            if isinstance(expected, str):
                assert expected in got.get("error", ""), (case[:80], got)
            else:
                assert "json" in got and json.loads(got["json"]) == expected, (case[:80], got)
        ok(f"the JSON5 reader: {len(JSON5_CASES)} cases (comments, quotes, trailing commas, hexadecimal; "
           "errors with line and column; depth and length bounds)")

        # 3. An invalid recognizer is dropped alone; the element is named.
        # `layout` is what gestured last accepted: null until the answer to the page's
        # layout.set arrives, which a loaded machine can delay past this point (10 s at most).
        deadline = time.monotonic() + 10
        layout = driver.execute_script("return window.gestured.layout")
        while layout is None and time.monotonic() < deadline:
            time.sleep(0.05)
            layout = driver.execute_script("return window.gestured.layout")
        assert layout is not None, "the page has no layout after 10 s"
        views = {}
        stack = [layout]
        while stack:
            view = stack.pop()
            views[view["id"]] = view
            stack.extend(view.get("subviews", []))
        assert [r["id"] for r in views["bad"].get("recognizers", [])] == ["goodTap"], views["bad"]
        assert "recognizers" not in views["broken"], views["broken"]
        assert [r["id"] for r in views["card2"].get("recognizers", [])] == ["card2Tap"], views["card2"]
        assert [r["id"] for r in views["card1"].get("recognizers", [])] == ["card1Pan"], views["card1"]
        errors = driver.execute_script("return window.__errors")
        named = [e for e in errors if e["code"] == "invalid_layout" and "#bad" in e["selectors"]]
        assert named, errors
        warnings = driver.execute_script("return window.__warnings")
        assert any(w["code"] == "dropped" and w["selector"] == "#bad" and "badPan" in w["message"] for w in warnings), warnings
        assert any(w["code"] == "invalid-attribute" and w["selector"] == "#broken" and "line 1, column" in w["message"]
                   for w in warnings), warnings
        assert any(e["code"] == "invalid_attribute" and e["selector"] == "#broken" for e in errors), errors
        assert any(w["code"] == "unreachable" and w["selector"] == "#badge" for w in warnings), warnings
        assert any(w["code"] == "rotated" and w["selector"] == "#tilted" for w in warnings), warnings
        assert not any(w["selector"] in ("#card1", "#card2", "#card3", "#spinner") for w in warnings), warnings
        ok("warnings name the fixed #badge outside its parent view and the rotated #tilted, and nothing else")
        ok("the invalid recognizer badPan was dropped alone (goodTap on the same element stays), #bad named in the "
           "error event; the unreadable JSON5 of #broken is named with its line and column; the rest applies")

        # 4. The infinite animation, followed every frame by view.update.
        watcher = harness.UnixClient(sock)
        assert watcher.request({"type": "subscribe", "kinds": ["layout"]})["ok"]
        samples = driver.execute_async_script("""
const done = arguments[arguments.length - 1];
const element = document.getElementById("spinner");
const g = window.gestured;
const out = []; let last = null, frames = [];
const sample = () => {
  const sent = g._observer.sent;
  const view = sent && sent.subviews.find((v) => v.id === "spinner");
  const rect = element.getBoundingClientRect();
  if (view) out.push({ rect: rect.left, sent: g.toClient(view.frame[0] + sent.frame[0], 0)[0] });
};
const frame = (now) => { if (last !== null) frames.push(now - last); last = now;
  if (frames.length < 60) requestAnimationFrame(frame); else done({ out, frames }); };
requestAnimationFrame(frame);
for (let i = 1; i <= 40; i++) setTimeout(sample, i * 23);
""")
        # What gestured was told while the page sampled and for a second after.
        updates, sets = 0, 0
        watcher.sock.settimeout(0.2)
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            try:
                message = watcher.recv()
            except TimeoutError:
                continue
            if message.get("type") == "layout":
                updates += "view.update of spinner" in message["message"]
                sets += "layout.set" in message["message"]
        frame_ms = max(samples["frames"])
        lags = [abs(s["rect"] - s["sent"]) / SLIDE * 1000 for s in samples["out"]]
        assert len(lags) >= 30, samples
        # Where the element turns round its speed drops; the bound holds for the full speed.
        assert max(lags) <= frame_ms + 2, f"lags {sorted(lags)[-5:]} ms, frames up to {frame_ms:.1f} ms"
        assert updates >= 20 and sets == 0, f"{updates} view.update of spinner, {sets} layout.set"
        ok(f"an infinite CSS animation is followed within one frame (lag at most {max(lags):.1f} ms, frames up to "
           f"{frame_ms:.1f} ms): {updates} view.update of spinner, no layout.set")
        # gestured itself follows: pause the animation and hit where the element is.
        where = driver.execute_script("""
for (const a of document.getAnimations()) a.pause();
const r = document.getElementById("spinner").getBoundingClientRect();
return [r.left + r.width / 2, r.top + r.height / 2];""")
        point = to_screen(metrics, *where)
        harness.wait_for(lambda: client.hit(*point) == "spinner", 5, "gestured to hit the paused spinner")
        ok("gestured hits the animated element where the browser shows it")
        driver.execute_script("for (const a of document.getAnimations()) a.play();")
        watcher.close()

        # 5. A viewport whose shape is not the screen's: a warning.
        assert client.request({"type": "screen.set", "rotation": 0, "width": 1920, "height": 1200})["ok"]
        harness.wait_for(lambda: any(w["code"] == "viewport-shape" for w in driver.execute_script("return window.__warnings")),
                         5, "the viewport-shape warning")
        assert client.request({"type": "screen.set", "rotation": 0, "width": SCREEN[0], "height": SCREEN[1]})["ok"]
        harness.wait_for(lambda: client.hit(*to_screen(metrics, *center(rects["card3"]))) == "card3", 5,
                         "the layout back on the screen")
        ok("a 1920 × 1200 screen for a 16:9 viewport gets a viewport-shape warning")

        # 6. A page without the token that changes the layout gets an error event.
        result = driver.execute_async_script("""
const [bridge, done] = [arguments[0], arguments[arguments.length - 1]];
import("./gestured.js").then(({ connect }) => connect({ bridge, timeout: 10000 })).then((g) => {
  g.addEventListener("error", (e) => { done({ code: e.detail.code, request: e.detail.request }); g.close(); });
  const r = document.createElement("div"); document.body.appendChild(r);
  g.observe(r);
}, (error) => done({ code: "connect failed: " + error.code }));
""", f"127.0.0.1:{bridge_port}")
        assert result == {"code": "forbidden", "request": "layout.set"}, result
        assert client.hit(*to_screen(metrics, *center(rects["card3"]))) == "card3"
        ok("a page without the token that sends a layout gets an error event (forbidden, layout.set)")

        # 7. With both halves of issue 28: origin, token, superseded.
        if args.contract:
            refused = driver.execute_async_script(CONNECT, {"bridge": f"127.0.0.1:{bridge_port}", "token": "wrong-token-0123456789",
                                                            "timeout": 10000})
            assert refused["code"] == "token-refused" and refused["cause"] == "token-refused", refused
            ok(f"a wrong token: connect() rejects with token-refused ({refused['message']})")
            driver.get(f"http://localhost:{page_port}/index.html?bridge=127.0.0.1:{bridge_port}&token={TOKEN}")
            harness.wait_for(lambda: driver.execute_script("return window.__state") != "connecting", 20, "a verdict")
            state = driver.execute_script("return window.__state")
            assert state.startswith("failed: origin-refused") and page_origin.replace("127.0.0.1", "localhost") in state \
                and "127.0.0.1" in state, state
            ok(f"a page from localhost while web.origins allows 127.0.0.1: {state}")
            driver.get(f"{page_origin}/index.html?bridge=127.0.0.1:{bridge_port}&token={TOKEN}")
            driver.execute_cdp_cmd("Emulation.setPageScaleFactor", {"pageScaleFactor": ZOOM})
            harness.wait_for(lambda: driver.execute_script("return window.__state") == "connected", 20, "the page again")
            # Its own layout.set accepted (gestured still held the first page's until then, which
            # hits the same): only then is it the client whose layout another one replaces.
            harness.wait_for(lambda: driver.execute_script("return !!window.gestured.layout"), 10, "its layout")
            harness.wait_for(lambda: client.hit(*to_screen(metrics, *center(rects["card3"]))) == "card3", 10, "its layout")
            reply = client.request({"type": "layout.set", "layout": {"id": "other", "frame": [0, 0, SCREEN[0], SCREEN[1]]}})
            assert reply.get("ok"), reply
            harness.wait_for(lambda: driver.execute_script("return window.__superseded.length"), 5, "superseded")
            detail = driver.execute_script("return window.__superseded[0]")
            assert detail["what"] == "layout" and detail["by"], detail
            time.sleep(0.3)
            assert client.hit(*to_screen(metrics, *center(rects["card3"]))) == "other", \
                "the superseded page took the layout back"
            ok(f"another client's layout.set: the page got superseded (by {detail['by']}) and left the layout alone")
            driver.execute_script("window.gestured.observe(document.body)")
            harness.wait_for(lambda: client.hit(*to_screen(metrics, *center(rects["card3"]))) == "card3", 10,
                             "the page to take its layout back")
        else:
            waiting("origin-refused, token-refused and superseded need the bridge's /gestured/check and the "
                    "daemon's superseded (issue 28's bridge side): run with --contract once both are merged")

        # 8. The gestures: CSS pixels, offsets, the page's clock, per-state events; the overlay
        # on, drawing every finger from the contacts stream (sampled every animation frame).
        overlay_on = driver.execute_script("""
const g = window.gestured; g.debug = true; window.__drawn = [];
const sample = () => { if (!g.debug) return;
  const held = g._overlay.drawn.filter((d) => d.recognizer);
  if (held.length) window.__drawn.push(held.map((d) => [d.clientX, d.clientY, d.recognizer, d.view]));
  requestAnimationFrame(sample); };
requestAnimationFrame(sample);
return { contacts: g.subscription.contacts, canvas: !!document.querySelector("canvas[data-gestured-overlay]") };""")
        assert overlay_on == {"contacts": True, "canvas": True}, overlay_on
        tester, starter = harness.UnixClient(sock), harness.UnixClient(sock)
        assert tester.request({"type": "subscribe", "kinds": ["gesture"]})["ok"]
        assert starter.request({"type": "subscribe", "kinds": ["device"]})["ok"]
        received = []
        while True:
            message = tester.recv()
            if message["type"] == "bye":
                break
            if message["type"] == "gesture":
                received.append(message)
        harness.wait_for(lambda: any(e["type"] == "gestured:panend" for e in driver.execute_script("return window.__log")),
                         10, "the page to receive the pan's end")
        log = driver.execute_script("return window.__log")
        rects = driver.execute_script(RECTS)["rects"]

        def first(**want):
            found = [e for e in log if all(e.get(k) == v for k, v in want.items())]
            assert found, f"no {want} in {log}"
            return found[0]

        for card, recognizer in [("card2", "card2Tap"), ("bad", "goodTap")]:
            tap = first(type="gestured:tap", target=card, recognizer=recognizer)
            cx, cy = center(rects[card])
            assert abs(tap["clientX"] - cx) < 0.05 and abs(tap["clientY"] - cy) < 0.05, (tap, cx, cy)
            assert abs(tap["offsetX"] - rects[card][2] / 2) < 0.05 and abs(tap["offsetY"] - rects[card][3] / 2) < 0.05, tap
            assert tap["timeStamp"] <= tap["at"] + 0.01 and tap["at"] - tap["timeStamp"] < 1000, tap
        ok("gestured:tap on #card2 and on #bad (goodTap): clientX/clientY are the centre of getBoundingClientRect(), "
           "offsetX/offsetY half its size, timeStamp on performance.now()'s clock just before the event arrived")
        states = [e["type"] for e in log if e["target"] == "card1" and e["type"] != "gestured:gesture"]
        assert states[0] == "gestured:panstart" and "gestured:panmove" in states and states[-1] == "gestured:panend", states
        own = driver.execute_script("return window.__own")
        assert own[0] == "gestured:panstart" and own[-1] == "gestured:panend", own
        end = first(type="gestured:panend", target="card1")
        scale = SCREEN[0] * ZOOM / WINDOW[0]
        assert abs(end["translationX"] - 150) < 1 and abs(end["deltaX"] - 150 / scale) < 0.5, end
        moves = [e for e in log if e["type"] == "gestured:panmove" and e.get("screenVelocityX")]
        assert moves and all(abs(m["velocityX"] - m["screenVelocityX"] / scale) < 1e-6 for m in moves), moves[:3]
        ok(f"g.recognizer('#card1', pan): panstart … panmove … panend on the element and on the Recognizer; "
           f"deltaX {end['deltaX']:.2f} CSS px for translationX {end['translationX']:g} pt; velocityX in CSS px/s")
        # The pinch, as the overlay drew it: while the fingers rest, exactly where they are (the
        # estimate from the pinch's centre and scale was tens of pixels off), held by mapPinch.
        drawn = driver.execute_script("return window.__drawn")
        mx, my = center(rects["map"])
        expected = sorted([(mx - 80, my), (mx + 80, my)])
        assert drawn, "the overlay never drew a finger held by a recognizer"
        resting = sorted((x, y) for x, y, _, _ in drawn[-1])
        assert {(r, v) for _, _, r, v in drawn[-1]} == {("mapPinch", "map")} and len(resting) == 2, drawn[-1]
        error = max(abs(a - b) for got, want in zip(resting, expected) for a, b in zip(got, want))
        assert error <= 2, f"the overlay drew the resting fingers at {resting}, they are at {expected}"
        gaps = [max(x for x, _, _, _ in d) - min(x for x, _, _, _ in d) for d in drawn if len(d) == 2]
        assert min(gaps) < 140, f"the held fingers never moved on the overlay while they spread: gaps {gaps[:5]}…"
        ok(f"the overlay drew the pinch's fingers, held by mapPinch, where they are: {len(drawn)} frames, gap from "
           f"{min(gaps):.0f} to {gaps[-1]:.0f} CSS px, at rest within {error:.2f} CSS px of the recording")
        overlay_off = driver.execute_script("""
const g = window.gestured; g.debug = false;
return { contacts: g.subscription.contacts ?? null, canvas: !!document.querySelector("canvas[data-gestured-overlay]") };""")
        assert overlay_off == {"contacts": None, "canvas": False}, overlay_off
        ok("the overlay turned off: its canvas is gone and the subscription no longer asks for contacts")
        assert daemon.proc.wait(20) == 0, "the replay did not end cleanly"

        # 9. connect()'s causes.
        bridge_address = f"127.0.0.1:{bridge_port}"
        down = driver.execute_async_script(CONNECT, {"bridge": bridge_address, "token": TOKEN, "timeout": 2500})
        assert down["code"] == "daemon-unavailable" and down["cause"] == "daemon-unavailable" and down["isError"], down
        ok(f"gestured stopped, the bridge up: connect() rejects with daemon-unavailable ({down['message']})")
        dead = harness.free_port()
        late = driver.execute_async_script(CONNECT, {"bridge": f"127.0.0.1:{dead}", "timeout": 800})
        assert late["code"] == "timeout" and 700 < late["ms"] < 5000, late
        aborted = driver.execute_async_script(CONNECT, {"bridge": f"127.0.0.1:{dead}", "abortAfter": 300})
        assert aborted["code"] == "aborted" and aborted["ms"] < 5000, aborted
        ok(f"nothing listening: timeout after {late['ms']:.0f} ms; an AbortSignal: aborted after {aborted['ms']:.0f} ms")
        assert bridge.alive(), "the bridge died"
    except Exception:
        for process in [daemon, bridge]:
            if process:
                print(f"--- {process.name} ---\n{process.text()[-4000:]}", file=sys.stderr)
        if driver:
            for entry in driver.get_log("browser")[-30:]:
                print("browser:", entry.get("message"), file=sys.stderr)
        raise
    finally:
        if driver:
            driver.quit()
        for process in [daemon, bridge]:
            if process:
                process.stop()
        server.shutdown()


if __name__ == "__main__":
    main()
