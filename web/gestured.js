// gestured.js: the web page's side of gestured (docs/web.md). An ES module with no
// dependencies, shipped with the page: bundle it, or copy web/dist/gestured.min.js beside the
// page. It needs nothing from the bridge to load, so a page that loads before the bridge
// starts connects when the bridge comes up.
//
//   import { connect } from "./gestured.min.js";
//   const g = await connect({ bridge: "127.0.0.1:7300", token, timeout: 30000 });
//   g.observe(document.body);   // the page becomes gestured's layout
//   g.recognizer("#carousel", { type: "pan", maximumTouches: 1 });
//   carousel.addEventListener("gestured:panmove", (e) => move(e.detail.deltaX));   // CSS pixels
//
// The page's marked elements (data-gestured-view="ID") and the elements given to
// g.recognizer() become gestured's view tree, nested as they nest in the DOM, with frames from
// getBoundingClientRect() in screen points; gestured's events come back as bubbling DOM
// CustomEvents on the element of their view, with every position also in CSS pixels.

const PROTOCOL = "gestured/1";
/// The bridge's own default `web.listen` (docs/web.md § Configuration).
const DEFAULT_BRIDGE = "127.0.0.1:7300";
const DEFAULT_KINDS = ["touches", "gesture", "control"];
/// Request types the bridge gates with web.token; a forbidden reply to one is said once.
/// (gestured's RequestType is the one list: a test checks these two against it.)
const CHANGING = new Set(["layout.set", "view.update", "screen.set", "reload"]);
/// Request types that act on one screen: with connect({ screen }) each carries that screen.
const ON_SCREEN = new Set(["layout.set", "view.update", "screen.set", "hitTest"]);

/// Every bound and budget of the library, in one place; docs/limits.md § Web page library
/// gives each one's reason.
export const LIMITS = Object.freeze({
  /// Characters of one data-gestured-* attribute given to the JSON5 reader.
  attributeLength: 65536,
  /// Nesting of objects and arrays in one attribute.
  attributeDepth: 32,
  /// Reconnection back-off, milliseconds: doubling from the first to the cap, ±25 % jitter.
  reconnectInitialDelay: 250,
  reconnectMaxDelay: 5000,
  /// How long the preflight (GET /gestured/check) may take before the attempt goes on without it.
  preflightTimeout: 3000,
  /// view.update requests for one animation frame; more changed views go as one layout.set.
  viewUpdatesPerFrame: 32,
  /// Times in a row a refused layout is sent again without the parts gestured named.
  rejectionRounds: 4,
  /// How often, in milliseconds, the page is asked for animations nobody announced
  /// (Element.animate() fires no event); running ones are then followed every frame.
  animationPoll: 250,
  /// Distinct warnings said per session (each is said once).
  warnings: 256,
  /// Recognizers and keys gestured refused, remembered so that they stay dropped.
  rejected: 1024,
  /// Milliseconds by which an event may seem later than the least delayed one before the input
  /// clock is taken to have jumped (a replay that waited, then started; a new recording).
  clockJump: 1000,
  /// Lines of the overlay's log.
  logLines: 8,
  /// Ancestors named in an element's CSS selector path.
  selectorDepth: 12,
});

/// Opens a session with gestured through the bridge and resolves once the bridge said hello
/// and the subscription was accepted. Until then it retries with back-off (capped at
/// LIMITS.reconnectMaxDelay), whether the bridge is not started yet or the daemon is down; it
/// rejects with an Error whose `code` (and `cause`) is "origin-refused", "token-refused",
/// "daemon-unavailable" (the timeout passed while the daemon was down), "timeout", "aborted",
/// "refused" (gestured refused the subscription) or "unknown-screen" (connect({ screen })
/// names a screen gestured does not have). Afterwards the session reconnects by
/// itself, subscribes again and sends the observed layout again.
///
/// options: bridge ("HOST:PORT", default 127.0.0.1:7300) or url (the WebSocket's), token,
/// screen (the id of the screen this page is on, with a gestured of several screens: its
/// requests name it and only its events reach the page), kinds, views, recognizers, trace,
/// debug (draw the overlay), timeout (ms, default none), signal (an AbortSignal),
/// reconnect: { initialDelay, maxDelay } (ms).
export function connect(options = {}) {
  let g;
  try {
    g = new Gestured(options);
  } catch (error) {
    // A malformed bridge address or URL never gets better by retrying.
    return Promise.reject(failure("refused", `gestured: connect(): ${error.message}`));
  }
  return g._start();
}

/// Makes an Error whose `code` and `cause` name what went wrong.
function failure(code, message, extra = {}) {
  const error = new Error(message, { cause: code });
  error.code = code;
  return Object.assign(error, extra);
}

/// The session: an EventTarget that dispatches every event from gestured as "event" (its
/// detail is the event with CSS-pixel fields), plus "connect", "disconnect", "error",
/// "warning", "superseded" and "screen".
export class Gestured extends EventTarget {
  constructor(options = {}) {
    super();
    this.options = options;
    const url = options.url ?? `ws://${options.bridge ?? DEFAULT_BRIDGE}/socket`;
    this.url = new URL(url);
    if (options.token) this.url.searchParams.set("token", options.token);
    this.checkURL = new URL("/gestured/check", this.url);
    this.checkURL.protocol = this.url.protocol === "wss:" ? "https:" : "http:";
    if (options.token) this.checkURL.searchParams.set("token", options.token);
    if (options.screen !== undefined && (typeof options.screen !== "string" || !/^[A-Za-z0-9_-]{1,32}$/.test(options.screen))) {
      throw new Error(`screen must be a screen id of gestured's configuration (1 to 32 of A–Z a–z 0–9 - _), `
        + `not ${JSON.stringify(options.screen)}`);
    }
    /// The screen this page is on (connect({ screen })), or null: the only one.
    this.screenId = options.screen ?? null;
    this.requestedKinds = new Set(options.kinds ?? DEFAULT_KINDS);
    this.reconnect = { initialDelay: LIMITS.reconnectInitialDelay, maxDelay: LIMITS.reconnectMaxDelay,
                       ...(options.reconnect ?? {}) };
    /// gestured's screen in points, from `status` (width, height), then from `screen` events.
    this.screen = null;
    /// The hello of the current connection (canControl says whether layout changes may pass).
    this.hello = null;
    /// The bridge's last preflight answer (docs/web.md § connect), or null.
    this.check = null;
    this.connected = false;
    this.clock = new InputClock();
    this._socket = null;
    this._nextId = 1;
    this._pending = new Map();
    this._closed = false;
    this._attempt = 0;
    this._generation = 0;
    this._timer = 0;
    this._lastCause = null;
    this._observer = null;
    this._origin = [0, 0];
    this._scale = null;
    this._saidForbidden = false;
    this._said = new Set();
    this._recognizers = new Map(); // element -> [Recognizer]
    this._recognizerIds = new Map(); // recognizer id -> Recognizer
    this._touches = new Map(); // touch id -> last [x, y] in screen points, for control events
    this._simulatedSeq = 0;
    this._overlay = options.debug ? new DebugOverlay(this) : null;
    this.subscription = this._subscription();
    this._viewportChanged = () => this._checkViewport();
  }

  /// The subscribe request: the page's kinds and filters, and what the overlay draws while it
  /// is on (the touches, the winning recognizers, the layout, and every finger's live position:
  /// gestured lists contacts only while a subscriber asks).
  _subscription() {
    const options = this.options;
    const subscription = { type: "subscribe" };
    const kinds = new Set(options.kinds ?? DEFAULT_KINDS);
    if (this._overlay) for (const kind of ["touches", "gesture", "layout", "control"]) kinds.add(kind);
    // screen.set changes how many screen points a CSS pixel is: the observed layout follows;
    // a new device (a replay starting over) restarts the input clock.
    kinds.add("screen");
    kinds.add("device");
    subscription.kinds = [...kinds];
    if (options.views) subscription.views = options.views;
    if (options.recognizers) subscription.recognizers = options.recognizers;
    if (options.trace) subscription.trace = true;
    if (this._overlay) subscription.contacts = true;
    return subscription;
  }

  /// Whether the debug overlay is drawn (docs/web.md § The debug overlay).
  get debug() {
    return this._overlay !== null;
  }

  /// Turns the debug overlay on or off; the subscription follows (the contacts stream and the
  /// overlay's kinds are asked for only while it is on).
  set debug(on) {
    if (Boolean(on) === this.debug) return;
    if (on) {
      this._overlay = new DebugOverlay(this);
    } else {
      this._overlay.remove();
      this._overlay = null;
    }
    this.subscription = this._subscription();
    if (this.connected) this.request(this.subscription).catch(() => {}); // a lost connection subscribes anew
  }

  // MARK: Session

