/// Distances of the configuration's `gestures` section stated in millimetres of the panel
/// (`slop: { mm: 3 }`, docs/configuration.md § `gestures`), kept as written until the device is known: its position axes'
/// resolution (units per millimetre) and the screen they span give points per millimetre
/// (``DeviceMapping/pointsPerMillimetre``), and ``GestureSettings/inPoints(pointsPerMillimetre:)``
/// turns them into the points every recognizer works in. A finger is the same size on every
/// panel; a point is not, so slops in millimetres keep their feel from a 10-inch panel to a
/// 55-inch one.
public struct MillimetreThresholds: Hashable, Sendable {
    /// Which setting a distance in millimetres stands for.
    public enum Target: Hashable, Sendable {
        /// A distance parameter of every recognizer of a type (`gestures.pan.slop`): the
        /// parameter's name, as ``RecognizerKind/parameterKeys`` spells it.
        case recognizer(RecognizerKind, parameter: String)
        /// `gestures.control.trackingSlop`.
        case trackingSlop
        /// `gestures.touch.tapDistance`.
        case touchTapDistance
    }

    /// One distance in millimetres.
    public struct Entry: Hashable, Sendable {
        /// The key path in the configuration, for messages (`gestures.pan.slop`).
        public var key: String
        public var target: Target
        public var millimetres: Double

        public init(key: String, target: Target, millimetres: Double) {
            self.key = key
            self.target = target
            self.millimetres = millimetres
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty }
}

extension GestureSettings {
    /// These settings with every distance given in millimetres converted to points at
    /// `pointsPerMillimetre`; the same settings when there is none.
    public func inPoints(pointsPerMillimetre: Double) -> GestureSettings {
        var converted = self
        for entry in millimetres.entries {
            let points = entry.millimetres * pointsPerMillimetre
            switch entry.target {
            case .trackingSlop:
                converted.trackingSlop = points
            case .touchTapDistance:
                converted.touchTapDistance = points
            case .recognizer(let kind, let name):
                guard let key = kind.parameterKeys.first(where: { $0.name == name }), case .points = key.unit else { continue }
                var parameters = converted.overrides[kind] ?? RecognizerParameters()
                parameters[name] = .number(points)
                converted.overrides[kind] = parameters
            }
        }
        return converted
    }
}
