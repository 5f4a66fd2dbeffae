// Types of gestured.js (docs/web.md). Positions named x, y, translationX… are gestured's screen
// points; clientX, offsetX, deltaX, velocityX… are the page's CSS pixels.

/** Every bound and budget of the library (docs/limits.md § Web page library). */
export declare const LIMITS: Readonly<{
  attributeLength: number;
  attributeDepth: number;
  reconnectInitialDelay: number;
  reconnectMaxDelay: number;
  preflightTimeout: number;
  viewUpdatesPerFrame: number;
  rejectionRounds: number;
  animationPoll: number;
  warnings: number;
  rejected: number;
  clockJump: number;
  logLines: number;
  selectorDepth: number;
}>;

/** Why connect() rejected. */
export type ConnectFailureCode =
  | "origin-refused" | "token-refused" | "daemon-unavailable" | "timeout" | "aborted" | "refused"
  | "unknown-screen";

/** The Error connect() rejects with: `code` and `cause` name what went wrong. */
export interface ConnectError extends Error {
  code: ConnectFailureCode;
  cause: ConnectFailureCode;
  /** The bridge's preflight answer, when it gave one. */
  check?: BridgeCheck | null;
  problems?: Problem[];
}

/** The bridge's answer to GET /gestured/check. */
export interface BridgeCheck {
  bridge: "gestured-web";
  protocol: string;
  origin: string | null;
  originAllowed: boolean;
  allowedOrigins: string[];
  tokenConfigured: boolean;
  tokenAccepted: boolean | null;
  daemon: "up" | "down";
  reason: string | null;
}

export type EventKind =
  | "touches" | "gesture" | "control" | "hitTest" | "device" | "layout" | "screen" | "warning" | "contacts";

export interface ConnectOptions {
  /** "HOST:PORT" of the bridge; default "127.0.0.1:7300". */
  bridge?: string;
  /** The bridge's WebSocket URL; default ws://BRIDGE/socket. */
  url?: string;
  token?: string;
  /**
   * With a gestured of several screens, the id of the screen this page is on: its layout,
   * view, screen and hit-test requests name it, and only that screen's events reach the page.
   * connect() rejects with "unknown-screen" when gestured has no such screen.
   */
  screen?: string;
  kinds?: EventKind[];
  views?: string[];
  recognizers?: string[];
  trace?: boolean;
  /** Draws the debug overlay (it asks for the contacts stream while it is on). */
  debug?: boolean;
  /** Milliseconds until connect() rejects with "timeout" or "daemon-unavailable"; default none. */
  timeout?: number;
  signal?: AbortSignal;
  reconnect?: { initialDelay?: number; maxDelay?: number };
}

export interface ObserveOptions {
  /** Where the viewport's corner is on gestured's screen, in points; default [0, 0]. */
  origin?: [number, number];
  /** Screen points per CSS pixel; default gestured's screen width over innerWidth. */
  scale?: number;
}

/** What every event carries. */
export interface EventBase {
  type: string;
  seq: number;
  /** Microseconds on gestured's input timeline. */
  time: number;
  /** `time` on the page's performance.now() clock, in milliseconds. */
  timeStamp: number;
}

/** A position in CSS pixels: of the viewport, and from the target element's border box. */
export interface ClientPosition {
  clientX: number;
  clientY: number;
  offsetX?: number;
  offsetY?: number;
}

export type TouchPhase = "began" | "moved" | "ended" | "cancelled";

export interface Touch extends ClientPosition {
  id: number;
  phase: TouchPhase;
  x: number;
  y: number;
  viewX: number;
  viewY: number;
  previousX: number;
  previousY: number;
  tapCount: number;
  majorRadius?: number;
  force?: number;
  /** With routing: "forwarded" (the desktop gets it too) or "held"; absent for a touch that is
   * gestured's alone (claimed, or no routing). */
  route?: "forwarded" | "held";
}

export interface TouchesDetail extends EventBase {
  type: "touches";
  phase: TouchPhase;
  view: string;
  responders: string[];
  touches: Touch[];
}

