// The lobby page's behaviour: connect to gestured through the bridge, make the page the
// layout, and act on gestured's events as DOM events on the elements.
//
// The module is a copy beside the page (scripts/build-web.sh writes it), not an import from
// the bridge: the page loads whether or not the bridge is up, and connect() waits for it.
//
// Query parameters: bridge=HOST:PORT (default: this page's host, port 7300), token=…
// (needed when web.token is set), debug (draws gestured's layout, touches and winners).
import { connect } from "./gestured.min.js";

const params = new URLSearchParams(location.search);
const status = document.getElementById("connection");
const g = await connect({
  bridge: params.get("bridge") ?? `${location.hostname || "127.0.0.1"}:7300`,
  token: params.get("token") ?? undefined,
  kinds: ["touches", "gesture", "control"],
  debug: params.has("debug"),
}).catch((error) => {
  // origin-refused and token-refused are the kiosk's configuration: say it on the screen.
  status.textContent = `gestured: ${error.code}: ${error.message}`;
  throw error;
});
// Calling staff is a tap recognizer attached from script, beside those of the attributes.
g.recognizer("#help", { id: "helpTap", type: "tap" });
g.observe(document.body);
window.gestured = g; // for the browser's console (and the tests)
g.addEventListener("error", (event) => console.warn("gestured:", event.detail.code, event.detail.message));
g.addEventListener("superseded", (event) => { status.textContent = event.detail.message; });

const ticker = document.getElementById("ticker");
const say = (text) => { ticker.textContent = text; };

// Buttons light up while pressed (control events) and act on touchUpInside.
document.addEventListener("gestured:control", (event) => {
  const { view, event: what } = event.detail;
  const element = event.target;
  if (what === "touchDown") element.classList.add("pressed");
  if (["touchUpInside", "touchUpOutside", "touchCancel"].includes(what)) element.classList.remove("pressed");
  if (what !== "touchUpInside") return;
  switch (view) {
    case "checkIn": say("Check-in: please have your booking number ready"); break;
    case "map": resetMap(); say("Map reset"); break;
    case "language": {
      const name = document.getElementById("languageName");
      name.textContent = name.textContent === "English" ? "Français" : "English";
      break;
    }
    case "welcomeStart": case "welcomeDismiss": dismissWelcome(); break;
  }
});

// Call staff.
document.getElementById("help").addEventListener("gestured:tap", () => say("A member of staff is on the way"));

// The carousel follows the pan (deltaX is in CSS pixels) and snaps to a photo when it ends.
const track = document.getElementById("track");
const carousel = document.querySelector("[data-gestured-view=carousel]");
let offset = 0, start = 0;
const photoWidth = () => track.parentElement.getBoundingClientRect().width * (580 / 1200);
carousel.addEventListener("gestured:panstart", () => { start = offset; });
carousel.addEventListener("gestured:panmove", (event) => {
  offset = start + event.detail.deltaX;
  track.style.transform = `translateX(${offset}px)`;
});
for (const type of ["gestured:panend", "gestured:pancancel"]) {
  carousel.addEventListener(type, (event) => {
    const step = photoWidth();
    offset = Math.max(-3 * step, Math.min(0, Math.round((start + event.detail.deltaX) / step) * step));
    track.style.transform = `translateX(${offset}px)`;
  });
}

// The map zooms with two fingers.
const plan = document.getElementById("mapPlan");
const venueMap = document.querySelector("[data-gestured-view=venueMap]");
let zoom = 1, zoomAtStart = 1;
venueMap.addEventListener("gestured:pinchstart", () => { zoomAtStart = zoom; });
venueMap.addEventListener("gestured:pinchmove", (event) => {
  zoom = Math.max(0.5, Math.min(4, zoomAtStart * event.detail.scale));
  plan.style.transform = `scale(${zoom})`;
});
function resetMap() { zoom = 1; plan.style.transform = ""; }

// The welcome dialog goes away when swiped or dismissed; the layout follows by itself.
document.getElementById("welcomeDialog").addEventListener("gestured:swipe", dismissWelcome);
function dismissWelcome() { document.getElementById("welcomeDialog").style.display = "none"; }
