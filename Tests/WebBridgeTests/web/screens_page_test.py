"""A page of two screens through the real bridge, in headless Chromium (docs/web.md § Several
screens): a gestured of two screens (`replay --socket --screen customer=… --screen clerk=…`)
and one page with two sessions, connect({ screen: "customer" }) and connect({ screen: "clerk" }),
each observing its own part of the page.

Checks, each printed as "ok: …" (the first failure raises and exits 1):
- each session's layout is its screen's: gestured hit-tests the customer's card on the
  customer screen and not on the clerk's, and the reverse;
- each session receives its own screen's events only (a tap on each screen);
- connect({ screen: "lobby" }) rejects with "unknown-screen", naming gestured's screens;
- a session that names no screen is warned (code "screen").

usage: screens_page_test.py --gestured BIN --bridge BIN --root PACKAGE_ROOT --workdir DIR
"""

import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu  # noqa: E402
import harness  # noqa: E402
from page_test import CONNECT, RECTS, chrome, ok, to_screen, center  # noqa: E402

SCREEN = (1920, 1080)

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>gestured screens test</title>
<style>
  html, body { margin: 0; width: 100vw; height: 100vh; overflow: hidden; }
  .root { position: absolute; left: 0; top: 0; width: 100vw; height: 100vh; }
  .card { position: absolute; width: 200px; height: 150px; background: #68a; }
  #custCard { left: 100px; top: 100px; } #clerkCard { left: 700px; top: 350px; }
</style></head>
<body>
  <div id="custRoot" class="root" data-gestured-view="custRoot">
    <div id="custCard" class="card" data-gestured-view="custCard"></div>
  </div>
  <div id="clerkRoot" class="root" data-gestured-view="clerkRoot">
    <div id="clerkCard" class="card" data-gestured-view="clerkCard"></div>
  </div>
<script type="module">
import { connect } from "./gestured.js";
const params = new URLSearchParams(location.search);
window.__logs = { customer: [], clerk: [] };
window.__state = "connecting";
try {
  const options = { bridge: params.get("bridge"), timeout: 120000, kinds: ["touches", "gesture", "control"] };
  const sessions = { customer: await connect({ ...options, screen: "customer" }),
                     clerk: await connect({ ...options, screen: "clerk" }) };
  for (const [id, g] of Object.entries(sessions)) {
    g.addEventListener("event", (e) => window.__logs[id].push({ type: e.detail.type, screen: e.detail.screen,
                                                              view: e.detail.view, phase: e.detail.phase }));
  }
  sessions.customer.observe(document.getElementById("custRoot"));
  sessions.clerk.observe(document.getElementById("clerkRoot"));
  window.__sessions = sessions;
  window.__state = "connected";
} catch (error) {
  window.__state = "failed: " + error.code + ": " + error.message;
}
</script>
</body></html>
"""

# A session that names no screen: its warnings.
UNNAMED = """
const done = arguments[arguments.length - 1];
(async () => {
const { connect } = await import("./gestured.js");
const g = await connect({ bridge: arguments[0], timeout: 30000 }).catch((e) => null);
if (!g) return done({ error: "no session" });
// The warning is said while connecting, before connect() resolves: the session's record of
// what it said (each once) has it.
const refused = await g.request({ type: "hitTest", x: 1, y: 1 }).then(() => null, (e) => e.code);
g.close();
done({ refused, said: [...g._said].map((key) => key.split("\\u0000")[0]) });
})();
"""


def config_text(sock, port, origin):
    def screen(id_, phys):
        return {"id": id_, "device": {"phys": phys}, "screen": {"width": SCREEN[0], "height": SCREEN[1]},
                "layout": {"id": id_ + "Boot", "frame": [0, 0, SCREEN[0], SCREEN[1]]}}
    return json.dumps({"socket": {"path": sock}, "web": {"listen": f"127.0.0.1:{port}", "origins": [origin]},
                       "screens": [screen("customer", "usb-1/input0"), screen("clerk", "usb-2/input0")]}, indent=2)


def main():
    args, work, sock, bridge_port, config = harness.test_setup(lambda p: p.add_argument("--root", required=True))
    page_port = harness.free_port()
    page_origin = f"http://127.0.0.1:{page_port}"
    with open(config, "w") as f:
        f.write(config_text(sock, bridge_port, page_origin))
    site = os.path.join(work, "site")
    os.makedirs(site)
    shutil.copy(os.path.join(args.root, "web/gestured.js"), os.path.join(site, "gestured.js"))
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(PAGE)
    server = harness.serve_directory(site, page_port)
    daemon = bridge = driver = None
    try:
        driver = chrome()
        driver.get(f"{page_origin}/index.html?bridge=127.0.0.1:{bridge_port}")
        metrics = driver.execute_script(RECTS)
        rects = metrics["rects"]
        customer_point = to_screen(metrics, *center(rects["custCard"]))
        clerk_point = to_screen(metrics, *center(rects["clerkCard"]))
        # One recording per screen: a tap on each screen's card, after the pages set their layouts.
        recordings = {}
        for id_, point, at in [("customer", customer_point, 2.0), ("clerk", clerk_point, 2.5)]:
            recording = evemu.Recording(*SCREEN)
            recording.tap(at, *point)
            # A last touch far later keeps the replay serving while the checks run; the test
            # stops it.
            recording.tap(60.0, 5, 5)
            recordings[id_] = os.path.join(work, id_ + ".evemu")
            recording.write(recordings[id_])
        if os.path.exists(sock):
            os.unlink(sock)
        # The replay starts once the page's two sessions subscribed and a layout came (the two
        # sessions observe in the same frame), its taps seconds later.
        daemon = harness.Process("gestured", [args.gestured, "replay", "--config", config, "--socket", sock,
                                              "--wait-clients", "2", "--wait-layout", "--wait-layout-timeout", "60",
                                              "--realtime",
                                              "--screen", "customer=" + recordings["customer"],
                                              "--screen", "clerk=" + recordings["clerk"]], work)
        harness.wait_for(lambda: os.path.exists(sock) or not daemon.alive(), 30, "gestured's socket")
        assert daemon.alive(), "gestured did not start:\n" + daemon.text()
        bridge = harness.start_bridge(args.bridge, config, work)
        harness.wait_for(lambda: driver.execute_script("return window.__state") != "connecting", 30,
                         "the page's sessions to connect")
        state = driver.execute_script("return window.__state")
        assert state == "connected", state

        client = harness.UnixClient(sock)
        assert [s["id"] for s in client.hello.get("screens", [])] == ["customer", "clerk"], client.hello

        def hit(screen, point):
            reply = client.request({"type": "hitTest", "x": point[0], "y": point[1], "screen": screen})
            assert reply.get("ok"), reply
            return reply["view"]

        harness.wait_for(lambda: hit("customer", customer_point) == "custCard" and hit("clerk", clerk_point) == "clerkCard",
                         10, "gestured to hold each session's layout on its screen")
        assert hit("clerk", customer_point) == "clerkRoot", hit("clerk", customer_point)
        assert hit("customer", clerk_point) == "custRoot", hit("customer", clerk_point)
        ok("each session's layout is its own screen's: custCard on customer only, clerkCard on clerk only")

        def ended(log):
            return any(e["type"] == "touches" and e["phase"] == "ended" for e in log)

        harness.wait_for(lambda: all(ended(log) for log in driver.execute_script("return window.__logs").values()),
                         20, "a tap on each screen to reach its session")
        logs = driver.execute_script("return window.__logs")
        for id_, card in [("customer", "custCard"), ("clerk", "clerkCard")]:
            log = logs[id_]
            assert log and all(e["screen"] == id_ for e in log), f"{id_}'s session received {log}"
            assert any(e["view"] == card for e in log), f"{id_}'s session never saw {card}: {log}"
        ok(f"each session receives its own screen's events only (customer {len(logs['customer'])}, "
           f"clerk {len(logs['clerk'])})")

        unknown = driver.execute_async_script(CONNECT, {"bridge": f"127.0.0.1:{bridge_port}", "screen": "lobby",
                                                         "timeout": 20000})
        assert unknown["code"] == "unknown-screen", unknown
        assert "customer, clerk" in unknown["message"], unknown
        ok(f"connect({{ screen: \"lobby\" }}) rejects with unknown-screen: {unknown['message']}")

        unnamed = driver.execute_async_script(UNNAMED, f"127.0.0.1:{bridge_port}")
        assert "screen" in unnamed.get("said", []), unnamed
        assert unnamed.get("refused") == "unknown_screen", unnamed
        ok("a session that names no screen is warned (screen), and its hitTest is refused (unknown_screen)")
        client.close()
    finally:
        for process in (bridge, daemon):
            if process is not None:
                process.stop()
        if driver is not None:
            driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
