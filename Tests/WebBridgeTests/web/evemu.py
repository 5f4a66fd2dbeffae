"""Writes touch scripts as evemu recordings of a virtual multitouch screen (protocol B), the
format `gestured replay` reads: a device description (N:, I:, P:, B:, A: lines as evemu 2.x
writes them) and one E: line per event. Positions are given in screen points; the device
has 10 units per point, so the replay maps them back exactly (u = value / (max - min + 1))."""

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
BTN_TOUCH = 0x14A
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 0x01
UNITS_PER_POINT = 10
SLOTS = 10

# The highest code per event type as libevdev knows it; evemu writes (max + 1 + 7) / 8 mask
# bytes per type, 8 to a B: line.
TYPE_MAXIMA = [(0x01, 0x2FF), (0x02, 0x0F), (0x03, 0x3F), (0x04, 0x07), (0x05, 0x11), (0x11, 0x0F),
               (0x12, 0x07), (0x14, 0x01), (0x15, 0x7F)]


def _mask_lines(type_, codes, maximum):
    size = (maximum + 1 + 7) // 8
    size = (size + 7) // 8 * 8  # every B: line has 8 bytes
    mask = bytearray(size)
    for code in codes:
        mask[code // 8] |= 1 << (code % 8)
    return [f"B: {type_:02x} " + " ".join(f"{b:02x}" for b in mask[i:i + 8]) for i in range(0, size, 8)]


class Recording:
    """Touches on a width × height screen, built with down/move/up at times in seconds."""

    def __init__(self, width, height, name="gestured web test touchscreen"):
        self.width, self.height, self.name = width, height, name
        self.events = []  # (time, type, code, value)
        self.slots = {}  # touch name -> slot
        self.tracking = 0
        self.touching = 0
        self.time = 0.0

    def _units(self, x, y):
        return round(x * UNITS_PER_POINT), round(y * UNITS_PER_POINT)

    def _event(self, type_, code, value):
        self.events.append((self.time, type_, code, value))

    def frame(self, time, changes):
        """One frame at `time`: changes are (name, "down"|"move"|"up", x, y)."""
        assert time >= self.time, "frames go forward in time"
        self.time = time
        first = None
        for name, action, x, y in changes:
            if action == "down":
                slot = next(s for s in range(SLOTS) if s not in self.slots.values())
                self.slots[name] = slot
            slot = self.slots[name]
            self._event(EV_ABS, ABS_MT_SLOT, slot)
            if action == "down":
                self.tracking += 1
                self._event(EV_ABS, ABS_MT_TRACKING_ID, self.tracking)
            if action == "up":
                self._event(EV_ABS, ABS_MT_TRACKING_ID, -1)
                del self.slots[name]
            else:
                ux, uy = self._units(x, y)
                self._event(EV_ABS, ABS_MT_POSITION_X, ux)
                self._event(EV_ABS, ABS_MT_POSITION_Y, uy)
                first = first or (ux, uy)
        touching = len(self.slots)
        if (touching > 0) != (self.touching > 0):
            self._event(EV_KEY, BTN_TOUCH, 1 if touching else 0)
        self.touching = touching
        if first:
            self._event(EV_ABS, ABS_X, first[0])
            self._event(EV_ABS, ABS_Y, first[1])
        self._event(EV_SYN, 0, 0)

    # Gestures

    def tap(self, at, x, y, duration=0.08):
        self.frame(at, [("tap", "down", x, y)])
        self.frame(at + duration, [("tap", "up", x, y)])
        return at + duration

    def drag(self, at, points, duration, name="drag", steps=20, lift=True):
        """One finger from points[0] to points[1] in `steps` frames over `duration` seconds."""
        (x0, y0), (x1, y1) = points
        self.frame(at, [(name, "down", x0, y0)])
        for i in range(1, steps + 1):
            f = i / steps
            self.frame(at + duration * f, [(name, "move", x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)])
        end = at + duration
        if lift:
            self.frame(end + 0.01, [(name, "up", x1, y1)])
        return end + 0.01

    def pinch(self, at, center, start_gap, end_gap, duration, steps=20, hold=0.0):
        """Two fingers on a horizontal line through `center`, spreading from start_gap to end_gap."""
        cx, cy = center
        self.frame(at, [("a", "down", cx - start_gap / 2, cy), ("b", "down", cx + start_gap / 2, cy)])
        for i in range(1, steps + 1):
            gap = start_gap + (end_gap - start_gap) * i / steps
            self.frame(at + duration * i / steps, [("a", "move", cx - gap / 2, cy), ("b", "move", cx + gap / 2, cy)])
        end = at + duration + hold
        if hold:
            # A tiny move keeps the frame stream alive while the fingers rest.
            self.frame(end, [("a", "move", cx - end_gap / 2, cy), ("b", "move", cx + end_gap / 2, cy)])
        self.frame(end + 0.01, [("a", "up", 0, 0), ("b", "up", 0, 0)])
        return end + 0.01

    def text(self):
        w, h = self.width * UNITS_PER_POINT - 1, self.height * UNITS_PER_POINT - 1
        lines = ["# EVEMU 1.3", f"N: {self.name}", "I: 0003 1234 5678 0111",
                 "P: " + " ".join(f"{b:02x}" for b in bytes([1 << INPUT_PROP_DIRECT, 0, 0, 0, 0, 0, 0, 0])),
                 "B: 00 0b 00 00 00 00 00 00 00"]
        codes = {0x01: [BTN_TOUCH], 0x03: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID]}
        for type_, maximum in TYPE_MAXIMA:
            lines += _mask_lines(type_, codes.get(type_, []), maximum)
        for code, lo, hi in [(ABS_X, 0, w), (ABS_Y, 0, h), (ABS_MT_SLOT, 0, SLOTS - 1), (ABS_MT_POSITION_X, 0, w),
                             (ABS_MT_POSITION_Y, 0, h), (ABS_MT_TRACKING_ID, 0, 65535)]:
            lines.append(f"A: {code:02x} {lo} {hi} 0 0 0")
        base = 1.0  # evemu times are seconds since boot, never negative
        for time, type_, code, value in self.events:
            t = base + time
            sec = int(t)
            usec = round((t - sec) * 1e6)
            if usec >= 1000000:
                sec, usec = sec + 1, usec - 1000000
            lines.append(f"E: {sec}.{usec:06d} {type_:04x} {code:04x} {value}")
        return "\n".join(lines) + "\n"

    def write(self, path):
        with open(path, "w") as f:
            f.write(self.text())
