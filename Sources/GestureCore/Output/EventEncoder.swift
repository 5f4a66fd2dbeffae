/// Turns events into JSON Lines (docs/events.md) and numbers them: `seq` strictly increases from 1
/// over one output stream.
public struct EventEncoder {
    /// The `seq` of the next event.
    public var nextSequence: Int { Int(sequence.value) }
    /// ``nextSequence`` as text, counted up in place.
    private var sequence = DecimalText(1)
    /// The text of the last `time` written: every event of a frame has the same.
    private var lastTime = DecimalText(0)
    private var writer = JSONWriter()
    /// Write each delivered touch's `route` (the configuration routes touches,
    /// docs/routing.md). Asked once per delivery, not read from every touch without routing.
    public var writesRoutes = false
    /// The screen whose events are encoded now (a daemon of several screens, docs/events.md):
    /// each line gets `"screen":"ID"` after its `time`; nil (one screen) writes none. A driver
    /// of several pipelines sets it before each pipeline's records, so one encoder numbers
    /// every screen's events with the daemon's one `seq`. A screen id is 1 to 32 of A–Z a–z 0–9
    /// - _ (the configuration's check); other characters are written as `_` and the id is cut
    /// at 32, so the member always fits ``ScreenMember``.
    public var screen: String? {
        didSet {
            screenMember = ScreenMember()
            guard let screen else { return }
            screenMember.append(#","screen":""#)
            for byte in screen.utf8.prefix(ScreenMember.maximumIDLength) {
                let allowed = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
                screenMember.append(allowed ? byte : 0x5F)
            }
            screenMember.append(0x22)
        }
    }
    /// ``screen`` as the bytes written after `time`, inline (a line's encoder copies it into a
    /// local without a retain); empty for none.
    private var screenMember = ScreenMember()

    /// Adds the screen member to the line just written through a cursor (a delivery, a gesture):
    /// those lines are written whole for speed, and only a daemon of several screens pays for
    /// the member, one search and one move per line, out of the line's own code.
    @inline(never)
    private mutating func insertScreenMember(lineStart: Int) {
        let member = screenMember
        withUnsafeBytes(of: member.bytes) { raw in
            writer.insert(UnsafeRawBufferPointer(rebasing: raw[..<member.count]), afterTimeOfLineAt: lineStart)
        }
    }

    /// `,"screen":"ID"` in 64 inline bytes: the member of a screen id of at most 32 bytes.
    struct ScreenMember {
        static let maximumIDLength = 32
        var bytes: (SIMD32<UInt8>, SIMD32<UInt8>) = (.zero, .zero)
        var count = 0

        mutating func append(_ byte: UInt8) {
            precondition(count < 64, "a screen member is at most 64 bytes")
            if count < 32 { bytes.0[count] = byte } else { bytes.1[count - 32] = byte }
            count += 1
        }

        mutating func append(_ text: StaticString) {
            text.withUTF8Buffer { for byte in $0 { append(byte) } }
        }

    }

    public init() {}

    /// Appends one line (with its newline) for `event` to `output`.
    public mutating func encode(_ event: OutputEvent, into output: inout [UInt8]) {
        if case .engine(let engineEvent) = event {
            encode(engineEvent, into: &output)
            return
        }
        line(into: &output) { encoder in
            switch event {
            case .engine: break
            case .device(let time, let action, let name, let message):
                encoder.header("device", time)
                encoder.writer.key("action"); encoder.writer.string(action)
                encoder.writer.key("name"); encoder.writer.string(name)
                encoder.writer.key("message"); encoder.writer.string(message)
            case .layout(let time, let revision, let hash, let message):
                encoder.header("layout", time)
                encoder.writer.key("revision"); encoder.writer.int(revision)
                encoder.writer.key("hash"); encoder.writer.string(hash.description)
                encoder.writer.key("message"); encoder.writer.string(message)
            case .screen(let time, let screen, let message):
                encoder.header("screen", time)
                encoder.writer.key("width"); encoder.writer.number(screen.size.width)
                encoder.writer.key("height"); encoder.writer.number(screen.size.height)
                encoder.writer.key("rotation"); encoder.writer.int(screen.rotation.degrees)
                encoder.writer.key("message"); encoder.writer.string(message)
            case .warning(let time, let message):
                encoder.header("warning", time)
                encoder.writer.key("message"); encoder.writer.string(message)
            case .contacts(let event):
                encoder.header("contacts", event.time)
                encoder.writer.key("contacts")
                encoder.contacts(event.contacts)
            }
        }
    }

    /// Appends one line for an engine event, without wrapping it in an ``OutputEvent`` (a
    /// delivery carries its touches inline, so every copy of an event costs).
    public mutating func encode(_ event: EngineEvent, into output: inout [UInt8]) {
        assert(writer.count == 0, "lines buffered and not flushed")
        writer.reset()
        encodeLine(event)
        writer.append(to: &output)
        writer.reset()
    }

    /// Adds the line of the event at `position` of `events` (read from its record in place: no
    /// event is made, no reference retained) to the lines kept for ``flush(into:)``, which
    /// hands them over in one copy: a frame's lines cost one append, not one each.
    public mutating func buffer(_ events: EngineEvents, at position: Int) {
        events.withContents { records, touches, trees in
            buffer(position, of: records, touches: touches, trees: trees, in: events)
        }
    }

    /// Adds the lines of all of `events`, as ``buffer(_:at:)`` does for each.
    public mutating func buffer(_ events: EngineEvents) {
        buffer(events, in: events.indices)
    }

    /// Adds the lines of the events at `range` of `events`, as ``buffer(_:at:)`` does for each.
    public mutating func buffer(_ events: EngineEvents, in range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= events.count, "EngineEvents range out of bounds")
        events.withContents { records, touches, trees in
            for position in range {
                buffer(position, of: records, touches: touches, trees: trees, in: events)
            }
        }
    }

