/// Plane geometry the recognizers need beyond `Point`, written out here because GestureCore
/// may use the standard library only, which has no `atan2`.
enum RecognizerMath {
    /// The angle of `(x, y)` from the positive x axis in radians, in `-π ... π`, like C's
    /// `atan2(y, x)`. On the screen (y grows downwards) positive angles turn clockwise.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        if x == 0 { return y > 0 ? .pi / 2 : -.pi / 2 }
        let base = atan(y / x)
        if x > 0 { return base }
        return y >= 0 ? base + .pi : base - .pi
    }

    /// Arctangent to within a few ulps: reduce to |x| ≤ 1 with atan(x) = π/2 − atan(1/x), halve
    /// the angle three times with atan(x) = 2·atan(x / (1 + √(1 + x²))) so |x| < 0.1, then sum
    /// the Taylor series, whose terms fall by 100× each.
    static func atan(_ value: Double) -> Double {
        if value.isNaN { return value }
        if value < 0 { return -atan(-value) }
        if value > 1 { return .pi / 2 - atan(1 / value) }
        var x = value
        var scale = 1.0
        while x > 0.1 {
            x = x / (1 + (1 + x * x).squareRoot())
            scale *= 2
        }
        let x2 = x * x
        var term = x, sum = 0.0, k = 1.0
        while true {
            let next = sum + term / k
            if next == sum { break }
            sum = next
            term *= -x2
            k += 2
        }
        return scale * sum
    }

    /// The signed angle that turns `from` onto `to`, in `-π ... π`: the step that unwraps a
    /// rotation across the ±π seam, since each step between frames is small.
    static func angle(from: Point, to: Point) -> Double {
        let cross = from.x * to.y - from.y * to.x
        let dot = from.x * to.x + from.y * to.y
        return atan2(cross, dot)
    }

    /// The length of a vector.
    static func length(_ p: Point) -> Double {
        (p.x * p.x + p.y * p.y).squareRoot()
    }
}
