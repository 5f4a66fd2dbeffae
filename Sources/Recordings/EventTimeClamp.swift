import GestureCore

/// Keeps the raw event times of one input from going backwards, so that nothing after it — the
/// contact tracker, a recognizer's durations and velocities — ever sees time decrease (issue
/// 25: a recording whose times went back made velocities change sign).
///
/// The rule: an event stamped earlier than the time the previous event went on with takes that
/// time instead (it is clamped to it), as long as the input's time stays behind. libinput's
/// answer to the same fault is the model: the event is kept, the input is named as the one at
/// fault ("kernel bug:"), and the driver logs it without flooding (it counts, see
/// ``eventsBack`` and ``stepsBack``). The driver also raises the floor to the times the
/// engine was given without an event (a deadline fired, a resynchronisation), with
/// ``raise(to:)``: an event stamped before those is clamped too, but it is late, not back, and
/// is not counted.
///
/// A value the reader or driver of one input owns; pure, so replay and live clamp alike. Here
/// rather than in GestureCore, whose engine is given times that no longer go back: the
/// readers call ``clamp(_:)`` for every event, and within this module it is inlined.
public struct EventTimeClamp: Sendable {
    /// The time the latest event went on with, or the time ``raise(to:)`` gave, whichever is
    /// later: no event goes on earlier.
    public private(set) var floor = Timestamp(microseconds: .min)
    /// The latest time an event of the current input was stamped with (``startInput()``
    /// forgets it): an event stamped before it went back in its input's own time.
    private var latestStamp = Timestamp(microseconds: .min)
    /// Events stamped before an earlier event of their input, each clamped.
    public private(set) var eventsBack = 0
    /// Places where the input's time went back: the different times such events were clamped
    /// to (the events of a frame stamped early are one place, and so are the frames after it
    /// until the input's time catches up).
    public private(set) var stepsBack = 0
    /// The furthest an event was stamped before the latest stamp before it.
    public private(set) var furthestBack = TimeSpan(microseconds: 0)
    /// The time the last event that went back was clamped to (a new one is a new place).
    private var lastClampedTo = Timestamp(microseconds: .min)

    public init() {}

    /// Clamps `event`'s time to ``floor`` when it is earlier. Returns true when the event went
    /// back in its input's own time (counted in ``eventsBack``, for the driver to warn about);
    /// false for an event in order and for one that is only late after ``raise(to:)``.
    @inline(__always)
    public mutating func clamp(_ event: inout RawEvent) -> Bool {
        if event.time >= floor {
            floor = event.time
            latestStamp = event.time
            return false
        }
        return clampEarlier(&event)
    }

    /// ``clamp(_:)`` for every event of `events`, in order: the number that went back.
    public mutating func clamp(_ events: UnsafeMutableBufferPointer<RawEvent>) -> Int {
        var back = 0
        for index in events.indices where clamp(&events[index]) { back += 1 }
        return back
    }

    @inline(never)
    private mutating func clampEarlier(_ event: inout RawEvent) -> Bool {
        let stamp = event.time
        event.time = floor
        guard stamp < latestStamp else {
            // Late after a deadline or a resynchronisation the engine was already given.
            latestStamp = stamp
            return false
        }
        if floor != lastClampedTo {
            stepsBack += 1
            lastClampedTo = floor
        }
        eventsBack += 1
        // Saturating: stamps are whatever a file or a device says.
        let (back, overflow) = latestStamp.microseconds.subtractingReportingOverflow(stamp.microseconds)
        furthestBack = max(furthestBack, TimeSpan(microseconds: overflow ? .max : back))
        return true
    }

    /// The engine was given `time` without an event (a deadline fired, a resynchronisation,
    /// the input ended): events stamped before it go on at it.
    public mutating func raise(to time: Timestamp) {
        floor = max(floor, time)
    }

    /// Another input (a device opened again, another device) starts: its own time is new, so
    /// the counts start over; the floor stays, since the engine has already been there.
    public mutating func startInput() {
        latestStamp = Timestamp(microseconds: .min)
        eventsBack = 0
        stepsBack = 0
        furthestBack = TimeSpan(microseconds: 0)
        lastClampedTo = Timestamp(microseconds: .min)
    }
}
