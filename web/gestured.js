// gestured.js: the web client of gestured (SPEC 13). An ES module with no dependencies.
//
//   import { connect } from "http://127.0.0.1:7300/gestured.js";
//   const g = await connect({ url: "ws://127.0.0.1:7300/socket", token, kinds: ["gesture", "control", "touches"] });
//   g.observe(document.body);   // the page becomes gestured's layout
//   button.addEventListener("gestured:control", (e) => console.log(e.detail.event));
//
// The page's marked elements (data-gestured-view="ID") become gestured's view tree, nested as
// they nest in the DOM, with frames from getBoundingClientRect() in screen points; gestured's
// events come back as bubbling DOM CustomEvents "gestured:<type>" on the element of their view,
// and every one also as "event" on the object connect() resolves to. docs/web.md has the
// details and the limits (painting order, transforms, fixed positioning).

const PROTOCOL = "gestured/1";
const DEFAULT_KINDS = ["touches", "gesture", "control"];
/// Request types the bridge gates with web.token; a forbidden reply to one is said once.
const CHANGING = new Set(["layout.set", "view.update", "screen.set", "reload"]);

/// Opens a session with gestured through the bridge and resolves once the bridge said hello
/// and the subscription was accepted. It keeps the session: after a lost connection it
/// reconnects with back-off, subscribes again and sends the observed layout again.
///
/// options: url (default: /socket next to this module), token, kinds, views, recognizers,
/// trace, debug (draw the overlay), reconnect: { initialDelay, maxDelay } in milliseconds.
export function connect(options = {}) {
  const g = new Gestured(options);
  return g._start().then(() => g);
}

/// The session: an EventTarget that dispatches every event from gestured as "event" (its
/// detail is the event object), plus "connect", "disconnect" and "error" (detail: the error).
export class Gestured extends EventTarget {
  constructor(options) {
    super();
    const base = new URL("/socket", import.meta.url);
    base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
    this.options = options;
    this.url = new URL(options.url ?? base.href);
    if (options.token) this.url.searchParams.set("token", options.token);
    this.subscription = { type: "subscribe" };
    const kinds = new Set(options.kinds ?? DEFAULT_KINDS);
    // The overlay draws touches and the winning recognizers: it needs those events.
    if (options.debug) for (const kind of ["touches", "gesture", "layout"]) kinds.add(kind);
    // screen.set changes how many screen points a CSS pixel is: the observed layout follows.
    kinds.add("screen");
    this.subscription.kinds = [...kinds];
    if (options.views) this.subscription.views = options.views;
    if (options.recognizers) this.subscription.recognizers = options.recognizers;
    if (options.trace) this.subscription.trace = true;
    this.requestedKinds = new Set(options.kinds ?? DEFAULT_KINDS);
    this.reconnect = { initialDelay: 250, maxDelay: 10000, ...(options.reconnect ?? {}) };
    /// gestured's screen in points, from `status` (width, height), then from `screen` events.
    this.screen = null;
    /// The hello of the current connection (canControl says whether layout changes may pass).
    this.hello = null;
    this.connected = false;
    this._socket = null;
    this._nextId = 1;
    this._pending = new Map();
    this._closed = false;
    this._attempt = 0;
    this._observer = null;
    this._saidForbidden = false;
    this._overlay = options.debug ? new DebugOverlay(this) : null;
  }

  // MARK: Session

  /// Resolves on the first accepted subscription; connection failures before it are retried
  /// with back-off, a refused subscription rejects.
  _start() {
    return new Promise((resolve, reject) => {
      this._firstConnect = { resolve, reject };
      this._open();
    });
  }

