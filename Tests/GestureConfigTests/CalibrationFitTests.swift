import GestureConfig
import GestureCore
import Testing

/// `gestured calibrate`'s mathematics: the least-squares fit of libinput's matrix, its
/// residuals, misclick detection and the raw touch reader (docs/command-line.md,
/// "gestured calibrate").
@Suite("Calibration fit")
struct CalibrationFitTests {
    static let width = 1920.0, height = 1080.0

    /// A small deterministic generator (a 64-bit LCG), so every run draws the same noise.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        /// Uniform in −`pixels`…`pixels`, as a fraction of `side`.
        mutating func offset(_ pixels: Double, _ side: Double) -> Double { (next() * 2 - 1) * pixels / side }
    }

    /// Where the panel reports a touch on screen point `target` when it needs `matrix`: the
    /// inverse of the matrix applied to the target.
    static func touch(for target: NormalizedPoint, through matrix: CalibrationMatrix) -> NormalizedPoint {
        let determinant = matrix.a * matrix.e - matrix.b * matrix.d
        let x = target.u - matrix.c, y = target.v - matrix.f
        return NormalizedPoint(u: (matrix.e * x - matrix.b * y) / determinant, v: (matrix.a * y - matrix.d * x) / determinant)
    }

    /// The largest distance, in screen pixels, between where `fitted` and `truth` put a
    /// touch, over a 9 × 9 grid of the whole panel.
    static func worstPixels(_ fitted: CalibrationMatrix, _ truth: CalibrationMatrix) -> Double {
        var worst = 0.0
        for i in 0...8 {
            for j in 0...8 {
                let target = NormalizedPoint(u: Double(i) / 8, v: Double(j) / 8)
                let touch = touch(for: target, through: truth)
                let mapped = fitted.apply(to: touch)
                let dx = (mapped.u - target.u) * width, dy = (mapped.v - target.v) * height
                worst = max(worst, (dx * dx + dy * dy).squareRoot())
            }
        }
        return worst
    }

    static let matrices: [(String, CalibrationMatrix)] = [
        ("identity", .identity),
        // libinput's documented rotations (clockwise): 90°, 180°, 270°.
        ("90°", CalibrationMatrix(a: 0, b: -1, c: 1, d: 1, e: 0, f: 0)),
        ("180°", CalibrationMatrix(a: -1, b: 0, c: 1, d: 0, e: -1, f: 1)),
        ("270°", CalibrationMatrix(a: 0, b: 1, c: 0, d: -1, e: 0, f: 1)),
        ("scale and offset", CalibrationMatrix(a: 1.08, b: 0, c: -0.04, d: 0, e: 0.93, f: 0.035)),
        ("small skew", CalibrationMatrix(a: 1.02, b: 0.015, c: -0.01, d: -0.012, e: 0.98, f: 0.02)),
        ("swapped axes, scaled", CalibrationMatrix(a: 0, b: 1.05, c: -0.03, d: 0.96, e: 0, f: 0.02)),
    ]

    @Test(arguments: matrices)
    func aKnownMatrixIsRecoveredExactlyFromExactTouches(_ name: String, _ truth: CalibrationMatrix) throws {
        for count in CalibrationFit.pointCount {
            let samples = CalibrationFit.targets(count: count).map {
                CalibrationFit.Sample(target: $0, touch: Self.touch(for: $0, through: truth))
            }
            let fit = try CalibrationFit.fit(samples, width: Self.width, height: Self.height).get()
            for (fitted, expected) in zip(fit.matrix.values, truth.values) {
                #expect(abs(fitted - expected) < 1e-9, "\(name), \(count) points: \(fit.matrix.values)")
            }
            #expect(fit.rmsPixels < 1e-6)
        }
    }

    /// The stated error (docs/command-line.md, "gestured calibrate"): with every touch off by up
    /// to ±2 px on each axis (so up to 2.8 px), the fitted matrix puts every point of the panel,
    /// its corners included, within 5 px of where the true one does with 4 or 5 targets, and
    /// within 3.5 px with 9; the residual RMS stays under 2 px. Checked over 200 draws of the
    /// noise per matrix (the worst seen: 4.2 px with 4 or 5 targets, 2.9 px with 9).
    @Test(arguments: matrices)
    func noisyTouchesRecoverTheMatrixWithinTheStatedError(_ name: String, _ truth: CalibrationMatrix) throws {
        var noise = Noise(state: 0x5eed)
        for (count, bound) in [(4, 5.0), (5, 5.0), (9, 3.5)] {
            var worst = 0.0
            for _ in 0..<200 {
                let samples = CalibrationFit.targets(count: count).map { target in
                    // The noise is the finger's: on the screen, then seen through the panel.
                    let off = NormalizedPoint(u: target.u + noise.offset(2, Self.width), v: target.v + noise.offset(2, Self.height))
                    return CalibrationFit.Sample(target: target, touch: Self.touch(for: off, through: truth))
                }
                let fit = try CalibrationFit.fit(samples, width: Self.width, height: Self.height).get()
                #expect(fit.rmsPixels < 2, "\(name): \(fit.rmsPixels)")
                #expect(fit.residuals.count == count)
                worst = max(worst, Self.worstPixels(fit.matrix, truth))
            }
            #expect(worst < bound, "\(name), \(count) points: \(worst) px")
        }
    }

    @Test func residualsAreInPixelsAndNormalisedUnits() throws {
        // One touch 10 px right of its target: least squares spreads it, the RMS says so.
        var samples = CalibrationFit.targets(count: 5).map { CalibrationFit.Sample(target: $0, touch: $0) }
        samples[4].touch.u += 10 / Self.width
        let fit = try CalibrationFit.fit(samples, width: Self.width, height: Self.height).get()
        #expect(fit.rmsPixels > 1 && fit.rmsPixels < 10)
        for residual in fit.residuals {
            #expect(residual.pixels.isFinite && residual.normalised.isFinite)
            #expect(residual.normalised <= residual.pixels / min(Self.width, Self.height) + 1e-12)
        }
    }

    // MARK: Degenerate input

    @Test func tooFewTouchesAreRefusedWithTheCount() {
        let samples = CalibrationFit.targets(count: 4).prefix(2).map { CalibrationFit.Sample(target: $0, touch: $0) }
        guard case .failure(let problem) = CalibrationFit.fit(Array(samples), width: Self.width, height: Self.height) else {
            Issue.record("two touches were fitted")
            return
        }
        #expect(problem.message.contains("2 touches") && problem.message.contains("at least 3"))
        guard case .failure = CalibrationFit.fit([], width: Self.width, height: Self.height) else {
            Issue.record("no touches were fitted")
            return
        }
    }

    @Test(arguments: [
        // On one line: the diagonal, a row, a column, all on one point.
        [(0.1, 0.1), (0.5, 0.5), (0.9, 0.9), (0.3, 0.3)],
        [(0.1, 0.5), (0.4, 0.5), (0.9, 0.5), (0.6, 0.5)],
        [(0.2, 0.1), (0.2, 0.4), (0.2, 0.9), (0.2, 0.7)],
        [(0.3, 0.3), (0.3, 0.3), (0.3, 0.3), (0.3, 0.3)],
        // Nearly on one line: a millionth off.
        [(0.1, 0.1), (0.5, 0.5 + 1e-6), (0.9, 0.9), (0.3, 0.3)],
    ])
    func collinearTouchesAreRefusedNeverNaN(_ touches: [(Double, Double)]) {
        let targets = CalibrationFit.targets(count: 4)
        let samples = zip(targets, touches).map { CalibrationFit.Sample(target: $0, touch: NormalizedPoint(u: $1.0, v: $1.1)) }
        guard case .failure(let problem) = CalibrationFit.fit(samples, width: Self.width, height: Self.height) else {
            Issue.record("collinear touches were fitted")
            return
        }
        #expect(problem.message.contains("one line"))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteValueIsRefused(_ value: Double) {
        var samples = CalibrationFit.targets(count: 4).map { CalibrationFit.Sample(target: $0, touch: $0) }
        samples[2].touch.v = value
        guard case .failure(let problem) = CalibrationFit.fit(samples, width: Self.width, height: Self.height) else {
            Issue.record("a non-finite touch was fitted")
            return
        }
        #expect(problem.message.contains("point 3"))
    }

    @Test func aMatrixOutsideTheCoefficientRangeIsRefused() {
        // Touches squeezed into a thousandth of the panel: the matrix would scale by 750.
        let samples = CalibrationFit.targets(count: 4).map {
            CalibrationFit.Sample(target: $0, touch: NormalizedPoint(u: 0.5 + ($0.u - 0.5) / 1000, v: 0.5 + ($0.v - 0.5) / 1000))
        }
        guard case .failure(let problem) = CalibrationFit.fit(samples, width: Self.width, height: Self.height) else {
            Issue.record("a matrix of 750 was accepted")
            return
        }
        #expect(problem.message.contains("-100.0…100.0"))
    }

    @Test func theTargetsAreXinputCalibratorsCornersThenTheCentre() {
        let four = CalibrationFit.targets(count: 4)
        #expect(four == [NormalizedPoint(u: 0.125, v: 0.125), NormalizedPoint(u: 0.875, v: 0.125),
                         NormalizedPoint(u: 0.125, v: 0.875), NormalizedPoint(u: 0.875, v: 0.875)])
        #expect(CalibrationFit.targets(count: 5).last == NormalizedPoint(u: 0.5, v: 0.5))
        #expect(CalibrationFit.targets(count: 9).count == 9)
        #expect(Set(CalibrationFit.targets(count: 9)).count == 9)
        #expect(CalibrationFit.targets(count: 1).count == 4 && CalibrationFit.targets(count: 100).count == 9)
    }

    @Test func normalisingIsLibinputsOverTheAxisRange() {
        let axis = AbsInfo(minimum: 0, maximum: 4095)
        #expect(CalibrationFit.normalise(0, axis) == 0)
        #expect(CalibrationFit.normalise(2048, axis) == 0.5)
        #expect(CalibrationFit.normalise(100, AbsInfo(minimum: 100, maximum: 100)) == 0)
    }

    // MARK: Misclick detection

    /// Touches through `matrix`, at time steps of a second.
    static func run(_ session: inout CalibrationSession, _ touches: [NormalizedPoint], from start: Int64 = 0)
        -> [CalibrationSession.Outcome] {
        touches.enumerated().map { index, touch in session.touch(touch, at: start + Int64(index + 1) * 1_000_000) }
    }

    @Test(arguments: [matrices[0], matrices[1], matrices[3], matrices[5], matrices[6]])
    func goodTouchesAreAllAccepted(_ name: String, _ truth: CalibrationMatrix) throws {
        var session = CalibrationSession(pointCount: 9, width: Self.width, height: Self.height)
        let touches = session.targets.map { Self.touch(for: $0, through: truth) }
        let outcomes = Self.run(&session, touches)
        #expect(outcomes == (0..<9).map { .accepted(index: $0) }, "\(name)")
        #expect(session.current == nil)
        let fit = try session.result().get()
        for (fitted, expected) in zip(fit.matrix.values, truth.values) { #expect(abs(fitted - expected) < 1e-9) }
        #expect(session.touch(touches[0], at: 99_000_000) == .complete)
    }

    @Test func aWildTouchIsRefusedAndTheRepeatAccepted() throws {
        let truth = Self.matrices[4].1
        var session = CalibrationSession(pointCount: 5, width: Self.width, height: Self.height)
        let good = session.targets.map { Self.touch(for: $0, through: truth) }
        var time: Int64 = 0
        func at() -> Int64 { time += 1_000_000; return time }
        #expect(session.touch(good[0], at: at()) == .accepted(index: 0))
        // The second corner shares the top edge with the first: 100 px below it is a misclick.
        guard case .refused(let reason) = session.touch(NormalizedPoint(u: good[1].u, v: good[1].v + 100 / Self.height), at: at()) else {
            Issue.record("a touch 100 px off the top edge was accepted")
            return
        }
        #expect(reason.contains("edge"))
        #expect(session.current == 1)
        #expect(session.touch(good[1], at: at()) == .accepted(index: 1))
        // The same place again, a second later (12 px off: no double tap): the third target
        // is not where the second was.
        guard case .refused(let again) = session.touch(NormalizedPoint(u: good[1].u - 12 / Self.width, v: good[1].v), at: at()) else {
            Issue.record("the second target's place was accepted for the third")
            return
        }
        #expect(again.contains("from the touch of target 2"))
        #expect(session.touch(good[2], at: at()) == .accepted(index: 2))
        // From the fourth on, the fit of the first three predicts the target: 60 px off is refused.
        guard case .refused(let predicted) = session.touch(NormalizedPoint(u: good[3].u - 60 / Self.width, v: good[3].v), at: at()) else {
            Issue.record("a touch 60 px from the predicted corner was accepted")
            return
        }
        #expect(predicted.contains("touches so far"))
        #expect(session.touch(good[3], at: at()) == .accepted(index: 3))
        // The centre: a touch in the middle of a quadrant is refused, the centre accepted.
        guard case .refused = session.touch(Self.touch(for: NormalizedPoint(u: 0.3, v: 0.3), through: truth), at: at()) else {
            Issue.record("a touch far from the centre was accepted for it")
            return
        }
        #expect(session.touch(good[4], at: at()) == .accepted(index: 4))
        let fit = try session.result().get()
        for (fitted, expected) in zip(fit.matrix.values, truth.values) { #expect(abs(fitted - expected) < 1e-9) }
    }

    @Test func aDoubleTapIsIgnored() {
        var session = CalibrationSession(pointCount: 4, width: Self.width, height: Self.height)
        let first = session.targets[0]
        #expect(session.touch(first, at: 1_000_000) == .accepted(index: 0))
        // The finger bounced: 3 px away, 150 ms later.
        guard case .ignored = session.touch(NormalizedPoint(u: first.u + 3 / Self.width, v: first.v), at: 1_150_000) else {
            Issue.record("a bounce was taken as the next target's touch")
            return
        }
        // Tapped twice on purpose, a second later, within 7 px: still the same target.
        guard case .ignored = session.touch(NormalizedPoint(u: first.u, v: first.v + 5 / Self.height), at: 2_000_000) else {
            Issue.record("a second tap within 7 px was taken")
            return
        }
        #expect(session.current == 1)
        #expect(session.touch(session.targets[1], at: 3_000_000) == .accepted(index: 1))
    }

    @Test func anIncompleteSessionHasNoResult() {
        var session = CalibrationSession(pointCount: 4, width: Self.width, height: Self.height)
        _ = session.touch(session.targets[0], at: 1)
        guard case .failure(let problem) = session.result() else {
            Issue.record("one touch gave a matrix")
            return
        }
        #expect(problem.message.contains("1 of 4"))
    }

    // MARK: The raw touches

    static let panel = DeviceDescription(
        name: "Test Panel", codes: [EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY]],
        absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095)])

    static func event(_ time: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value)
    }

    @Test func aSingleFingerIsOneTouchAtItsLastPosition() throws {
        var reader = try CalibrationTouchReader.make(for: Self.panel).get()
        let events = [
            Self.event(0, EventType.abs, AbsCode.mtSlot, 0), Self.event(0, EventType.abs, AbsCode.mtTrackingID, 7),
            Self.event(0, EventType.abs, AbsCode.mtPositionX, 1000), Self.event(0, EventType.abs, AbsCode.mtPositionY, 3000),
            Self.event(0, EventType.syn, SynCode.report, 0),
            Self.event(10, EventType.abs, AbsCode.mtPositionX, 1024), Self.event(10, EventType.syn, SynCode.report, 0),
            Self.event(20, EventType.abs, AbsCode.mtTrackingID, -1), Self.event(20, EventType.syn, SynCode.report, 0),
        ]
        let touches = events.compactMap { reader.take($0) }
        #expect(touches == [.single(NormalizedPoint(u: 0.25, v: 3000.0 / 4096), endedAt: 20)])
    }

    @Test func twoFingersAreNoCalibrationTouch() throws {
        var reader = try CalibrationTouchReader.make(for: Self.panel).get()
        let events = [
            Self.event(0, EventType.abs, AbsCode.mtSlot, 0), Self.event(0, EventType.abs, AbsCode.mtTrackingID, 1),
            Self.event(0, EventType.abs, AbsCode.mtPositionX, 100), Self.event(0, EventType.syn, SynCode.report, 0),
            Self.event(5, EventType.abs, AbsCode.mtSlot, 1), Self.event(5, EventType.abs, AbsCode.mtTrackingID, 2),
            Self.event(5, EventType.syn, SynCode.report, 0),
            Self.event(9, EventType.abs, AbsCode.mtTrackingID, -1), Self.event(9, EventType.abs, AbsCode.mtSlot, 0),
            Self.event(9, EventType.abs, AbsCode.mtTrackingID, -1), Self.event(9, EventType.syn, SynCode.report, 0),
            // A slot number beyond the reader's slots is ignored, never a crash.
            Self.event(11, EventType.abs, AbsCode.mtSlot, 5000), Self.event(11, EventType.abs, AbsCode.mtTrackingID, 3),
            Self.event(11, EventType.syn, SynCode.report, 0),
        ]
        #expect(events.compactMap { reader.take($0) } == [.multiple(endedAt: 9)])
    }

    /// A panel that reports its position on ABS_Z/ABS_RX (the eGalax 0eef:0001 firmware the
    /// configuration's `device.axes` exists for) is read through them, as gestured reads it.
    @Test func theConfigurationsAxesAreTheOnesRead() throws {
        let egalax = DeviceDescription(
            name: "eGalax", codes: [EventType.key: [KeyCode.btnTouch], EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z, AbsCode.rx]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 2047), AbsCode.y: AbsInfo(minimum: 0, maximum: 2047),
                      AbsCode.z: AbsInfo(minimum: 0, maximum: 4095), AbsCode.rx: AbsInfo(minimum: 0, maximum: 4095)])
        var reader = try CalibrationTouchReader.make(
            for: egalax, axes: AxisOverrides(x: AxisOverride(code: AbsCode.z), y: AxisOverride(code: AbsCode.rx))).get()
        let events = [
            Self.event(0, EventType.key, KeyCode.btnTouch, 1), Self.event(0, EventType.abs, AbsCode.x, 5),
            Self.event(0, EventType.abs, AbsCode.z, 1024), Self.event(0, EventType.abs, AbsCode.rx, 3072),
            Self.event(0, EventType.syn, SynCode.report, 0),
            Self.event(8, EventType.key, KeyCode.btnTouch, 0), Self.event(8, EventType.syn, SynCode.report, 0),
        ]
        #expect(events.compactMap { reader.take($0) } == [.single(NormalizedPoint(u: 0.25, v: 0.75), endedAt: 8)])
        // An axis the device does not have, without a range: the mapping's own message.
        guard case .failure(let problem) = CalibrationTouchReader.make(for: egalax, axes: AxisOverrides(x: AxisOverride(code: AbsCode.throttle),
                                                                                                       y: AxisOverride(code: AbsCode.rx))) else {
            Issue.record("an undeclared axis was read")
            return
        }
        #expect(problem.message.contains("ABS_THROTTLE"), "\(problem.message)")
    }

    @Test func aDeviceWithoutPositionAxesIsRefused() {
        guard case .failure(let problem) = CalibrationTouchReader.make(for: DeviceDescription(name: "Keys")) else {
            Issue.record("a keyboard was read")
            return
        }
        #expect(problem.message.contains("\"Keys\"") && problem.message.contains("ABS_MT_POSITION_X/Y"))
    }
}
