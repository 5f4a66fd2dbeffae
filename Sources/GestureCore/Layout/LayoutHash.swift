/// A stable 64-bit hash of a layout as the daemon holds it (docs/protocol.md, "status"): the
/// same views, recognizers and values give the same hash in every process, on every machine
/// and after any restart, so a fleet can tell which kiosks run the same layout without
/// fetching it. FNV-1a (64-bit: offset basis 0xcbf29ce484222325, prime 0x100000001b3) over a
/// canonical encoding of the ``ViewSpec`` tree: each view in depth-first order, back to front,
/// every field tagged and in a fixed order, strings and lists preceded by their length,
/// numbers as their IEEE 754 bit patterns (0.0 and -0.0 as one), a recognizer's parameters
/// sorted by key. Not Swift's `Hasher`, which is seeded per process. Not cryptographic: it
/// names a layout, it does not authenticate one. Computed when a layout is loaded or replaced,
/// never per frame.
public struct LayoutHash: Hashable, Sendable, CustomStringConvertible {
    /// The FNV-1a value.
    public let value: UInt64

    public init(value: UInt64) {
        self.value = value
    }

    /// The hash of `layout`, walked with an explicit stack (a layout's depth is bounded by
    /// validation, but untrusted input gets no recursion).
    public init(of layout: ViewSpec) {
        var encoder = Encoder()
        var pending: [(view: ViewSpec, depth: Int)] = [(layout, 0)]
        while let (view, depth) = pending.popLast() {
            encoder.view(view, depth: depth)
            // Pushed in reverse so that they come off in their order.
            for subview in view.subviews.reversed() { pending.append((subview, depth + 1)) }
        }
        value = encoder.state
    }

    /// 16 lowercase hexadecimal digits, zero-padded: `"layout":{"hash":"…"}`.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The canonical encoding, fed byte by byte into FNV-1a.
    private struct Encoder {
        private(set) var state: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func byte(_ byte: UInt8) {
            state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }

        mutating func tag(_ tag: Character) {
            byte(tag.asciiValue ?? 0)
        }

        mutating func integer(_ value: Int) {
            var bits = UInt64(bitPattern: Int64(value))
            for _ in 0..<8 {
                byte(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }

        mutating func number(_ value: Double) {
            integer(Int(Int64(bitPattern: (value == 0 ? 0 : value).bitPattern)))
        }

        mutating func bool(_ value: Bool) {
            byte(value ? 1 : 0)
        }

        mutating func string(_ value: String) {
            integer(value.utf8.count)
            for unit in value.utf8 { byte(unit) }
        }

        mutating func strings(_ values: [String]) {
            integer(values.count)
            for value in values { string(value) }
        }

        mutating func optional<T>(_ value: T?, _ write: (inout Encoder, T) -> Void) {
            guard let value else { return byte(0) }
            byte(1)
            write(&self, value)
        }

        mutating func view(_ view: ViewSpec, depth: Int) {
            tag("V"); integer(depth); string(view.id)
            tag("f"); number(view.frame.origin.x); number(view.frame.origin.y)
            number(view.frame.size.width); number(view.frame.size.height)
            tag("s"); integer(view.subviews.count)
            tag("h"); bool(view.hidden)
            tag("a"); number(view.alpha)
            tag("u"); bool(view.userInteractionEnabled)
            tag("o"); number(view.hitOutset.top); number(view.hitOutset.left)
            number(view.hitOutset.bottom); number(view.hitOutset.right)
            tag("t")
            switch view.hitTest {
            case .default: byte(0)
            case .none: byte(1)
            case .self: byte(2)
            case .redirect(let target): byte(3); string(target)
            }
            tag("p"); bool(view.passThrough)
            tag("k"); string(view.kind.rawValue)
            tag("H"); optional(view.handlesTouchesOverride) { $0.bool($1) }
            tag("m"); bool(view.multipleTouchEnabled)
            tag("x"); bool(view.exclusiveTouch)
            tag("l"); optional(view.trackingSlop) { $0.number($1) }
            tag("r"); optional(view.routing) { $0.routing($1) }
            tag("R"); integer(view.recognizers.count)
            for recognizer in view.recognizers { self.recognizer(recognizer) }
        }

        mutating func routing(_ rule: RoutingRule) {
            switch rule {
            case .claim: byte(0)
            case .forward: byte(1)
            case .hold(let hold):
                byte(2)
                number(hold.seconds)
                optional(hold.fingers) { $0.integer($1) }
                optional(hold.distance) { encoder, distance in
                    switch distance {
                    case .points(let points): encoder.byte(0); encoder.number(points)
                    case .millimetres(let millimetres): encoder.byte(1); encoder.number(millimetres)
                    }
                }
            }
        }

        mutating func recognizer(_ recognizer: RecognizerSpec) {
            tag("G"); string(recognizer.id); string(recognizer.kind.rawValue)
            bool(recognizer.enabled)
            optional(recognizer.cancelsTouchesInView) { $0.bool($1) }
            optional(recognizer.delaysTouchesBegan) { $0.bool($1) }
            optional(recognizer.delaysTouchesEnded) { $0.bool($1) }
            strings(recognizer.requireToFail)
            strings(recognizer.simultaneousWith)
            optional(recognizer.claims) { $0.bool($1) }
            let parameters = recognizer.parameters.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            integer(parameters.count)
            for (key, value) in parameters {
                string(key)
                switch value {
                case .count(let count): byte(0); integer(count)
                case .number(let number): byte(1); self.number(number)
                case .words(let words): byte(2); strings(words)
                }
            }
        }
    }
}
