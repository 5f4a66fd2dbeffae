// A typed page: scripts/build-web.sh checks it with `tsc --noEmit` against gestured.d.ts.
import { connect, LIMITS, parseJSON5, type ConnectError, type PanDetail } from "../gestured.js";

async function start(): Promise<void> {
  const controller = new AbortController();
  let g;
  try {
    g = await connect({ bridge: "127.0.0.1:7300", token: "page-token-0123456789", timeout: 30000, signal: controller.signal });
  } catch (error) {
    const failure = error as ConnectError;
    if (failure.code === "origin-refused") console.error(failure.message, failure.check?.allowedOrigins);
    return;
  }
  g.observe(document.body, { origin: [0, 0] });
  const carousel = document.querySelector<HTMLElement>("#carousel")!;
  const pan = g.recognizer(carousel, { type: "pan", maximumTouches: 1 });
  const tap = g.recognizer("#carousel", { type: "tap", taps: 2 });
  pan.recognizeWith(tap).requireFailure("other").enable(true).set({ minimumTouches: 1 });
  pan.on("panstart panend", (event) => console.log(event.detail.state));
  carousel.addEventListener("gestured:panmove", (event) => {
    const x: number = event.detail.deltaX + event.detail.velocityX + event.detail.translationX;
    carousel.style.transform = `translateX(${x}px)`;
  });
  carousel.addEventListener("gestured:rotationmove", (event) => console.log(event.detail.rotationDegrees.toFixed(1)));
  const photo = g.recognizer("#carousel", { type: "transform" });
  photo.on("transformmove", (event) => console.log(event.detail.state));
  carousel.addEventListener("gestured:transformmove", (event) => {
    const [a, b, c, d, tx, ty] = event.detail.matrix;
    carousel.style.transform = `matrix(${a}, ${b}, ${c}, ${d}, ${tx}, ${ty})`;
  });
  carousel.addEventListener("gestured:tapfail", (event) => console.log(event.detail.reason ?? "", event.detail.by ?? "", event.detail.measured ?? 0));
  carousel.addEventListener("gestured:swipeleft", (event) => console.log(event.detail.direction === "left"));
  carousel.addEventListener("gestured:touches", (event) => {
    for (const touch of event.detail.touches) console.log(touch.clientX, touch.offsetX ?? 0, touch.phase);
  });
  document.addEventListener("gestured:control", (event) => {
    if (event.detail.event === "touchUpInside") console.log(event.detail.view, event.detail.timeStamp);
  });
  g.addEventListener("error", (event) => console.log(event.detail.code, event.detail.elements?.[0]?.selector));
  g.addEventListener("warning", (event) => console.log(event.detail.code, event.detail.selector));
  g.addEventListener("superseded", (event) => console.log(event.detail.by, event.detail.revision));
  const [x, y]: [number, number] = g.toScreen(...g.toClient(100, 200));
  const detail = g.simulate({ type: "gesture", kind: "pan", state: "began", x, y }, { in: "client", element: carousel });
  const pans: PanDetail[] = [];
  if (detail && detail.type === "gesture" && detail.kind === "pan") pans.push(detail);
  g.addEventListener("event", (event) => {
    if (event.detail.type !== "contacts") return;
    for (const contact of event.detail.contacts) console.log(contact.clientX, contact.recognizer ?? contact.view, contact.phase);
  });
  g.debug = !g.debug;
  console.log(LIMITS.viewUpdatesPerFrame, parseJSON5("{a: 1,}"), pans.length);
}

start();
