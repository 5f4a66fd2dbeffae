import GestureCore

/// Draws a ``RenderModel`` as an SVG document (docs/render.md): the screen with the view tree
/// and the touches' paths, a legend and the touches' hit views and responder chains beside it,
/// and below a timeline with a lane per touch, per recognizer and per control, then the
/// failures with their context. The replay's data is embedded as JSON (``RenderJSON``). The
/// same model gives the same bytes: fixed number formatting, the model's order, no clock.
struct RenderSVG {
    let model: RenderModel
    private var out = ""

    init(model: RenderModel) {
        self.model = model
    }

    static let width = 1280.0
    /// The box the screen is scaled into.
    static let screenBox = Size(width: 720, height: 560)
    static let margin = 20.0
    static let top = 70.0
    static let columnX = margin + screenBox.width + 30
    static let laneHeight = 22.0
    static let timelineLeft = 230.0
    /// Room on the right for the labels of the last events.
    static let timelineRight = width - 90

    static let touchColors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
    static let possibleColor = "#bbbbbb"
    static let activeColor = "#4a90d9"
    static let successColor = "#2e9e44"
    static let cancelledColor = "#e08a00"
    static let failedColor = "#d0021b"

    /// The whole document.
    static func document(_ model: RenderModel) -> String {
        var svg = RenderSVG(model: model)
        return svg.draw()
    }

    private var scale: Double {
        let size = model.screenSize
        guard size.width > 0, size.height > 0 else { return 1 }
        return min(Self.screenBox.width / size.width, Self.screenBox.height / size.height)
    }

    private func x(_ value: Double) -> String { RenderText.coordinate(Self.margin + value * scale) }
    private func y(_ value: Double) -> String { RenderText.coordinate(Self.top + value * scale) }
    private func color(_ touchPosition: Int) -> String { Self.touchColors[touchPosition % Self.touchColors.count] }

    private mutating func line(_ text: String) {
        out += text
        out += "\n"
    }

    private mutating func text(_ x: Double, _ y: Double, _ content: String, size: Int = 11, attributes: String = "") {
        line("<text x=\"\(RenderText.coordinate(x))\" y=\"\(RenderText.coordinate(y))\" font-size=\"\(size)\"\(attributes)>"
            + RenderText.xml(content, quotes: false) + "</text>")
    }

    private mutating func draw() -> String {
        out = ""
        let screenHeight = model.screenSize.height * scale
        var body = RenderSVG(model: model)
        let columnBottom = body.drawColumn()
        let timelineTop = max(Self.top + screenHeight, columnBottom) + 40
        let height = body.drawTimeline(top: timelineTop)
        line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        line("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(RenderText.fixed(Self.width, 0))\" "
            + "height=\"\(RenderText.fixed(height, 0))\" viewBox=\"0 0 \(RenderText.fixed(Self.width, 0)) \(RenderText.fixed(height, 0))\" "
            + "font-family=\"DejaVu Sans, sans-serif\">")
        line("<title>\(RenderText.xml("gestured render: \(model.recording) with \(model.configuration)"))</title>")
        line("<script type=\"application/json\" id=\"gestured-replay\">")
        out += RenderText.xml(RenderJSON.text(model), quotes: false)
        line("</script>")
        line("<rect x=\"0\" y=\"0\" width=\"\(RenderText.fixed(Self.width, 0))\" height=\"\(RenderText.fixed(height, 0))\" fill=\"#ffffff\"/>")
        text(Self.margin, 28, "gestured render: \(RenderText.short(model.recording, 60)) with \(RenderText.short(model.configuration, 60))",
             size: 16, attributes: " font-weight=\"bold\"")
        text(Self.margin, 50, "screen \(model.screenID) \(RenderText.fixed(model.screenSize.width, 0)) × "
            + "\(RenderText.fixed(model.screenSize.height, 0)) points; device \(RenderText.short(model.device, 60)); "
            + "\(RenderText.seconds(model.duration)) s; \(model.touches.count + model.touchesLeftOut) touches", size: 12)
        drawScreen()
        out += body.out
        line("</svg>")
        return out
    }

    // MARK: - The screen

