/// A rectangle in points with CGRect's containment rule: the left and top edges are inside,
/// the right and bottom edges are outside (`minX <= x < maxX`, `minY <= y < maxY`).
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }

    /// CGRect's `contains(_:)`: half-open on the right and bottom.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The rectangle grown by `insets` on each side (negative values shrink it).
    public func outset(by insets: EdgeInsets) -> Rect {
        Rect(x: origin.x - insets.left, y: origin.y - insets.top,
             width: size.width + insets.left + insets.right,
             height: size.height + insets.top + insets.bottom)
    }

    /// The rectangle grown by `amount` on every side.
    public func outset(by amount: Double) -> Rect {
        outset(by: EdgeInsets(top: amount, left: amount, bottom: amount, right: amount))
    }
}

/// Amounts in points by which a rectangle grows on each side (`hitOutset`).
public struct EdgeInsets: Hashable, Sendable {
    public var top, left, bottom, right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    public init(all amount: Double) {
        self.init(top: amount, left: amount, bottom: amount, right: amount)
    }

    public static let zero = EdgeInsets(all: 0)
}
