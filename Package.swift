// swift-tools-version:6.0
// htlint reads Apache configuration, models Apache 2.4's request processing, simulates
// requests through the layers in front of the origin, and reports what it finds.
// Targets are listed bottom-up; each depends only on the ones above it.
import PackageDescription

// Hot modules skip run-time exclusivity checks in release builds (4% of a replayed chain);
// debug builds, which run the tests, keep them (docs/architecture.md).
let releaseSpeed: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "htlint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "htlint", targets: ["htlint"]),
        .executable(name: "htlint-bench", targets: ["htlint-bench"]),
    ],
    targets: [
        // C libraries from Debian, reached through system-library targets.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CGraphviz", pkgConfig: "libgvc", providers: [.apt(["libgraphviz-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libcurl is opened with dlopen by probe alone (its headers come from libcurl4-openssl-dev).
        .systemLibrary(name: "CCurl"),
        // glibc's malloc_trim: bulk replay gives the configuration reader's freed memory back.
        .systemLibrary(name: "CMalloc"),

        // Source positions, diagnostics and fix-its shared by every layer.
        .target(name: "HtlintDiagnostics"),
        // Apache works on bytes, Swift strings on Unicode: bytes that are not UTF-8 kept in strings.
        .target(name: "HtlintBytes", swiftSettings: releaseSpeed),
        // Apache configuration syntax: logical lines, tokenisers, sections → syntax tree.
        .target(name: "HtlintSyntax", dependencies: ["HtlintDiagnostics", "HtlintBytes"]),
        // PCRE2 with Apache's compile options; the only place with PCRE2 pointers.
        .target(name: "HtlintRegex", dependencies: ["CPCRE2", "HtlintBytes"], swiftSettings: releaseSpeed),
        // YAML documents (site descriptions, .htlint.yml) read with libyaml into plain values.
        .target(name: "HtlintYAML", dependencies: ["CYAML"]),
        // Page content: subresource URLs in HTML (libxml2's parser) and CSS, mixed-content classes.
        .target(name: "HtlintContent", dependencies: ["CLibXML2", "HtlintDiagnostics"]),
        // Apache itself: the typed directive model, read-time validation and the origin engine.
        .target(name: "HtlintApache", dependencies: ["HtlintBytes", "HtlintSyntax", "HtlintRegex"], swiftSettings: releaseSpeed),
        // Layers in front of the origin (browser, CDN, proxy) and the redirect-chain simulator.
        .target(name: "HtlintSimulation", dependencies: ["HtlintApache", "HtlintBytes"], swiftSettings: releaseSpeed),
        // The compiled rule graph as an artifact: all-URL loop analysis, dead rules, DOT/Mermaid/SVG.
        .target(name: "HtlintGraph", dependencies: ["HtlintSimulation", "HtlintBytes", "CGraphviz"]),
        // Lint rules over the model and simulations.
        .target(name: "HtlintRules", dependencies: ["HtlintSimulation", "HtlintContent", "HtlintGraph"]),
        // Output formats; depends on diagnostics only, never on rules.
        .target(name: "HtlintReporting", dependencies: ["HtlintDiagnostics"]),
        // The command line as a library function (testable without a process).
        .target(name: "HtlintCLI", dependencies: ["HtlintRules", "HtlintBytes", "HtlintReporting", "HtlintYAML", "CZlib", "CCurl", "CMalloc"]),
        .executableTarget(name: "htlint", dependencies: ["HtlintCLI"]),
        // `make bench`: replay and lint throughput on ../shared/bench workloads (release build).
        .executableTarget(name: "htlint-bench", dependencies: ["HtlintRules"]),

        .testTarget(name: "HtlintDiagnosticsTests", dependencies: ["HtlintDiagnostics"]),
        .testTarget(name: "HtlintSyntaxTests", dependencies: ["HtlintSyntax", "HtlintBytes"]),
        .testTarget(name: "HtlintRegexTests", dependencies: ["HtlintRegex", "HtlintBytes"]),
        .testTarget(name: "HtlintApacheTests", dependencies: ["HtlintApache"]),
        .testTarget(name: "HtlintSimulationTests", dependencies: ["HtlintSimulation"]),
        .testTarget(name: "HtlintYAMLTests", dependencies: ["HtlintYAML"]),
        .testTarget(name: "HtlintContentTests", dependencies: ["HtlintContent"]),
        .testTarget(name: "HtlintGraphTests", dependencies: ["HtlintGraph"]),
        .testTarget(name: "HtlintRulesTests", dependencies: ["HtlintRules"]),
        .testTarget(name: "HtlintReportingTests", dependencies: ["HtlintReporting", "HtlintTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "HtlintCLITests", dependencies: ["HtlintCLI", "HtlintTestSupport"], exclude: ["Golden", "Inputs"]),
        // Golden-file comparison shared by the test targets that check printed output.
        .target(name: "HtlintTestSupport", path: "Tests/HtlintTestSupport"),
    ]
)
