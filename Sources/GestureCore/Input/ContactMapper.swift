/// ``DeviceMapping`` for one screen, with the constants of its formulas worked out once: the
/// contact tracker maps every contact that moves in every frame (ten fingers at 100 Hz are a
/// thousand points a second), and converting the axis ranges to `Double` and unwrapping the
/// optional axes each time was a good part of a frame's cost.
///
/// It goes through the same formula functions as ``DeviceMapping`` (`fraction`, `radius`,
/// `force`) with the same constants, so its points, radii and forces are bit for bit the
/// mapping's. Made again whenever the mapping changes.
struct ContactMapper: Sendable {
    private let xMinimum: Double
    private let xCells: Double
    private let yMinimum: Double
    private let yCells: Double
    let screen: ScreenGeometry
    /// Whether the device reports `ABS_MT_TOUCH_MAJOR` (else radii are nil).
    private let hasRadius: Bool
    private let radiusExtent: Double
    /// Whether the device has a non-empty pressure range (else forces are nil).
    private let hasForce: Bool
    private let forceMinimum: Double
    private let forceRange: Double

    /// The mapping's formulas onto `screen` (the screen a contact began on).
    init(_ mapping: DeviceMapping, screen: ScreenGeometry) {
        xMinimum = Double(mapping.xAxis.minimum)
        xCells = DeviceMapping.cells(of: mapping.xAxis)
        yMinimum = Double(mapping.yAxis.minimum)
        yCells = DeviceMapping.cells(of: mapping.yAxis)
        self.screen = screen
        hasRadius = mapping.touchMajorAxis != nil
        radiusExtent = screen.extentAlongPanelX
        if let axis = mapping.pressureAxis, axis.maximum > axis.minimum {
            hasForce = true
            forceMinimum = Double(axis.minimum)
            forceRange = Double(axis.maximum) - Double(axis.minimum)
        } else {
            hasForce = false
            forceMinimum = 0
            forceRange = 1
        }
    }

    /// `DeviceMapping.point(_:on:)`.
    @inline(__always)
    func point(x: Int32, y: Int32) -> Point {
        screen.point(for: NormalizedPoint(u: DeviceMapping.fraction(x, minimum: xMinimum, cells: xCells),
                                          v: DeviceMapping.fraction(y, minimum: yMinimum, cells: yCells)))
    }

    /// `DeviceMapping.majorRadius(_:on:)`.
    @inline(__always)
    func majorRadius(_ touchMajor: Int32) -> Double? {
        hasRadius ? DeviceMapping.radius(touchMajor, unitsPerPanel: xCells, extent: radiusExtent) : nil
    }

    /// `DeviceMapping.force(_:)`.
    @inline(__always)
    func force(_ pressure: Int32) -> Double? {
        hasForce ? DeviceMapping.force(pressure, minimum: forceMinimum, range: forceRange) : nil
    }
}

extension ContactMapper {
    /// The contact in a slot with `values` going down.
    @inline(__always)
    func down(_ contact: ContactID, _ values: ContactTracker.SlotValues) -> TouchChange {
        .down(contact, point(x: values.x, y: values.y), majorRadius: majorRadius(values.touchMajor),
              force: force(values.pressure))
    }

    /// The contact in a slot moving to `values`.
    @inline(__always)
    func move(_ contact: ContactID, _ values: ContactTracker.SlotValues) -> TouchChange {
        .move(contact, point(x: values.x, y: values.y), majorRadius: majorRadius(values.touchMajor),
              force: force(values.pressure))
    }
}
