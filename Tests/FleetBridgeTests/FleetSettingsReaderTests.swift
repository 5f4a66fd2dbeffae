import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import FleetBridge

/// gestured-mqtt's file: defaults, every section read, and the problems named by file, line,
/// column and key path, credentials refused wherever they are written.
struct FleetSettingsReaderTests {
    @Test func emptyFileGivesTheDefaults() throws {
        let settings = try FleetSettingsReader.read("{}", file: "mqtt.json5", defaultNode: "lobby-1")
        #expect(settings.broker == .tcp(host: "localhost", port: 1883))
        #expect(settings.prefix == "gestured")
        #expect(settings.node == "lobby-1")
        #expect(settings.queueLimit == 1000)
        #expect(settings.healthInterval == 60)
        #expect(settings.discoveryPrefix == "homeassistant")
        #expect(settings.metricsDirectory == "/var/lib/prometheus/node-exporter")
        #expect(settings.tls == nil)
    }

    @Test func everySectionIsRead() throws {
        let text = """
            {
              broker: { host: "broker.lan", port: 8883, keepalive: 20, clientId: "k1",
                        tls: { ca: "/etc/ssl/ca.pem", certificate: "/etc/c.pem", key: "/etc/k.pem" } },
              topics: { prefix: "site/lobby", node: "kiosk-7" },
              events: { views: ["buy*"], recognizers: ["*Tap"], gestureStates: ["recognized"], controlEvents: ["touchDown"] },
              health: { interval: 5 },
              queue: { limit: 10 },
              homeAssistant: { discovery: false },
              metrics: { directory: "/tmp/prom", interval: 2 },
              commands: { enabled: false },
            }
            """
        let settings = try FleetSettingsReader.read(text, file: "m.json5", defaultNode: "x")
        #expect(settings.broker == .tcp(host: "broker.lan", port: 8883))
        #expect(settings.tls == FleetSettings.TLS(caFile: "/etc/ssl/ca.pem", certificateFile: "/etc/c.pem", keyFile: "/etc/k.pem"))
        #expect(settings.keepalive == 20 && settings.clientID == "k1")
        #expect(settings.prefix == "site/lobby" && settings.node == "kiosk-7")
        #expect(settings.views == ["buy*"] && settings.recognizers == ["*Tap"])
        #expect(settings.gestureStates == ["recognized"] && settings.controlEvents == ["touchDown"])
        #expect(settings.healthInterval == 5 && settings.queueLimit == 10)
        #expect(settings.discoveryPrefix == nil)
        #expect(settings.metricsDirectory == "/tmp/prom" && settings.metricsInterval == 2)
        #expect(settings.commandsEnabled == false)
    }


    @Test(arguments: [
        ("{broker: {password: 'x'}}", "m.json5:1:11: broker.password: credentials are never read from the configuration file; give them to the unit as systemd credentials mqtt-username and mqtt-password (LoadCredential=, docs/fleet.md)"),
        ("{username: 'x'}", "m.json5:1:2: username: credentials are never read from the configuration file; give them to the unit as systemd credentials mqtt-username and mqtt-password (LoadCredential=, docs/fleet.md)"),
        ("{broker: {port: 70000}}", "m.json5:1:11: broker.port: expected an integer from 1 to 65535, found 70000"),
        ("{queue: {limit: 0}}", "m.json5:1:10: queue.limit: expected an integer from 1 to 100000, found 0"),
        ("{health: {interval: 1}}", "m.json5:1:11: health.interval: expected an integer from 5 to 3600, found 1"),
        ("{topics: {prefix: 'a/#'}}", "m.json5:1:11: topics.prefix: \"a/#\" is not a topic prefix: no +, #, control characters, empty levels, or / at either end"),
        ("{topics: {node: 'a b'}}", "m.json5:1:11: topics.node: \"a b\" may hold only letters, digits, _ and - (it names topics and Home Assistant's ids)"),
        ("{events: {gestureStates: ['done']}}", "m.json5:1:27: events.gestureStates[0]: \"done\" is not one of began, changed, ended, cancelled, recognized"),
        ("{brokr: {}}", "m.json5:1:2: brokr: unknown key; allowed here: broker, topics, events, health, queue, homeAssistant, metrics, commands"),
        ("{broker: {tls: {}}}", "m.json5:1:11: broker.tls: needs \"ca\": the CA file that signed the broker's certificate"),
        ("{metrics: {directory: 'prom'}}", "m.json5:1:12: metrics.directory: expected an absolute path, found \"prom\""),
        ("{broker: {socket: '/s'}}", "m.json5:1:11: broker.socket: libmosquitto 2.0 (Debian 12's) connects to a host and port only; run the broker with a loopback listener (listener 1883 127.0.0.1) and give host and port"),
    ])
    func problemsNameFileLineAndKeyPath(text: String, message: String) {
        #expect(throws: FleetSettingsReader.Failure(problems: [message])) {
            try FleetSettingsReader.read(text, file: "m.json5", defaultNode: "x")
        }
    }

    @Test func syntaxErrorsNameTheFile() {
        do {
            _ = try FleetSettingsReader.read("{", file: "m.json5", defaultNode: "x")
            Issue.record("a broken file was accepted")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems[0].hasPrefix("m.json5:1:"))
        }
    }

    @Test func hostNamesBecomeNodeIDs() {
        #expect(FleetSettingsReader.nodeID(fromHostName: "kiosk.lobby") == "kiosk_lobby")
        #expect(FleetSettingsReader.nodeID(fromHostName: "") == "kiosk")
    }
}

extension FleetSettingsReader.Failure: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.problems == b.problems }
}

/// The sample users copy (examples/mqtt/mqtt.json5) must be valid.
struct FleetSampleFileTests {
    @Test func theSampleIsValid() throws {
        let path = PackagePaths.root + "/examples/mqtt/mqtt.json5"
        let text = try String(decoding: #require(FileManagerless.read(path)), as: UTF8.self)
        let settings = try FleetSettingsReader.read(text, file: path, defaultNode: "x")
        #expect(settings.node == "lobby-1")
        #expect(settings.tls?.caFile == "/etc/gestured/broker-ca.pem")
    }
}

/// Reads a small file without Foundation.
enum FileManagerless {
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}
