import GestureCore

/// Reads recorded evdev logs — evemu, `libinput record`, evtest and Android `getevent -t` —
/// telling the format from the content: as a ``RecordingStream`` that reads the events as they
/// are asked for (a replay), or whole into a ``Recording`` (tests, tools).
public enum RecordingReader {
    /// Opens the recording at `path` and reads its description. With `eventsPath`, `path` is a
    /// description file (evemu or libinput record, e.g. `nexus4-touch_dev.desc`), read whole
    /// now, and the events come from `eventsPath` (e.g. `nexus4-touch_dev.events`), in
    /// whatever format that file has. Only regular files are read.
    public static func open(path: String, eventsPath: String? = nil) throws(RecordingError) -> RecordingStream {
        let main = try RecordingStream(lines: LineReader(path: path))
        guard let eventsPath else { return main }
        return try pair(main, events: RecordingStream(lines: LineReader(path: eventsPath)))
    }

    /// A stream over text already in memory, read exactly as a file with that content would
    /// be, in chunks of `chunkSize` bytes and with lines of at most `maximumLineLength` bytes
    /// (nil: the limits files are read with, docs/limits.md).
    public static func stream(_ source: RecordingSource, eventsSource: RecordingSource? = nil,
                              chunkSize: Int? = nil, maximumLineLength: Int? = nil) throws(RecordingError) -> RecordingStream {
        let defaults = LineReader.Limits()
        let limits = LineReader.Limits(chunkSize: chunkSize ?? defaults.chunkSize,
                                       maximumLineLength: maximumLineLength ?? defaults.maximumLineLength)
        let main = try RecordingStream(lines: LineReader(name: source.name, bytes: source.bytes, limits: limits))
        guard let eventsSource else { return main }
        return try pair(main, events: RecordingStream(lines: LineReader(name: eventsSource.name, bytes: eventsSource.bytes,
                                                                         limits: limits)))
    }

    /// Reads the whole recording at `path` (and `eventsPath`, as for ``open(path:eventsPath:)``).
    public static func read(path: String, eventsPath: String? = nil) throws(RecordingError) -> Recording {
        var stream = try open(path: path, eventsPath: eventsPath)
        return try stream.collect()
    }

    /// Parses a whole recording already in memory; `eventsSource` as for ``open(path:eventsPath:)``.
    public static func parse(_ source: RecordingSource, eventsSource: RecordingSource? = nil) throws(RecordingError) -> Recording {
        var stream = try stream(source, eventsSource: eventsSource)
        return try stream.collect()
    }

    /// A description file's stream and an events file's stream as one recording: the
    /// description file is read to its end (its events are counted and left out).
    private static func pair(_ main: consuming RecordingStream, events: consuming RecordingStream) throws(RecordingError) -> RecordingStream {
        let source = main.sourcePaths[0], eventsSource = events.sourcePaths[0]
        guard let description = main.description else {
            throw RecordingError(file: source, line: nil,
                                 message: "expected a device description (evemu \"N:\"/\"I:\" lines or a libinput record \"evdev:\" section), found none")
        }
        var ignored = 0
        while try main.next() != nil { ignored += 1 }
        var format = events.format
        // An evemu events-only file never has a version line (evemu-record 1.x wrote it into
        // the description file only), so the description file's version is the pair's.
        if case .evemu = format, events.declaredEvemuVersion == nil, let version = main.declaredEvemuVersion {
            format = .evemu(version)
        }
        var warnings = main.warnings + main.closingWarnings
        if ignored > 0 {
            warnings.append("\(ignored) events in the description file \(source) ignored; events come from \(eventsSource)")
        }
        if events.description != nil {
            warnings.append("the device description in \(eventsSource) ignored; the description comes from \(source)")
        }
        events.adopt(description: description, format: format, warnings: warnings, sourcePaths: [source, eventsSource])
        return events
    }
}
