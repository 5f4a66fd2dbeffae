import Foundation
import GestureCore
import Recordings

/// A gesture script file rendered into an evemu recording: the script read, its panel's
/// description read, the touches synthesized, and the text `evemu-device`, `evemu-play` and
/// `gestured replay` read.
public enum RecordingSynthesis {
    /// The evemu text for the script at `path`. The output names the script by its file name
    /// only, so a recording is the same whichever directory it was rendered from.
    public static func render(scriptAt path: String) throws(ScriptError) -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScriptError(file: path, line: nil, message: "cannot read the script: \(error.localizedDescription)")
        }
        let script = try GestureScriptParser.parse(text, file: path)
        let directory = (path as NSString).deletingLastPathComponent
        let panelPath = script.panel.hasPrefix("/") ? script.panel : (directory as NSString).appendingPathComponent(script.panel)
        let panel: DeviceDescription
        do {
            let recording = try RecordingReader.read(path: panelPath)
            guard let description = recording.description else {
                throw ScriptError(file: path, line: nil, message: "the panel file \(panelPath) has no device description")
            }
            guard recording.events.isEmpty else {
                throw ScriptError(file: path, line: nil,
                                  message: "the panel file \(panelPath) has events; give a description only (evemu-describe's output)")
            }
            panel = description
        } catch let error as RecordingError {
            throw ScriptError(file: path, line: nil, message: "cannot use the panel: \(error)")
        } catch let error as ScriptError {
            throw error
        } catch {
            throw ScriptError(file: path, line: nil, message: "cannot use the panel: \(error)")
        }
        let events = try TouchSynthesizer.events(of: script, panel: panel, file: path)
        let name = (path as NSString).lastPathComponent
        let body = EvemuWriter.text(description: panel, events: events)
        precondition(body.hasPrefix(headerLine), "EvemuWriter no longer starts with \(headerLine)")
        return header(script: name) + body.dropFirst(headerLine.count)
    }

    /// Where the recording of the script at `path` goes: the same name with `.evemu`.
    public static func outputPath(forScript path: String) -> String {
        let base = (path as NSString).deletingPathExtension
        return base + ".evemu"
    }

    private static let headerLine = "# EVEMU \(EvemuVersion.current)\n"

    private static func header(script: String) -> String {
        headerLine
            + "# Made by gestured-synth from \(script) (tools/synth/README.md).\n"
            + "# Do not edit: change the script and run scripts/recordings.sh.\n"
    }
}
