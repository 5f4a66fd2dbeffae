/// An evemu file format version from the `# EVEMU <major>.<minor>` first line.
public struct EvemuVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(_ major: Int, _ minor: Int) {
        (self.major, self.minor) = (major, minor)
    }

    /// What evemu assumes when a file has no version line (evemu's `parse_file_format_version`).
    public static let legacy = EvemuVersion(1, 0)
    /// The version `EvemuWriter` writes, as evemu 2.x does (`EVEMU_FILE_MAJOR/MINOR` in `src/evemu.c`).
    public static let current = EvemuVersion(1, 3)

    public static func < (lhs: EvemuVersion, rhs: EvemuVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    public var description: String { "\(major).\(minor)" }
}
