import Testing
@testable import GestureCore

@Suite struct RecognizerMathTests {
    /// (x, y, atan2(y, x)).
    static let angles: [(Double, Double, Double)] = [
        (1.0, 0.0, 0.0), (1, 1, Double.pi / 4), (0, 1, Double.pi / 2), (-1, 1, 3 * Double.pi / 4),
        (-1, 0, Double.pi), (-1, -1, -3 * Double.pi / 4), (0, -1, -Double.pi / 2), (1, -1, -Double.pi / 4),
        (3.0.squareRoot(), 1, Double.pi / 6), (1, 3.0.squareRoot(), Double.pi / 3), (0, 0, 0),
    ]

    @Test(arguments: angles)
    func atan2(x: Double, y: Double, expected: Double) {
        #expect(close(RecognizerMath.atan2(y, x), expected, 1e-15))
    }

    @Test(arguments: [0.0, 1e-9, 0.05, 0.1, 0.3, 0.5, 0.9, 1, 1.5, 10, 1e6])
    func atanIdentities(x: Double) {
        // No tan in the standard library to invert with; check atan's symmetries instead.
        #expect(close(RecognizerMath.atan(-x), -RecognizerMath.atan(x), 0))
        if x > 0 { #expect(close(RecognizerMath.atan(x) + RecognizerMath.atan(1 / x), .pi / 2, 1e-15)) }
    }

    @Test func knownArctangents() {
        #expect(close(RecognizerMath.atan(2 - 3.0.squareRoot()), .pi / 12, 1e-15))
        #expect(close(RecognizerMath.atan(0.5), 0.4636476090008061, 1e-15))
        #expect(close(RecognizerMath.atan(0.09), 0.08975817418995052, 1e-15))
    }

    @Test func angleBetweenLinesUnwraps() {
        #expect(close(RecognizerMath.angle(from: Point(x: -1, y: 1), to: Point(x: -1, y: -1)), .pi / 2, 1e-15))
        #expect(close(RecognizerMath.angle(from: Point(x: -1, y: -1), to: Point(x: -1, y: 1)), -.pi / 2, 1e-15))
    }
}
