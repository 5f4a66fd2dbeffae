// swift-tools-version: 6.1
// Performance benchmarks for gestured (issue 7), in a package of their own so that the
// benchmark harness and its dependencies never slow down the main build and test run.
// Run them with scripts/bench.sh from the repository root.
import PackageDescription

let package = Package(
    name: "gestured-benchmarks",
    dependencies: [
        // Named explicitly: a path dependency's identity is otherwise its folder's name, which
        // differs between clones.
        .package(name: "gestured", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GestureCore", package: "gestured"),
                .product(name: "GestureConfig", package: "gestured"),
                .product(name: "Recordings", package: "gestured"),
                .product(name: "GestureRuntime", package: "gestured"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Linked by lld, as the main package links every program it builds (its Package.swift).
for target in package.targets where target.type == .executable || target.type == .test {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
}