export type RecognizerKind = "tap" | "longPress" | "pan" | "swipe" | "pinch" | "rotation" | "edgePan" | "transform";
export type GestureState = "began" | "changed" | "ended" | "cancelled" | "recognized" | "failed";

export interface GestureBase extends EventBase, ClientPosition {
  type: "gesture";
  recognizer: string;
  kind: RecognizerKind;
  view: string;
  state: GestureState;
  x: number;
  y: number;
  touches: number[];
  /** On a "failed" or "cancelled" state: why (docs/protocol.md, "Why a recognizer failed"). */
  reason?: FailureReason;
  /** The recognizer that caused it (reason "excluded" or "requirementRecognized"). */
  by?: string;
  /** The measured figure and the limit it broke, in the reason's unit. */
  measured?: number;
  limit?: number;
}

export type FailureReason =
  | "movedTooFar" | "tapTooFarFromFirst" | "tooLong" | "nextTapTooLate" | "liftedTooSoon"
  | "tooManyTouches" | "tooFewTouches" | "liftedBeforeBegan" | "wrongDirection" | "tooSlow"
  | "tooShort" | "outsideEdge" | "touchCancelled" | "excluded" | "requirementRecognized"
  | "yieldedToControl" | "disabled" | "endedWhileWaiting" | "unexplained";

export interface TapDetail extends GestureBase { kind: "tap"; taps?: number }
export interface LongPressDetail extends GestureBase { kind: "longPress" }
/** The centroid's movement of a pan, an edge pan or a transform. */
export interface Movement {
  /** Screen points since the fingers landed. */
  translationX: number;
  translationY: number;
  /** CSS pixels since the fingers landed. */
  deltaX: number;
  deltaY: number;
  /** CSS pixels per second. */
  velocityX: number;
  velocityY: number;
  /** Screen points per second (gestured's velocityX, velocityY). */
  screenVelocityX: number;
  screenVelocityY: number;
}
export interface PanDetail extends GestureBase, Movement { kind: "pan" | "edgePan" }
export interface SwipeDetail extends GestureBase { kind: "swipe"; direction: "right" | "left" | "up" | "down" }
export interface PinchDetail extends GestureBase { kind: "pinch"; scale: number; velocity: number }
export interface RotationDetail extends GestureBase {
  kind: "rotation";
  /** Radians, clockwise positive. */
  rotation: number;
  rotationDegrees: number;
  velocity: number;
  velocityDegrees: number;
}
export interface TransformDetail extends GestureBase, Movement {
  kind: "transform";
  scale: number;
  /** Radians, clockwise positive, not wrapped. */
  rotation: number;
  scaleVelocity: number;
  rotationVelocity: number;
  /** [a, b, c, d, tx, ty] in screen points, in the order of CSS matrix(). */
  matrix: [number, number, number, number, number, number];
}
export type GestureDetail = TapDetail | LongPressDetail | PanDetail | SwipeDetail | PinchDetail | RotationDetail | TransformDetail;

export type ControlEventName =
  | "touchDown" | "touchDownRepeat" | "touchDragInside" | "touchDragOutside" | "touchDragEnter"
  | "touchDragExit" | "touchUpInside" | "touchUpOutside" | "touchCancel";

export interface ControlDetail extends EventBase, Partial<ClientPosition> {
  type: "control";
  view: string;
  event: ControlEventName;
  touch: number;
}

export interface HitTestDetail extends EventBase, ClientPosition {
  type: "hitTest";
  touch: number;
  x: number;
  y: number;
  view: string | null;
  trace: string[];
}

/** One finger of a "contacts" event. */
export interface Contact extends ClientPosition {
  id: number;
  /** "stationary": down, and did not move in this frame. */
  phase: "began" | "moved" | "stationary" | "ended" | "cancelled";
  x: number;
  y: number;
  /** The hit view, null when the touch hit none. */
  view: string | null;
  viewX: number;
  viewY: number;
  /** The recognizer whose gesture took the touch from its view. */
  recognizer?: string;
  /** With routing: where the touch goes. */
  route?: "claimed" | "forwarded" | "held";
}

