/// The values of one slot's per-slot codes, `ABS_MT_TOUCH_MAJOR` (offset 0) … `ABS_MT_TOOL_Y`
/// (offset 13), inline; a new one is an empty slot's (tracking id -1, the rest 0).
struct SlotCodes: Equatable, Sendable {
    /// The first per-slot code.
    static let firstCode = AbsCode.mtTouchMajor
    /// How many per-slot codes there are (`ABS_MT_TOUCH_MAJOR` … `ABS_MT_TOOL_Y`).
    static let count = Int(AbsCode.mtToolY - AbsCode.mtTouchMajor) + 1
    static let trackingOffset = Int(AbsCode.mtTrackingID - AbsCode.mtTouchMajor)
    static let toolOffset = Int(AbsCode.mtToolType - AbsCode.mtTouchMajor)

    /// 16 lanes, the last two always 0: 64 bytes, copied and compared as one vector (a
    /// commit copies each changed slot's values).
    private var values = SIMD16<Int32>(repeating: 0)

    init() {
        values[Self.trackingOffset] = -1
    }

    /// The value of the code `firstCode + offset`; `offset` below ``count`` (checked).
    subscript(offset: Int) -> Int32 {
        get {
            precondition(UInt(bitPattern: offset) < UInt(Self.count), "code out of range")
            return values[offset]
        }
        set {
            precondition(UInt(bitPattern: offset) < UInt(Self.count), "code out of range")
            values[offset] = newValue
        }
    }
}