  _start() {
    return new Promise((resolve, reject) => {
      const signal = this.options.signal;
      this._firstConnect = { resolve: () => resolve(this), reject };
      if (signal?.aborted) return this._giveUp("aborted");
      signal?.addEventListener("abort", () => this._giveUp("aborted"), { once: true });
      const timeout = this.options.timeout;
      if (Number.isFinite(timeout) && timeout >= 0) {
        this._deadline = setTimeout(() => this._giveUp(this._lastCause?.code === "daemon-unavailable"
                                                       ? "daemon-unavailable" : "timeout"), timeout);
      }
      addEventListener("resize", this._viewportChanged);
      globalThis.visualViewport?.addEventListener("resize", this._viewportChanged);
      this._open();
    });
  }

  /// Ends a connect() that has not resolved yet, with the cause `code`.
  _giveUp(code) {
    if (!this._firstConnect) return;
    const waited = this.options.timeout;
    const messages = {
      aborted: "connect() was aborted by its AbortSignal",
      timeout: `the bridge at ${this.checkURL.host} could not be reached within ${waited} ms; `
        + "is gestured-web running and listening there (web.listen)?",
      "daemon-unavailable": `the bridge at ${this.checkURL.host} is up but could not reach gestured within `
        + `${waited} ms: ${this._lastCause?.message.replace(/^gestured: /, "") ?? "is gestured running?"}`,
    };
    this._fail(failure(code, "gestured: " + messages[code], { check: this.check }));
  }

  /// A failure that ends connect() if it is still pending (and the session with it), or an
  /// "error" event afterwards (and the session goes on retrying).
  _fail(error) {
    if (this._firstConnect) {
      const { reject } = this._firstConnect;
      this._firstConnect = null;
      this.close();
      reject(error);
    } else {
      this._error({ code: error.code, message: error.message });
    }
  }

  async _open() {
    if (this._closed) return;
    const generation = ++this._generation;
    const check = await this._preflight();
    if (this._closed || generation !== this._generation) return;
    if (check) {
      this.check = check;
      const refusal = refusalOf(check, this.options.token, this.checkURL.host);
      if (refusal) {
        const repeated = this._lastCause?.code === refusal.code;
        this._lastCause = refusal;
        if (refusal.code !== "daemon-unavailable" && (!repeated || this._firstConnect)) {
          // Only the bridge's configuration or the page's token can change this: say it now.
          this._fail(refusal);
          if (this._closed) return;
        }
        return this._retry();
      }
    }
    let socket;
    try {
      socket = new WebSocket(this.url.href);
    } catch (error) {
      // A malformed URL never gets better by retrying.
      this._fail(failure("refused", `gestured: ${this.url.href} is no WebSocket URL: ${error.message}`));
      return;
    }
    this._socket = socket;
    let helloSeen = false;
    socket.onmessage = (message) => {
      let object;
      try {
        object = JSON.parse(message.data);
      } catch {
        console.error("gestured: the bridge sent something that is not JSON", message.data);
        return;
      }
      if (!helloSeen) {
        helloSeen = true;
        if (object.type !== "hello" || object.protocol !== PROTOCOL) {
          if (object.type === "bye") return this._receive(object);
          console.error("gestured: expected a hello for", PROTOCOL, "first, got", object);
          socket.close();
          return;
        }
        this.hello = object;
        this._established(socket);
        return;
      }
      this._receive(object);
    };
    socket.onclose = (event) => this._lost(socket, event);
    socket.onerror = () => {}; // onclose follows and says what to do
  }

  /// The bridge's preflight (GET /gestured/check): why a WebSocket would be refused, which a
  /// browser does not tell a page. null when the bridge is unreachable or does not answer it.
  async _preflight() {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LIMITS.preflightTimeout);
    try {
      const response = await fetch(this.checkURL.href, { cache: "no-store", signal: controller.signal });
      if (!response.ok) return null;
      const check = await response.json();
      return check && check.bridge === "gestured-web" ? check : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  async _established(socket) {
    let status;
    try {
      status = await this.request({ type: "status" });
      const screens = Array.isArray(status.screens) ? status.screens : null;
      const ids = screens ? screens.map((s) => s.id) : [];
      // One screen: status says it; several: this page's, which it must name.
      let own = status.screen;
      if (this.screenId !== null && screens) {
        own = screens.find((s) => s.id === this.screenId)?.screen;
        if (!own) throw failure("unknown-screen", `gestured has no screen "${this.screenId}"; its screens are ${ids.join(", ")}`);
      } else if (screens) {
        this._warn("screen", `gestured serves ${ids.length} screens (${ids.join(", ")}) and this page named none: `
          + `connect({ screen: "…" }) names the one it is on; until then its layout requests are refused and it `
          + `receives every screen's events`);
      }
      if (own) this.screen = { width: own.width, height: own.height };
      await this.request(this.subscription);
    } catch (error) {
      if (socket !== this._socket) return;
      if (error?.code === "unknown-screen") {
        // The configuration has no such screen: retrying would not change it.
        this._fail(error);
        socket.close();
        return;
      }
      if (error && error.code) {
        // gestured refused the subscription itself: retrying would not change its mind.
        this._fail(failure("refused", "gestured refused the subscription: " + error.message, { problems: error.problems }));
        socket.close();
      }
      return; // the connection went away: _lost reconnects
    }
    if (socket !== this._socket) return;
    this._attempt = 0;
    this._lastCause = null;
    this.connected = true;
    // The input clock: the last frame's time is at most now.
    this.clock.reset();
    if (typeof status.input?.time === "number" && status.input.frames > 0) this.clock.observe(status.input.time);
    this._checkViewport();
    if (this._firstConnect) {
      clearTimeout(this._deadline);
      const { resolve } = this._firstConnect;
      this._firstConnect = null;
      resolve();
    }
    this.dispatchEvent(new CustomEvent("connect", { detail: this.hello }));
    // After a reconnect gestured may hold another layout: send ours in full.
    if (this._observer) this._observer.resend();
  }

  _lost(socket, event) {
    if (socket !== this._socket) return;
    this._socket = null;
    const wasConnected = this.connected;
    this.connected = false;
    for (const { reject } of this._pending.values()) reject(new Error("the connection to gestured was lost"));
    this._pending.clear();
    if (wasConnected) this.dispatchEvent(new CustomEvent("disconnect", { detail: { code: event.code, reason: event.reason } }));
    this._retry();
  }

  /// Back-off: initialDelay, doubling up to maxDelay, with jitter so that many kiosks
  /// restarting together do not reconnect in step.
  _retry() {
    if (this._closed) return;
    const delay = Math.min(this.reconnect.maxDelay, this.reconnect.initialDelay * 2 ** this._attempt);
    this._attempt = Math.min(this._attempt + 1, 20);
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this._open(), delay * (0.75 + Math.random() * 0.5));
  }

