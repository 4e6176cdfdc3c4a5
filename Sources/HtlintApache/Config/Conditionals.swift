import HtlintRegex
import HtlintSyntax

/// What the conditional sections `<IfVersion>`, `<IfFile>`, `<IfSection>` and `${VAR}`
/// substitution test against, for the simulated server (Debian's Apache 2.4.71).
public enum Conditionals {
    /// The simulated httpd version.
    public static let version = (major: 2, minor: 4, patch: 71)
    /// ap_get_server_banner() under the default `ServerTokens Full`: mod_ssl adds its library's
    /// version component (recorded: Debian 12's OpenSSL 3.0.19). SERVER_SOFTWARE everywhere.
    public static let serverBanner = "Apache/2.4.71 (Debian) OpenSSL/3.0.19"
    public static var versionString: String { "\(version.major).\(version.minor).\(version.patch)" }

    /// `ServerRoot` on Debian: relative `<IfFile>` paths are resolved against it.
    public static let serverRoot = "/etc/apache2"

    /// Paths that exist on a Debian system with apache2 installed. htlint never reads the real
    /// disk (results must not depend on the machine running it); any other path outside the
    /// simulated site counts as missing.
    public static let systemPaths: Set<String> = [
        "/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/media", "/mnt", "/opt", "/proc",
        "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var",
        "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/hostname", "/etc/os-release", "/etc/debian_version",
        "/etc/mime.types", "/etc/ssl", "/etc/ssl/certs",
        "/etc/apache2", "/etc/apache2/apache2.conf", "/etc/apache2/ports.conf", "/etc/apache2/envvars",
        "/etc/apache2/magic", "/etc/apache2/mods-available", "/etc/apache2/mods-enabled",
        "/etc/apache2/conf-available", "/etc/apache2/conf-enabled", "/etc/apache2/sites-available",
        "/etc/apache2/sites-enabled", "/usr/bin", "/usr/sbin", "/usr/sbin/apache2", "/usr/lib", "/usr/share",
        "/usr/lib/apache2", "/usr/lib/apache2/modules", "/usr/local", "/var/log", "/var/log/apache2", "/var/lib",
        "/var/www", "/var/www/html", "/var/run", "/run/apache2", "/var/cache", "/var/tmp", "/usr/share/apache2",
    ]

