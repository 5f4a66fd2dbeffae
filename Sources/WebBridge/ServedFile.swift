import CZlib
import NIOCore

/// A file the bridge serves from memory (the client module and its source map): its bytes as
/// they are and gzipped once when the bridge starts, each with its strong `ETag`, so a request
/// costs no compression and a page that has it gets `304 Not Modified` (docs/protocol.md
/// § The bridge's HTTP side).
public struct ServedFile: Sendable {
    /// One representation of the file: its bytes and their entity tag.
    public struct Representation: Sendable {
        public let body: ByteBuffer
        /// A strong entity tag, quotes included (RFC 9110 §8.8.3).
        public let etag: String
    }

    public let contentType: String
    /// The bytes as they are.
    public let identity: Representation
    /// The bytes gzipped; `nil` when compressing did not make them smaller.
    public let gzip: Representation?

    /// `text` as served, gzipped at `level` (zlib's 1–9).
    public init(text: String, contentType: String, level: Int32 = 9) {
        self.contentType = contentType
        let bytes = Array(text.utf8)
        let tag = Self.tag(of: bytes)
        identity = Representation(body: ByteBuffer(bytes: bytes), etag: "\"\(tag)\"")
        if let compressed = Self.gzipped(bytes, level: level), compressed.count < bytes.count {
            // Another representation, so another strong tag (RFC 9110 §8.8.3.3).
            gzip = Representation(body: ByteBuffer(bytes: compressed), etag: "\"\(tag)-gzip\"")
        } else {
            gzip = nil
        }
    }

    /// The representation for a request with this `Accept-Encoding` header.
    public func representation(acceptEncoding: String?) -> (Representation, gzipped: Bool) {
        if let gzip, Self.acceptsGzip(acceptEncoding) { (gzip, true) } else { (identity, false) }
    }

    /// Whether `If-None-Match` names `etag` (or is `*`): the page's copy is current. The
    /// comparison is weak (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
    public static func matches(ifNoneMatch header: String?, etag: String) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            var tag = item.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag[...] { return true }
        }
        return false
    }

    /// Whether `Accept-Encoding` admits gzip (RFC 9110 §12.5.3): `gzip` (or `x-gzip`) or `*`
    /// with a non-zero `q`, and `gzip` not refused by name with `q=0`.
    public static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var byName: Bool?
        var byStar: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let name = parts.first?.trimmingSpaces.lowercased() else { continue }
            var accepted = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" else { continue }
                accepted = (Double(pair[1].trimmingSpaces) ?? 1) > 0
            }
            if name == "gzip" || name == "x-gzip" { byName = accepted } else if name == "*" { byStar = accepted }
        }
        return byName ?? byStar ?? false
    }

    /// FNV-1a (64 bits) and the length, in hex: enough to tell versions of a file apart. Not a
    /// defence against anything: the bridge is the only one who makes these files.
    static func tag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16) + "-" + String(bytes.count, radix: 16)
    }

    /// `bytes` as a gzip member (RFC 1952) by zlib's deflate, or `nil` if zlib failed.
    static func gzipped(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's (zlib.h, deflateInit2).
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[..<Int(stream.total_out)])
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around list items and parameters.
    var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text[start...].lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<end]
    }
}

/// The client module as the bridge serves it (docs/protocol.md § The bridge's HTTP side).
public enum ClientModule {
    /// `/gestured.js`: the minified module, its source map named as the bridge serves it.
    public static var module: String {
        var text = clientModuleText.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        // esbuild ends the file with the map's file name (gestured.min.js.map); the bridge
        // serves the map as /gestured.js.map.
        while text.hasSuffix("\n") { text.removeLast() }
        if let last = text.ranges(of: "\n//# sourceMappingURL=").last {
            text.removeSubrange(last.lowerBound...)
        }
        return text + "\n//# sourceMappingURL=gestured.js.map\n"
    }

    /// `/gestured.js.map`: the source map, with the original web/gestured.js inside.
    public static var sourceMap: String { clientModuleMapText.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
}