    private mutating func drawScreen() {
        // Labels that run past the screen's edge are cut there, not drawn over the legend.
        line("<clipPath id=\"screen-clip\"><rect x=\"\(x(0))\" y=\"\(y(0))\" width=\"\(RenderText.coordinate(model.screenSize.width * scale))\" "
            + "height=\"\(RenderText.coordinate(model.screenSize.height * scale))\"/></clipPath>")
        line("<g id=\"screen\" clip-path=\"url(#screen-clip)\">")
        line("<rect x=\"\(x(0))\" y=\"\(y(0))\" width=\"\(RenderText.coordinate(model.screenSize.width * scale))\" "
            + "height=\"\(RenderText.coordinate(model.screenSize.height * scale))\" fill=\"#f7f7f7\" stroke=\"#000000\"/>")
        // Labels of views that share a top-left corner (an overlay, a container and its first
        // child) go one under the other: the lines used at each corner, in the tree's order.
        var linesAtCorner: [Point: Int] = [:]
        for view in model.views {
            let frame = view.frame
            let dash = view.isHidden ? " stroke-dasharray=\"2 3\"" : view.isControl ? " stroke-dasharray=\"6 2\"" : ""
            line("<rect class=\"view\" x=\"\(x(frame.minX))\" y=\"\(y(frame.minY))\" width=\"\(RenderText.coordinate(frame.size.width * scale))\" "
                + "height=\"\(RenderText.coordinate(frame.size.height * scale))\" fill=\"none\" "
                + "stroke=\"\(view.isControl ? "#555555" : "#999999")\"\(dash)/>")
            let labels = [RenderText.short(view.id) + (view.isHidden ? " (hidden)" : "")]
                + view.recognizers.map { "⟨\($0.kind)⟩ " + RenderText.short($0.id) }
            let skip = linesAtCorner[frame.origin] ?? 0
            linesAtCorner[frame.origin] = skip + labels.count
            for (offset, label) in labels.enumerated() {
                let lineY = Self.top + frame.minY * scale + 12 + Double(skip + offset) * 12
                text(Self.margin + frame.minX * scale + 3, lineY, label, size: offset == 0 ? 11 : 10,
                     attributes: offset == 0 ? " class=\"view-id\" fill=\"#333333\"" : " class=\"recognizer\" fill=\"#666666\"")
            }
        }
        for (position, touch) in model.touches.enumerated() { drawPath(touch, color: color(position)) }
        line("</g>")
    }

    private mutating func drawPath(_ touch: RenderModel.Touch, color: String) {
        guard let first = touch.points.first else { return }
        line("<g class=\"touch\" id=\"touch-\(touch.id)\">")
        let points = touch.points.map { "\(x($0.location.x)),\(y($0.location.y))" }.joined(separator: " ")
        line("<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>")
        for tick in touch.ticks {
            line("<circle cx=\"\(x(tick.location.x))\" cy=\"\(y(tick.location.y))\" r=\"1.8\" fill=\"\(color)\"/>")
        }
        line("<circle cx=\"\(x(first.location.x))\" cy=\"\(y(first.location.y))\" r=\"5\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>")
        text(Self.margin + first.location.x * scale + 7, Self.top + first.location.y * scale - 5, "\(touch.id)", size: 11,
             attributes: " fill=\"\(color)\" font-weight=\"bold\"")
        if let last = touch.points.last, touch.endPhase != nil {
            endMark(cx: Self.margin + last.location.x * scale, cy: Self.top + last.location.y * scale,
                    cancelled: touch.endPhase == "cancelled", color: color)
        }
        line("</g>")
    }

    private mutating func endMark(cx: Double, cy: Double, cancelled: Bool, color: String) {
        if cancelled {
            line("<path d=\"M\(RenderText.coordinate(cx - 4)),\(RenderText.coordinate(cy - 4)) l8,8 m0,-8 l-8,8\" stroke=\"\(color)\" stroke-width=\"2\"/>")
        } else {
            line("<rect x=\"\(RenderText.coordinate(cx - 3.5))\" y=\"\(RenderText.coordinate(cy - 3.5))\" width=\"7\" height=\"7\" fill=\"\(color)\"/>")
        }
    }

    // MARK: - The column: legend, touches, notes

    /// Draws the legend, the touches' hit views and responder chains and the notes; returns the bottom.
    private mutating func drawColumn() -> Double {
        let left = Self.columnX
        var row = Self.top + 10
        text(left, row, "Legend", size: 13, attributes: " font-weight=\"bold\"")
        row += 18
        line("<rect x=\"\(RenderText.coordinate(left))\" y=\"\(RenderText.coordinate(row - 9))\" width=\"16\" height=\"10\" fill=\"none\" stroke=\"#999999\"/>")
        text(left + 24, row, "view (id, then ⟨kind⟩ recognizer); dashed: control; dotted: hidden", size: 10)
        row += 16
        line("<path d=\"M\(RenderText.coordinate(left)),\(RenderText.coordinate(row - 4)) h16\" stroke=\"\(Self.touchColors[0])\" stroke-width=\"2\"/>")
        text(left + 24, row, "touch path: ○ where it landed (its id), dots every 100 ms, ■ lifted, ✕ cancelled", size: 10)
        row += 16
        for (color, label) in [(Self.possibleColor, "recognizer possible (following its touches)"),
                               (Self.activeColor, "gesture under way (began … changed)"),
                               (Self.successColor, "◆ recognized or ended"),
                               (Self.cancelledColor, "◆ cancelled"),
                               (Self.failedColor, "✕n failed: the n-th failure listed under the timeline")] {
            line("<rect x=\"\(RenderText.coordinate(left))\" y=\"\(RenderText.coordinate(row - 9))\" width=\"16\" height=\"8\" fill=\"\(color)\"/>")
            text(left + 24, row, label, size: 10)
            row += 16
        }
        line("<path d=\"M\(RenderText.coordinate(left + 8)),\(RenderText.coordinate(row - 10)) l-5,9 h10 z\" fill=\"#000000\"/>")
        text(left + 24, row, "control event", size: 10)
        row += 26
        text(left, row, "Touches: hit view ‹ responder chain", size: 13, attributes: " font-weight=\"bold\"")
        row += 18
        for (position, touch) in model.touches.enumerated() {
            let chain = touch.responders.count > 1 ? "  (" + touch.responders.map { RenderText.short($0, 24) }.joined(separator: " ‹ ") + ")" : ""
            let taken = touch.recognizers.isEmpty ? "" : "; taken by " + touch.recognizers.map { RenderText.short($0, 24) }.joined(separator: ", ")
            text(left, row, "\(touch.id) → \(touch.hitView.map { RenderText.short($0) } ?? "no view")\(chain)\(taken)", size: 10,
                 attributes: " fill=\"\(color(position))\"")
            row += 14
        }
        if model.touches.isEmpty {
            text(left, row, "no touch", size: 10)
            row += 14
        }
        var notes: [String] = []
        if model.touchesLeftOut > 0 {
            notes.append("\(model.touchesLeftOut) more touches not drawn (the first \(RenderLimits.touches) are)")
        }
        if model.viewsLeftOut > 0 { notes.append("\(model.viewsLeftOut) more views not drawn") }
        if model.controlsLeftOut > 0 { notes.append("\(model.controlsLeftOut) more control events not drawn") }
        let droppedTransitions = model.recognizers.reduce(0) { $0 + $1.transitionsLeftOut }
        if droppedTransitions > 0 { notes.append("\(droppedTransitions) more recognizer state changes not drawn") }
        let thinned = model.touches.filter { $0.stride > 1 }.map { "\($0.id)" }
        if !thinned.isEmpty { notes.append("paths thinned (every 2ⁿth point): touch " + thinned.prefix(8).joined(separator: ", ")) }
        let slowTicks = model.touches.filter { $0.tickInterval != RenderLimits.tickInterval }
        for touch in slowTicks.prefix(4) {
            notes.append("touch \(touch.id): dots every \(RenderText.seconds(touch.tickInterval)) s")
        }
        for warning in model.warnings { notes.append("warning at \(RenderText.seconds(warning.time)) s: \(RenderText.short(warning.message, 80))") }
        if model.warningsLeftOut > 0 { notes.append("\(model.warningsLeftOut) more warnings") }
        if !notes.isEmpty {
            row += 12
            text(left, row, "Notes", size: 13, attributes: " font-weight=\"bold\"")
            row += 18
            for note in notes {
                text(left, row, note, size: 10)
                row += 14
            }
        }
        return row
    }

    // MARK: - The timeline

    private func timeX(_ time: Int64) -> Double {
        let span = Double(max(model.duration, 1))
        return Self.timelineLeft + (Self.timelineRight - Self.timelineLeft) * Double(time) / span
    }

    /// A step for the time axis of about ten labels: 1, 2 or 5 times a power of ten, in microseconds.
    private var axisStep: Int64 {
        var step: Int64 = 1000
        while model.duration / step > 10 {
            let next = [step * 2, step * 5, step * 10].first { model.duration / $0 <= 10 }
            step = next ?? step * 10
        }
        return step
    }

    /// Draws the time axis, the lanes and the failures; returns the document's height.
    private mutating func drawTimeline(top: Double) -> Double {
        var row = top
        text(Self.margin, row, "Timeline (seconds since the recording's start)", size: 13, attributes: " font-weight=\"bold\"")
        row += 14
        let axisY = row + 12
        var tick: Int64 = 0
        while tick <= model.duration {
            let tx = RenderText.coordinate(timeX(tick))
            line("<path d=\"M\(tx),\(RenderText.coordinate(axisY - 4)) v4\" stroke=\"#000000\"/>")
            text(timeX(tick) - 12, axisY - 6, RenderText.seconds(tick), size: 9)
            tick += axisStep
        }
        line("<path d=\"M\(RenderText.coordinate(Self.timelineLeft)),\(RenderText.coordinate(axisY)) H\(RenderText.coordinate(Self.timelineRight))\" stroke=\"#000000\"/>")
        row = axisY + 8
        let laneTop = row
        // Touches.
        for (position, touch) in model.touches.enumerated() {
            let center = row + Self.laneHeight / 2
            text(Self.margin, center + 4, "touch \(touch.id) → \(touch.hitView.map { RenderText.short($0, 24) } ?? "no view")", size: 10,
                 attributes: " fill=\"\(color(position))\"")
            let end = touch.end ?? model.duration
            line("<rect x=\"\(RenderText.coordinate(timeX(touch.began)))\" y=\"\(RenderText.coordinate(center - 4))\" "
                + "width=\"\(RenderText.coordinate(max(timeX(end) - timeX(touch.began), 1)))\" height=\"8\" fill=\"\(color(position))\" opacity=\"0.6\"/>")
            if touch.endPhase != nil { endMark(cx: timeX(end), cy: center, cancelled: touch.endPhase == "cancelled", color: color(position)) }
            row += Self.laneHeight
        }
        // Recognizers that did something; those that stayed possible are named in one line.
        let engaged = model.recognizers.filter { !$0.transitions.isEmpty }
        var failures: [(recognizer: String, transition: RenderModel.Transition)] = []
        for recognizer in engaged.prefix(RenderLimits.recognizerLanes) {
            let center = row + Self.laneHeight / 2
            line("<path d=\"M\(RenderText.coordinate(Self.margin)),\(RenderText.coordinate(row)) H\(RenderText.coordinate(Self.timelineRight))\" stroke=\"#eeeeee\"/>")
            text(Self.margin, center + 4, "\(RenderText.short(recognizer.id, 22)) ⟨\(recognizer.kind)⟩ on \(RenderText.short(recognizer.view, 16))", size: 10,
                 attributes: " class=\"recognizer-lane\"")
            drawLane(recognizer, center: center, failures: &failures)
            row += Self.laneHeight
        }
        if engaged.count > RenderLimits.recognizerLanes {
            text(Self.margin, row + 12, "\(engaged.count - RenderLimits.recognizerLanes) more recognizers with state changes not drawn", size: 10)
            row += Self.laneHeight
        }
        let idle = model.recognizers.filter { $0.transitions.isEmpty }.map(\.id)
        if !idle.isEmpty {
            let shown = idle.prefix(12).map { RenderText.short($0, 24) }.joined(separator: ", ")
            text(Self.margin, row + 14, "never left possible: \(shown)\(idle.count > 12 ? " and \(idle.count - 12) more" : "")", size: 10)
            row += Self.laneHeight
        }
        // Controls: a lane per control, in the order of their first event.
        var controlViews: [String] = []
        for control in model.controls where !controlViews.contains(control.view) { controlViews.append(control.view) }
        for view in controlViews {
            let center = row + Self.laneHeight / 2
            text(Self.margin, center + 4, "control \(RenderText.short(view, 28))", size: 10)
            // A label that would run into the one before it is left out (the mark keeps its title).
            var labelEnd = -Double.infinity
            for control in model.controls where control.view == view {
                let cx = timeX(control.time)
                line("<path d=\"M\(RenderText.coordinate(cx)),\(RenderText.coordinate(center - 5)) l-5,9 h10 z\" fill=\"#000000\">"
                    + "<title>\(RenderText.xml("\(control.event) (touch \(control.touch)) at \(RenderText.seconds(control.time)) s"))</title></path>")
                if cx + 6 >= labelEnd {
                    text(cx + 6, center + 2, control.event, size: 8)
                    labelEnd = cx + 6 + Double(control.event.count) * 5 + 4
                }
            }
            row += Self.laneHeight
        }
        // A hairline at each second-axis step down through the lanes.
        tick = 0
        while tick <= model.duration, row > laneTop {
            let tx = RenderText.coordinate(timeX(tick))
            line("<path d=\"M\(tx),\(RenderText.coordinate(laneTop)) V\(RenderText.coordinate(row))\" stroke=\"#000000\" stroke-opacity=\"0.08\"/>")
            tick += axisStep
        }
        // The failures, numbered as their marks.
        if !failures.isEmpty {
            row += 20
            text(Self.margin, row, "Failures (why; what else the replay reported at that instant)", size: 13, attributes: " font-weight=\"bold\"")
            row += 16
            for (number, failure) in failures.prefix(RenderLimits.failuresListed).enumerated() {
                let touches = failure.transition.touches.map(String.init).joined(separator: ", ")
                text(Self.margin, row, "✕\(number + 1) \(RenderText.short(failure.recognizer, 32)) failed at \(RenderText.seconds(failure.transition.time)) s"
                    + " (touches \(touches)): \(Self.why(failure.transition))", size: 10, attributes: " class=\"failure\"")
                row += 14
            }
            if failures.count > RenderLimits.failuresListed {
                text(Self.margin, row, "\(failures.count - RenderLimits.failuresListed) more failures (each marked in its lane)", size: 10)
                row += 14
            }
        }
        return row + 20
    }

    /// A recognizer's lane: `possible` from its touches' landing, the gesture under way, the end marks.
    private mutating func drawLane(_ recognizer: RenderModel.Recognizer, center: Double,
                                   failures: inout [(recognizer: String, transition: RenderModel.Transition)]) {
        var began: Int64?
        for transition in recognizer.transitions {
            let cx = timeX(transition.time)
            let landed = transition.touches.compactMap { id in model.touches.first { $0.id == id }?.began }.min()
            if began == nil, let landed, landed < transition.time {
                bar(from: landed, to: transition.time, center: center, height: 4, color: Self.possibleColor)
            }
            switch transition.state {
            case .began:
                began = transition.time
            case .changed, .possible:
                break
            case .ended, .recognized, .cancelled:
                if let start = began { bar(from: start, to: transition.time, center: center, height: 8, color: Self.activeColor) }
                began = nil
                let fill = transition.state == .cancelled ? Self.cancelledColor : Self.successColor
                let title = "\(recognizer.id) \(transition.state.rawValue) at \(RenderText.seconds(transition.time)) s"
                    + (transition.reason.map { ": " + $0 } ?? "")
                line("<path d=\"M\(RenderText.coordinate(cx)),\(RenderText.coordinate(center - 6)) l6,6 l-6,6 l-6,-6 z\" fill=\"\(fill)\">"
                    + "<title>\(RenderText.xml(title))</title></path>")
            case .failed:
                if let start = began { bar(from: start, to: transition.time, center: center, height: 8, color: Self.activeColor) }
                began = nil
                failures.append((recognizer.id, transition))
                let number = failures.count
                line("<path d=\"M\(RenderText.coordinate(cx - 4)),\(RenderText.coordinate(center - 4)) l8,8 m0,-8 l-8,8\" "
                    + "stroke=\"\(Self.failedColor)\" stroke-width=\"2\"><title>\(RenderText.xml("\(recognizer.id) failed: \(Self.why(transition))"))</title></path>")
                text(cx + 5, center - 3, "\(number)", size: 8, attributes: " fill=\"\(Self.failedColor)\"")
            }
        }
        if let start = began { bar(from: start, to: model.duration, center: center, height: 8, color: Self.activeColor) }
    }

    /// A failure's reason, then what else happened at that instant.
    private static func why(_ transition: RenderModel.Transition) -> String {
        [transition.reason, transition.context].compactMap { $0 }.joined(separator: "; ")
    }

    private mutating func bar(from start: Int64, to end: Int64, center: Double, height: Double, color: String) {
        line("<rect x=\"\(RenderText.coordinate(timeX(start)))\" y=\"\(RenderText.coordinate(center - height / 2))\" "
            + "width=\"\(RenderText.coordinate(max(timeX(end) - timeX(start), 1)))\" height=\"\(RenderText.coordinate(height))\" fill=\"\(color)\"/>")
    }
}
