/// The daemon's start id (docs/protocol.md, "hello"): 64 random bits made once when the
/// server's options are made, at the daemon's start, and sent in `hello` and `status`. With
/// an event's `seq`, which restarts at 1 with every start, `<startId>-<seq>` names one event of
/// one run exactly: a process id comes back after a reboot, 64 random bits do not (a
/// repetition among a fleet's starts is a birthday bound of about 2^32 starts).
public struct StartID: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(value: UInt64) {
        self.value = value
    }

    /// From the system's generator (`getrandom(2)` on Linux).
    public static func random() -> StartID {
        var generator = SystemRandomNumberGenerator()
        return StartID(value: generator.next())
    }

    /// 16 lowercase hexadecimal digits, zero-padded.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
