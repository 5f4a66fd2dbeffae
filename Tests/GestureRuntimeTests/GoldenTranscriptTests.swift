import Foundation
import TestSupport
import Testing

/// One golden transcript: a recording replayed with `--trace` through one configuration, and
/// the file that holds what the replay must print (Tests/Golden/recordings.txt lists them;
/// scripts/golden.sh regenerates them).
struct GoldenCase: Sendable, CustomTestStringConvertible {
    let recording: String
    let events: String?
    let force: Bool
    let config: String
    let golden: String
    /// With `panel` in the manifest: the virtual panel's evemu recording the replay must write.
    let panelGolden: String?
    /// The recording lives in the external corpus, which a plain clone does not have.
    let fromCorpus: Bool

    var testDescription: String { "\(URL(fileURLWithPath: recording).lastPathComponent) through \(config)" }

    /// Every case of the manifest, one per recording and configuration.
    static let all: [GoldenCase] = {
        let root = TestPaths.packageRoot
        let manifest = (try? String(contentsOfFile: root + "/Tests/Golden/recordings.txt", encoding: .utf8)) ?? ""
        let samples = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/config")) ?? [])
            .filter { $0.hasSuffix(".json5") }.sorted().map { "config/" + $0 }
        var cases: [GoldenCase] = []
        for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 2 else { continue }
            let fromCorpus = words[0] == "corpus"
            let directory = fromCorpus ? RecordingCorpus.directory : root
            var events: String?, force = false, only: String?, panel = false
            for word in words.dropFirst(2) {
                if word == "force" {
                    force = true
                } else if word == "panel" {
                    panel = true
                } else if word.hasPrefix("config=") {
                    only = String(word.dropFirst(7))
                } else {
                    events = word
                }
            }
            let name = URL(fileURLWithPath: words[1]).lastPathComponent
            for config in only.map({ [$0] }) ?? samples {
                let stem = URL(fileURLWithPath: config).deletingPathExtension().lastPathComponent
                cases.append(GoldenCase(recording: directory + "/" + words[1], events: events.map { directory + "/" + $0 },
                                        force: force, config: root + "/" + config,
                                        golden: root + "/Tests/Golden/\(name)/\(stem).jsonl",
                                        panelGolden: panel ? root + "/Tests/Golden/\(name)/\(stem).panel.evemu" : nil,
                                        fromCorpus: fromCorpus))
            }
        }
        return cases
    }()
}

/// Every recording the tests use, replayed through every sample layout, must print exactly its
/// committed transcript: a behaviour change shows up as a diff of Tests/Golden/ in review
/// instead of passing unnoticed (issue 10). After a deliberate change, run scripts/golden.sh
/// and commit the diff with the reason.
@Suite("Golden transcripts")
struct GoldenTranscriptTests {
    @Test func theManifestListsCasesForEveryRecordingAndLayout() {
        #expect(GoldenCase.all.count >= 100)
        #expect(GoldenCase.all.contains { !$0.fromCorpus }, "the repository's own recordings are covered too")
    }

    @Test(arguments: GoldenCase.all)
    func replayMatchesItsTranscript(_ c: GoldenCase) throws {
        guard FileManager.default.fileExists(atPath: c.recording) else {
            // A corpus file: skipped without the corpus, an error under CI (RecordingCorpus).
            if RecordingCorpus.isRequired || RecordingCorpus.isPresent {
                Issue.record("\(c.recording) is missing: \(RecordingCorpus.missingUnderCI)")
            } else {
                print("skipped: \(RecordingCorpus.skipNote)")
            }
            return
        }
        let output = try ReplayOutput(recording: c.recording, events: c.events, config: c.config, tracing: true,
                                      allowNonTouchscreen: c.force)
        if let panelGolden = c.panelGolden {
            let expected = try #require(FileManager.default.contents(atPath: panelGolden),
                                        "no panel recording \(panelGolden): run scripts/golden.sh")
            let written = try #require(output.panel, "the configuration routes no touches")
            Self.compare(written, Array(expected), file: panelGolden)
        }
        let expected = try #require(FileManager.default.contents(atPath: c.golden),
                                    "no transcript \(c.golden): run scripts/golden.sh")
        Self.compare(output.bytes, Array(expected), file: c.golden)
    }

    /// Records where `got` and `want` part, so the failure reads like a diff.
    static func compare(_ got: [UInt8], _ want: [UInt8], file: String) {
        guard got != want else { return }
        let gotLines = String(decoding: got, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let wantLines = String(decoding: want, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(gotLines, wantLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(gotLines.count, wantLines.count)
        Issue.record("""
            \(file) differs from the replay at line \(line + 1) (run scripts/golden.sh if the change is deliberate):
            - \(line < wantLines.count ? String(wantLines[line]) : "<end>")
            + \(line < gotLines.count ? String(gotLines[line]) : "<end>")
            """)
    }
}
