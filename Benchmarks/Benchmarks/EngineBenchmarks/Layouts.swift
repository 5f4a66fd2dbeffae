import GestureCore

/// Layouts built in code for the benchmarks.
enum BenchmarkLayouts {
    /// A 1920 x 1080 screen of 100 panels (10 x 10), each with 9 tiles: 1,001 views. 50
    /// recognizers: every other panel has a pan, and every fourth one also a double tap whose
    /// single tap requires it to fail, so arbitration has real work.
    static func kiosk() -> ViewTree {
        var panels: [ViewSpec] = []
        var recognizers = 0
        for row in 0..<10 {
            for column in 0..<10 {
                let index = row * 10 + column
                var tiles: [ViewSpec] = []
                for tile in 0..<9 {
                    tiles.append(ViewSpec(id: "tile\(index)-\(tile)",
                                          frame: Rect(x: Double(tile % 3) * 64, y: Double(tile / 3) * 36,
                                                      width: 60, height: 32)))
                }
                var panel = ViewSpec(id: "panel\(index)",
                                     frame: Rect(x: Double(column) * 192, y: Double(row) * 108, width: 192, height: 108),
                                     subviews: tiles, multipleTouchEnabled: true)
                if index % 2 == 0 && recognizers < 50 {
                    panel.recognizers.append(RecognizerSpec(id: "pan\(index)", kind: .pan))
                    recognizers += 1
                }
                if index % 4 == 0 && recognizers < 50 {
                    panel.recognizers.append(RecognizerSpec(id: "double\(index)", kind: .tap,
                                                            parameters: RecognizerParameters(["taps": 2])))
                    recognizers += 1
                }
                panels.append(panel)
            }
        }
        return try! ViewTree(root: ViewSpec(id: "screen", frame: Rect(x: 0, y: 0, width: 1920, height: 1080),
                                            subviews: panels))
    }

    /// A tree of `fanout`-ary views `depth` levels deep under the root. The benchmark's point lies
    /// in the back-most view of each level, so a hit test visits every sibling on the way down:
    /// its cost is depth × fanout, whatever the tree's size.
    static func balanced(fanout: Int, depth: Int) -> ViewTree {
        var counter = 0
        func level(_ remaining: Int, size: Double) -> [ViewSpec] {
            guard remaining > 0 else { return [] }
            return (0..<fanout).map { index in
                counter += 1
                // Siblings overlap entirely; the front-most ones are hidden behind `index`.
                // Only the back-most (index 0) contains the point, the others are shifted away.
                let offset = index == 0 ? 0.0 : size
                return ViewSpec(id: "v\(counter)", frame: Rect(x: offset, y: 0, width: size, height: size),
                                subviews: level(remaining - 1, size: size / 2))
            }
        }
        return try! ViewTree(root: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 4096, height: 4096),
                                            subviews: level(depth, size: 2048)))
    }
}
