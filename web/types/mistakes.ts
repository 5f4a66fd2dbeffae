// Mistakes the types must catch: scripts/build-web.sh requires tsc to reject exactly the lines
// marked "error:".
import { connect } from "../gestured.js";

const g = await connect({ bridge: "127.0.0.1:7300", timeout: "30 s" }); // error: timeout is a number
const element = document.body;
element.addEventListener("gestured:panmove", (event) => event.detail.deltaX.toUpperCase()); // error: deltaX is a number
element.addEventListener("gestured:swipe", (event) => event.detail.scale); // error: a swipe has no scale
g.recognizer(element, { type: "pann" }); // error: no such kind
g.addEventListener("superseded", (event) => event.detail.by.length + event.detail.nothing); // error: no such field
g.addEventListener("event", (event) => event.detail.type === "contacts" && event.detail.contacts[0].phase === "lifted"); // error: no such phase
export {};
