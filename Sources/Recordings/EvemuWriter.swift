import GestureCore

/// Writes a device description and its events as evemu 1.3 text that `evemu-device` and
/// `evemu-play` accept, the way evemu 2.x's `src/evemu.c` writes it (`evemu_write`,
/// `write_prop`, `write_mask`, `write_abs`, `evemu_write_event`).
public enum EvemuWriter {
    /// The whole file: the description, then one `E:` line per event.
    public static func text(description: DeviceDescription, events: [RawEvent]) -> String {
        var output = TextBuffer()
        output.bytes.reserveCapacity(2048 + events.count * 32)
        appendDescription(description, to: &output)
        for event in events { appendEvent(event, to: &output) }
        return output.string
    }

    /// The description part (`# EVEMU 1.3`, `N:`, `I:`, `P:`, `B:`, `A:` lines), for a live
    /// recording that writes events as they come.
    public static func descriptionText(_ description: DeviceDescription) -> String {
        var output = TextBuffer()
        appendDescription(description, to: &output)
        return output.string
    }

    /// One `E: <sec>.<usec> <type> <code> <value>` line with its newline. Times are written as
    /// given (not rebased) and must not be negative: evemu writes them with `%lu.%06u`.
    public static func eventLine(_ event: RawEvent) -> String {
        var output = TextBuffer()
        appendEvent(event, to: &output)
        return output.string
    }