    /// The absolute path `<IfFile>` tests: relative to ServerRoot, `.`/`..` and repeated slashes folded.
    public static func absolutePath(_ path: String) -> String {
        let full = path.hasBytePrefix("/") ? path : serverRoot + "/" + path
        var parts: [Substring] = []
        for seg in slashSplit(full, omittingEmpty: true) {
            if seg == "." { continue }
            if seg == ".." { _ = parts.popLast(); continue }
            parts.append(seg)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Section names each module registers (`<IfSection>` looks them up case-insensitively).
    static let sectionsByModule: [String: [String]] = [
        "core": ["Directory", "DirectoryMatch", "Files", "FilesMatch", "Location", "LocationMatch", "VirtualHost",
                 "Limit", "LimitExcept", "If", "ElseIf", "Else", "IfModule", "IfDefine", "IfFile", "IfDirective",
                 "IfSection"],
        "version": ["IfVersion"],
        "authz_core": ["RequireAll", "RequireAny", "RequireNone", "AuthzProviderAlias"],
        "authn_core": ["AuthnProviderAlias"],
        "proxy": ["Proxy", "ProxyMatch"],
        "macro": ["Macro"],
    ]

    /// `<IfSection name>`: the section exists in a loaded module. Core is always there.
    public static func sectionExists(_ name: String, modules: ModuleSet) -> Bool {
        let n = name.asciiLowercased()
        return sectionsByModule.contains { module, names in
            (module == "core" || modules.contains(module)) && names.contains { $0.asciiLowercased() == n }
        }
    }

    /// `<IfVersion [[!]op] version>` against 2.4.71, as mod_version reads it; nil when the
    /// arguments are invalid (Apache refuses the section).
    public static func versionHolds(_ words: [String]) -> Bool? {
        var op: String
        var operand: String
        switch words.count {
        case 1:
            op = "="; operand = words[0]
            // `/re/` is turned into a regex below, with the slashes stripped once.
            if operand.hasBytePrefix("!") { op = "!="; operand = dropLeadingBytes(operand, 1) }
        case 2: op = words[0]; operand = words[1]
        default: return nil
        }
        var negate = false
        if op.hasBytePrefix("!") { negate = true; op = dropLeadingBytes(op, 1) }
        // The slashes are single bytes: a combining mark after the first one stays in the regex.
        func stripSlashes(_ s: String) -> String? {
            guard s.utf8.count >= 2, s.hasBytePrefix("/"), s.hasByteSuffix("/") else { return nil }
            return String(s.utf8.dropFirst().dropLast())
        }
        if op == "~", let stripped = stripSlashes(operand) { operand = stripped }
        if op == "=" || op == "==" || op.isEmpty, let stripped = stripSlashes(operand) { op = "~"; operand = stripped }
        let result: Bool
        if op == "~" {
            guard let regex = try? Regex(operand) else { return nil }
            result = regex.firstMatch(in: versionString) != nil
        } else {
            guard let wanted = parseVersion(operand) else { return nil }
            let have = [version.major, version.minor, version.patch]
            let order = have.lexicographicallyPrecedes(wanted) ? -1 : (have == wanted ? 0 : 1)
            switch op {
            case "=", "==": result = order == 0
            case "<": result = order < 0
            case "<=": result = order <= 0
            case ">": result = order > 0
            case ">=": result = order >= 0
            default: return nil
            }
        }
        return result != negate
    }

    /// `major[.minor[.patch]]`, omitted parts zero (mod_version docs).
    static func parseVersion(_ s: String) -> [Int]? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        while numbers.count < 3 { numbers.append(0) }
        return numbers
    }

    /// Replaces `${NAME}` in one logical line by the variable's value (core's ap_resolve_env:
    /// the first `}` closes, unknown names stay as written; `${map:key}` has a `:` and is never
    /// a variable), or returns nil when nothing changes. A value's bytes take the file offsets
    /// of the `${NAME}` they replace (its last byte that of the `}`), so a word made from a
    /// value points at the reference as written.
    public static func expandVariables(in line: LogicalLine, _ variables: [String: String]) -> LogicalLine? {
        let b = line.bytes
        guard !variables.isEmpty, b.indices.dropLast().contains(where: { b[$0] == UInt8(ascii: "$") && b[$0 + 1] == UInt8(ascii: "{") })
        else { return nil }
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        var changed = false
        var i = 0
        while i < b.count {
            guard b[i] == UInt8(ascii: "$"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "{"),
                  let close = b[(i + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                if i + 1 < b.count, b[i] == UInt8(ascii: "$"), b[i + 1] == UInt8(ascii: "{") {
                    // An unclosed `${`: the rest of the line stays as written.
                    bytes += b[i...]
                    offsets += (i..<b.count).map(line.offset(at:))
                    break
                }
                bytes.append(b[i])
                offsets.append(line.offset(at: i))
                i += 1
                continue
            }
            guard let value = variables[String(decoding: b[(i + 2)..<close], as: UTF8.self)] else {
                bytes += b[i...close]
                offsets += (i...close).map(line.offset(at:))
                i = close + 1
                continue
            }
            let reference = (i...close).map(line.offset(at:))
            for (k, byte) in value.utf8.enumerated() {
                bytes.append(byte)
                offsets.append(k == value.utf8.count - 1 ? reference[reference.count - 1] : reference[min(k, reference.count - 1)])
            }
            changed = true
            i = close + 1
        }
        guard changed else { return nil }
        return LogicalLine(bytes: bytes, offsets: offsets, endOffset: line.endOffset, line: line.line,
                           file: line.file, readLength: line.readLength)
    }
}