  /// Sends a request (an object with `type`) and resolves with gestured's reply, or rejects
  /// with its error ({ code, message, problems }).
  request(object) {
    const socket = this._socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error("not connected to gestured"));
    }
    const id = this._nextId++;
    const body = { ...object, id };
    // The requests for one screen carry this page's (docs/web.md § Several screens).
    if (this.screenId !== null && ON_SCREEN.has(object.type) && body.screen === undefined) body.screen = this.screenId;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      socket.send(JSON.stringify(body));
    });
  }

  _receive(object) {
    if (object.type === "reply" || (object.type === "error" && object.re !== null && object.re !== undefined)) {
      const pending = this._pending.get(object.re);
      if (!pending) return;
      this._pending.delete(object.re);
      if (object.type === "reply") pending.resolve(object);
      else pending.reject(object.error);
      return;
    }
    if (object.type === "error") {
      // line_too_long or slow_consumer: gestured closes the connection; we reconnect.
      console.warn("gestured:", object.error.code, object.error.message);
      this._error({ ...object.error });
      return;
    }
    if (object.type === "bye") {
      // The close follows; _lost reconnects. An unreachable daemon is the cause to report.
      if (object.reason === "unavailable") {
        this._lastCause = failure("daemon-unavailable", "gestured: " + (object.message ?? "gestured cannot be reached"));
      }
      return;
    }
    if (object.type === "superseded") {
      // Another client took the layout: sending ours again would take it back, and the two
      // would fight. Observing pauses until observe() is called again.
      this._observer?.pause();
      console.warn("gestured:", object.message ?? "another client replaced this page's layout");
      this.dispatchEvent(new CustomEvent("superseded", { detail: object }));
      return;
    }
    // Another screen's event: not this page's (docs/web.md § Several screens).
    if (this.screenId !== null && typeof object.screen === "string" && object.screen !== this.screenId) return;
    if (object.type === "device" && object.action === "added") this.clock.reset();
    if (typeof object.time === "number") this.clock.observe(object.time);
    if (object.type === "screen") {
      // A screen.set (rotation or size): frames are sent in the new screen's points from now
      // on, so the observed layout is sent again if it changed with the scale.
      this.screen = { width: object.width, height: object.height };
      this.dispatchEvent(new CustomEvent("screen", { detail: object }));
      this._checkViewport();
      this._observer?.update();
    }
    if (object.type === "warning" && this.requestedKinds.has("warning")) {
      this.dispatchEvent(new CustomEvent("warning", { detail: { code: "daemon", message: object.message, event: object } }));
    }
    this._overlay?.event(object);
    if (object.type === "touches") {
      for (const touch of object.touches ?? []) {
        if (touch.phase === "ended" || touch.phase === "cancelled") this._touches.delete(touch.id);
        else this._touches.set(touch.id, [touch.x, touch.y]);
      }
    }
    if (!this.requestedKinds.has(object.type)) return; // asked for by the overlay only
    this._dispatch(object);
  }

  /// Dispatches one event: "event" on the session, "gestured:TYPE" on its view's element and,
  /// for a gesture, "gestured:KIND[STATE]" there and on its Recognizer.
  _dispatch(object) {
    const element = object.view !== undefined && object.view !== null ? this._observer?.element(object.view) : null;
    const detail = this._detail(object, element);
    this.dispatchEvent(new CustomEvent("event", { detail }));
    if (element) element.dispatchEvent(new CustomEvent("gestured:" + object.type, { detail, bubbles: true }));
    if (object.type === "gesture" && typeof object.kind === "string") {
      const names = gestureEventNames(object);
      const recognizer = this._recognizerIds.get(object.recognizer);
      for (const name of names) {
        if (element) element.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
        recognizer?.dispatchEvent(new CustomEvent(name, { detail }));
      }
    }
    return detail;
  }

  /// The event with CSS-pixel fields beside gestured's screen points (docs/web.md § Units).
  _detail(object, element) {
    const detail = { ...object };
    if (typeof object.time === "number") detail.timeStamp = this.clock.toPage(object.time);
    const t = this.transform();
    if (!t) return detail;
    const box = element ? element.getBoundingClientRect() : null;
    const place = (target, x, y) => {
      const [clientX, clientY] = this.toClient(x, y);
      target.clientX = clientX;
      target.clientY = clientY;
      if (box) {
        target.offsetX = clientX - box.left;
        target.offsetY = clientY - box.top;
      }
    };
    if (typeof object.x === "number" && typeof object.y === "number") place(detail, object.x, object.y);
    if (object.type === "touches" && Array.isArray(object.touches)) {
      detail.touches = object.touches.map((touch) => {
        const copy = { ...touch };
        if (typeof touch.x === "number") place(copy, touch.x, touch.y);
        return copy;
      });
    }
    if (object.type === "contacts" && Array.isArray(object.contacts)) {
      detail.contacts = object.contacts.map((contact) => {
        const copy = { ...contact };
        if (typeof contact.x === "number") place(copy, contact.x, contact.y);
        return copy;
      });
    }
    if (object.type === "control" && this._touches.has(object.touch)) place(detail, ...this._touches.get(object.touch));
    if (typeof object.translationX === "number") {
      detail.deltaX = object.translationX / t.scale;
      detail.deltaY = object.translationY / t.scale;
    }
    if (typeof object.velocityX === "number") {
      detail.screenVelocityX = object.velocityX;
      detail.screenVelocityY = object.velocityY;
      detail.velocityX = object.velocityX / t.scale;
      detail.velocityY = object.velocityY / t.scale;
    }
    if (object.kind === "rotation" && typeof object.rotation === "number") {
      detail.rotationDegrees = object.rotation * 180 / Math.PI;
      if (typeof object.velocity === "number") detail.velocityDegrees = object.velocity * 180 / Math.PI;
    }
    return detail;
  }

  /// Reports a refusal: an "error" event (detail { code, message, problems?, request? }).
  _error(detail) {
    this.dispatchEvent(new CustomEvent("error", { detail }));
  }

  /// Says something the page should fix, once: on the console and as a "warning" event
  /// (detail { code, message, element?, selector? }).
  _warn(code, message, element = null) {
    const key = code + "\u0000" + message;
    if (this._said.has(key) || this._said.size >= LIMITS.warnings) return;
    this._said.add(key);
    const selector = element ? selectorOf(element) : undefined;
    console.warn("gestured: " + message, element ?? "");
    this.dispatchEvent(new CustomEvent("warning", { detail: { code, message, element, selector } }));
  }

  /// Closes the session for good: no reconnect, observing stops.
  close() {
    this._closed = true;
    clearTimeout(this._timer);
    clearTimeout(this._deadline);
    removeEventListener("resize", this._viewportChanged);
    globalThis.visualViewport?.removeEventListener("resize", this._viewportChanged);
    this.unobserve();
    this._overlay?.remove();
    this._socket?.close(1000);
  }

  // MARK: Units

  /// Screen points per CSS pixel and where the visible viewport's corner is: `scale` is
  /// observe()'s or gestured's screen width over the visible viewport's width in CSS pixels
  /// (the page fills the screen, as in kiosk mode); `left`, `top` the visual viewport's offset
  /// in the layout viewport (a pinch-zoomed page). null before gestured said its screen size.
  transform() {
    const viewport = globalThis.visualViewport;
    const zoom = viewport?.scale || 1;
    const left = viewport?.offsetLeft ?? 0, top = viewport?.offsetTop ?? 0;
    if (this._scale !== null) return { scale: this._scale * zoom, x: this._origin[0], y: this._origin[1], left, top };
    if (!this.screen || !(innerWidth > 0)) return null;
    return { scale: this.screen.width * zoom / innerWidth, x: this._origin[0], y: this._origin[1], left, top };
  }

  /// A point in gestured's screen points as the page's client (viewport) CSS pixels.
  toClient(x, y) {
    const t = this.transform() ?? { scale: 1, x: 0, y: 0, left: 0, top: 0 };
    return [(x - t.x) / t.scale + t.left, (y - t.y) / t.scale + t.top];
  }

  /// A point in the page's client CSS pixels as gestured's screen points.
  toScreen(x, y) {
    const t = this.transform() ?? { scale: 1, x: 0, y: 0, left: 0, top: 0 };
    return [t.x + (x - t.left) * t.scale, t.y + (y - t.top) * t.scale];
  }

  /// Warns when the viewport cannot be the screen: its shape differs from the screen's (at
  /// the scale that maps its width, its height is not the screen's), or it does not start at
  /// the screen's corner while the origin is left at [0, 0].
  _checkViewport() {
    if (!this.screen || this._scale !== null || !(innerWidth > 0 && innerHeight > 0)) return;
    const scale = this.screen.width / innerWidth;
    const height = innerHeight * scale;
    if (Math.abs(height - this.screen.height) > Math.max(2, this.screen.height * 0.01)) {
      this._warn("viewport-shape", `the page's viewport is ${innerWidth} × ${innerHeight} CSS px and gestured's screen `
        + `${this.screen.width} × ${this.screen.height} points: at ${round(scale)} points per CSS px the viewport is `
        + `${Math.round(height)} points high, so touches are mapped to the wrong places. Show the page full screen `
        + "(kiosk mode), or give observe() the origin and scale of the viewport on the screen");
    }
    if (this._origin[0] === 0 && this._origin[1] === 0 && (globalThis.screenX > 0 || globalThis.screenY > 0)) {
      this._warn("viewport-origin", `the browser's window is at (${screenX}, ${screenY}) on the desktop, not at its `
        + "corner, while observe()'s origin is [0, 0]: show the page full screen, or give observe() the origin");
    }
  }

  // MARK: Layout

  /// Makes the page gestured's layout: `root` is the root view, every marked descendant a
  /// view. options: origin ([x, y] in screen points, default [0, 0]) and scale (screen points
  /// per CSS pixel, default gestured's screen width over innerWidth).
  observe(root = document.body, options = {}) {
    this.unobserve();
    this._origin = options.origin ?? [0, 0];
    this._scale = options.scale ?? null;
    this._observer = new LayoutObserver(this, root);
    this._observer.start();
    this._checkViewport();
    return this;
  }

  unobserve() {
    this._observer?.stop();
    this._observer = null;
  }

  /// The layout last accepted by gestured (a view tree as in a layout file), or null.
  get layout() {
    return this._observer?.accepted ?? null;
  }

  /// Attaches a recognizer to `element` (an element or a selector) beside those of its
  /// data-gestured-recognizers attribute; the element becomes a view if it is not one (its
  /// data-gestured-view is set to its id, or to a generated one). options: a recognizer as in
  /// a layout file (type, id, parameters); the id defaults to VIEW-TYPE.
  recognizer(element, options) {
    const target = typeof element === "string" ? document.querySelector(element) : element;
    if (!target) throw failure("no-element", `gestured: recognizer(): no element matches ${element}`);
    if (!target.dataset.gesturedView) target.dataset.gesturedView = target.id || uniqueViewId(target);
    const recognizer = new Recognizer(this, target, options ?? {});
    const list = this._recognizers.get(target) ?? [];
    list.push(recognizer);
    this._recognizers.set(target, list);
    this._recognizerIds.set(recognizer.id, recognizer);
    this._layoutChanged();
    return recognizer;
  }

  _layoutChanged() {
    this._observer?.schedule();
  }

  /// Sends a change; a refusal is reported as an "error" event (a `forbidden` also once on the
  /// console). `annotate(error)` may add to the event's detail (the elements at fault).
  async _send(request, annotate = null) {
    try {
      return await this.request(request);
    } catch (error) {
      if (error?.code) {
        if (error.code === "forbidden" && CHANGING.has(request.type)) {
          if (!this._saidForbidden) console.warn("gestured: this page may not change the layout:", error.message);
          this._saidForbidden = true;
        } else {
          console.error("gestured: " + request.type + " was refused:", error.message, error.problems ?? "");
        }
        const detail = { code: error.code, message: error.message, request: request.type };
        if (error.problems) detail.problems = error.problems;
        annotate?.(detail);
        this._error(detail);
      }
      throw error;
    }
  }

  // MARK: Tests

  /// Dispatches an event as if gestured had sent it, through the same conversion and to the
  /// same listeners; returns its detail. options: in ("screen", the default, or "client":
  /// x, y, touches' x/y/previousX/previousY, translation and velocity are CSS pixels),
  /// element (the view is that element's).
  simulate(event, options = {}) {
    const object = { ...event };
    if (options.element) object.view = options.element.dataset?.gesturedView ?? object.view;
    if (object.seq === undefined) object.seq = --this._simulatedSeq; // never one of gestured's
    if (object.time === undefined) object.time = this.clock.toInput(performance.now());
    if (options.in === "client") {
      const t = this.transform() ?? { scale: 1 };
      const point = (target, xKey, yKey) => {
        if (typeof target[xKey] !== "number") return;
        [target[xKey], target[yKey]] = this.toScreen(target[xKey], target[yKey]);
      };
      point(object, "x", "y");
      if (Array.isArray(object.touches)) {
        object.touches = object.touches.map((touch) => {
          if (typeof touch !== "object" || touch === null) return touch;
          const copy = { ...touch };
          point(copy, "x", "y");
          point(copy, "previousX", "previousY");
          return copy;
        });
      }
      for (const key of ["translationX", "translationY", "velocityX", "velocityY"]) {
        if (typeof object[key] === "number") object[key] *= t.scale;
      }
    }
    if (!this.requestedKinds.has(object.type)) return null;
    return this._dispatch(object);
  }
}

