/// The device as gestured reads it through the configuration's `device.axes` (docs/configuration.md,
/// "`device`: panels that misdescribe themselves"): the named axes take the place of the position axes, in
/// the description and in every raw event, so the rest of the input stage reads them like any panel's; ranges
/// and resolutions the configuration gives replace the declared ones.
///
/// - Two multitouch codes (`ABS_MT_*`) become `ABS_MT_POSITION_X/Y`, per slot.
/// - Two other codes become `ABS_X/ABS_Y`, and the device is read as a single-touch panel
///   (`BTN_TOUCH` starts and ends the contact): its multitouch position axes, if it has any,
///   are set aside.
/// - The axes they replace are dropped: on such a panel they carry nothing, or something else
///   (the eGalax 0eef:0001 family reports its position on `ABS_Z`/`ABS_RX` on some firmware).
///
/// Naming only one axis keeps the other coordinate on its usual axis of the same family
/// (`x: "ABS_Z"` reads y from `ABS_Y`). Swapped axes are a permutation: `x: "ABS_Y", y: "ABS_X"`.
public struct AxisRemap: Sendable {
    /// The device as the input stage reads it.
    public let description: DeviceDescription
    /// The codes, as the device sends them, that carry X and Y.
    public let positionCodes: (x: UInt16, y: UInt16)
    /// What each `EV_ABS` code (0 … `ABS_MAX`) becomes; ``dropped`` for codes set aside. Empty
    /// when no axis is named: events pass unchanged.
    private let table: [UInt16]
    private static let dropped = UInt16.max

    /// - Throws: when a named axis is neither declared by the device nor given a range, or the
    ///   named axes mix multitouch and other codes.
    public init(_ device: DeviceDescription, overrides: AxisOverrides) throws(DeviceMappingError) {
        let multitouch: Bool
        switch (overrides.x?.code, overrides.y?.code) {
        case (let x?, let y?):
            guard AbsCode.isMultitouch(x) == AbsCode.isMultitouch(y) else {
                throw .mixedAxes(device: device.name, x: x, y: y)
            }
            multitouch = AbsCode.isMultitouch(x)
        case (let named?, nil), (nil, let named?):
            multitouch = AbsCode.isMultitouch(named)
        case (nil, nil):
            multitouch = device.reportsMultitouchPositions
        }
        let target = multitouch ? (x: AbsCode.mtPositionX, y: AbsCode.mtPositionY) : (x: AbsCode.x, y: AbsCode.y)
        let source = (x: overrides.x?.code ?? target.x, y: overrides.y?.code ?? target.y)
        positionCodes = source

        func axis(_ code: UInt16, _ override: AxisOverride?, setting: String) throws(DeviceMappingError) -> AbsInfo? {
            if let declared = device.absInfo[code] { return override?.applied(to: declared) ?? declared }
            if let range = override?.range {
                return AbsInfo(minimum: range.lowerBound, maximum: range.upperBound, resolution: override?.resolution ?? 0)
            }
            if override?.code != nil {
                throw .undeclaredAxis(device: device.name, code: code, setting: setting,
                                      declared: device.absInfo.keys.sorted())
            }
            return nil // the usual axis, missing: DeviceMapping says so.
        }
        let xInfo = try axis(source.x, overrides.x, setting: "device.axes.x")
        let yInfo = try axis(source.y, overrides.y, setting: "device.axes.y")

        var read = device
        var table: [UInt16] = []
        if overrides.namesAxes {
            var codes = device.codes[EventType.abs] ?? []
            table = (0...AbsCode.max).map { $0 }
            var setAside: [UInt16] = [target.x, target.y]
            if !multitouch { setAside += [AbsCode.mtPositionX, AbsCode.mtPositionY] }
            for code in setAside + [source.x, source.y] {
                if code != source.x && code != source.y { table[Int(code)] = Self.dropped }
                read.absInfo[code] = nil
                codes.remove(code)
            }
            table[Int(source.x)] = target.x
            table[Int(source.y)] = target.y
            if xInfo != nil { codes.insert(target.x) }
            if yInfo != nil { codes.insert(target.y) }
            read.codes[EventType.abs] = codes
        }
        read.absInfo[target.x] = xInfo
        read.absInfo[target.y] = yInfo
        description = read
        self.table = table
    }

    /// True when events need rewriting (an axis is named).
    public var rewritesEvents: Bool { !table.isEmpty }

    /// The event as the input stage reads it; nil for an event on an axis set aside.
    public func apply(_ event: RawEvent) -> RawEvent? {
        guard event.type == EventType.abs, Int(event.code) < table.count else { return event }
        let code = table[Int(event.code)]
        if code == Self.dropped { return nil }
        var rewritten = event
        rewritten.code = code
        return rewritten
    }
}
