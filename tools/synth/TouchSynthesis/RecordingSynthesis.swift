import GestureCore
import GestureSystem
import Recordings
import SystemPackage

/// A gesture script file rendered into an evemu recording: the script read, its panel's
/// description read (or gestured's own virtual panel, ``SyntheticPanel``, when it names none),
/// the touches synthesized, and the text `evemu-device`, `evemu-play` and `gestured replay`
/// read. No Foundation: `gestured synth` links this module.
public enum RecordingSynthesis {
    /// The evemu text for the script at `path`. The output names the script by its file name
    /// only, so a recording is the same whichever directory it was rendered from; `tool` is
    /// the program named in its header.
    public static func render(scriptAt path: String, tool: String = "gestured-synth") throws(ScriptError) -> String {
        let text = try readText(path, limit: GestureScript.maximumFileSize, what: "the script", in: path)
        return try render(scriptText: text, file: path, tool: tool)
    }

    /// The evemu text for a script's text; `file` is its path, for messages and for the
    /// panel's relative path.
    public static func render(scriptText text: String, file path: String, tool: String) throws(ScriptError) -> String {
        let script = try GestureScriptParser.parse(text, file: path)
        let panel: DeviceDescription
        if let name = script.panel {
            let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
            let panelPath = name.hasPrefix("/") ? name : directory + name
            let panelText = try readText(panelPath, limit: SyntheticPanel.maximumDescriptionSize, what: "the panel", in: path)
            panel = try description(RecordingSource(name: panelPath, text: panelText), script: path)
        } else {
            panel = try description(RecordingSource(name: "gestured's virtual panel", text: SyntheticPanel.description), script: path)
        }
        let events = try TouchSynthesizer.events(of: script, panel: panel, file: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let body = EvemuWriter.text(description: panel, events: events)
        precondition(body.hasPrefix(headerLine), "EvemuWriter no longer starts with \(headerLine)")
        return header(script: name, tool: tool) + body.dropFirst(headerLine.count)
    }

    /// Where the recording of the script at `path` goes: the same name with `.evemu`.
    public static func outputPath(forScript path: String) -> String {
        let slash = path.lastIndex(of: "/")
        if let dot = path.lastIndex(of: "."), slash.map({ $0 < dot }) ?? true, dot != path.startIndex,
           path[path.index(before: dot)] != "/" {
            return path[..<dot] + ".evemu"
        }
        return path + ".evemu"
    }

    private static func description(_ source: RecordingSource, script: String) throws(ScriptError) -> DeviceDescription {
        let recording: Recording
        do {
            recording = try RecordingReader.parse(source)
        } catch {
            throw ScriptError(file: script, line: nil, message: "cannot use the panel: \(error)")
        }
        guard let description = recording.description else {
            throw ScriptError(file: script, line: nil, message: "the panel file \(source.name) has no device description")
        }
        guard recording.events.isEmpty else {
            throw ScriptError(file: script, line: nil,
                              message: "the panel file \(source.name) has events; give a description only (evemu-describe's output)")
        }
        return description
    }

    /// The UTF-8 text of a regular file of at most `limit` bytes.
    static func readText(_ path: String, limit: Int, what: String, in script: String) throws(ScriptError) -> String {
        func failed(_ why: String) -> ScriptError {
            ScriptError(file: script, line: nil, message: path == script ? "cannot read the script: \(why)" : "cannot read \(what) \(path): \(why)")
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path: path, .readOnly)
        } catch {
            throw failed("\(error)")
        }
        defer { file.closeReleasing() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int?
            do {
                count = try file.readAvailable(into: &chunk, subject: path)
            } catch {
                throw failed("\(error)")
            }
            guard let count, count > 0 else { break }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { throw failed("it is longer than \(limit) bytes") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failed("it is not UTF-8 text") }
        return text
    }

    private static let headerLine = "# EVEMU \(EvemuVersion.current)\n"

    private static func header(script: String, tool: String) -> String {
        if tool == "gestured-synth" {
            return headerLine
                + "# Made by gestured-synth from \(script) (tools/synth/README.md).\n"
                + "# Do not edit: change the script and run scripts/recordings.sh.\n"
        }
        return headerLine + "# Made by \(tool) from \(script) (docs/command-line.md § synth).\n"
    }
}