/// Why the preflight says a WebSocket would be refused, as the Error connect() rejects with;
/// null when it would be accepted.
function refusalOf(check, token, bridge) {
  if (check.originAllowed === false) {
    const allowed = (check.allowedOrigins ?? []).join(", ") || "none";
    return failure("origin-refused", `gestured: the bridge at ${bridge} does not allow this page's origin `
      + `${check.origin ?? location.origin}; web.origins allows ${allowed}. Add the page's origin to web.origins `
      + "(localhost and 127.0.0.1 are different origins) or open the page from an allowed one"
      + (check.reason ? ` (the bridge: ${check.reason})` : ""), { check });
  }
  if (token && check.tokenAccepted === false) {
    return failure("token-refused", `gestured: the bridge at ${bridge} refused this page's token; give connect() `
      + "the bridge's web.token" + (check.reason ? ` (the bridge: ${check.reason})` : ""), { check });
  }
  if (check.daemon === "down") {
    return failure("daemon-unavailable", "gestured: the bridge cannot reach gestured"
      + (check.reason ? `: ${check.reason}` : ""), { check });
  }
  return null;
}

/// The names a gesture event is also dispatched under, in the spirit of Hammer.js:
/// KIND + start/move/end/cancel for a continuous recognizer's states, KIND for a discrete
/// one's recognition (and KIND + direction for a swipe), KIND + fail when tracing.
function gestureEventNames(object) {
  const kind = "gestured:" + object.kind.toLowerCase();
  const suffix = { began: "start", changed: "move", ended: "end", cancelled: "cancel", recognized: "", failed: "fail" }[object.state];
  if (suffix === undefined) return [];
  const names = [kind + suffix];
  if (object.kind === "swipe" && object.state === "recognized" && typeof object.direction === "string") {
    names.push(kind + object.direction);
  }
  return names;
}

/// gestured's input timeline (microseconds) on the page's performance.now() clock
/// (milliseconds). An event is received after it happened, so performance.now() at arrival
/// minus the event's time bounds the offset from above; the smallest such bound seen is kept
/// (the least delayed event), starting from the last frame's time in `status`. The estimate
/// restarts with each connection and each new input device, and when an event seems more
/// than LIMITS.clockJump later than that: the input clock stood still or jumped (a replay
/// that waited for its clients, then started) rather than the event being that late.
class InputClock {
  constructor() {
    this.offset = null;
  }

  reset() {
    this.offset = null;
  }

  observe(time) {
    const candidate = performance.now() - time / 1000;
    if (this.offset === null || candidate < this.offset || candidate > this.offset + LIMITS.clockJump) {
      this.offset = candidate;
    }
  }

  toPage(time) {
    if (this.offset === null) this.observe(time);
    return time / 1000 + this.offset;
  }

  toInput(pageTime) {
    return Math.round((pageTime - (this.offset ?? 0)) * 1000);
  }
}

// MARK: - Recognizers

/// A recognizer attached from script (g.recognizer()), Hammer.js style: its options are a
/// recognizer of the layout file; it receives its own gesture events (the names of
/// gestureEventNames) besides the element.
class Recognizer extends EventTarget {
  constructor(gestured, element, options) {
    super();
    this.g = gestured;
    this.element = element;
    this.options = { ...options };
    const view = element.dataset.gesturedView;
    let id = this.options.id ?? `${view}-${this.options.type ?? "recognizer"}`;
    if (this.options.id === undefined) {
      for (let n = 2; gestured._recognizerIds.has(id); n++) id = `${view}-${this.options.type}-${n}`;
    }
    this.options.id = id;
  }

  get id() {
    return this.options.id;
  }

  /// Changes options (any key of the layout file's recognizer but its id).
  set(options) {
    const { id: _, ...rest } = options ?? {};
    Object.assign(this.options, rest);
    this.g._layoutChanged();
    return this;
  }

  /// May recognize together with `other` (a Recognizer or an id): simultaneousWith.
  recognizeWith(other) {
    return this._add("simultaneousWith", other);
  }

  /// May recognize only once `other` failed: requireToFail.
  requireFailure(other) {
    return this._add("requireToFail", other);
  }

  /// Enables (the default) or disables the recognizer.
  enable(enabled = true) {
    this.options.enabled = Boolean(enabled);
    this.g._layoutChanged();
    return this;
  }

  /// Listens to its events by the names without "gestured:" (Hammer.js's `on`): "panstart panend".
  on(names, listener) {
    for (const name of String(names).split(/\s+/)) if (name) this.addEventListener("gestured:" + name, listener);
    return this;
  }

  /// Detaches the recognizer.
  remove() {
    const list = this.g._recognizers.get(this.element) ?? [];
    const index = list.indexOf(this);
    if (index >= 0) list.splice(index, 1);
    if (!list.length) this.g._recognizers.delete(this.element);
    if (this.g._recognizerIds.get(this.id) === this) this.g._recognizerIds.delete(this.id);
    this.g._layoutChanged();
  }

  _add(key, other) {
    const id = typeof other === "string" ? other : other?.id;
    if (typeof id !== "string") throw failure("no-recognizer", `gestured: ${key} of "${this.id}" needs a recognizer or its id`);
    const list = Array.isArray(this.options[key]) ? this.options[key] : [];
    if (!list.includes(id)) this.options[key] = [...list, id];
    this.g._layoutChanged();
    return this;
  }
}

let generatedViews = 0;
function uniqueViewId(element) {
  let id;
  do id = `${element.localName}-${++generatedViews}`;
  while (document.querySelector(`[data-gestured-view="${id}"]`));
  return id;
}

// MARK: - JSON5

