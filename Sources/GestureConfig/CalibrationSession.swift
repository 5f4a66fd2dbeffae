import GestureCore

/// The targets of one calibration in turn, and which touches answer them: xinput_calibrator's
/// misclick detection, generalised (docs/command-line.md, "gestured calibrate"). Pure: touches
/// come in normalised device coordinates with their time, outcomes go out.
///
/// A touch is
/// - **ignored** as a double tap when it lands within ``CalibrationFit/doubleTapPixels`` of the
///   touch just accepted, or within the misclick threshold of it and
///   ``CalibrationFit/doubleTapMicroseconds`` after it;
/// - **refused** (the target is shown again) when it is a misclick: closer to an earlier touch
///   than a third of the distance between their targets (the same place touched twice); for
///   the second and third targets, which share a screen axis with the first, not sharing a
///   device axis with the first touch within the threshold (the two corners of one edge
///   disagree; either device axis, so a panel mounted at 90° passes, and the third must share
///   the axis the second did not); from the fourth on, further than the threshold from where
///   the affine fit of the touches so far puts the target.
/// - otherwise **accepted**.
///
/// Distances between device positions are in screen pixels as if the panel spanned the screen,
/// each normalised unit counting the screen's mean side: the panel's own scale is what is being
/// measured, so a threshold can only be this approximate.
public struct CalibrationSession: Sendable {
    public enum Outcome: Hashable, Sendable {
        /// The touch answers target `index` (0-based).
        case accepted(index: Int)
        case ignored(reason: String)
        /// A misclick: the same target is shown again.
        case refused(reason: String)
        /// Every target is answered; further touches are not read.
        case complete
    }

    public let targets: [NormalizedPoint]
    public let width: Double
    public let height: Double
    public let misclickPixels: Double
    public private(set) var samples: [CalibrationFit.Sample] = []
    private var lastTime: Int64?

    /// `pointCount` targets (``CalibrationFit/targets(count:)``) on a `width` × `height`
    /// screen; the values must be in the ranges of ``CalibrationFit`` (the command checks them).
    public init(pointCount: Int, width: Double, height: Double, misclickPixels: Int = CalibrationFit.defaultMisclickPixels) {
        targets = CalibrationFit.targets(count: pointCount)
        self.width = width
        self.height = height
        self.misclickPixels = Double(min(max(misclickPixels, CalibrationFit.misclickPixels.lowerBound),
                                         CalibrationFit.misclickPixels.upperBound))
    }

    /// The index of the target to touch now, or nil when every target is answered.
    public var current: Int? { samples.count < targets.count ? samples.count : nil }

    /// Pixels per normalised unit of device distance (see the type's comment).
    private var scale: Double { (width + height) / 2 }

    private func pixels(_ p: NormalizedPoint, _ q: NormalizedPoint) -> Double {
        let du = (p.u - q.u) * scale, dv = (p.v - q.v) * scale
        return (du * du + dv * dv).squareRoot()
    }

    private func screenPixels(_ p: NormalizedPoint, _ q: NormalizedPoint) -> Double {
        let dx = (p.u - q.u) * width, dy = (p.v - q.v) * height
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Takes the touch `touch` (normalised device coordinates) that ended at `time`
    /// (microseconds, any monotonic origin).
    public mutating func touch(_ touch: NormalizedPoint, at time: Int64) -> Outcome {
        guard let index = current else { return .complete }
        guard touch.u.isFinite, touch.v.isFinite else { return .ignored(reason: "the touch's position is not a number") }
        if let last = samples.last, let lastTime {
            let distance = pixels(touch, last.touch)
            if distance < CalibrationFit.doubleTapPixels
                || (time &- lastTime < CalibrationFit.doubleTapMicroseconds && distance < misclickPixels) {
                return .ignored(reason: "a double tap on target \(index) (\(Self.rounded(distance)) px from it, "
                    + "\((time &- lastTime) / 1000) ms after it)")
            }
        }
        let target = targets[index]
        for (other, sample) in samples.enumerated() {
            let distance = pixels(touch, sample.touch)
            let expected = screenPixels(target, sample.target)
            if distance < expected / 3 {
                return .refused(reason: "it is \(Self.rounded(distance)) px from the touch of target \(other + 1), whose "
                    + "target is \(Self.rounded(expected)) px away")
            }
        }
        if index == 1 || index == 2, let first = samples.first {
            let du = abs(touch.u - first.touch.u) * scale, dv = abs(touch.v - first.touch.v) * scale
            // The axis the second touch shared with the first; the third must share the other.
            var sharedByTarget2: Int?
            if index == 2 {
                let second = samples[1]
                sharedByTarget2 = abs(second.touch.u - first.touch.u) <= abs(second.touch.v - first.touch.v) ? 0 : 1
            }
            let offAxis = sharedByTarget2 == 0 ? dv : sharedByTarget2 == 1 ? du : min(du, dv)
            if offAxis > misclickPixels {
                return .refused(reason: "target \(index + 1) lies on an edge with target 1, but the touch is "
                    + "\(Self.rounded(offAxis)) px off the line through target 1's touch (at most \(Int(misclickPixels)))")
            }
        } else if index >= 3 {
            // Where the touches so far put this target: the fit of screen → device, applied to it.
            let inverse = samples.map { CalibrationFit.Sample(target: $0.touch, touch: $0.target) }
            if case .success(let fit) = CalibrationFit.fit(inverse, width: width, height: height) {
                let predicted = fit.matrix.apply(to: target)
                let distance = pixels(touch, predicted)
                if distance > misclickPixels {
                    return .refused(reason: "the touches so far put target \(index + 1) \(Self.rounded(distance)) px from "
                        + "this touch (at most \(Int(misclickPixels)))")
                }
            }
        }
        samples.append(CalibrationFit.Sample(target: target, touch: touch))
        lastTime = time
        return .accepted(index: index)
    }

    /// The fit of every accepted touch, once all are in.
    public func result() -> Result<CalibrationFit.Result, CalibrationFit.Problem> {
        guard current == nil else {
            return .failure(CalibrationFit.Problem("\(samples.count) of \(targets.count) targets were touched; "
                + "touch every target"))
        }
        return CalibrationFit.fit(samples, width: width, height: height)
    }

    /// `value` to one decimal, for messages.
    public static func rounded(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return String(Double(Int((value * 10).rounded())) / 10)
    }
}