  _open() {
    if (this._closed) return;
    let socket;
    try {
      socket = new WebSocket(this.url.href);
    } catch (error) {
      // A malformed URL never gets better by retrying.
      this._fail(error);
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

  async _established(socket) {
    try {
      const status = await this.request({ type: "status" });
      if (status.screen) this.screen = { width: status.screen.width, height: status.screen.height };
      await this.request(this.subscription);
    } catch (error) {
      if (socket !== this._socket) return;
      if (error && error.code) {
        // gestured refused the subscription itself: retrying would not change its mind.
        this._fail(error);
        socket.close();
      }
      return; // the connection went away: _lost reconnects
    }
    if (socket !== this._socket) return;
    this._attempt = 0;
    this.connected = true;
    if (this._firstConnect) {
      this._firstConnect.resolve();
      this._firstConnect = null;
    }
    this.dispatchEvent(new CustomEvent("connect", { detail: this.hello }));
    // After a reconnect gestured may hold another layout: send ours in full.
    if (this._observer) this._observer.resend();
  }

  _fail(error) {
    if (this._firstConnect) {
      this._firstConnect.reject(error);
      this._firstConnect = null;
      this._closed = true;
    } else {
      this.dispatchEvent(new CustomEvent("error", { detail: error }));
    }
  }

  _lost(socket, event) {
    if (socket !== this._socket) return;
    this._socket = null;
    const wasConnected = this.connected;
    this.connected = false;
    for (const { reject } of this._pending.values()) reject(new Error("the connection to gestured was lost"));
    this._pending.clear();
    if (wasConnected) this.dispatchEvent(new CustomEvent("disconnect", { detail: { code: event.code, reason: event.reason } }));
    if (this._closed) return;
    // Back-off: initialDelay, doubling up to maxDelay, with jitter so that many kiosks
    // restarting together do not reconnect in step.
    const delay = Math.min(this.reconnect.maxDelay, this.reconnect.initialDelay * 2 ** this._attempt);
    this._attempt = Math.min(this._attempt + 1, 20);
    setTimeout(() => this._open(), delay * (0.75 + Math.random() * 0.5));
  }

  /// Sends a request (an object with `type`) and resolves with gestured's reply, or rejects
  /// with its error ({ code, message, problems }).
  request(object) {
    const socket = this._socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error("not connected to gestured"));
    }
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ ...object, id }));
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
      this.dispatchEvent(new CustomEvent("error", { detail: object.error }));
      return;
    }
    if (object.type === "bye") return; // the close follows; _lost reconnects
    if (object.type === "screen") {
      // A screen.set (rotation or size): frames are sent in the new screen's points from now
      // on, so the observed layout is sent again if it changed with the scale.
      this.screen = { width: object.width, height: object.height };
      this.dispatchEvent(new CustomEvent("screen", { detail: object }));
      this._observer?.update();
    }
    this._overlay?.event(object);
    if (!this.requestedKinds.has(object.type)) return; // asked for by the overlay only
    this.dispatchEvent(new CustomEvent("event", { detail: object }));
    if (object.view !== undefined && object.view !== null && this._observer) {
      const element = this._observer.element(object.view);
      element?.dispatchEvent(new CustomEvent("gestured:" + object.type, { detail: object, bubbles: true }));
    }
  }

  /// Closes the session for good: no reconnect, observing stops.
  close() {
    this._closed = true;
    this.unobserve();
    this._overlay?.remove();
    this._socket?.close(1000);
  }

  // MARK: Layout

  /// Makes the page gestured's layout: `root` is the root view, every marked descendant a
  /// view. options: origin ([x, y] in screen points, default [0, 0]) and scale (screen points
  /// per CSS pixel, default gestured's screen width over innerWidth).
  observe(root = document.body, options = {}) {
    this.unobserve();
    this._observer = new LayoutObserver(this, root, options);
    this._observer.start();
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

  /// Sends a layout change; a refusal is reported once (forbidden) or as an "error" event.
  async _send(request) {
    try {
      return await this.request(request);
    } catch (error) {
      if (error?.code === "forbidden" && CHANGING.has(request.type)) {
        if (!this._saidForbidden) console.warn("gestured: this page may not change the layout:", error.message);
        this._saidForbidden = true;
      } else if (error?.code) {
        console.error("gestured: " + request.type + " was refused:", error.message, error.problems ?? "");
        this.dispatchEvent(new CustomEvent("error", { detail: error }));
      }
      throw error;
    }
  }
}

// MARK: - The page as a layout