/// Reads a JSON5 value (docs/web.md § Attributes: the subset): JSON plus unquoted keys,
/// single-quoted strings, trailing commas, comments, leading + and bare decimal points,
/// hexadecimal integers, Infinity and NaN. Bounded (LIMITS.attributeLength characters,
/// LIMITS.attributeDepth levels) and iterative: a page's attribute cannot exhaust the stack.
/// Throws an Error naming the line and column.
export function parseJSON5(text) {
  if (typeof text !== "string") throw new Error("expected a string");
  if (text.length > LIMITS.attributeLength) {
    throw new Error(`${text.length} characters; at most ${LIMITS.attributeLength} are read`);
  }
  let i = 0;
  const fail = (what) => {
    const before = text.slice(0, i);
    const line = before.split("\n").length, column = i - before.lastIndexOf("\n");
    throw new Error(`line ${line}, column ${column}: ${what}`);
  };
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\u00a0" || c === "\ufeff") i++;
      else if (c === "/" && text[i + 1] === "/") { while (i < text.length && text[i] !== "\n") i++; }
      else if (c === "/" && text[i + 1] === "*") {
        const end = text.indexOf("*/", i + 2);
        if (end < 0) fail("a comment that is not closed");
        i = end + 2;
      } else return;
    }
  };
  const string = () => {
    const quote = text[i++];
    let out = "";
    for (;;) {
      if (i >= text.length) fail("a string that is not closed");
      const c = text[i++];
      if (c === quote) return out;
      if (c === "\n") fail("a line break in a string");
      if (c !== "\\") { out += c; continue; }
      const e = text[i++];
      const simple = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", 0: "\0", "'": "'", '"': '"', "\\": "\\", "/": "/" };
      if (e in simple) out += simple[e];
      else if (e === "u") {
        const hex = text.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("\\u needs four hexadecimal digits");
        out += String.fromCharCode(parseInt(hex, 16));
        i += 4;
      } else if (e === "\n") { /* a line continuation */ }
      else fail(`an unknown escape \\${e}`);
    }
  };
  const identifier = () => {
    const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i, i + 256));
    if (!match) fail(`expected a key, found ${JSON.stringify(text[i] ?? "the end")}`);
    i += match[0].length;
    return match[0];
  };
  const scalar = () => {
    const c = text[i];
    if (c === '"' || c === "'") return string();
    const rest = text.slice(i, i + 512);
    const word = /^(?:true|false|null|[+-]?(?:Infinity|NaN))/.exec(rest);
    if (word) {
      i += word[0].length;
      return { true: true, false: false, null: null }[word[0]] ?? Number(word[0].replace("+", ""));
    }
    const hex = /^[+-]?0[xX][0-9a-fA-F]+/.exec(rest);
    if (hex) {
      i += hex[0].length;
      const negative = hex[0][0] === "-";
      const value = parseInt(hex[0].replace(/^[+-]/, ""), 16);
      return negative ? -value : value;
    }
    const number = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(rest);
    if (number) {
      i += number[0].length;
      return Number(number[0]);
    }
    fail(`expected a value, found ${JSON.stringify(c ?? "the end")}`);
  };
  // The containers being read, innermost last: { value, key } (key: the object's pending key).
  const stack = [];
  let result, done = false;
  const put = (value) => {
    if (!stack.length) { result = value; done = true; return; }
    const top = stack[stack.length - 1];
    if (Array.isArray(top.value)) top.value.push(value);
    else { top.value[top.key] = value; top.key = undefined; }
  };
  const open = (value) => {
    if (stack.length >= LIMITS.attributeDepth) fail(`more than ${LIMITS.attributeDepth} levels of nesting`);
    stack.push({ value, key: undefined, first: true });
  };
  skip();
  while (!done) {
    const top = stack[stack.length - 1];
    if (top) {
      const closer = Array.isArray(top.value) ? "]" : "}";
      skip();
      if (text[i] === closer) { i++; stack.pop(); put(top.value); continue; }
      if (!top.first) {
        if (text[i] !== ",") fail(`expected "," or "${closer}", found ${JSON.stringify(text[i] ?? "the end")}`);
        i++;
        skip();
        if (text[i] === closer) { i++; stack.pop(); put(top.value); continue; }
      }
      top.first = false;
      if (!Array.isArray(top.value)) {
        const key = text[i] === '"' || text[i] === "'" ? string() : identifier();
        if (Object.prototype.hasOwnProperty.call(top.value, key)) fail(`the key "${key}" is repeated`);
        skip();
        if (text[i] !== ":") fail(`expected ":" after "${key}"`);
        i++;
        top.key = key;
      }
      skip();
    }
    const c = text[i];
    if (c === "{") { i++; open(Object.create(null)); }
    else if (c === "[") { i++; open([]); }
    else put(scalar());
  }
  skip();
  if (i < text.length) fail(`unexpected ${JSON.stringify(text[i])} after the value`);
  return plain(result);
}

/// Objects read with a null prototype (so a key "__proto__" is a key) as plain objects,
/// iteratively.
function plain(value) {
  if (value === null || typeof value !== "object") return value;
  const root = { v: value };
  const stack = [[root, "v"]];
  while (stack.length) {
    const [holder, key] = stack.pop();
    const v = holder[key];
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) stack.push([v, k]);
    } else {
      const copy = {};
      for (const k of Object.keys(v)) Object.defineProperty(copy, k, { value: v[k], enumerable: true, writable: true, configurable: true });
      holder[key] = copy;
      for (const k of Object.keys(copy)) stack.push([copy, k]);
    }
  }
  return root.v;
}

// MARK: - The page as a layout

/// Builds the view tree from the marked elements and keeps gestured's copy current: the whole
/// layout when observing starts or the tree's shape changes, view.update requests when only
/// frames, visibility or opacity changed, at most once per animation frame; every frame while
/// an animation runs in the observed subtree.
class LayoutObserver {
  constructor(gestured, root) {
    this.g = gestured;
    this.root = root;
    this.accepted = null; // the layout gestured holds, as far as we know
    this.sent = null; // the layout we last sent (accepted or in flight)
    this.elements = new Map(); // view id -> element
    this.paused = false;
    this.rounds = 0; // refused layouts sent again in a row
    this.rejected = new Set(); // "view\0recognizer JSON" or "view\0key\0value JSON" gestured refused
    this.attributes = new WeakMap(); // element -> { text, value, error }
    this.scheduled = 0;
    this.schedule = () => {
      if (!this.scheduled) this.scheduled = requestAnimationFrame(() => this.update());
    };
  }

  start() {
    this.mutations = new MutationObserver(this.schedule);
    this.mutations.observe(this.root, { subtree: true, childList: true, attributes: true, characterData: true });
    this.resizes = new ResizeObserver(this.schedule);
    this.resized = new Set();
    addEventListener("resize", this.schedule);
    addEventListener("scroll", this.schedule, { capture: true, passive: true });
    globalThis.visualViewport?.addEventListener("resize", this.schedule);
    globalThis.visualViewport?.addEventListener("scroll", this.schedule);
    for (const type of EVENTS) this.root.addEventListener(type, this.schedule, true);
    this.poll = setInterval(() => { if (this.animating()) this.schedule(); }, LIMITS.animationPoll);
    this.update();
  }

  stop() {
    this.mutations?.disconnect();
    this.resizes?.disconnect();
    removeEventListener("resize", this.schedule);
    removeEventListener("scroll", this.schedule, { capture: true });
    globalThis.visualViewport?.removeEventListener("resize", this.schedule);
    globalThis.visualViewport?.removeEventListener("scroll", this.schedule);
    for (const type of EVENTS) this.root.removeEventListener(type, this.schedule, true);
    clearInterval(this.poll);
    if (this.scheduled) cancelAnimationFrame(this.scheduled);
    this.scheduled = 0;
  }

  /// Stops sending (another client took the layout) until observe() is called again.
  pause() {
    this.paused = true;
    this.accepted = null;
  }

  element(view) {
    return this.elements.get(view);
  }

  /// After a reconnect: gestured may hold anything, so the next update sends everything.
  resend() {
    this.sent = null;
    this.accepted = null;
    this.setting = false;
    this.update();
  }

  /// Whether an animation or transition runs on an element of the observed subtree.
  animating() {
    if (typeof document.getAnimations !== "function") return false;
    for (const animation of document.getAnimations()) {
      if (animation.playState !== "running") continue;
      const target = animation.effect?.target;
      if (target && (this.root === target || this.root.contains(target))) return true;
    }
    return false;
  }

  update() {
    this.scheduled = 0;
    const layout = this.build();
    // A running animation moves elements without telling anyone: measure again next frame.
    if (this.animating()) this.schedule();
    if (!this.g.connected || this.paused) return;
    // Until gestured answered a layout.set, a view.update could name views it does not hold
    // yet: the change waits for the answer.
    if (this.setting) {
      this.again = true;
      return;
    }
    const previous = this.sent;
    if (previous && sameView(previous, layout)) return;
    this.sent = layout;
    const changes = previous ? updatesBetween(previous, layout) : null;
    if (changes && changes.length <= LIMITS.viewUpdatesPerFrame) {
      const replies = changes.map((change) => this.g._send({ type: "view.update", view: change.id, set: change.set }));
      Promise.all(replies).then(
        () => { if (this.sent === layout) this.accepted = layout; },
        () => { if (this.sent === layout) this.sent = null; this.accepted = null; },
      );
      return;
    }
    this.setting = true;
    this.g._send({ type: "layout.set", layout }, (detail) => this.annotate(layout, detail)).then(
      () => {
        this.setting = false;
        this.rounds = 0;
        if (this.sent === layout) this.accepted = layout;
        if (this.again) this.catchUp();
      },
      (error) => {
        this.setting = false;
        // Whatever gestured holds now, the next update sends the whole layout.
        if (this.sent === layout) this.sent = null;
        this.accepted = null;
        if (error?.code === "invalid_layout" && this.lastDropped > 0 && this.rounds < LIMITS.rejectionRounds) {
          // The parts gestured named are dropped now: send the rest.
          this.rounds++;
          this.again = false;
          this.update();
        } else if (this.again) {
          this.catchUp();
        }
      },
    );
  }