    /// ``eventLine(_:)`` for each event, appended to `bytes` without a `String` or an array per
    /// event: the dry run of routing (`gestured replay --panel`) writes every event of the
    /// virtual panel this way.
    public static func appendEventLines(_ events: [RawEvent], to bytes: inout [UInt8]) {
        // Grown geometrically: a caller appending a few events at a time (the dry run's panel,
        // a frame per call) would otherwise reallocate and copy the whole text every call.
        let needed = bytes.count + events.count * 30
        if bytes.capacity < needed { bytes.reserveCapacity(Swift.max(needed, bytes.capacity * 2)) }
        for event in events {
            let time = event.time.microseconds
            precondition(time >= 0, "client bug: evemu cannot write negative time \(time) µs")
            bytes.append(contentsOf: [UInt8(ascii: "E"), UInt8(ascii: ":"), UInt8(ascii: " ")])
            appendDecimal(UInt64(time / 1_000_000), width: 1, to: &bytes)
            bytes.append(UInt8(ascii: "."))
            appendDecimal(UInt64(time % 1_000_000), width: 6, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            appendHex(event.type, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            appendHex(event.code, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            if event.value < 0 {
                bytes.append(UInt8(ascii: "-"))
                appendDecimal(UInt64(-Int64(event.value)), width: 3, to: &bytes)
            } else {
                appendDecimal(UInt64(event.value), width: 4, to: &bytes)
            }
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// `%04x` of a 16-bit value: always four digits.
    private static func appendHex(_ value: UInt16, to bytes: inout [UInt8]) {
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((value >> UInt16(shift)) & 0xf)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    /// `%0<width>lu`.
    private static func appendDecimal(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && value >= limit {
            digits += 1
            limit = limit.multipliedReportingOverflow(by: 10).partialValue
        }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var remaining = value
        for position in stride(from: start + digits - 1, through: start, by: -1) {
            bytes[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }

    /// Writes `text(description:events:)` to `path`, replacing the file.
    public static func write(description: DeviceDescription, events: [RawEvent], to path: String) throws(RecordingError) {
        try RecordingFile.writeBytes(Array(text(description: description, events: events).utf8), path: path)
    }

    /// The highest code per event type as libevdev knows it (`libevdev_event_type_get_max`,
    /// from `input-event-codes.h`): evemu writes `(max + 1 + 7) / 8` mask bytes per type, 8 to a
    /// `B:` line (so `EV_KEY`'s 96 bytes take 12 lines), and nothing for types without a max.
    static let typeMaxima: [(type: UInt16, max: Int)] = [
        (EventType.key, 0x2ff), (EventType.rel, 0x0f), (EventType.abs, 0x3f), (EventType.msc, 0x07),
        (EventType.sw, 0x11), (EventType.led, 0x0f), (EventType.snd, 0x07), (EventType.rep, 0x01),
        (EventType.ff, 0x7f),
    ]

    private static func appendDescription(_ description: DeviceDescription, to output: inout TextBuffer) {
        output.append("# EVEMU \(EvemuVersion.current)\n")
        // evemu reads the name up to the end of the line, so a line break cannot be kept.
        let name = description.name.map { $0 == "\n" || $0 == "\r" ? " " : $0 }
        output.append("N: \(String(name))\n")
        output.append("I: ")
        output.appendHex(description.bus, width: 4)
        output.append(" ")
        output.appendHex(description.vendor, width: 4)
        output.append(" ")
        output.appendHex(description.product, width: 4)
        output.append(" ")
        output.appendHex(description.version, width: 4)
        output.append("\n")

        // INPUT_PROP_CNT is 32 bits: one `P:` line of 8 bytes, as evemu writes it.
        let properties = mask(description.properties, minimumBytes: 8)
        for chunk in stride(from: 0, to: properties.count, by: 8) {
            output.append("P:")
            for byte in properties[chunk..<chunk + 8] {
                output.append(" ")
                output.appendHex(UInt16(byte), width: 2)
            }
            output.append("\n")
        }

        // evemu 2.x always writes this `EV_SYN` line, "because older versions printed out
        // exactly that" (`write_mask`); readers ignore `B: 00`.
        output.append("B: 00 0b 00 00 00 00 00 00 00\n")
        var types = typeMaxima
        for type in description.codes.keys.sorted() where type != EventType.syn && !types.contains(where: { $0.type == type }) {
            types.append((type, -1))  // a type libevdev has no max for: only as many bytes as its codes need
        }
        types.sort { $0.type < $1.type }
        for (type, maximum) in types {
            let codes = description.codes[type] ?? []
            let bytes = mask(codes, minimumBytes: (maximum + 1 + 7) / 8)
            for chunk in stride(from: 0, to: bytes.count, by: 8) {
                output.append("B: ")
                output.appendHex(type, width: 2)
                for byte in bytes[chunk..<chunk + 8] {
                    output.append(" ")
                    output.appendHex(UInt16(byte), width: 2)
                }
                output.append("\n")
            }
        }

        for code in description.absInfo.keys.sorted() {
            guard let info = description.absInfo[code] else { continue }
            output.append("A: ")
            output.appendHex(code, width: 2)
            output.append(" \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n")
        }
    }

    private static func appendEvent(_ event: RawEvent, to output: inout TextBuffer) {
        let time = event.time.microseconds
        precondition(time >= 0, "client bug: evemu cannot write negative time \(time) µs")
        output.append("E: ")
        output.appendDecimal(time / 1_000_000, width: 1)
        output.append(".")
        output.appendDecimal(time % 1_000_000, width: 6)
        output.append(" ")
        output.appendHex(event.type, width: 4)
        output.append(" ")
        output.appendHex(event.code, width: 4)
        output.append(" ")
        // `%04d`: zero padded to four characters including the sign (-1 is `-001`).
        if event.value < 0 {
            output.append("-")
            output.appendDecimal(-Int64(event.value), width: 3)
        } else {
            output.appendDecimal(Int64(event.value), width: 4)
        }
        output.append("\n")
    }

    /// A little-endian bitmask of `bits`, padded with zero bytes to a multiple of 8 bytes and
    /// at least `minimumBytes`.
    private static func mask(_ bits: Set<UInt16>, minimumBytes: Int) -> [UInt8] {
        let needed = (Int(bits.max() ?? 0) + 8) / 8
        let count = (max(needed, minimumBytes, 1) + 7) / 8 * 8
        var bytes = [UInt8](repeating: 0, count: count)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        return bytes
    }
}

/// Bytes of evemu text being built, with the two number formats evemu's printf uses.
private struct TextBuffer {
    var bytes: [UInt8] = []

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// `%0<width>x`.
    mutating func appendHex(_ value: UInt16, width: Int) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var scratch: [UInt8] = []
        var remaining = value
        repeat {
            scratch.append(digits[Int(remaining & 0xf)])
            remaining >>= 4
        } while remaining != 0
        for _ in scratch.count..<max(width, scratch.count) { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: scratch.reversed())
    }

    /// `%0<width>ld` for a value that is not negative.
    mutating func appendDecimal(_ value: Int64, width: Int) {
        var scratch: [UInt8] = []
        var remaining = value
        repeat {
            scratch.append(UInt8(ascii: "0") + UInt8(remaining % 10))
            remaining /= 10
        } while remaining != 0
        for _ in scratch.count..<max(width, scratch.count) { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: scratch.reversed())
    }
}
