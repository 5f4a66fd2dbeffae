import GestureCore

/// A recording read as it is replayed: the device description and format come from the lines
/// before the first event, then ``next()`` reads the file on, one line at a time, for each raw
/// event. Nothing but the description, the line being read and one chunk of the file is held,
/// so a replay needs the same memory for a recording of a minute and of a week (issue 12).
///
/// ``RecordingReader`` opens one; a ``Recording`` already in memory can be replayed through one
/// as well. A value that shares its open file between copies: read from one copy only (a
/// replay owns its stream). A value, not a class, so that reading an event costs no dynamic
/// exclusivity check or reference counting.
public struct RecordingStream {
    /// The recorded device (the description file's, for a split recording), or nil when the
    /// file has none (Android `getevent`, an evemu events-only file read on its own).
    public private(set) var description: DeviceDescription?
    /// The format of the file the events come from.
    public private(set) var format: RecordingFormat
    /// What the reader noticed before the first event (a description file's events ignored, a
    /// slot count beyond ``ContactTracker/maximumSlots``), for the user to see.
    public private(set) var warnings: [String]
    /// The file(s) read: the recording, or the description file followed by the events file.
    public private(set) var sourcePaths: [String]
    /// The time of the first event, where a replay starts; nil for a recording without events.
    public let startTime: Timestamp?
    /// What the reader can only say once the whole file is read (damaged evtest lines skipped,
    /// other devices' events left out); empty until ``next()`` has returned nil.
    public private(set) var closingWarnings: [String] = []
    /// What the reader noticed among the events and not yet taken (``takeEventWarnings()``):
    /// an event whose time went back (``TimeWarnings``), said where it happens, and once the
    /// file is read how many did. A replay puts each into its stream where it was noticed.
    public private(set) var eventWarnings: [String] = []
    /// The device's udev properties, when the file recorded them (libinput record); nil
    /// otherwise.
    public private(set) var udevProperties: [String: String]?
    /// The `# EVEMU` version the events file declares, if any.
    let declaredEvemuVersion: EvemuVersion?

    /// The file's lines (none for a recording already in memory: not optional, so that the
    /// evemu fast path reads them without unwrapping) and its format's parser (nil for a
    /// recording already in memory).
    private var lines: LineReader
    private let parser: (any RecordingParser)?
    /// Whether ``next()`` first tries the next line as an evemu event line as evemu writes it
    /// (``LineReader/nextCanonicalEvemuEvent()``), before the line-by-line path through the
    /// parser: true for an evemu file from its first event on (the description is complete, so
    /// an event line means the same to the parser wherever it is) until its end.
    private var readsCanonicalEvemuEvents = false
    /// An evemu file whose events may take the fast path: false for other formats, for limits
    /// that allow lines shorter than an event line (tests), and for tests that compare the fast
    /// path with the parser's own.
    private let canonicalEvemuEvents: Bool
    /// The first event, read with the description and not yet returned.
    private var first: RawEvent?
    private var ended = false
    /// Event times never go backwards past the reader (docs/limits.md, Recordings).
    private var timeClamp = EventTimeClamp()
    private var timeWarnings: TimeWarnings
    private let recorded: [RawEvent]
    private var recordedIndex = 0

    /// Reads a file's description: its format is told from its first lines, then lines are
    /// read up to the first event (or the end of the file).
    init(lines: LineReader, canonicalEvemuFastPath: Bool = true) throws(RecordingError) {
        var lines = lines
        let name = lines.name
        try lines.skipByteOrderMark()
        let prefix = try lines.peek(RecordingFormatDetector.prefixLength)
        let parser: any RecordingParser = switch try RecordingFormatDetector.detect(
            prefix: prefix.bytes, isWholeFile: prefix.isWholeInput, name: name) {
        case .evemu: EvemuParser(file: name)
        case .libinputRecord: LibinputRecordParser(file: name)
        case .evtest: EvtestParser()
        case .getevent: GeteventParser(file: name)
        }
        var first: RawEvent?
        while let line = try lines.nextLine() {
            if let event = try parser.consume(line) {
                first = event
                break
            }
        }
        if first == nil {
            ended = true
            closingWarnings = try parser.finish(lastLine: max(lines.lineNumber, 1))
        }
        self.first = first
        self.lines = lines
        self.parser = parser
        canonicalEvemuEvents = canonicalEvemuFastPath && parser is EvemuParser
            && lines.limits.maximumLineLength >= EvemuParser.longestCanonicalLine
        startTime = first?.time
        format = parser.format
        declaredEvemuVersion = parser.declaredEvemuVersion
        description = parser.makeDescription()
        udevProperties = parser.udevProperties
        warnings = []
        sourcePaths = [name]
        recorded = []
        timeWarnings = TimeWarnings(file: name)
        if let declared = description?.slotCount, declared > ContactTracker.maximumSlots {
            // Never allocate from a count a file gives: the tracker keeps state per slot.
            description?.absInfo[AbsCode.mtSlot]?.maximum = Int32(ContactTracker.maximumSlots - 1)
            warnings.append(RecordingError(file: name, line: parser.declarationLine(ofAxis: AbsCode.mtSlot),
                                           message: "the recorded device " + ContactTracker.slotLimitMessage(declared: declared)).description)
        }
    }