  /// Sends what changed while a layout.set was answered.
  catchUp() {
    this.again = false;
    if (this.scheduled) return;
    this.update();
  }

  /// Maps each problem of a refused layout.set to the view and element at fault, remembers
  /// what to drop (the recognizer, or the view's key), and names the element in the error.
  annotate(layout, detail) {
    this.lastDropped = 0;
    if (detail.code !== "invalid_layout" || !Array.isArray(detail.problems)) return;
    const elements = [];
    for (const problem of detail.problems) {
      const place = placeOf(layout, problem.path);
      if (!place) continue;
      const element = this.elements.get(place.view.id);
      const selector = element ? selectorOf(element) : place.view.id;
      let what;
      if (place.recognizer !== undefined) {
        const recognizer = place.view.recognizers?.[place.recognizer];
        if (!recognizer) continue;
        this.remember(place.view.id + "\u0000" + (recognizer[SOURCE] ?? JSON.stringify(recognizer)));
        what = `recognizer "${recognizer.id ?? "?"}" (${recognizer.type ?? "no type"})`;
      } else if (place.key !== undefined && !["id", "frame", "subviews"].includes(place.key)) {
        this.remember(place.view.id + "\u0000" + place.key + "\u0000" + JSON.stringify(place.view[place.key]));
        what = `"${place.key}"`;
      } else {
        continue;
      }
      this.lastDropped++;
      const message = `${selector}: ${what} was dropped, the rest of the layout applies: ${problem.message}`;
      elements.push({ element, selector, view: place.view.id, path: problem.path, message });
      this.g._warn("dropped", message, element);
    }
    if (elements.length) detail.elements = elements;
  }

  remember(key) {
    if (this.rejected.size >= LIMITS.rejected) this.rejected.clear();
    this.rejected.add(key);
  }

  /// The view tree of the page now.
  build() {
    const t = this.g.transform() ?? { scale: 1, x: 0, y: 0, left: 0, top: 0 };
    const elements = new Map();
    const rootId = this.root.dataset?.gesturedView || "page";
    const isPage = this.root === document.body || this.root === document.documentElement;
    // The page's root covers the layout viewport (its background is the canvas), whatever
    // the height of <body>.
    const rootRect = isPage ? { left: 0, top: 0, width: innerWidth, height: innerHeight }
                            : this.root.getBoundingClientRect();
    const rootView = this.viewOf(this.root, rootId, rootRect, null, t);
    rootView.frame = [t.x + (rootRect.left - t.left) * t.scale, t.y + (rootRect.top - t.top) * t.scale,
                      rootRect.width * t.scale, rootRect.height * t.scale].map(round);
    elements.set(rootId, this.root);
    // Pre-order walk with an explicit stack (no recursion on the page's depth), so marked
    // elements are met in document order; each entry carries the view its marked
    // descendants attach to.
    const children = new Map([[rootView, []]]);
    const stack = [];
    const pushChildren = (element, parentView, parentRect, parentElement) => {
      for (let child = element.lastElementChild; child; child = child.previousElementSibling) {
        stack.push([child, parentView, parentRect, parentElement]);
      }
    };
    pushChildren(this.root, rootView, rootRect, this.root);
    while (stack.length) {
      const [element, parentView, parentRect, parentElement] = stack.pop();
      const id = element.dataset?.gesturedView;
      if (id === undefined || id === "" || element.hasAttribute("data-gestured-overlay")) {
        pushChildren(element, parentView, parentRect, parentElement);
        continue;
      }
      if (elements.has(id)) {
        this.g._warn("duplicate-view", `two elements are marked data-gestured-view="${id}"; the second, `
          + `${selectorOf(element)}, is not a view`, element);
        pushChildren(element, parentView, parentRect, parentElement);
        continue;
      }
      const rect = element.getBoundingClientRect();
      const view = this.viewOf(element, id, rect, parentRect, t);
      // Under the page's root, the parent's box is the viewport: nothing is outside it.
      this.checkReachable(element, rect, parentElement !== this.root || !isPage ? parentRect : null, parentView.id);
      elements.set(id, element);
      children.get(parentView).push({ view, element });
      children.set(view, []);
      pushChildren(element, view, rect, element);
    }
    // Subviews back to front: document order, then CSS painting order of positioned elements
    // by z-index (a stable sort keeps document order within a layer).
    for (const [view, list] of children) {
      if (!list.length) continue;
      const keyed = list.map((entry, index) => ({ ...entry, index, layer: paintLayer(entry.element) }));
      keyed.sort((a, b) => a.layer[0] - b.layer[0] || a.layer[1] - b.layer[1] || a.index - b.index);
      view.subviews = keyed.map((entry) => entry.view);
    }
    this.elements = elements;
    this.watchSizes(elements);
    this.dropUnknownReferences(rootView);
    return rootView;
  }

  /// Warns about a view gestured cannot hit where the browser shows it: a fixed element
  /// outside its parent view's box (a view is hit only inside its parent's frame), and a
  /// rotated or skewed element (gestured gets its bounding box).
  checkReachable(element, rect, parentRect, parentId) {
    const style = getComputedStyle(element);
    const outside = rect.width > 0 && rect.height > 0 && parentRect
      && (rect.left < parentRect.left - 0.5 || rect.top < parentRect.top - 0.5
          || rect.right > parentRect.left + parentRect.width + 0.5 || rect.bottom > parentRect.top + parentRect.height + 0.5);
    if (outside && (style.position === "fixed" || style.position === "sticky")) {
      this.g._warn("unreachable", `${selectorOf(element)} is position: ${style.position} and lies outside its parent `
        + `view "${parentId}": gestured hits a view only inside its parent's frame. Mark it outside other views `
        + "(as a child of the root), or do not mark the parent", element);
    }
    const matrix = style.transform;
    if (matrix && matrix !== "none") {
      const values = matrix.replace(/^matrix(3d)?\(|\)$/g, "").split(",").map(Number);
      const skewed = matrix.startsWith("matrix3d") ? Math.abs(values[1]) > 1e-6 || Math.abs(values[4]) > 1e-6
                                                   : Math.abs(values[1]) > 1e-6 || Math.abs(values[2]) > 1e-6;
      if (skewed) {
        this.g._warn("rotated", `${selectorOf(element)} is rotated or skewed (transform: ${matrix}): gestured's views `
          + "are upright rectangles, so its bounding box is used and touches on its corners' outside hit it", element);
      }
    }
  }

  /// A view for `element`: its frame relative to the parent view's rectangle, in screen points,
  /// and the keys its data-gestured-* attributes, its g.recognizer()s and rendering say, less
  /// what gestured refused.
  viewOf(element, id, rect, parentRect, t) {
    const view = { id };
    const left = parentRect ? rect.left - parentRect.left : rect.left;
    const top = parentRect ? rect.top - parentRect.top : rect.top;
    view.frame = [left * t.scale, top * t.scale, rect.width * t.scale, rect.height * t.scale].map(round);
    const style = getComputedStyle(element);
    // Not rendered (display: none here or above, display: contents) or not visible.
    const rendered = element.getClientRects().length > 0 && style.visibility === "visible";
    view.hidden = !rendered;
    const opacity = parseFloat(style.opacity);
    if (opacity < 1) view.alpha = round(Math.max(0, opacity));
    const data = element.dataset ?? {};
    if (flag(data.gesturedControl)) view.kind = "control";
    if (data.gesturedHandlesTouches !== undefined) view.handlesTouches = data.gesturedHandlesTouches !== "false";
    if (flag(data.gesturedPassThrough)) view.passThrough = true;
    if (flag(data.gesturedMultipleTouch)) view.multipleTouchEnabled = true;
    if (flag(data.gesturedExclusiveTouch)) view.exclusiveTouch = true;
    if (data.gesturedRouting !== undefined) {
      const routing = this.routingOf(element, data.gesturedRouting);
      if (routing !== undefined) view.routing = routing;
    }
    const recognizers = [];
    if (data.gesturedRecognizers !== undefined) {
      const value = this.attribute(element, "data-gestured-recognizers", data.gesturedRecognizers);
      if (value !== undefined && !Array.isArray(value)) {
        this.g._warn("invalid-attribute", `${selectorOf(element)}: data-gestured-recognizers is not an array; `
          + "it was left out", element);
      } else if (value !== undefined) {
        value.forEach((recognizer, index) => {
          if (recognizer === null || typeof recognizer !== "object" || Array.isArray(recognizer)) {
            this.g._warn("invalid-attribute", `${selectorOf(element)}: data-gestured-recognizers[${index}] is not an `
              + "object; it was left out, the rest applies", element);
          } else {
            recognizers.push(recognizer);
          }
        });
      }
    }
    for (const recognizer of this.g._recognizers.get(element) ?? []) recognizers.push(recognizer.options);
    // Copies, each knowing the text it came from: references to dropped recognizers are
    // taken out of the copy, and what gestured refused is remembered by the original.
    const kept = [];
    for (const recognizer of recognizers) {
      const source = JSON.stringify(recognizer);
      if (this.rejected.has(id + "\u0000" + source)) continue;
      const copy = { ...recognizer };
      Object.defineProperty(copy, SOURCE, { value: source });
      kept.push(copy);
    }
    if (kept.length) view.recognizers = kept;
    for (const key of Object.keys(view)) {
      if (this.rejected.has(id + "\u0000" + key + "\u0000" + JSON.stringify(view[key]))) delete view[key];
    }
    return view;
  }

