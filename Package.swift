// swift-tools-version: 6.1
import PackageDescription

/// swift-system's typed descriptors and errno, for the modules at the system edge.
let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        // The web bridge (docs/web.md): a program of its own, so SwiftNIO never reaches the daemon.
        .executable(name: "gestured-web", targets: ["gestured-web"]),
        // Libraries for the benchmark package in Benchmarks/ (kept separate so its dependencies
        // never slow down the main build and tests).
        .library(name: "GestureCore", targets: ["GestureCore"]),
        .library(name: "GestureConfig", targets: ["GestureConfig"]),
        .library(name: "Recordings", targets: ["Recordings"]),
        .library(name: "GestureRuntime", targets: ["GestureRuntime"]),
    ],
    dependencies: [
        // Command lines of gestured-web and gestured-synth (gestured has its own parser).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Typed descriptors and errno (FileDescriptor, Errno) under GestureSystem's wrappers.
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // The web bridge's HTTP and WebSocket server; chosen by build time, binary size and
        // memory (docs/web.md). Only the WebBridge and gestured-web targets use it.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // C libraries at the edge, from Debian's -dev packages.
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CMtdev",
            pkgConfig: "mtdev",
            providers: [.apt(["libmtdev-dev"])]
        ),
        // zlib, for the web bridge's gzipped client module.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // Linux headers the Glibc module leaves out (epoll, timerfd, signalfd, inotify).
        .systemLibrary(name: "CLinux"),

        // The pure engine: standard library only (no Foundation, Glibc or Dispatch).
        // Double.rounded() and squareRoot() compile to libm calls; say so, or a program that links
        // only the core fails to link.
        .target(name: "GestureCore", linkerSettings: [.linkedLibrary("m")]),

        // Configuration and layout files (JSON5) -> validated core values.
        .target(name: "GestureConfig", dependencies: ["GestureCore"]),

        // Recorded evdev logs (evemu, libinput record, evtest, getevent) and the evemu writer.
        .target(name: "Recordings", dependencies: ["GestureCore"]),

        // The one layer of system calls: typed wrappers on swift-system's FileDescriptor and Errno
        // (errors with errno and the call's name, EINTR retried), Unix sockets, the monotonic
        // clock and timers, and an epoll event loop.
        .target(name: "GestureSystem",
                dependencies: ["CLinux", systemPackage]),

        // libevdev devices and libmtdev (protocol A) at the input edge.
        .target(name: "EvdevInput", dependencies: ["GestureCore", "GestureSystem", "CLibevdev", "CMtdev", "CLinux",
                                                   systemPackage]),

        // The socket protocol for clients (docs/protocol.md), client sessions, access control, sd_notify.
        .target(name: "GestureServer",
                dependencies: ["GestureCore", "GestureConfig", "GestureSystem",
                               .product(name: "Logging", package: "swift-log"), systemPackage]),

        // Drivers that run the engine: replay (to stdout or to socket subscribers), the live loop.
        .target(name: "GestureRuntime",
                dependencies: ["GestureCore", "GestureConfig", "Recordings", "EvdevInput", "GestureSystem",
                               "GestureServer", .product(name: "Logging", package: "swift-log")]),

        // The bodies of the fuzz targets (scripts/fuzz.sh builds them with libFuzzer).
        .target(name: "FuzzTargets", dependencies: ["GestureCore", "GestureConfig", "GestureServer", "Recordings",
                                                    "GestureRuntime"]),

        // The daemon's command-line parser: declared arguments -> parsing, help, usage errors and
        // the man page's JSON, with the interface swift-argument-parser gave gestured, in a
        // fraction of its size and start-up time (docs/decisions.md). Standard library only.
        .target(name: "CommandLineParsing"),

        // The executable: argument parsing and wiring, and the loops of the commands that need no
        // engine (`record`, `tail`; docs/architecture.md).
        .executableTarget(
            name: "gestured",
            dependencies: [
                "GestureCore", "GestureConfig", "Recordings", "EvdevInput", "GestureRuntime", "GestureSystem",
                "GestureServer", "CommandLineParsing", "TouchSynthesis", .product(name: "Logging", package: "swift-log"),
                systemPackage,
            ]
        ),

        // Renders gesture scripts into evemu recordings of a virtual panel: the project's own demo
        // and test recordings (tools/synth/README.md; scripts/recordings.sh regenerates them) with
        // the developer tool gestured-synth, and a web page's tests with `gestured synth`.
        .target(name: "TouchSynthesis", dependencies: ["GestureCore", "Recordings", "GestureSystem", systemPackage],
                path: "tools/synth/TouchSynthesis"),
        .executableTarget(
            name: "gestured-synth",
            dependencies: ["TouchSynthesis", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "tools/synth/gestured-synth"
        ),

        // Where the tests find the project's files and the external corpus of real recordings
        // ($GESTURED_RECORDINGS; its suites are skipped without it, and fail under CI=true).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The web bridge (docs/web.md): one daemon session per WebSocket, origins, token, limits.
        // The client module web/dist/gestured.min.js and its source map are embedded at build time
        // by EmbedClientModule.
        .target(name: "WebBridge",
                dependencies: ["GestureCore", "GestureConfig", "GestureServer", "CZlib",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio")],
                plugins: ["EmbedClientModule"]),
        .executableTarget(
            name: "gestured-web",
            dependencies: ["WebBridge", "GestureConfig", "GestureServer",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Build-time tool and plugin that turn web/dist/gestured.min.js and its map into Swift string literals.
        .executableTarget(name: "embed-text", path: "Plugins/embed-text"),
        .plugin(name: "EmbedClientModule", capability: .buildTool(), dependencies: ["embed-text"]),

        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore", "TestSupport"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureCore"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "GestureCore", "TestSupport"]),
        .testTarget(name: "EvdevInputTests", dependencies: ["EvdevInput", "GestureCore", "GestureSystem", "Recordings", systemPackage]),
        .testTarget(name: "GestureSystemTests", dependencies: ["GestureSystem", systemPackage]),
        .testTarget(name: "GestureRuntimeTests",
                    dependencies: ["GestureRuntime", "GestureCore", "GestureConfig", "Recordings", "EvdevInput", "GestureSystem",
                                   "GestureServer", "TestSupport", .product(name: "Logging", package: "swift-log"), systemPackage]),
        .testTarget(name: "gesturedTests", dependencies: ["gestured", "TestSupport"]),
        .testTarget(name: "CommandLineParsingTests", dependencies: ["CommandLineParsing"]),
        .testTarget(name: "GestureServerTests",
                    dependencies: ["GestureServer", "GestureCore", "GestureConfig", "GestureSystem", "TestSupport", systemPackage,
                                   .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TouchSynthesisTests",
                    dependencies: ["TouchSynthesis", "Recordings", "GestureCore", "TestSupport"]),
        // Starts the real gestured binary on temporary sockets and drives it with real clients.
        .testTarget(name: "DaemonIntegrationTests", dependencies: ["gestured", "GestureConfig", "TestSupport"]),
        .testTarget(name: "WebBridgeTests", dependencies: ["WebBridge", "gestured-web", "gestured", "GestureConfig", "GestureServer",
                                                           "CZlib", .product(name: "Logging", package: "swift-log"),
                                                           .product(name: "NIOCore", package: "swift-nio"),
                                                           .product(name: "NIOEmbedded", package: "swift-nio"),
                                                           .product(name: "NIOWebSocket", package: "swift-nio")],
                    exclude: ["web"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every program the package links (the executables, the build tool embed-text, the test bundle)
// is linked by lld, the linker of the toolchain's own LLVM, instead of the gold that swiftc picks
// on Linux: gold is unmaintained and once crashed linking embed-text in a release build
// (docs/decisions.md, "One linker: lld"). Set here for every such target, those to come too.
for target in package.targets where target.type == .executable || target.type == .test {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
}
