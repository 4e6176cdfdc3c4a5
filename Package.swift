// swift-tools-version:6.0
// htlint reads Apache configuration, models Apache 2.4's request processing, simulates
// requests through the layers in front of the origin, and reports what it finds.
// Targets are listed bottom-up; each depends only on the ones above it.
import PackageDescription

let package = Package(
    name: "htlint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "htlint", targets: ["htlint"]),
    ],
    targets: [
        // C libraries from Debian, reached through system-library targets.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),

        // Source positions, diagnostics and fix-its shared by every layer.
        .target(name: "HtlintDiagnostics"),
        // Apache configuration syntax: logical lines, tokenisers, sections → syntax tree.
        .target(name: "HtlintSyntax", dependencies: ["HtlintDiagnostics"]),
        // PCRE2 with Apache's compile options; the only place with C pointers.
        .target(name: "HtlintRegex", dependencies: ["CPCRE2"]),
        // Apache itself: the typed directive model, read-time validation and the origin engine.
        .target(name: "HtlintApache", dependencies: ["HtlintSyntax", "HtlintRegex"]),
        // Layers in front of the origin (browser, CDN, proxy) and the redirect-chain simulator.
        .target(name: "HtlintSimulation", dependencies: ["HtlintApache"]),
        // Lint rules over the model and simulations.
        .target(name: "HtlintRules", dependencies: ["HtlintSimulation"]),
        // Output formats; depends on diagnostics only, never on rules.
        .target(name: "HtlintReporting", dependencies: ["HtlintDiagnostics"]),
        // The command line as a library function (testable without a process).
        .target(name: "HtlintCLI", dependencies: ["HtlintRules", "HtlintReporting"]),
        .executableTarget(name: "htlint", dependencies: ["HtlintCLI"]),

        .testTarget(name: "HtlintDiagnosticsTests", dependencies: ["HtlintDiagnostics"]),
        .testTarget(name: "HtlintSyntaxTests", dependencies: ["HtlintSyntax"]),
        .testTarget(name: "HtlintRegexTests", dependencies: ["HtlintRegex"]),
        .testTarget(name: "HtlintApacheTests", dependencies: ["HtlintApache"]),
        .testTarget(name: "HtlintSimulationTests", dependencies: ["HtlintSimulation"]),
        .testTarget(name: "HtlintCLITests", dependencies: ["HtlintCLI"]),
    ]
)