/// Builds the view tree from the marked elements and keeps gestured's copy current: the whole
/// layout when observing starts or the tree's shape changes, one view.update when a single
/// view's frame, visibility or opacity changed, at most once per animation frame.
class LayoutObserver {
  constructor(gestured, root, options) {
    this.g = gestured;
    this.root = root;
    this.origin = options.origin ?? [0, 0];
    this.scale = options.scale ?? null;
    this.accepted = null; // the layout gestured holds, as far as we know
    this.sent = null; // the layout we last sent (accepted or in flight)
    this.elements = new Map(); // view id -> element
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
    for (const type of ["transitionend", "animationend", "load"]) this.root.addEventListener(type, this.schedule, true);
    this.update();
  }

  stop() {
    this.mutations?.disconnect();
    this.resizes?.disconnect();
    removeEventListener("resize", this.schedule);
    removeEventListener("scroll", this.schedule, { capture: true });
    for (const type of ["transitionend", "animationend", "load"]) this.root.removeEventListener(type, this.schedule, true);
    if (this.scheduled) cancelAnimationFrame(this.scheduled);
    this.scheduled = 0;
  }

  element(view) {
    return this.elements.get(view);
  }

  /// After a reconnect: gestured may hold anything, so the next update sends everything.
  resend() {
    this.sent = null;
    this.accepted = null;
    this.update();
  }

  update() {
    this.scheduled = 0;
    const layout = this.build();
    if (!this.g.connected) return; // sent on (re)connect
    const previous = this.sent;
    if (previous && sameView(previous, layout)) return;
    this.sent = layout;
    const change = previous ? singleChange(previous, layout) : null;
    const request = change ? { type: "view.update", view: change.id, set: change.set }
                           : { type: "layout.set", layout };
    this.g._send(request).then(
      () => { if (this.sent === layout) this.accepted = layout; },
      () => {
        // Whatever gestured holds now, the next update sends the whole layout.
        this.sent = null;
        this.accepted = null;
      },
    );
  }

  /// Screen points per CSS pixel, and the root's offset.
  transform() {
    const screen = this.g.screen;
    const scale = this.scale ?? (screen && innerWidth > 0 ? screen.width / innerWidth : 1);
    return { scale, x: this.origin[0], y: this.origin[1] };
  }

