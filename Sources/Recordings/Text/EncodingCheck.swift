#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Line-ending and encoding mistakes a recording's text can have, found before a parser reads
/// the bytes, so that the answer says what is wrong with the file instead of what a parser made
/// of it (issue 25: a file with classic Mac OS line endings read as one comment line and was
/// refused for want of a device description). Recordings are UTF-8 (or ASCII) text with lines
/// ending in `\n` or `\r\n`, as every recorder writes them; each answer says how to convert a
/// file that is not.
///
/// A UTF-8 byte order mark at the start of a file is not a mistake: YAML (libinput record)
/// allows it and Windows editors write it, so ``LineReader/skipByteOrderMark()`` skips it.
enum EncodingCheck {
    /// The UTF-8 byte order mark (U+FEFF).
    static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What is wrong with a file whose first bytes (after a UTF-8 byte order mark) are
    /// `start`: it is UTF-16 or UTF-32 text (it starts with that encoding's byte order mark),
    /// or compressed. Nil for anything else; its lines are checked one by one.
    static func problem(atStartOf start: ArraySlice<UInt8>) -> String? {
        for (magic, what, fix) in wholeFileProblems where start.starts(with: magic) {
            return "expected a recording's text (UTF-8), found \(what); \(fix)"
        }
        return nil
    }

    /// Byte sequences that start a file which is not UTF-8 text, what each is, and what to do.
    /// UTF-32's marks come before UTF-16's, which they start with.
    private static let wholeFileProblems: [(magic: [UInt8], what: String, fix: String)] = [
        ([0xFF, 0xFE, 0x00, 0x00], "a UTF-32 (little-endian) byte order mark (FF FE 00 00)", utf32Fix),
        ([0x00, 0x00, 0xFE, 0xFF], "a UTF-32 (big-endian) byte order mark (00 00 FE FF)", utf32Fix),
        ([0xFF, 0xFE], "a UTF-16 (little-endian) byte order mark (FF FE): the file is UTF-16 text, as Windows PowerShell's > and "
            + "some editors save it", utf16Fix),
        ([0xFE, 0xFF], "a UTF-16 (big-endian) byte order mark (FE FF): the file is UTF-16 text", utf16Fix),
        ([0x1F, 0x8B], "gzip-compressed data", "decompress it first (gunzip)"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data", "decompress it first (unxz)"),
        ([0x28, 0xB5, 0x2F, 0xFD], "zstd-compressed data", "decompress it first (unzstd)"),
    ]
    private static let utf16Fix = "convert it to UTF-8: iconv -f UTF-16 -t UTF-8 OLD > NEW"
    private static let utf32Fix = "convert it to UTF-8: iconv -f UTF-32 -t UTF-8 OLD > NEW"

    /// What is wrong with one line (its bytes without the line break, and without the `\r` of
    /// a `\r\n`): a NUL byte (UTF-16 text without a byte order mark, or a binary file), a
    /// carriage return that ends no line (classic Mac OS line endings, or a stray one), a UTF-8
    /// byte order mark starting a line other than the first (files joined together). Nil for a
    /// line of text. Two `memchr(3)` over the line: the readers call it for every line they
    /// split (the evemu fast path takes only lines that cannot have these bytes).
    static func problem(inLine line: ArraySlice<UInt8>) -> String? {
        guard !line.isEmpty else { return nil }
        return line.withUnsafeBufferPointer { bytes -> String? in
            let base = bytes.baseAddress.unsafelyUnwrapped
            let count = bytes.count
            if let found = memchr(base, 0, count) {
                return nulProblem(bytes, at: UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)))
            }
            if let found = memchr(base, Int32(UInt8.carriageReturn), count) {
                let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                let another = memchr(base + offset + 1, Int32(UInt8.carriageReturn), count - offset - 1) != nil
                return carriageReturnProblem(column: offset + 1, several: another)
            }
            if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
                return "expected a line of the recording, found a UTF-8 byte order mark (EF BB BF) at its start, which "
                    + "belongs only at the start of a file: were two files joined? Delete those three bytes"
            }
            return nil
        }
    }

    private static func carriageReturnProblem(column: Int, several: Bool) -> String {
        if several {
            return "expected lines that end in a line feed (\\n, or \\r\\n), found carriage returns (\\r) alone, the first at "
                + "column \(column): the file has classic Mac OS line endings; convert them: tr '\\r' '\\n' < OLD > NEW"
        }
        return "expected a line that ends in a line feed (\\n, or \\r\\n), found a carriage return (\\r) alone at column "
            + "\(column): a stray \\r, or lines that end in \\r alone (classic Mac OS); delete it, or convert the line "
            + "endings: tr '\\r' '\\n' < OLD > NEW"
    }

    /// A NUL byte at `offset`: UTF-16 text when every other byte of the line's start is NUL
    /// and the others are ASCII, binary data otherwise.
    private static func nulProblem(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
        let column = offset + 1
        let sample = min(bytes.count, 64)
        /// One lane of the sample all NUL, the other ASCII and not NUL.
        func isUTF16(nulLane: Int) -> Bool {
            guard sample >= 4 else { return false }
            for index in 0..<sample where (bytes[index] == 0) != (index % 2 == nulLane) || bytes[index] >= 0x80 {
                return false
            }
            return true
        }
        if isUTF16(nulLane: 0) || isUTF16(nulLane: 1) {
            return "expected text, found a NUL byte at column \(column): every other byte is NUL, so the file is UTF-16 "
                + "text without a byte order mark; convert it to UTF-8: iconv -f UTF-16LE -t UTF-8 OLD > NEW (or -f UTF-16BE)"
        }
        return "expected text, found a NUL byte at column \(column): the file is binary, not a recording's text (a copy "
            + "of /dev/input/event*?); record with evemu-record, libinput record or gestured record"
    }
}