  /// After recognizers were dropped, the references to them (requireToFail,
  /// simultaneousWith) are dropped too, so that the recognizers naming them still apply.
  dropUnknownReferences(rootView) {
    if (!this.rejected.size) return;
    const ids = new Set(), all = [];
    const stack = [rootView];
    while (stack.length) {
      const view = stack.pop();
      for (const recognizer of view.recognizers ?? []) { ids.add(recognizer.id); all.push(recognizer); }
      for (const sub of view.subviews ?? []) stack.push(sub);
    }
    const dropped = new Set();
    for (const key of this.rejected) {
      const [, json, more] = key.split("\u0000");
      if (more !== undefined || json === undefined) continue;
      try {
        const id = JSON.parse(json)?.id;
        if (typeof id === "string" && !ids.has(id)) dropped.add(id);
      } catch { /* a key, not a recognizer */ }
    }
    for (const recognizer of all) {
      for (const key of ["requireToFail", "simultaneousWith"]) {
        if (Array.isArray(recognizer[key]) && recognizer[key].some((id) => dropped.has(id))) {
          recognizer[key] = recognizer[key].filter((id) => !dropped.has(id));
        }
      }
    }
  }

  /// A data-gestured-* attribute read as JSON5 (cached while its text stays the same);
  /// undefined, with a warning naming the element, when it cannot be read.
  attribute(element, name, text) {
    const cached = this.attributes.get(element);
    if (cached && cached.name === name && cached.text === text) return cached.value;
    let value;
    try {
      value = parseJSON5(text);
    } catch (error) {
      this.g._warn("invalid-attribute", `${selectorOf(element)}: ${name} is not JSON5 (${error.message}); `
        + "it was left out, the rest of the layout applies", element);
      this.g._error({ code: "invalid_attribute", message: `${selectorOf(element)}: ${name}: ${error.message}`,
                      element, selector: selectorOf(element) });
    }
    this.attributes.set(element, { name, text, value });
    return value;
  }

  /// `data-gestured-routing`: "claim", "forward" (in the spirit of CSS `touch-action: auto`:
  /// the browser gets the element's touches through the desktop's copy of the panel), or a
  /// hold rule as a JSON5 object; undefined, said, for anything else. gestured checks the
  /// rule's values.
  routingOf(element, value) {
    const text = value.trim();
    if (text === "claim" || text === "forward") return text;
    if (text.startsWith("{")) {
      let rule;
      try { rule = parseJSON5(text); } catch { rule = undefined; }
      if (rule !== null && typeof rule === "object" && !Array.isArray(rule)) return rule;
    }
    this.g._warn("invalid-attribute", `${selectorOf(element)}: data-gestured-routing is "${value}"; use "claim", `
      + `"forward" or a hold rule such as {hold: 0.15, fingers: 2}`, element);
    return undefined;
  }

  watchSizes(elements) {
    const now = new Set(elements.values());
    for (const element of this.resized) if (!now.has(element)) this.resizes.unobserve(element);
    for (const element of now) if (!this.resized.has(element)) this.resizes.observe(element);
    this.resized = now;
  }
}

/// The key of a recognizer's copy that holds the JSON it was made from.
const SOURCE = Symbol("source");

/// Events after which elements may have moved.
const EVENTS = ["transitionend", "transitionrun", "animationstart", "animationend", "animationiteration", "load"];

/// Where a problem's key path ("layout.subviews[4].recognizers[0].requireToFail[0]") points
/// in `layout`: the view, and the recognizer's index or the view's key; null when it names
/// no view.
function placeOf(layout, path) {
  if (typeof path !== "string" || !path.startsWith("layout")) return null;
  const tokens = path.slice("layout".length).match(/\.[A-Za-z_$][A-Za-z0-9_$]*|\[\d+\]/g) ?? [];
  let view = layout, index = 0;
  while (tokens[index] === ".subviews" && /^\[\d+\]$/.test(tokens[index + 1] ?? "")) {
    view = view.subviews?.[Number(tokens[index + 1].slice(1, -1))];
    if (!view) return null;
    index += 2;
  }
  const key = tokens[index]?.startsWith(".") ? tokens[index].slice(1) : undefined;
  if (key === "recognizers" && /^\[\d+\]$/.test(tokens[index + 1] ?? "")) {
    return { view, recognizer: Number(tokens[index + 1].slice(1, -1)) };
  }
  return { view, key };
}

/// A CSS selector that names `element` for a person: its id when it has one, else its view,
/// else its path of tags from the nearest ancestor with an id (at most LIMITS.selectorDepth).
export function selectorOf(element) {
  if (!element || element.nodeType !== 1) return String(element);
  const quote = (value) => (globalThis.CSS?.escape ? CSS.escape(value) : value);
  if (element.id) return "#" + quote(element.id);
  const parts = [];
  for (let node = element; node && node.nodeType === 1 && parts.length < LIMITS.selectorDepth; node = node.parentElement) {
    if (node.id) { parts.unshift("#" + quote(node.id)); break; }
    const view = node.dataset?.gesturedView;
    if (view && node === element) {
      parts.unshift(`${node.localName}[data-gestured-view="${view}"]`);
      if (document.querySelectorAll(`[data-gestured-view="${view}"]`).length === 1) break;
      continue;
    }
    if (node === document.body || node === document.documentElement) { parts.unshift(node.localName); break; }
    const siblings = node.parentElement ? [...node.parentElement.children] : [node];
    parts.unshift(siblings.length > 1 ? `${node.localName}:nth-child(${siblings.indexOf(node) + 1})` : node.localName);
  }
  return parts.join(" > ");
}

/// A boolean attribute: present ("" or "true") is true, "false" is false.
function flag(value) {
  return value !== undefined && value !== "false";
}

/// Where an element paints among its marked siblings (CSS 2.1 appendix E, simplified to what
/// hit testing needs): negative z-index first, then elements in flow, then positioned ones
/// with z-index auto or 0, then positive z-index, each group in document order.
function paintLayer(element) {
  const style = getComputedStyle(element);
  const positioned = style.position !== "static";
  const parentDisplay = element.parentElement ? getComputedStyle(element.parentElement).display : "";
  // Flex and grid items take z-index without being positioned.
  const zApplies = positioned || /flex|grid/.test(parentDisplay);
  const z = zApplies && style.zIndex !== "auto" ? parseInt(style.zIndex, 10) || 0 : 0;
  if (zApplies && z < 0) return [0, z];
  if (!positioned && (!zApplies || style.zIndex === "auto")) return [1, 0];
  if (z === 0) return [2, 0];
  return [3, z];
}

function round(value) {
  return Math.round(value * 100) / 100;
}

