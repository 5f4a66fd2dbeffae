import Foundation
import Testing
import TestSupport
import TouchSynthesis

/// The project's own recordings are what their scripts render today: a change to a script, a
/// panel or the synthesizer that is not followed by `scripts/recordings.sh` fails here.
@Suite("Committed recordings")
struct CommittedRecordingsTests {
    /// Every gesture script of the repository, relative to the package root.
    static let scripts: [String] = ["config/recordings", "Tests/Fixtures/recordings", "tools/boottest"].flatMap { directory in
        ((try? FileManager.default.contentsOfDirectory(atPath: PackagePaths.root + "/" + directory)) ?? [])
            .filter { $0.hasSuffix(".touches") }.sorted().map { directory + "/" + $0 }
    }

    @Test func thereAreScripts() {
        #expect(Self.scripts.contains("config/recordings/lobby-session.touches"))
        #expect(Self.scripts.contains("tools/boottest/browser-session.touches"))
        #expect(Self.scripts.count >= 6)
    }

    @Test(arguments: scripts)
    func recordingEqualsAFreshRendering(_ script: String) throws {
        let path = PackagePaths.root + "/" + script
        let rendered = try RecordingSynthesis.render(scriptAt: path)
        let committed = try #require(FileManager.default.contents(atPath: RecordingSynthesis.outputPath(forScript: path)),
                                     "no recording beside \(script); run scripts/recordings.sh")
        #expect(String(decoding: committed, as: UTF8.self) == rendered,
                "\(script) renders differently from its committed recording; run scripts/recordings.sh")
    }

    /// Every recording in config/recordings comes from a script there: nothing else is bundled.
    @Test func everyBundledRecordingHasItsScript() throws {
        let directory = PackagePaths.root + "/config/recordings"
        let recordings = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".evemu") }
        #expect(!recordings.isEmpty)
        for recording in recordings {
            let script = (recording as NSString).deletingPathExtension + ".touches"
            #expect(FileManager.default.fileExists(atPath: directory + "/" + script), "\(recording) has no script")
        }
    }

    @Test func renderingDoesNotDependOnTheDirectoryItRunsFrom() throws {
        let path = PackagePaths.recording("one-finger-taps.touches")
        let text = try RecordingSynthesis.render(scriptAt: path)
        #expect(!text.contains(PackagePaths.root))
        #expect(text.hasPrefix("# EVEMU 1.3\n# Made by gestured-synth from one-finger-taps.touches "))
    }
}
