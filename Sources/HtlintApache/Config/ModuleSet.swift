/// The Apache modules a simulated server has loaded. `<IfModule>` tests and directive lookups
/// depend on it: a directive of a module that is not loaded is an unknown directive.
public struct ModuleSet: Sendable, Hashable {
    /// Short names (`rewrite`, `alias`, …).
    public private(set) var names: Set<String> {
        didSet { asked = ModuleSet.askedBits(names) }
    }
    /// The modules the engine asks about on every request, one bit each: a string hash per
    /// question cost 1% of a replayed chain.
    private var asked: UInt16

    public init(_ names: some Sequence<String>) {
        self.names = Set(names.map(ModuleSet.shortName))
        asked = ModuleSet.askedBits(self.names)
    }

    private static func askedBits(_ names: Set<String>) -> UInt16 {
        names.reduce(0) { bits, name in bits | (askedBit(name) ?? 0) }
    }

    /// The bit of a module the engine asks about on every request (by short name): by length
    /// first, then one comparison of a short literal, no hashing (a switch over all ten names
    /// compared strings nine times for a module that is none of them).
    private static func askedBit(_ module: String) -> UInt16? {
        func bit(_ name: String, _ b: UInt16) -> UInt16? { module == name ? b : nil }
        switch module.utf8.count {
        case 3: return bit("cgi", 1 << 2)
        case 4: return bit("cgid", 1 << 3) ?? bit("info", 1 << 6)
        case 6: return bit("status", 1 << 7)
        case 7: return bit("actions", 1 << 0) ?? bit("deflate", 1 << 4) ?? bit("expires", 1 << 5)
        case 9: return bit("autoindex", 1 << 1)
        case 11: return bit("negotiation", 1 << 9)
        case 12: return bit("allowmethods", 1 << 8)
        default: return nil
        }
    }

    /// Compiled into Debian's apache2 binary (`apache2 -l`).
    public static let builtIn: Set<String> = ["core", "so", "watchdog", "http", "log_config", "logio", "version", "unixd"]

    /// Debian's stock apache2 modules (`a2query -m` on a fresh install) plus rewrite, ssl and
    /// headers, which sites with `.htaccess` redirects almost always have.
    public static let standard = ModuleSet(builtIn.union([
        "mpm_event", "access_compat", "alias", "auth_basic", "authn_core", "authn_file", "authz_core", "authz_host",
        "authz_user", "autoindex", "deflate", "dir", "env", "filter", "mime", "negotiation", "reqtimeout",
        "setenvif", "status", "rewrite", "ssl", "headers",
    ]))

    /// Accepts `mod_rewrite.c`, `rewrite_module`, `mod_rewrite` or `rewrite`.
    public static func shortName(_ name: String) -> String {
        var n = name
        if n.hasByteSuffix(".c") { n.removeLast(2) }
        if n.hasByteSuffix("_module") { n.removeLast(7) }
        if n.hasBytePrefix("mod_") { n.removeFirst(4) }
        if n == "http_core" { return "http" }
        return n
    }

    public func contains(_ module: String) -> Bool {
        if let bit = ModuleSet.askedBit(module) { return asked & bit != 0 }
        return names.contains(ModuleSet.shortName(module))
    }

    public mutating func insert(_ module: String) { names.insert(ModuleSet.shortName(module)) }

    /// `<IfModule>` semantics (find_module): the word is a loaded module's source file name
    /// (module->name, `mod_rewrite.c`, `prefork.c`) or its symbol (`rewrite_module`,
    /// `mpm_prefork_module`), compared exactly; `mod_mpm_prefork.c`, `rewrite.c` or
    /// `mod_rewrite_module` name nothing (recorded: section-ifmodule-source-and-symbol-names).
    public func ifModuleTest(_ argument: String) -> Bool {
        if argument.hasByteSuffix(".c") {
            return names.contains { ModuleSet.sourceFileName($0) == argument }
        }
        if argument.hasByteSuffix("_module") {
            return names.contains(String(argument.dropLast(7)))
        }
        return false
    }

    /// The file a module was compiled from, by short name: `mod_<name>.c` but for core, http_core
    /// and the MPMs, whose files are `core.c`, `http_core.c` and `prefork.c`/`event.c`/`worker.c`.
    static func sourceFileName(_ short: String) -> String {
        switch short {
        case "core": "core.c"
        case "http": "http_core.c"
        case "mpm_prefork": "prefork.c"
        case "mpm_event": "event.c"
        case "mpm_worker": "worker.c"
        default: "mod_" + short + ".c"
        }
    }
}