    @inline(__always)
    private mutating func buffer(_ position: Int, of records: UnsafeBufferPointer<EngineEvents.Record>,
                                 touches: UnsafeBufferPointer<TouchInfo>, trees: UnsafeBufferPointer<Unmanaged<ViewTree>>,
                                 in events: EngineEvents) {
        let record = records.baseAddress.unsafelyUnwrapped + position
        switch record.pointee.kind {
        case .touches:
            let start = Int(record.pointee.start)
            trees[Int(record.pointee.tree)]._withUnsafeGuaranteedRef { tree in
                encodeTouches(time: record.pointee.time, phase: record.pointee.phase, tree: tree,
                              view: Int(record.pointee.view),
                              touches: UnsafeBufferPointer(rebasing: touches[start..<start + Int(record.pointee.count)]))
            }
        case .gesture:
            encodeGesture(GestureEvent(pool: events.gesturePool, index: Int(record.pointee.start)))
        case .other:
            encodeLine(events[position])
        }
    }

    /// Bytes of the lines ``buffer(_:at:)`` kept and ``flush(into:)`` has not handed over.
    public var bufferedCount: Int { writer.count }

    /// Appends the kept lines to `output` and forgets them.
    public mutating func flush(into output: inout [UInt8]) {
        guard writer.count > 0 else { return }
        writer.append(to: &output)
        writer.reset()
    }

    /// One whole line, after what the writer holds.
    private mutating func encodeLine(_ event: EngineEvent) {
        switch event {
        case .touches(let delivery): encodeTouches(delivery)
        case .gesture(let gesture): encodeGesture(gesture)
        case .control, .hitTest:
            writer.beginObject()
            encodeEngine(event)
            writer.endObject()
            writer.newline()
        }
    }

    /// Writes one line and appends it to `output`.
    /// The writer is empty before and after: ``buffer(_:at:)`` keeps lines in it only until
    /// its caller's ``flush(into:)``.
    private mutating func line(into output: inout [UInt8], _ body: (inout EventEncoder) -> Void) {
        assert(writer.count == 0, "lines buffered and not flushed")
        writer.reset()
        writer.beginObject()
        body(&self)
        writer.endObject()
        writer.newline()
        writer.append(to: &output)
        writer.reset()
    }

