/// The replay's data as `gestured render` embeds it in the SVG (`<script type="application/json"
/// id="gestured-replay">`, docs/render.md): the ``RenderModel`` written as JSON, one view,
/// touch, recognizer or control per line, in the model's order and with fixed number
/// formatting, so that a diff of two renders shows what changed.
enum RenderJSON {
    /// The format's name and version, the first member.
    static let format = "gestured-render/1"

    static func text(_ model: RenderModel) -> String {
        var lines: [String] = []
        lines.append("{\"format\":\(MapFragment.quoted(format)),\"configuration\":\(MapFragment.quoted(model.configuration)),"
            + "\"recording\":\(MapFragment.quoted(model.recording)),\"screen\":\(MapFragment.quoted(model.screenID)),"
            + "\"device\":\(MapFragment.quoted(model.device)),\"width\":\(number(model.screenSize.width)),"
            + "\"height\":\(number(model.screenSize.height)),\"duration\":\(model.duration),")
        lines.append("\"views\":[")
        lines += items(model.views.map { view in
            "{\"id\":\(MapFragment.quoted(view.id)),\"frame\":[\(number(view.frame.minX)),\(number(view.frame.minY)),"
                + "\(number(view.frame.size.width)),\(number(view.frame.size.height))],"
                + "\"kind\":\(view.isControl ? "\"control\"" : "\"view\""),\"hidden\":\(view.isHidden),"
                + "\"recognizers\":\(strings(view.recognizers.map(\.id)))}"
        })
        lines.append("],\"viewsLeftOut\":\(model.viewsLeftOut),")
        lines.append("\"touches\":[")
        lines += items(model.touches.map { touch in
            "{\"id\":\(touch.id),\"began\":\(touch.began),\"end\":\(touch.end.map(String.init) ?? "null"),"
                + "\"phase\":\(touch.endPhase.map(MapFragment.quoted) ?? "null"),"
                + "\"view\":\(touch.hitView.map(MapFragment.quoted) ?? "null"),\"responders\":\(strings(touch.responders)),"
                + "\"recognizers\":\(strings(touch.recognizers)),\"samples\":\(touch.samples),\"stride\":\(touch.stride),"
                + "\"points\":\(samples(touch.points)),\"tickInterval\":\(touch.tickInterval),\"ticks\":\(samples(touch.ticks))}"
        })
        lines.append("],\"touchesLeftOut\":\(model.touchesLeftOut),")
        lines.append("\"recognizers\":[")
        lines += items(model.recognizers.map { recognizer in
            "{\"id\":\(MapFragment.quoted(recognizer.id)),\"kind\":\(MapFragment.quoted(recognizer.kind)),"
                + "\"view\":\(MapFragment.quoted(recognizer.view)),\"transitions\":["
                + recognizer.transitions.map { transition in
                    "{\"time\":\(transition.time),\"state\":\"\(transition.state.rawValue)\",\"touches\":["
                        + transition.touches.map(String.init).joined(separator: ",") + "]"
                        + (transition.reason.map { ",\"reason\":" + MapFragment.quoted($0) } ?? "")
                        + (transition.context.map { ",\"context\":" + MapFragment.quoted($0) } ?? "") + "}"
                }.joined(separator: ",")
                + "],\"transitionsLeftOut\":\(recognizer.transitionsLeftOut)}"
        })
        lines.append("],")
        lines.append("\"controls\":[")
        lines += items(model.controls.map { control in
            "{\"time\":\(control.time),\"view\":\(MapFragment.quoted(control.view)),\"event\":\"\(control.event)\",\"touch\":\(control.touch)}"
        })
        lines.append("],\"controlsLeftOut\":\(model.controlsLeftOut),")
        lines.append("\"warnings\":[")
        lines += items(model.warnings.map { "{\"time\":\($0.time),\"message\":\(MapFragment.quoted($0.message))}" })
        lines.append("],\"warningsLeftOut\":\(model.warningsLeftOut)}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Positions and sizes with two decimals.
    private static func number(_ value: Double) -> String { RenderText.fixed(value, 2) }

    private static func strings(_ values: [String]) -> String {
        "[" + values.map(MapFragment.quoted).joined(separator: ",") + "]"
    }

    /// `[[time,x,y],…]`.
    private static func samples(_ values: [RenderModel.Sample]) -> String {
        "[" + values.map { "[\($0.time),\(number($0.location.x)),\(number($0.location.y))]" }.joined(separator: ",") + "]"
    }

    /// Items of an array, one per line, commas between.
    private static func items(_ values: [String]) -> [String] {
        values.enumerated().map { $0.offset < values.count - 1 ? $0.element + "," : $0.element }
    }
}
