import GestureCore

/// One format's reader, fed one line at a time by ``RecordingStream``: the device description
/// comes from the lines before the first event, and each event line gives one raw event, so
/// nothing but the description is kept however long the recording is. A class, so the stream
/// calls it per line without copying or boxing its state.
protocol RecordingParser: AnyObject {
    /// The format, once the lines before the first event are read (evemu declares its version
    /// before any data).
    var format: RecordingFormat { get }
    /// The version an evemu file declares in its `# EVEMU` line; nil for other formats and for
    /// evemu files without one.
    var declaredEvemuVersion: EvemuVersion? { get }

    /// Reads one line; returns the raw event it carries, if any. Throws for a malformed line
    /// (lenient formats skip and count those instead).
    func consume(_ line: TextLine) throws(RecordingError) -> RawEvent?

    /// The device as described by the lines read so far, or nil when the file describes none.
    func makeDescription() -> DeviceDescription?

    /// The device's udev properties as the file recorded them (libinput record's `udev:
    /// properties:`), or nil when it has none.
    var udevProperties: [String: String]? { get }

    /// The line that declared the range of the absolute axis `code`, for messages about it.
    func declarationLine(ofAxis code: UInt16) -> Int?

    /// The end of the file (`lastLine` is its last line's number): warnings about the whole
    /// file (lines skipped, devices not read), or an error when it lacked something required.
    func finish(lastLine: Int) throws(RecordingError) -> [String]
}

extension RecordingParser {
    var declaredEvemuVersion: EvemuVersion? { nil }
    var udevProperties: [String: String]? { nil }
}

/// A device description as a text format's header gives it, field by field (evtest, libinput
/// record): the one home of what their parsers collect before the first event.
struct DeviceDescriptionParts {
    var name: String?
    /// Bus, vendor, product and version.
    var id: [UInt16] = [0, 0, 0, 0]
    var codes: [UInt16: Set<UInt16>] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    var properties: Set<UInt16> = []

    /// The description, named `name`; `droppingEmptyCodeTypes` leaves out the event types with
    /// no code (evtest lists a type's heading before its codes).
    func description(name: String, droppingEmptyCodeTypes: Bool) -> DeviceDescription {
        DeviceDescription(name: name, bus: id[0], vendor: id[1], product: id[2], version: id[3],
                          codes: droppingEmptyCodeTypes ? codes.filter { !$0.value.isEmpty } : codes,
                          absInfo: absInfo, properties: properties)
    }
}
