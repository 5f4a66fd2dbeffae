import GestureCore
import Testing

/// SPEC 2, device → screen. Expected values are worked out by hand in the comments.
@Suite struct DeviceMappingTests {
    /// A panel whose axes run 0 ... 99 (100 units), so value n normalises to n / 100.
    static let hundred = AbsInfo(minimum: 0, maximum: 99)

    static func mapping(rotation: ScreenRotation = .none, calibration: CalibrationMatrix = .identity,
                        width: Double = 200, height: Double = 100) throws -> DeviceMapping {
        try DeviceMapping(xAxis: hundred, yAxis: hundred,
                          screen: ScreenGeometry(width: width, height: height, rotation: rotation,
                                                 calibration: calibration))
    }

    @Test func egalaxCentreAndEdges() throws {
        let mapping = try DeviceMapping(description: DeviceFixtures.egalax,
                                        screen: ScreenGeometry(width: 1920, height: 1080))
        // 16384 / (32767 - 0 + 1) = 0.5 → x = 0.5 * 1920 = 960, y = 0.5 * 1080 = 540.
        #expect(mapping.point(DevicePosition(x: 16384, y: 16384)) == Point(x: 960, y: 540))
        #expect(mapping.point(DevicePosition(x: 0, y: 0)) == Point(x: 0, y: 0))
        // 32767 / 32768 * 1920 = 1919.94140625: the last value stays inside the screen.
        #expect(mapping.point(DevicePosition(x: 32767, y: 0)).x == 1919.94140625)
    }

    @Test func clampsBothEnds() throws {
        let mapping = try Self.mapping()
        // Below the minimum → u = 0; beyond the maximum → the largest double below 1.
        #expect(mapping.normalized(DevicePosition(x: -5, y: 250)) == NormalizedPoint(u: 0, v: 1.0.nextDown))
        let far = mapping.point(DevicePosition(x: 1000, y: 100))
        #expect(far.x < 200 && far.x > 199.999)
        #expect(far.y < 100 && far.y > 99.999)
    }

    @Test func negativeMinimaOfTheBcm5974() throws {
        // A: 35 -4620 5140 → 9761 units; A: 36 -150 6600 → 6751 units. A screen as wide as the
        // ranges makes x = value - min.
        let mapping = try DeviceMapping(description: DeviceFixtures.bcm5974,
                                        screen: ScreenGeometry(width: 9761, height: 6751))
        #expect(mapping.point(DevicePosition(x: -4620, y: -150)) == Point(x: 0, y: 0))
        let middle = mapping.point(DevicePosition(x: 260, y: 3225))  // 4880 and 3375 units in
        #expect(abs(middle.x - 4880) < 1e-9)
        #expect(abs(middle.y - 3375) < 1e-9)
    }

    /// u = 0.25, v = 0.5 on a 200 x 100 screen.
    @Test(arguments: [
        (ScreenRotation.none, Point(x: 50, y: 50)),          // (0.25, 0.5)
        (ScreenRotation.clockwise90, Point(x: 100, y: 25)),  // (1 - 0.5, 0.25)
        (ScreenRotation.clockwise180, Point(x: 150, y: 50)), // (1 - 0.25, 1 - 0.5)
        (ScreenRotation.clockwise270, Point(x: 100, y: 75)), // (0.5, 1 - 0.25)
    ])
    func rotation(_ rotation: ScreenRotation, expected: Point) throws {
        let mapping = try Self.mapping(rotation: rotation)
        #expect(mapping.point(DevicePosition(x: 25, y: 50)) == expected)
    }

    /// u = 0.25, v = 0.5 on a 200 x 100 screen, then the matrix.
    @Test(arguments: [
        ([1.0, 0, 0, 0, 1, 0], Point(x: 50, y: 50)),       // identity
        ([0.0, 1, 0, 1, 0, 0], Point(x: 100, y: 25)),      // swap: (v, u) = (0.5, 0.25)
        ([1.0, 0, 0.125, 0, 1, -0.25], Point(x: 75, y: 25)), // offset: (0.375, 0.25)
        ([-1.0, 0, 1, 0, 1, 0], Point(x: 150, y: 50)),     // mirror X: (0.75, 0.5)
    ])
    func calibration(_ values: [Double], expected: Point) throws {
        let matrix = try #require(CalibrationMatrix(values))
        let mapping = try Self.mapping(calibration: matrix)
        #expect(mapping.point(DevicePosition(x: 25, y: 50)) == expected)
    }

    @Test func calibrationComesBeforeRotation() throws {
        // Swap → (0.5, 0.25); then 90° → (1 - 0.25, 0.5) = (0.75, 0.5) → (150, 50).
        let mapping = try Self.mapping(rotation: .clockwise90, calibration: CalibrationMatrix(a: 0, b: 1, c: 0, d: 1, e: 0, f: 0))
        #expect(mapping.point(DevicePosition(x: 25, y: 50)) == Point(x: 150, y: 50))
    }