/** Every finger down after a frame that changed one (only when asked: kinds "contacts"). */
export interface ContactsDetail extends EventBase {
  type: "contacts";
  /** With several screens: the screen of these fingers. */
  screen?: string;
  contacts: Contact[];
}

export interface DaemonEventDetail extends EventBase {
  type: "device" | "layout" | "screen" | "warning";
  message: string;
  [key: string]: unknown;
}

export type EventDetail = TouchesDetail | GestureDetail | ControlDetail | HitTestDetail | ContactsDetail | DaemonEventDetail;

export interface Problem { path: string; message: string }

/** The detail of an "error" event: a refused request, or a refusal the library met. */
export interface ErrorDetail {
  code: string;
  message: string;
  problems?: Problem[];
  request?: string;
  /** The elements at fault, when gestured refused parts of the page's layout. */
  elements?: { element?: Element; selector: string; view: string; path: string; message: string }[];
  element?: Element;
  selector?: string;
}

/** The detail of a "warning" event: something the page should fix. */
export interface WarningDetail {
  code: "viewport-shape" | "viewport-origin" | "unreachable" | "rotated" | "duplicate-view"
    | "invalid-attribute" | "dropped" | "daemon" | "screen";
  message: string;
  element?: Element | null;
  selector?: string;
  event?: DaemonEventDetail;
}

/** The detail of a "superseded" event: another client replaced the page's layout. */
export interface SupersededDetail {
  type: "superseded";
  seq: number;
  time: number;
  what: "layout";
  by: string;
  revision: number;
  message: string;
}

/** DOM events on the element of an event's view (they bubble). */
export interface GesturedEventMap {
  "gestured:touches": CustomEvent<TouchesDetail>;
  "gestured:gesture": CustomEvent<GestureDetail>;
  "gestured:control": CustomEvent<ControlDetail>;
  "gestured:hitTest": CustomEvent<HitTestDetail>;
  "gestured:tap": CustomEvent<TapDetail>;
  "gestured:tapfail": CustomEvent<TapDetail>;
  "gestured:longpressstart": CustomEvent<LongPressDetail>;
  "gestured:longpressmove": CustomEvent<LongPressDetail>;
  "gestured:longpressend": CustomEvent<LongPressDetail>;
  "gestured:longpresscancel": CustomEvent<LongPressDetail>;
  "gestured:longpress": CustomEvent<LongPressDetail>;
  "gestured:panstart": CustomEvent<PanDetail>;
  "gestured:panmove": CustomEvent<PanDetail>;
  "gestured:panend": CustomEvent<PanDetail>;
  "gestured:pancancel": CustomEvent<PanDetail>;
  "gestured:edgepanstart": CustomEvent<PanDetail>;
  "gestured:edgepanmove": CustomEvent<PanDetail>;
  "gestured:edgepanend": CustomEvent<PanDetail>;
  "gestured:edgepancancel": CustomEvent<PanDetail>;
  "gestured:swipe": CustomEvent<SwipeDetail>;
  "gestured:swipeleft": CustomEvent<SwipeDetail>;
  "gestured:swiperight": CustomEvent<SwipeDetail>;
  "gestured:swipeup": CustomEvent<SwipeDetail>;
  "gestured:swipedown": CustomEvent<SwipeDetail>;
  "gestured:pinchstart": CustomEvent<PinchDetail>;
  "gestured:pinchmove": CustomEvent<PinchDetail>;
  "gestured:pinchend": CustomEvent<PinchDetail>;
  "gestured:pinchcancel": CustomEvent<PinchDetail>;
  "gestured:rotationstart": CustomEvent<RotationDetail>;
  "gestured:rotationmove": CustomEvent<RotationDetail>;
  "gestured:rotationend": CustomEvent<RotationDetail>;
  "gestured:rotationcancel": CustomEvent<RotationDetail>;
  "gestured:transformstart": CustomEvent<TransformDetail>;
  "gestured:transformmove": CustomEvent<TransformDetail>;
  "gestured:transformend": CustomEvent<TransformDetail>;
  "gestured:transformcancel": CustomEvent<TransformDetail>;
}