    /// Replays a recording already in memory (its warnings count as read before the events).
    public init(_ recording: Recording) {
        description = recording.description
        format = recording.format
        warnings = recording.warnings
        sourcePaths = recording.sourcePaths
        startTime = recording.events.first?.time
        declaredEvemuVersion = nil
        lines = LineReader(name: "", bytes: [], limits: LineReader.Limits(chunkSize: 1, maximumLineLength: 1))
        parser = nil
        canonicalEvemuEvents = false
        recorded = recording.events
        timeWarnings = TimeWarnings(file: recording.sourcePaths.first ?? "recording")
    }

    /// The next raw event in file order, with its timestamp as written (`sec * 1_000_000 +
    /// usec`), or the previous event's when it is earlier (``EventTimeClamp``: a warning
    /// joins ``eventWarnings``); nil at the end. Throws for a malformed line, naming the file
    /// and line: the events before it have been returned.
    public mutating func next() throws(RecordingError) -> RawEvent? {
        // Almost every line of an evemu recording is an event line as evemu writes it: those
        // are read straight from the buffer (the line-by-line path cost a third of a whole
        // replay: docs/performance.md, "Measured reasons behind the code's shape").
        if readsCanonicalEvemuEvents, var event = lines.nextCanonicalEvemuEvent() {
            clamp(&event)
            return event
        }
        return try nextThroughParser()
    }

    /// The clamp (``EventTimeClamp``), and its warning when the event went back.
    @inline(__always)
    private mutating func clamp(_ event: inout RawEvent) {
        let stamp = event.time
        if timeClamp.clamp(&event) { wentBack(stamp: stamp, to: event.time) }
    }

    /// An event stamped `stamp` went on at `time`, the previous event's: said at the first one.
    @inline(never)
    private mutating func wentBack(stamp: Timestamp, to time: Timestamp) {
        let line = parser == nil ? nil : lines.lineNumber
        if let warning = timeWarnings.wentBack(stamp: stamp, to: time, line: line, event: recordedIndex) {
            eventWarnings.append(warning)
        }
    }

    /// The warnings in ``eventWarnings``, taken out.
    public mutating func takeEventWarnings() -> [String] {
        defer { eventWarnings.removeAll() }
        return eventWarnings
    }

    /// ``next()`` for every line the fast path leaves: the first event, read with the
    /// description; comments, blank lines, other spellings and malformed lines, named in errors
    /// as before; a line cut by a chunk boundary; the end; other formats; recordings in memory.
    @inline(never)
    private mutating func nextThroughParser() throws(RecordingError) -> RawEvent? {
        if var event = first {
            first = nil
            readsCanonicalEvemuEvents = canonicalEvemuEvents
            clamp(&event)
            return event
        }
        guard let parser else {
            guard recordedIndex < recorded.count else { return endOfEvents() }
            recordedIndex += 1
            var event = recorded[recordedIndex - 1]
            clamp(&event)
            return event
        }
        guard !ended else { return nil }
        while let line = try lines.nextLine() {
            if var event = try parser.consume(line) {
                clamp(&event)
                return event
            }
        }
        ended = true
        readsCanonicalEvemuEvents = false
        closingWarnings = try parser.finish(lastLine: max(lines.lineNumber, 1))
        return endOfEvents()
    }

    /// No event is left: how many went back in time, once (``TimeWarnings``).
    private mutating func endOfEvents() -> RawEvent? {
        if let summary = timeWarnings.summary(of: timeClamp) { eventWarnings.append(summary) }
        return nil
    }

    /// The number of the last line read (0 for a recording in memory): what the fast path and
    /// the parser's path must agree on, since errors count lines from it (tests).
    var linesRead: Int { lines.lineNumber }

    /// Whether the next ``next()`` tries the evemu fast path first (tests).
    var triesCanonicalEvemuEvents: Bool { readsCanonicalEvemuEvents }

    /// Reads every event left into a ``Recording`` (tests, tools; a replay streams instead).
    public mutating func collect() throws(RecordingError) -> Recording {
        var events: [RawEvent] = []
        var found = warnings
        while let event = try next() {
            events.append(event)
            if !eventWarnings.isEmpty { found += takeEventWarnings() }
        }
        return Recording(description: description, events: events, format: format,
                         warnings: found + takeEventWarnings() + closingWarnings, sourcePaths: sourcePaths)
    }

    /// Makes this events file's stream the second half of a split recording: the description,
    /// format and warnings given come from the description file.
    mutating func adopt(description: DeviceDescription, format: RecordingFormat, warnings: [String], sourcePaths: [String]) {
        self.description = description
        self.format = format
        self.warnings = warnings
        self.sourcePaths = sourcePaths
    }
}

@available(*, unavailable, message: "a RecordingStream belongs to the one replay that reads it")
extension RecordingStream: Sendable {}
