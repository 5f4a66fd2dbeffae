/// The touches of one delivery: up to ``inlineCapacity`` stored inline, so building a
/// delivery allocates nothing in the common case (kiosk panels report at most ten fingers;
/// the 12-finger FlatFrog table spills); more spill into an array.
public struct TouchList: RandomAccessCollection, Sendable {
    /// Touches stored without a heap allocation.
    public static let inlineCapacity = 10

    private var inline = InlineArray<10, TouchInfo>(repeating: TouchInfo.placeholder)
    private var overflow: [TouchInfo] = []
    public private(set) var count = 0

    public init() {}

    public init(_ touches: some Sequence<TouchInfo>) {
        for touch in touches { append(touch) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> TouchInfo {
        precondition(position >= 0 && position < count, "TouchList index out of range")
        return position < Self.inlineCapacity ? inline[position] : overflow[position - Self.inlineCapacity]
    }

    public mutating func append(_ touch: TouchInfo) {
        if count < Self.inlineCapacity {
            inline[count] = touch
        } else {
            overflow.append(touch)
        }
        count += 1
    }
}

extension TouchInfo {
    /// Fills unused inline slots of a ``TouchList``; never read.
    static let placeholder = TouchInfo(id: TouchID(0), phase: .began, location: .zero, viewLocation: .zero,
                                       previousLocation: .zero, tapCount: 0, majorRadius: nil, force: nil)
}
