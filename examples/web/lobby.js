// The lobby page's behaviour: connect to gestured through the bridge, make the page the
// layout, and act on gestured's events as DOM events on the elements.
//
// Query parameters: bridge=HOST:PORT (default: this page's host, port 7300), token=…
// (needed when web.token is set), debug (draws gestured's layout, touches and winners).
const params = new URLSearchParams(location.search);
const bridge = params.get("bridge") ?? `${location.hostname || "127.0.0.1"}:7300`;
const { connect } = await import(`http://${bridge}/gestured.js`);

const g = await connect({
  url: `ws://${bridge}/socket`,
  token: params.get("token") ?? undefined,
  kinds: ["touches", "gesture", "control"],
  debug: params.has("debug"),
});
g.observe(document.body);
window.gestured = g; // for the browser's console (and the tests)

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

// Call staff: a tap recognizer on a plain view.
document.getElementById("help").addEventListener("gestured:gesture", (event) => {
  if (event.detail.recognizer === "helpTap" && event.detail.state === "recognized") say("A member of staff is on the way");
});

// The carousel follows the pan and snaps to a photo when it ends.
const track = document.getElementById("track");
let offset = 0, start = 0;
const photoWidth = () => track.parentElement.getBoundingClientRect().width * (580 / 1200);
document.querySelector("[data-gestured-view=carousel]").addEventListener("gestured:gesture", (event) => {
  const { recognizer, state, translationX } = event.detail;
  if (recognizer !== "carouselPan") return;
  // translationX is in screen points; the page moves in CSS pixels.
  const dx = translationX / scale();
  if (state === "began") start = offset;
  if (state === "began" || state === "changed") offset = start + dx;
  if (state === "ended" || state === "cancelled") {
    const step = photoWidth();
    offset = Math.max(-3 * step, Math.min(0, Math.round((start + dx) / step) * step));
  }
  track.style.transform = `translateX(${offset}px)`;
});

// The map zooms with two fingers.
const plan = document.getElementById("mapPlan");
let zoom = 1, zoomAtStart = 1;
document.querySelector("[data-gestured-view=venueMap]").addEventListener("gestured:gesture", (event) => {
  const { recognizer, state } = event.detail;
  if (recognizer !== "mapPinch") return;
  if (state === "began") zoomAtStart = zoom;
  if (event.detail.scale !== undefined) zoom = Math.max(0.5, Math.min(4, zoomAtStart * event.detail.scale));
  plan.style.transform = `scale(${zoom})`;
});
function resetMap() { zoom = 1; plan.style.transform = ""; }

// The welcome dialog goes away when swiped or dismissed; the layout follows by itself.
document.getElementById("welcomeDialog").addEventListener("gestured:gesture", (event) => {
  if (event.detail.recognizer === "welcomeSwipe" && event.detail.state === "recognized") dismissWelcome();
});
function dismissWelcome() { document.getElementById("welcomeDialog").style.display = "none"; }

function scale() {
  return g.screen ? g.screen.width / innerWidth : 1;
}
