// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "gestured",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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

        // Linux headers the Glibc module leaves out (epoll, timerfd, signalfd, inotify).
        .systemLibrary(name: "CLinux"),

        // The pure engine: standard library only (no Foundation, Glibc or Dispatch).
        .target(name: "GestureCore"),

        // Configuration and layout files (JSON5) -> validated core values.
        .target(name: "GestureConfig", dependencies: ["GestureCore"]),

        // Recorded evdev logs (evemu, libinput record, evtest, getevent) and the evemu writer.
        .target(name: "Recordings", dependencies: ["GestureCore"]),

        // Thin, typed wrappers over the system calls the edges use: errors with errno and the
        // call's name, the monotonic clock, and an epoll event loop with a deadline timer.
        .target(name: "GestureSystem", dependencies: ["CLinux"]),

        // libevdev devices and libmtdev (protocol A) at the input edge.
        .target(name: "EvdevInput", dependencies: ["GestureCore", "GestureSystem", "CLibevdev", "CMtdev"]),

        // Drivers that run the engine: replay (and later the live loop and the socket server).
        .target(name: "GestureRuntime",
                dependencies: ["GestureCore", "GestureConfig", "Recordings", "EvdevInput", "GestureSystem"]),

        // The executable: argument parsing and wiring only.
        .executableTarget(
            name: "gestured",
            dependencies: [
                "GestureCore", "GestureConfig", "Recordings", "EvdevInput", "GestureRuntime", "GestureSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureCore"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "GestureCore"]),
        .testTarget(name: "EvdevInputTests", dependencies: ["EvdevInput", "GestureCore", "GestureSystem", "Recordings"]),
        .testTarget(name: "GestureSystemTests", dependencies: ["GestureSystem"]),
        .testTarget(name: "GestureRuntimeTests", dependencies: ["GestureRuntime", "GestureCore", "GestureConfig", "Recordings", "EvdevInput", "GestureSystem"]),
        .testTarget(name: "gesturedTests", dependencies: ["gestured"]),
    ],
    swiftLanguageModes: [.v6]
)