    /// One line for `event`, as a string (tests, tools).
    public mutating func line(_ event: OutputEvent) -> String {
        var bytes: [UInt8] = []
        encode(event, into: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func header(_ type: StaticString, _ time: Timestamp) {
        writer.key("type"); writer.string(type)
        writer.key("seq"); writer.int(nextSequence)
        sequence.increment()
        writer.key("time"); writer.int(time.microseconds)
        if let screen { writer.key("screen"); writer.string(screen) }
    }

    /// The fingers of a `contacts` event (docs/events.md), in order. Written only while a
    /// subscriber asks, so plainly, member by member.
    private mutating func contacts(_ contacts: [ContactsEvent.Contact]) {
        writer.beginArray()
        for contact in contacts {
            writer.beginObject()
            writer.key("id"); writer.int(contact.id.rawValue)
            writer.key("phase"); writer.string(contact.phase.rawValue)
            writer.key("x"); writer.number(contact.location.x)
            writer.key("y"); writer.number(contact.location.y)
            writer.key("view")
            if let view = contact.view { writer.string(view) } else { writer.null() }
            writer.key("viewX"); writer.number(contact.viewLocation.x)
            writer.key("viewY"); writer.number(contact.viewLocation.y)
            if let recognizer = contact.recognizer { writer.key("recognizer"); writer.string(recognizer) }
            if let route = contact.route { writer.key("route"); writer.string(route.name) }
            writer.endObject()
        }
        writer.endArray()
    }

    /// A touch delivery, the event of every frame: its size is bounded, so it is written
    /// through one cursor, its view ids copied from the tree's quoted ones.
    private mutating func encodeTouches(_ e: TouchesEvent) {
        let tree = e.tree
        e.touches.withUnsafeBufferPointer { touches in
            encodeTouches(time: e.time, phase: e.phase, tree: tree, view: e.view, touches: touches)
        }
    }

    private mutating func encodeTouches(time: Timestamp, phase: TouchPhase, tree: ViewTree, view: ViewIndex,
                                        touches: UnsafeBufferPointer<TouchInfo>) {
        let lineStart = writer.count
        defer { if screenMember.count > 0 { insertScreenMember(lineStart: lineStart) } }
        let room = 163 + touches.count * Self.maximumTouchLength
            + tree.quotedIDStarts[view + 1] - tree.quotedIDStarts[view] + tree.quotedChainLengths[view]
        // The two integers every line begins with, as text kept from the last line: the
        // sequence number counted up, the frame's time formatted once per frame.
        let sequence = sequence
        self.sequence.increment()
        if lastTime.value != time.microseconds { lastTime.set(time.microseconds) }
        let timeText = lastTime
        let writesRoutes = writesRoutes
        tree.quotedIDBytes.withUnsafeBufferPointer { idBytes in
            tree.quotedIDStarts.withUnsafeBufferPointer { starts in
                tree.nextResponders.withUnsafeBufferPointer { next in
                    do {
                        let ids = idBytes.baseAddress!
                        writer.withLine(room: room) { out in
                            out.raw(#"{"type":"touches","seq":"#)
                            sequence.write(to: &out)
                            out.raw(#","time":"#)
                            timeText.write(to: &out)
                            out.raw(#","phase":"#)
                            Self.phase(phase, &out)
                            out.raw(#","view":"#)
                            out.bytes(ids + starts[view], count: starts[view + 1] - starts[view])
                            out.raw(#","responders":["#)
                            // ResponderChain's walk, read from the tree's arrays: the hit view,
                            // then on to the superview until one handles touches.
                            var responder = view
                            while true {
                                out.bytes(ids + starts[responder], count: starts[responder + 1] - starts[responder])
                                responder = next[responder]
                                guard responder >= 0 else { break }
                                out.raw(",")
                            }
                            out.raw(#"],"touches":["#)
                            for index in touches.indices {
                                // Read in place: a copy of the touch was a memcpy call.
                                let touch = touches.baseAddress.unsafelyUnwrapped + index
                                // Two constant texts: one chosen by a ternary has no constant
                                // length, and was copied by a `memcpy` call.
                                if index > 0 { out.raw(",") }
                                out.raw(#"{"id":"#)
                                out.int(touch.pointee.id.rawValue)
                                out.raw(#","phase":"#)
                                Self.phase(touch.pointee.phase, &out)
                                out.raw(#","x":"#); out.number(touch.pointee.location.x)
                                out.raw(#","y":"#); out.number(touch.pointee.location.y)
                                out.raw(#","viewX":"#); out.number(touch.pointee.viewLocation.x)
                                out.raw(#","viewY":"#); out.number(touch.pointee.viewLocation.y)
                                out.raw(#","previousX":"#); out.number(touch.pointee.previousLocation.x)
                                out.raw(#","previousY":"#); out.number(touch.pointee.previousLocation.y)
                                out.raw(#","tapCount":"#); out.int(touch.pointee.tapCount)
                                if let radius = touch.pointee.majorRadius { out.raw(#","majorRadius":"#); out.number(radius) }
                                if let force = touch.pointee.force { out.raw(#","force":"#); out.number(force) }
                                if writesRoutes, let route = touch.pointee.route { Self.route(route, &out) }
                                out.raw("}")
                            }
                            out.raw("]}\n")
                        }
                    }
                }
            }
        }
    }

    /// A gesture event, every frame of a pan or a pinch: written through one cursor as a
    /// delivery is (each value through the writer was a capacity check and a closure;
    /// docs/performance.md, "Measured reasons behind the code's shape").
    private mutating func encodeGesture(_ e: GestureEvent) {
        let lineStart = writer.count
        defer { if screenMember.count > 0 { insertScreenMember(lineStart: lineStart) } }
        let tree = e.tree
        let view = e.view
        let recognizer = e.quotedRecognizer
        // Only a failed or cancelled event has a reason: the others do not look for one.
        let failure = e.state == .failed || e.state == .cancelled ? e.failureRecord : nil
        // The shared values' room, and the most any kind's own values take.
        let room = 643 + RecognizerKind.maximumOwnValuesLength + recognizer.count + tree.quotedIDStarts[view + 1] - tree.quotedIDStarts[view]
            + e.touchCount * 21 + (failure.map { Self.maximumFailureLength + ($0.quotedBy?.count ?? 0) } ?? 0)
        let sequence = sequence
        self.sequence.increment()
        if lastTime.value != e.time.microseconds { lastTime.set(e.time.microseconds) }
        let timeText = lastTime
        let v = e.values
        tree.quotedIDBytes.withUnsafeBufferPointer { idBytes in
            tree.quotedIDStarts.withUnsafeBufferPointer { starts in
                writer.withLine(room: room) { out in
                    out.raw(#"{"type":"gesture","seq":"#)
                    sequence.write(to: &out)
                    out.raw(#","time":"#)
                    timeText.write(to: &out)
                    out.raw(#","recognizer":"#)
                    out.bytes(recognizer)
                    out.raw(#","kind":"#)
                    Self.kind(e.kind, &out)
                    out.raw(#","view":"#)
                    out.bytes(idBytes.baseAddress! + starts[view], count: starts[view + 1] - starts[view])
                    out.raw(#","state":"#)
                    Self.state(e.state, &out)
                    out.raw(#","x":"#); out.number(v.location.x)
                    out.raw(#","y":"#); out.number(v.location.y)
                    out.raw(#","touches":["#)
                    for position in 0..<e.touchCount {
                        if position > 0 { out.raw(",") }
                        out.int(e.touch(at: position).rawValue)
                    }
                    out.raw("]")
                    // The values are the kind's to write (its file says which and how).
                    e.kind.machine.encodeValues(v, &out)
                    if let failure { Self.failure(failure, &out) }
                    out.raw("}\n")
                }
            }
        }
    }

    /// The most one touch of a delivery takes: its keys and punctuation (under 160 bytes, the
    /// `route` member's 20 included), two integers of at most 20 and ten numbers of at most
    /// ``JSONWriter/maximumNumberLength``.
    private static let maximumTouchLength = 160 + 2 * 20 + 10 * JSONWriter.maximumNumberLength

    /// The most a failure's members take, its `by` aside: keys and punctuation (37 bytes), the
    /// longest cause's name and two numbers.
    private static let maximumFailureLength = 40 + (FailureCause.allCases.map(\.rawValue.utf8.count).max() ?? 0)
        + 2 * JSONWriter.maximumNumberLength

    /// Why a recognizer failed or was cancelled (docs/protocol.md § Why a recognizer failed):
    /// `"reason"`, the figure and limit where there are, and the recognizer that caused it.
    private static func failure(_ failure: GesturePool.Failure, _ out: inout JSONWriter.Cursor) {
        let reason = failure.failure.reason
        out.raw(#","reason":"#)
        out.plainString(reason.cause.rawValue)
        if let measured = reason.measured { out.raw(#","measured":"#); out.number(measured) }
        if let limit = reason.limit { out.raw(#","limit":"#); out.number(limit) }
        if let by = failure.quotedBy { out.raw(#","by":"#); out.bytes(by) }
    }

    /// A recognizer's kind as a quoted JSON string (its name, as constant text of its kind).
    private static func kind(_ kind: RecognizerKind, _ out: inout JSONWriter.Cursor) {
        out.raw(kind.machine.quotedName)
    }

    /// A gesture's state as a quoted JSON string (its raw value, as constant text).
    private static func state(_ state: GestureState, _ out: inout JSONWriter.Cursor) {
        switch state {
        case .possible: out.raw(#""possible""#)
        case .began: out.raw(#""began""#)
        case .changed: out.raw(#""changed""#)
        case .ended: out.raw(#""ended""#)
        case .cancelled: out.raw(#""cancelled""#)
        case .recognized: out.raw(#""recognized""#)
        case .failed: out.raw(#""failed""#)
        }
    }

    /// A phase as a quoted JSON string.
    @inline(__always)
    /// A routed touch's `"route"` member (docs/routing.md), with its leading comma: only for a
    /// touch the desktop also gets or that waits; a claimed touch is gestured's alone, as every
    /// touch is without routing, and says nothing.
    private static func route(_ route: Route, _ out: inout JSONWriter.Cursor) {
        switch route {
        case .claimed: break
        case .forwarded: out.raw(#","route":"forwarded""#)
        case .held: out.raw(#","route":"held""#)
        }
    }

    private static func phase(_ phase: TouchPhase, _ out: inout JSONWriter.Cursor) {
        switch phase {
        case .began: out.raw(#""began""#)
        case .moved: out.raw(#""moved""#)
        case .ended: out.raw(#""ended""#)
        case .cancelled: out.raw(#""cancelled""#)
        }
    }

    private mutating func encodeEngine(_ event: EngineEvent) {
        switch event {
        case .touches, .gesture:
            // Whole lines of their own (``encodeLine(_:)``).
            break
        case .control(let e):
            header("control", e.time)
            writer.key("view"); writer.string(e.tree.id(of: e.view))
            writer.key("event"); writer.string(e.event.rawValue)
            writer.key("touch"); writer.int(e.touch.rawValue)
        case .hitTest(let e):
            header("hitTest", e.time)
            if let touch = e.touch { writer.key("touch"); writer.int(touch.rawValue) }
            writer.key("x"); writer.number(e.location.x)
            writer.key("y"); writer.number(e.location.y)
            writer.key("view")
            if let view = e.view { writer.string(e.tree.id(of: view)) } else { writer.null() }
            writer.key("trace"); writer.beginArray()
            for line in e.trace.lines(in: e.tree) { writer.string(line) }
            writer.endArray()
        }
    }
}