/** Events of the session object. */
export interface GesturedSessionEventMap {
  event: CustomEvent<EventDetail>;
  connect: CustomEvent<{ type: "hello"; protocol: string; version: string; startId: string; canControl: boolean }>;
  disconnect: CustomEvent<{ code: number; reason: string }>;
  error: CustomEvent<ErrorDetail>;
  warning: CustomEvent<WarningDetail>;
  superseded: CustomEvent<SupersededDetail>;
  screen: CustomEvent<DaemonEventDetail>;
}

/** A recognizer of the layout file (docs/layout.md § Recognizers). */
export interface RecognizerOptions {
  id?: string;
  type: RecognizerKind;
  enabled?: boolean;
  cancelsTouchesInView?: boolean;
  delaysTouchesBegan?: boolean;
  delaysTouchesEnded?: boolean;
  requireToFail?: string[];
  simultaneousWith?: string[];
  claims?: boolean;
  [parameter: string]: unknown;
}

/** A recognizer attached from script; it receives its own gesture events. */
export declare class Recognizer extends EventTarget {
  readonly id: string;
  readonly element: Element;
  readonly options: RecognizerOptions;
  set(options: Partial<RecognizerOptions>): this;
  recognizeWith(other: Recognizer | string): this;
  requireFailure(other: Recognizer | string): this;
  enable(enabled?: boolean): this;
  /** Listens by names without "gestured:", space-separated (Hammer.js's `on`): "panstart panend". */
  on(names: string, listener: (event: CustomEvent<GestureDetail>) => void): this;
  remove(): void;
  addEventListener<K extends keyof GesturedEventMap>(type: K, listener: (event: GesturedEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions): void;
}

export interface SimulateOptions {
  /** "client": positions, translations and velocities are given in CSS pixels. */
  in?: "screen" | "client";
  /** The view is this element's. */
  element?: Element;
}

/** The session with gestured. */
export declare class Gestured extends EventTarget {
  constructor(options?: ConnectOptions);
  readonly options: ConnectOptions;
  readonly url: URL;
  readonly screen: { width: number; height: number } | null;
  readonly hello: { type: "hello"; protocol: string; version: string; startId: string; canControl: boolean } | null;
  readonly check: BridgeCheck | null;
  readonly connected: boolean;
  readonly layout: object | null;
  /** Whether the debug overlay is drawn; setting it turns the overlay and its subscription on or off. */
  debug: boolean;
  request(request: { type: string; [key: string]: unknown }): Promise<{ type: "reply"; re: unknown; ok: true; [key: string]: unknown }>;
  observe(root?: Element, options?: ObserveOptions): this;
  unobserve(): void;
  recognizer(element: Element | string, options: RecognizerOptions): Recognizer;
  transform(): { scale: number; x: number; y: number; left: number; top: number } | null;
  toClient(x: number, y: number): [number, number];
  toScreen(x: number, y: number): [number, number];
  simulate(event: Partial<EventDetail> & { type: EventKind; [key: string]: unknown }, options?: SimulateOptions): EventDetail | null;
  close(): void;
  addEventListener<K extends keyof GesturedSessionEventMap>(type: K,
    listener: (event: GesturedSessionEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof GesturedSessionEventMap>(type: K,
    listener: (event: GesturedSessionEventMap[K]) => void, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions): void;
}

export declare function connect(options?: ConnectOptions): Promise<Gestured>;

/** Reads the JSON5 subset the data-gestured-* attributes accept (docs/web.md). */
export declare function parseJSON5(text: string): unknown;

/** A CSS selector that names the element for a person. */
export declare function selectorOf(element: Element): string;

declare global {
  interface HTMLElementEventMap extends GesturedEventMap {}
  interface DocumentEventMap extends GesturedEventMap {}
}
