#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FleetBridge
import GestureConfig
import GestureServer
import Logging

/// `gestured-mqtt`: gestured's events, layout and health on an MQTT broker, Home Assistant's
/// discovery and a Prometheus textfile (docs/fleet.md). A program of its own with its own
/// unit: the daemon keeps Unix sockets only. Argument parsing and wiring; the loop is
/// ``Sidecar``, the pure parts are `FleetBridge`.
@main
struct GesturedMQTT: ParsableCommand {
    static let version = "0.1.0"
    static let configuration = CommandConfiguration(
        commandName: "gestured-mqtt",
        abstract: "Publish gestured's gestures, layout and health to an MQTT broker.",
        discussion: """
            Subscribes to gestured's socket like any client and publishes under \
            <prefix>/<node>/ (availability, layout, health, view/<id>, command/result), with \
            Home Assistant discovery and a Prometheus textfile. The broker's username and \
            password are read from systemd credentials only ($CREDENTIALS_DIRECTORY/mqtt-username \
            and mqtt-password). SIGTERM or SIGINT publishes offline and exits 0; SIGHUP re-reads \
            gestured's layout for the discovery messages. A file or credential it cannot use \
            exits with status 78 (EX_CONFIG), on which the unit does not restart.
            """,
        version: version)

    /// sysexits.h's `EX_CONFIG`, as gestured and gestured-web exit on a configuration error: the
    /// unit does not restart on it (`RestartPreventExitStatus=78`), since the files are the same.
    static let configurationError = ExitCode(78)

    @Option(help: "gestured's configuration file (socket.path, and the layout announced to Home Assistant).")
    var config: String = Configuration.defaultPath

    @Option(name: .customLong("mqtt-config"), help: "gestured-mqtt's own file (broker, topics, events, metrics).")
    var mqttConfig: String = "/etc/gestured/mqtt.json5"

    @Option(help: ArgumentHelp("gestured's socket instead of socket.path.", valueName: "path"))
    var socket: String?

    @Flag(name: .customLong("check"), help: "Check both files and the credentials, print the settings and exit.")
    var check = false

    func run() throws {
        let configuration: Configuration
        do {
            configuration = try ConfigurationLoader.load(path: config)
        } catch {
            printError(error.description)
            throw Self.configurationError
        }
        var settings: FleetSettings
        do {
            let text = try readFile(mqttConfig)
            settings = try FleetSettingsReader.read(text, file: mqttConfig,
                                                    defaultNode: FleetSettingsReader.nodeID(fromHostName: hostName()))
        } catch let failure as FleetSettingsReader.Failure {
            printError(failure.description)
            throw Self.configurationError
        } catch {
            // Its own file missing or unreadable: a configuration error too (the unit needs it).
            printError("gestured-mqtt: \(error)")
            throw Self.configurationError
        }
        // Under the unit (RuntimeDirectory=gestured-mqtt), the file goes where node-exporter finds
        // it through the package's link, unless the file names a directory (docs/fleet.md).
        if !settings.metricsDirectoryIsSet, let runtime = getenv("RUNTIME_DIRECTORY").map({ String(cString: $0) }),
           !runtime.isEmpty {
            settings.metricsDirectory = String(runtime.split(separator: ":").first ?? Substring(runtime))
        }
        let credentials: FleetCredentials
        do {
            credentials = try FleetCredentials.load()
        } catch {
            printError("gestured-mqtt: \(error)")
            throw Self.configurationError
        }
        let views = Discovery.views(of: configuration.layout, settings: settings)
        let socketPath = socket ?? configuration.socket.path
        if check {
            print("gestured-mqtt: \(mqttConfig) is valid: broker \(settings.broker), topics \(settings.prefix)/\(settings.node)/, "
                  + "\(views.count) views announced, credentials: \(credentials.username == nil ? "none" : "username and password")")
            return
        }
        JournalLogHandler.bootstrap()
        let logger = Logger(label: "gestured-mqtt")
        signal(SIGPIPE, SIG_IGN)
        let tracker = FleetTracker(settings: settings, startedAt: 0)
        let client: MosquittoClient
        do {
            client = try MosquittoClient(clientID: settings.clientID ?? String("gestured-mqtt-\(settings.node)".prefix(23)),
                                         settings: settings, username: credentials.username,
                                         password: credentials.password, will: tracker.availability(false))
        } catch {
            printError("gestured-mqtt: \(error)")
            throw ExitCode.failure
        }
        let sidecar = try Sidecar(settings: settings, socketPath: socketPath, discoveryViews: views, client: client,
                                  logger: logger, version: Self.version)
        logger.info("starting", metadata: ["broker": "\(settings.broker)", "topics": "\(settings.prefix)/\(settings.node)",
                                           "socket": "\(socketPath)", "views": "\(views.count)",
                                           "tls": "\(settings.tls != nil)", "credentials": "\(credentials.username != nil)"])
        let configPath = config, announced = settings
        try sidecar.run(stopSignals: [SIGTERM, SIGINT], reloadSignal: SIGHUP) {
            do {
                let configuration = try ConfigurationLoader.load(path: configPath)
                let views = Discovery.views(of: configuration.layout, settings: announced)
                logger.info("configuration re-read: discovery sent again", metadata: ["views": "\(views.count)"])
                return views
            } catch {
                logger.error("the configuration was not re-read; discovery unchanged", metadata: ["problems": "\(error)"])
                return nil
            }
        }
    }
}

/// The broker's username and password, from systemd credentials only
/// (`LoadCredential=mqtt-username:…`, `mqtt-password`; docs/fleet.md, "Credentials").
struct FleetCredentials {
    var username: String?
    var password: String?

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func load() throws(Failure) -> FleetCredentials {
        guard let directory = getenv("CREDENTIALS_DIRECTORY").map({ String(cString: $0) }) else {
            return FleetCredentials()
        }
        func credential(_ name: String) throws(Failure) -> String? {
            let path = "\(directory)/\(name)"
            guard access(path, F_OK) == 0 else { return nil }
            do {
                var text = try readFile(path)
                while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
                guard text.utf8.count <= 65535 else { throw Failure(description: "\(path): longer than MQTT allows") }
                return text
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(description: "\(path): \(error)")
            }
        }
        let username = try credential("mqtt-username")
        let password = try credential("mqtt-password")
        if password != nil && username == nil {
            throw Failure(description: "\(directory)/mqtt-password is given without mqtt-username")
        }
        return FleetCredentials(username: username, password: password)
    }
}

struct FileFailure: Error, CustomStringConvertible { var description: String }

/// A small text file (the settings, a credential), at most 1 MiB.
func readFile(_ path: String) throws -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw FileFailure(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw FileFailure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        if count == 0 { break }
        bytes += buffer[..<count]
        guard bytes.count <= 1 << 20 else { throw FileFailure(description: "\(path) is over 1 MiB") }
    }
    return String(decoding: bytes, as: UTF8.self)
}

func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "kiosk" }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = write(2, line, line.count)
}