function sameView(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/// The keys a view.update may change here; anything else (kind, recognizers, the tree's
/// shape) goes as a whole layout.set.
const UPDATABLE = { frame: null, hidden: false, alpha: 1 };

/// When `next` differs from `previous` only in the updatable keys of its views, with the
/// tree's shape and every other key the same, the view.update of each changed view (id, set);
/// otherwise null.
function updatesBetween(previous, next) {
  const changes = [];
  const stack = [[previous, next]];
  while (stack.length) {
    const [a, b] = stack.pop();
    if (a.id !== b.id) return null;
    const subA = a.subviews ?? [], subB = b.subviews ?? [];
    if (subA.length !== subB.length) return null;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    const set = {};
    for (const key of keys) {
      if (key === "subviews" || key === "id") continue;
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      if (!(key in UPDATABLE)) return null;
      set[key] = b[key] ?? UPDATABLE[key];
    }
    if (Object.keys(set).length) changes.push({ id: b.id, set });
    for (let i = 0; i < subA.length; i++) stack.push([subA[i], subB[i]]);
  }
  return changes;
}

// MARK: - Debug overlay

/// Draws, over the page, the layout gestured holds (its frames in screen points mapped back to
/// CSS pixels; controls blue, other views pink, hidden ones dashed), every finger where it is,
/// from gestured's `contacts` events (orange; dashed and "held by …" once a recognizer took it
/// from its view), the view and place of each recognizer that won (green), and the last
/// events, repeated ones collapsed. Labels sit on a dark plate, readable on any
/// colour. It takes no pointer events and is not a view.
class DebugOverlay {
  constructor(gestured) {
    this.g = gestured;
    this.touches = new Map(); // touch id -> { x, y, view, recognizer }
    this.winners = []; // recent { recognizer, kind, view, state, x, y }
    this.log = []; // { text, count }
    this.drawn = []; // the fingers of the last drawing: { id, clientX, clientY, view, recognizer }
    this.canvas = document.createElement("canvas");
    this.canvas.setAttribute("data-gestured-overlay", "");
    Object.assign(this.canvas.style, {
      position: "fixed", left: "0", top: "0", width: "100vw", height: "100vh",
      pointerEvents: "none", zIndex: "2147483647",
    });
    const attach = () => document.body.appendChild(this.canvas);
    if (document.body) attach(); else addEventListener("DOMContentLoaded", attach, { once: true });
    this.frame = 0;
    this.loop = () => { this.draw(); this.frame = requestAnimationFrame(this.loop); };
    this.frame = requestAnimationFrame(this.loop);
  }

  remove() {
    cancelAnimationFrame(this.frame);
    this.canvas.remove();
  }

  event(event) {
    if (event.type === "contacts") {
      // Every finger down, after each frame that changed one: the list replaces the last.
      this.touches.clear();
      for (const contact of event.contacts ?? []) {
        if (contact.phase === "ended" || contact.phase === "cancelled") continue;
        this.touches.set(contact.id, { x: contact.x, y: contact.y, view: contact.view, recognizer: contact.recognizer });
      }
    } else if (event.type === "device" && event.action !== "added") {
      // The panel went away or lost events: its fingers' ends may never come as contacts.
      this.touches.clear();
    } else if (event.type === "gesture") {
      if (event.state !== "failed") {
        const index = this.winners.findIndex((w) => w.recognizer === event.recognizer);
        const winner = { recognizer: event.recognizer, kind: event.kind, view: event.view, state: event.state,
                         x: event.x, y: event.y, at: performance.now() };
        if (index >= 0) this.winners[index] = winner; else this.winners.push(winner);
        if (this.winners.length > 32) this.winners.shift();
      }
    }
    this.say(event);
  }

  /// The log, newest first; a line equal to the newest one counts up instead of being added
  /// (a finger dragging outside a control sends touchDragOutside with every move).
  say(event) {
    let line = null;
    if (event.type === "control") line = `${event.event} on ${event.view}`;
    if (event.type === "gesture" && event.state !== "changed") line = `${event.recognizer} (${event.kind}) ${event.state} on ${event.view}`;
    if (event.type === "layout") {
      const what = String(event.message).replace(/^layout replaced: /, "").replace(/ by .*$/, "");
      // An animation sends view.updates every frame: one line counts them.
      if (what.startsWith("view.update") && this.log[0]?.updates) {
        const top = this.log[0];
        top.count++;
        top.text = `layouts ${top.updates}–${event.revision}: view.update`;
        return;
      }
      line = `layout ${event.revision}: ${what}`;
      if (what.startsWith("view.update")) {
        this.log.unshift({ text: line, count: 1, updates: event.revision });
        this.log.length = Math.min(this.log.length, LIMITS.logLines);
        return;
      }
    }
    if (!line) return;
    if (this.log[0]?.text === line) {
      this.log[0].count++;
      return;
    }
    this.log.unshift({ text: line, count: 1 });
    this.log.length = Math.min(this.log.length, LIMITS.logLines);
  }

  /// Text on a dark plate, so it reads on any colour.
  label(c, text, x, y, color) {
    const width = c.measureText(text).width;
    c.fillStyle = "rgba(0,0,0,0.72)";
    c.fillRect(x - 3, y - 12, width + 6, 16);
    c.fillStyle = color;
    c.fillText(text, x, y);
  }

  draw() {
    const canvas = this.canvas;
    const ratio = devicePixelRatio || 1;
    if (canvas.width !== Math.round(innerWidth * ratio) || canvas.height !== Math.round(innerHeight * ratio)) {
      canvas.width = Math.round(innerWidth * ratio);
      canvas.height = Math.round(innerHeight * ratio);
    }
    const c = canvas.getContext("2d");
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    c.clearRect(0, 0, innerWidth, innerHeight);
    const layout = this.g._observer?.accepted;
    const t = this.g.transform() ?? { scale: 1 };
    const toPage = (x, y) => this.g.toClient(x, y);
    const now = performance.now();
    const won = new Map(this.winners.filter((w) => now - w.at < 1500).map((w) => [w.view, w]));
    const hitViews = new Set([...this.touches.values()].map((touch) => touch.view));
    c.font = "12px sans-serif";
    c.lineWidth = 1.5;
    // The layout, depth first with absolute origins (iterative, no recursion).
    if (layout) {
      const stack = [[layout, 0, 0]];
      while (stack.length) {
        const [view, ox, oy] = stack.pop();
        const x = ox + view.frame[0], y = oy + view.frame[1];
        if (view.hidden && !(view.frame[2] > 0 && view.frame[3] > 0)) continue; // display: none has no box
        const [px, py] = toPage(x, y);
        const w = view.frame[2] / t.scale, h = view.frame[3] / t.scale;
        const hit = hitViews.has(view.id);
        const winner = won.get(view.id);
        c.setLineDash(view.hidden ? [4, 4] : []);
        const color = winner ? "rgba(0,170,80,0.95)" : hit ? "rgba(255,140,0,0.95)"
                    : view.kind === "control" ? "rgba(40,110,255,0.9)" : "rgba(220,0,120,0.8)";
        c.strokeStyle = color;
        c.fillStyle = winner ? "rgba(0,170,80,0.18)" : hit ? "rgba(255,140,0,0.18)" : "rgba(0,0,0,0)";
        c.fillRect(px, py, w, h);
        c.strokeRect(px + 0.5, py + 0.5, w - 1, h - 1);
        const text = view.id + (view.recognizers ? " [" + view.recognizers.map((r) => r.id ?? r.type).join(", ") + "]" : "");
        this.label(c, text, px + 5, py + 15, winner ? "#7dffb0" : hit ? "#ffc266" : view.kind === "control" ? "#9cc2ff" : "#ff9ad0");
        for (const sub of view.subviews ?? []) stack.push([sub, x, y]);
      }
      c.setLineDash([]);
    }
    // Every finger and the view it hit; where each was drawn, in CSS pixels, for page tests.
    this.drawn = [];
    for (const [id, touch] of this.touches) {
      const [px, py] = toPage(touch.x, touch.y);
      this.drawn.push({ id, clientX: px, clientY: py, view: touch.view, recognizer: touch.recognizer });
      c.beginPath();
      c.arc(px, py, 18, 0, 2 * Math.PI);
      c.fillStyle = "rgba(255,140,0,0.35)";
      c.fill();
      c.setLineDash(touch.recognizer ? [4, 3] : []);
      c.strokeStyle = "rgba(255,140,0,1)";
      c.stroke();
      c.setLineDash([]);
      const held = touch.recognizer ? ` (held by ${touch.recognizer})` : "";
      this.label(c, `touch ${id} → ${touch.view ?? "no view"}${held}`, px + 22, py - 6 + 16 * (id % 2), "#ffc266");
    }
    // The recognizers that won, where they act.
    for (const winner of won.values()) {
      if (winner.x === undefined) continue;
      const [px, py] = toPage(winner.x, winner.y);
      this.label(c, `won: ${winner.recognizer} (${winner.kind}) ${winner.state}`, px + 22, py + 24, "#7dffb0");
    }
    // The last events, top right.
    c.fillStyle = "rgba(0,0,0,0.72)";
    const width = 340, height = 18 + 16 * this.log.length;
    c.fillRect(innerWidth - width - 8, 8, width, height);
    c.fillStyle = "white";
    c.fillText(`gestured ${this.g.connected ? "connected" : "disconnected"}` +
               (this.g.hello?.canControl === false ? " (may not change the layout)" : ""), innerWidth - width, 22);
    this.log.forEach((line, index) =>
      c.fillText(line.count > 1 ? `${line.text} ×${line.count}` : line.text, innerWidth - width, 38 + 16 * index));
  }
}
