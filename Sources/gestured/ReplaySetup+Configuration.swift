import GestureConfig
import GestureCore
import GestureRuntime

extension Configuration {
    /// What a replay needs from this configuration, as core values.
    var replaySetup: ReplaySetup {
        let rotation = ScreenRotation(rawValue: screen.rotation.rawValue) ?? .none
        let c = screen.calibration
        let geometry = ScreenGeometry(width: screen.width, height: screen.height, rotation: rotation,
                                      calibration: CalibrationMatrix(a: c[0], b: c[1], c: c[2], d: c[3], e: c[4], f: c[5]))
        let overrides = GestureCore.AxisOverrides(x: axes.x?.absInfo(), y: axes.y?.absInfo())
        return ReplaySetup(tree: ViewTree(validated: layout), settings: settings, screen: geometry, axes: overrides)
    }
}
