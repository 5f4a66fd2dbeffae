import GestureCore

/// Reads recorded evdev logs — evemu, `libinput record`, evtest and Android `getevent -t` —
/// into a `Recording`, telling the format from the content.
public enum RecordingReader {
    /// Reads the recording at `path`. With `eventsPath`, `path` is a description file (evemu
    /// or libinput record, e.g. `nexus4-touch_dev.desc`) and the events come from
    /// `eventsPath` (e.g. `nexus4-touch_dev.events`), in whatever format that file has.
    public static func read(path: String, eventsPath: String? = nil) throws(RecordingError) -> Recording {
        let source = RecordingSource(name: path, bytes: try RecordingFile.readBytes(path: path))
        guard let eventsPath else { return try parse(source) }
        let eventsSource = RecordingSource(name: eventsPath, bytes: try RecordingFile.readBytes(path: eventsPath))
        return try parse(source, eventsSource: eventsSource)
    }

    /// Parses a recording already in memory; `eventsSource` as for `read(path:eventsPath:)`.
    public static func parse(_ source: RecordingSource, eventsSource: RecordingSource? = nil) throws(RecordingError) -> Recording {
        let main = try parseOne(source)
        guard let eventsSource else { return main.recording }

        guard let description = main.recording.description else {
            throw RecordingError(file: source.name, line: nil,
                                 message: "expected a device description (evemu \"N:\"/\"I:\" lines or a libinput record \"evdev:\" section), found none")
        }
        let events = try parseOne(eventsSource)
        var format = events.recording.format
        // An evemu events-only file never has a version line (evemu-record 1.x wrote it into
        // the description file only), so the description file's version is the pair's.
        if case .evemu = format, events.declaredEvemuVersion == nil, let version = main.declaredEvemuVersion {
            format = .evemu(version)
        }
        var warnings = main.recording.warnings + events.recording.warnings
        if !main.recording.events.isEmpty {
            warnings.append("\(main.recording.events.count) events in the description file \(source.name) ignored; events come from \(eventsSource.name)")
        }
        if events.recording.description != nil {
            warnings.append("the device description in \(eventsSource.name) ignored; the description comes from \(source.name)")
        }
        return Recording(description: description, events: events.recording.events, format: format,
                         warnings: warnings, sourcePaths: [source.name, eventsSource.name])
    }

    private struct Parsed {
        var recording: Recording
        var declaredEvemuVersion: EvemuVersion?
    }

    private static func parseOne(_ source: RecordingSource) throws(RecordingError) -> Parsed {
        switch try RecordingFormatDetector.detect(source) {
        case .evemu:
            let result = try EvemuParser.parse(source)
            let recording = Recording(description: result.description, events: result.events,
                                      format: .evemu(result.declaredVersion ?? .legacy), sourcePaths: [source.name])
            return Parsed(recording: recording, declaredEvemuVersion: result.declaredVersion)
        case .libinputRecord:
            let result = try LibinputRecordParser.parse(source)
            return Parsed(recording: Recording(description: result.description, events: result.events, format: .libinputRecord,
                                               warnings: result.warnings, sourcePaths: [source.name]))
        case .evtest:
            let result = EvtestParser.parse(source)
            var warnings: [String] = []
            if let first = result.damagedLines.first {
                let count = result.damagedLines.count
                warnings.append("\(count) damaged line\(count == 1 ? "" : "s") skipped (first at line \(first))")
            }
            return Parsed(recording: Recording(description: result.description, events: result.events, format: .evtest,
                                               warnings: warnings, sourcePaths: [source.name]))
        case .getevent:
            let result = try GeteventParser.parse(source)
            return Parsed(recording: Recording(description: nil, events: result.events, format: .getevent,
                                               warnings: result.warnings, sourcePaths: [source.name]))
        }
    }
}