  /// The view tree of the page now.
  build() {
    const t = this.transform();
    const elements = new Map();
    const rootId = this.root.dataset?.gesturedView || "page";
    const isPage = this.root === document.body || this.root === document.documentElement;
    // The page's root covers the viewport (its background is the canvas), whatever the
    // height of <body>.
    const rootRect = isPage ? { left: 0, top: 0, width: innerWidth, height: innerHeight }
                            : this.root.getBoundingClientRect();
    const rootView = viewOf(this.root, rootId, rootRect, null, t);
    rootView.frame = [t.x + rootRect.left * t.scale, t.y + rootRect.top * t.scale,
                      rootRect.width * t.scale, rootRect.height * t.scale].map(round);
    elements.set(rootId, this.root);
    // Pre-order walk with an explicit stack (no recursion on the page's depth), so marked
    // elements are met in document order; each entry carries the view its marked
    // descendants attach to.
    const children = new Map([[rootView, []]]);
    const stack = [];
    const pushChildren = (element, parentView, parentRect) => {
      for (let child = element.lastElementChild; child; child = child.previousElementSibling) {
        stack.push([child, parentView, parentRect]);
      }
    };
    pushChildren(this.root, rootView, rootRect);
    while (stack.length) {
      const [element, parentView, parentRect] = stack.pop();
      const id = element.dataset?.gesturedView;
      if (id === undefined || id === "" || element.hasAttribute("data-gestured-overlay")) {
        pushChildren(element, parentView, parentRect);
        continue;
      }
      if (elements.has(id)) {
        console.warn(`gestured: two elements are marked data-gestured-view="${id}"; the second is not a view`, element);
        pushChildren(element, parentView, parentRect);
        continue;
      }
      const rect = element.getBoundingClientRect();
      const view = viewOf(element, id, rect, parentRect, t);
      elements.set(id, element);
      children.get(parentView).push({ view, element });
      children.set(view, []);
      pushChildren(element, view, rect);
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
    return rootView;
  }

  watchSizes(elements) {
    const now = new Set(elements.values());
    for (const element of this.resized) if (!now.has(element)) this.resizes.unobserve(element);
    for (const element of now) if (!this.resized.has(element)) this.resizes.observe(element);
    this.resized = now;
  }
}

/// A view for `element`: its frame relative to the parent view's rectangle, in screen points,
/// and the keys its data-gestured-* attributes and rendering say.
function viewOf(element, id, rect, parentRect, t) {
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
  const data = element.dataset;
  if (flag(data.gesturedControl)) view.kind = "control";
  if (data.gesturedHandlesTouches !== undefined) view.handlesTouches = data.gesturedHandlesTouches !== "false";
  if (flag(data.gesturedPassThrough)) view.passThrough = true;
  if (flag(data.gesturedMultipleTouch)) view.multipleTouchEnabled = true;
  if (flag(data.gesturedExclusiveTouch)) view.exclusiveTouch = true;
  if (data.gesturedRouting !== undefined) {
    const routing = routingOf(data.gesturedRouting);
    if (routing === undefined) {
      console.error(`gestured: data-gestured-routing of "${id}" is "${data.gesturedRouting}"; use "claim", "forward" `
        + `or a hold rule as JSON, such as {"hold": 0.15, "fingers": 2}`, element);
    } else {
      view.routing = routing;
    }
  }
  if (data.gesturedRecognizers) {
    try {
      const recognizers = JSON.parse(data.gesturedRecognizers);
      if (Array.isArray(recognizers)) view.recognizers = recognizers;
      else console.error(`gestured: data-gestured-recognizers of "${id}" is not a JSON array`, element);
    } catch (error) {
      console.error(`gestured: data-gestured-recognizers of "${id}" is not JSON:`, error.message, element);
    }
  }
  return view;
}

/// `data-gestured-routing`: "claim", "forward" (in the spirit of CSS `touch-action: auto`: the
/// browser gets the element's touches through the desktop's copy of the panel), or a hold rule
/// as a JSON object; undefined for anything else. The daemon checks the rule's values.
function routingOf(value) {
  const text = value.trim();
  if (text === "claim" || text === "forward") return text;
  if (!text.startsWith("{")) return undefined;
  try {
    const rule = JSON.parse(text);
    return rule !== null && typeof rule === "object" && !Array.isArray(rule) ? rule : undefined;
  } catch {
    return undefined;
  }
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

/// When `next` differs from `previous` in the updatable keys of exactly one view and nothing
/// else, that view's id and the keys to set; otherwise null.
function singleChange(previous, next) {
  let change = null;
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
    if (Object.keys(set).length) {
      if (change) return null;
      change = { id: b.id, set };
    }
    for (let i = 0; i < subA.length; i++) stack.push([subA[i], subB[i]]);
  }
  return change;
}

// MARK: - Debug overlay

/// Draws, over the page, the layout gestured holds (its frames in screen points mapped back to
/// CSS pixels; controls blue, other views pink, hidden ones dashed), every touch with the view
/// it hit (orange; dashed once a recognizer took it from the view), the view of a recognizer
/// that won and where it acts (green), and the last events. It takes no pointer events and is
/// not a view.
class DebugOverlay {
  constructor(gestured) {
    this.g = gestured;
    this.touches = new Map(); // touch id -> { x, y, view, phase }
    this.hitViews = new Set();
    this.finished = new Set(); // touches a recognizer is done with
    this.winners = []; // recent { recognizer, kind, view, state, x, y }
    this.log = [];
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
    if (event.type === "touches") {
      // A touch is drawn from its first delivery (where it hit) until it ends. A view whose
      // recognizer won gets its touches cancelled, but the finger is still down: it stays,
      // marked, until the recognizer that took it is done with it.
      for (const touch of event.touches ?? []) {
        if (touch.phase === "ended" || (touch.phase === "cancelled" && this.finished.has(touch.id))) {
          this.touches.delete(touch.id);
        } else {
          const known = this.touches.get(touch.id);
          this.touches.set(touch.id, { x: touch.x, y: touch.y, view: known?.view ?? event.view,
                                       cancelled: touch.phase === "cancelled" });
        }
      }
    } else if (event.type === "gesture") {
      const final = ["recognized", "ended", "cancelled", "failed"].includes(event.state);
      if (event.state !== "failed") {
        const index = this.winners.findIndex((w) => w.recognizer === event.recognizer);
        const winner = { recognizer: event.recognizer, kind: event.kind, view: event.view, state: event.state,
                         x: event.x, y: event.y, at: performance.now(), touches: event.touches ?? [] };
        if (index >= 0) this.winners[index] = winner; else this.winners.push(winner);
      }
      if (final) {
        // The recognizer is done with these touches; their cancellation may still follow.
        for (const id of event.touches ?? []) {
          this.finished.add(id);
          if (this.touches.get(id)?.cancelled) this.touches.delete(id);
        }
        if (this.finished.size > 256) this.finished = new Set([...this.finished].slice(-64));
      }
    }
    this.hitViews = new Set([...this.touches.values()].map((touch) => touch.view));
    let line = null;
    if (event.type === "control") line = `${event.event} on ${event.view}`;
    if (event.type === "gesture" && event.state !== "changed") line = `${event.recognizer} (${event.kind}) ${event.state} on ${event.view}`;
    if (event.type === "layout") line = `layout ${event.revision}: ${event.message.replace(/^layout replaced: /, "").replace(/ by .*$/, "")}`;
    if (line) {
      this.log.unshift(line);
      this.log.length = Math.min(this.log.length, 8);
    }
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
    const observer = this.g._observer;
    const layout = observer?.accepted;
    const t = observer?.transform() ?? { scale: 1, x: 0, y: 0 };
    const toPage = (x, y) => [(x - t.x) / t.scale, (y - t.y) / t.scale];
    const now = performance.now();
    const won = new Map(this.winners.filter((w) => now - w.at < 1500).map((w) => [w.view, w]));
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
        const hit = this.hitViews.has(view.id);
        const winner = won.get(view.id);
        c.setLineDash(view.hidden ? [4, 4] : []);
        c.strokeStyle = winner ? "rgba(0,170,80,0.95)" : hit ? "rgba(255,140,0,0.95)"
                      : view.kind === "control" ? "rgba(40,110,255,0.9)" : "rgba(220,0,120,0.8)";
        c.fillStyle = winner ? "rgba(0,170,80,0.18)" : hit ? "rgba(255,140,0,0.18)" : "rgba(0,0,0,0)";
        c.fillRect(px, py, w, h);
        c.strokeRect(px + 0.5, py + 0.5, w - 1, h - 1);
        c.fillStyle = c.strokeStyle;
        const label = view.id + (view.recognizers ? " [" + view.recognizers.map((r) => r.id ?? r.type).join(", ") + "]" : "");
        c.fillText(label, px + 4, py + 14);
        for (const sub of view.subviews ?? []) stack.push([sub, x, y]);
      }
      c.setLineDash([]);
    }
    // Touches and the view each one hit.
    for (const [id, touch] of this.touches) {
      const [px, py] = toPage(touch.x, touch.y);
      c.beginPath();
      c.arc(px, py, 18, 0, 2 * Math.PI);
      c.fillStyle = "rgba(255,140,0,0.35)";
      c.fill();
      c.setLineDash(touch.cancelled ? [4, 3] : []);
      c.strokeStyle = "rgba(255,140,0,1)";
      c.stroke();
      c.setLineDash([]);
      c.fillStyle = "rgba(120,50,0,1)";
      c.fillText(`touch ${id} → ${touch.view}`, px + 22, py - 6 + 14 * (id % 2));
    }
    // The recognizers that won, where they act.
    for (const winner of won.values()) {
      if (winner.x === undefined) continue;
      const [px, py] = toPage(winner.x, winner.y);
      c.fillStyle = "rgba(0,120,60,1)";
      c.fillText(`won: ${winner.recognizer} (${winner.kind}) ${winner.state}`, px + 22, py + 20);
    }
    // The last events, top right.
    c.fillStyle = "rgba(0,0,0,0.65)";
    const width = 330, height = 18 + 16 * this.log.length;
    c.fillRect(innerWidth - width - 8, 8, width, height);
    c.fillStyle = "white";
    c.fillText(`gestured ${this.g.connected ? "connected" : "disconnected"}` +
               (this.g.hello?.canControl === false ? " (may not change the layout)" : ""), innerWidth - width, 22);
    this.log.forEach((line, index) => c.fillText(line, innerWidth - width, 38 + 16 * index));
  }
}