    @Test func calibrationNeedsSixValues() {
        #expect(CalibrationMatrix([1, 0, 0, 0, 1]) == nil)
        #expect(CalibrationMatrix([1, 0, 0, 0, 1, 0]) == .identity)
    }

    @Test func rotationFromDegrees() {
        #expect(ScreenRotation(degrees: 270) == .clockwise270)
        #expect(ScreenRotation(degrees: 45) == nil)
    }

    @Test func majorRadiusIsHalfTheMajorScaledLikeX() throws {
        // Nexus 4: X 0 ... 1535 (1536 units) on a 768-point-wide screen: 2 units per point.
        // TOUCH_MAJOR 10 → radius 5 units → 2.5 points.
        let upright = try DeviceMapping(description: DeviceFixtures.nexus4,
                                        screen: ScreenGeometry(width: 768, height: 1280))
        #expect(upright.majorRadius(10) == 2.5)
        // Rotated 90°, the panel's X runs along the screen's height (768 points here).
        let rotated = try DeviceMapping(description: DeviceFixtures.nexus4,
                                        screen: ScreenGeometry(width: 1280, height: 768, rotation: .clockwise90))
        #expect(rotated.majorRadius(10) == 2.5)
        // The eGalax declares no ABS_MT_TOUCH_MAJOR: no radius.
        let egalax = try DeviceMapping(description: DeviceFixtures.egalax, screen: ScreenGeometry(width: 1, height: 1))
        #expect(egalax.majorRadius(10) == nil)
    }

    @Test(arguments: [(Int32(0), 0.0), (51, 0.2), (255, 1.0), (300, 1.0), (-3, 0.0)])
    func forceIsAFractionOfThePressureRange(pressure: Int32, expected: Double) throws {
        // Nexus 4: ABS_MT_PRESSURE 0 ... 255; 51 / 255 = 0.2.
        let mapping = try DeviceMapping(description: DeviceFixtures.nexus4,
                                        screen: ScreenGeometry(width: 768, height: 1280))
        #expect(mapping.force(pressure) == expected)
    }

    @Test func noPressureAxisMeansNoForce() throws {
        let mapping = try DeviceMapping(description: DeviceFixtures.egalax, screen: ScreenGeometry(width: 1, height: 1))
        #expect(mapping.force(100) == nil)
    }

    @Test func multitouchAxesWinOverLegacyOnes() throws {
        var description = DeviceFixtures.egalax
        description.absInfo[AbsCode.x] = AbsInfo(minimum: 0, maximum: 4095)  // would give x = 4000 / 4096 * 1920
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 1920, height: 1080))
        #expect(mapping.xAxis == DeviceFixtures.egalax.absInfo[AbsCode.mtPositionX])
    }

    @Test func singleTouchDevicesUseAbsXY() throws {
        let mapping = try DeviceMapping(description: DeviceFixtures.resistive,
                                        screen: ScreenGeometry(width: 1024, height: 768))
        // 2048 / 4096 = 0.5 → (512, 384); pressure 0 ... 255 from ABS_PRESSURE.
        #expect(mapping.point(DevicePosition(x: 2048, y: 2048)) == Point(x: 512, y: 384))
        #expect(mapping.force(255) == 1)
    }

    @Test func aDescriptionWithoutRangesNeedsOverrides() throws {
        // An Android getevent capture has no description at all.
        let bare = DeviceDescription(name: "getevent")
        let screen = ScreenGeometry(width: 1080, height: 1920)
        #expect(throws: DeviceMappingError.missingAxis(device: "getevent", code: AbsCode.mtPositionX)) {
            try DeviceMapping(description: bare, screen: screen)
        }
        let overrides = AxisOverrides(x: AxisOverride(range: 0...1079), y: AxisOverride(range: 0...1919))
        let mapping = try DeviceMapping(description: try AxisRemap(bare, overrides: overrides).description, screen: screen)
        #expect(mapping.point(DevicePosition(x: 540, y: 960)) == Point(x: 540, y: 960))
    }

    @Test func invertedRangesAreRefusedWithAMessageSayingWhatToChange() {
        var description = DeviceFixtures.quanta
        description.absInfo[AbsCode.mtPositionY] = AbsInfo(minimum: 10, maximum: 0)
        #expect {
            try DeviceMapping(description: description, screen: ScreenGeometry(width: 1, height: 1))
        } throws: { error in
            "\(error)".contains("ABS_MT_POSITION_Y") && "\(error)".contains("configuration")
        }
    }
}
