import CMtdev
import GestureCore

// `struct input_event` ↔ `RawEvent`. The kernel stamps events with a `timeval`; the core
// keeps microseconds.

extension input_event {
    /// The C event for a raw event, its time split into seconds and microseconds.
    init(_ event: RawEvent) {
        let microseconds = event.time.microseconds
        // Floor division keeps tv_usec in 0 ..< 1_000_000 for times before the epoch, too.
        var seconds = microseconds / 1_000_000
        var remainder = microseconds % 1_000_000
        if remainder < 0 {
            seconds -= 1
            remainder += 1_000_000
        }
        self.init(time: timeval(tv_sec: Int(seconds), tv_usec: Int(remainder)),
                  type: event.type, code: event.code, value: event.value)
    }
}

extension RawEvent {
    /// The raw event for a C event.
    init(_ event: input_event) {
        self.init(time: Timestamp(microseconds: Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec)),
                  type: event.type, code: event.code, value: event.value)
    }
}
