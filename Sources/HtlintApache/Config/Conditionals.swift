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

    /// The plain files among `systemPaths` (the rest are directories).
    static let systemFiles: Set<String> = [
        "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/hostname", "/etc/os-release", "/etc/debian_version",
        "/etc/mime.types", "/etc/apache2/apache2.conf", "/etc/apache2/ports.conf", "/etc/apache2/envvars",
        "/etc/apache2/magic", "/usr/sbin/apache2",
    ]

    /// `<IfFile path>`: whether stat() of the path succeeds once ap_server_root_relative has
    /// made it absolute and folded `.` and `..` by name (`/etc/passwd/..` is `/etc`). A
    /// trailing slash stays, so the path must then be a directory (`/etc/passwd/` is ENOTDIR;
    /// recorded: section-iffile-trailing-slash-needs-a-directory). `fileExists` is asked about a
    /// directory by the path with its trailing slash.
    public static func ifFileHolds(_ word: String, fileExists: (String) -> Bool) -> Bool {
        let path = absolutePath(word)
        return fileExists(word.hasByteSuffix("/") && path != "/" ? path + "/" : path)
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
        if case .success(let holds) = versionTest(words) { return holds }
        return nil
    }

    /// Why mod_version refuses an `<IfVersion>` line (its message).
    public struct VersionError: Error { public let message: String }

    static let invalidVersion = VersionError(message: "Version appears to be invalid. It must have the format major[.minor[.patch]] where major, minor and patch are numbers.")

    /// mod_version's start_ifversion. One argument is the version (or `/re/`) compared with
    /// `=`: a `!` there is part of the version, so `<IfVersion !/x/>` is an invalid version.
    /// The operator is read by bytes: an optional `!` (kept as the operator when alone), one
    /// of `=`, `~`, `<`, `>`, then nothing or a `=` (not after `~`); anything else is an
    /// unrecognized operator (recorded: conditional-ifversion-invalid-forms).
    public static func versionTest(_ words: [String]) -> Result<Bool, VersionError> {
        let op: String, operand: String
        switch words.count {
        case 1: op = "="; operand = words[0]
        case 2: op = words[0]; operand = words[1]
        default: return .failure(VersionError(message: "<IfVersion> takes one or two arguments"))
        }
        var p = Array(op.utf8)[...]
        let negate = p.first == UInt8(ascii: "!")
        if negate, p.count > 1 { p = p.dropFirst() }
        let c = p.first ?? 0
        let rest = p.dropFirst()
        guard rest.isEmpty || (rest.elementsEqual([UInt8(ascii: "=")]) && c != UInt8(ascii: "~")) else {
            return .failure(VersionError(message: "unrecognized operator '\(op)'"))
        }
        // The slashes are single bytes: a combining mark after the first one stays in the regex.
        func stripSlashes(_ s: String) -> String? {
            guard s.utf8.count >= 2, s.hasBytePrefix("/"), s.hasByteSuffix("/") else { return nil }
            return String(s.utf8.dropFirst().dropLast())
        }
        func order() -> Result<Int, VersionError> {
            guard let wanted = parseVersion(operand) else { return .failure(invalidVersion) }
            let have = [version.major, version.minor, version.patch]
            return .success(have.lexicographicallyPrecedes(wanted) ? -1 : (have == wanted ? 0 : 1))
        }
        func regexMatch(_ pattern: String) -> Result<Bool, VersionError> {
            guard let regex = try? Regex(pattern) else { return .failure(VersionError(message: "Unable to compile regular expression '\(pattern)'")) }
            return .success(regex.firstMatch(in: versionString) != nil)
        }
        let result: Result<Bool, VersionError>
        switch c {
        case UInt8(ascii: "="):
            if operand.hasBytePrefix("/") {
                guard let stripped = stripSlashes(operand) else {
                    return .failure(VersionError(message: "Missing delimiting / of regular expression."))
                }
                result = regexMatch(stripped)
            } else {
                result = order().map { $0 == 0 }
            }
        case UInt8(ascii: "~"): result = regexMatch(stripSlashes(operand) ?? operand)
        case UInt8(ascii: "<"): result = order().map { $0 < 0 || (!rest.isEmpty && $0 == 0) }
        case UInt8(ascii: ">"): result = order().map { $0 > 0 || (!rest.isEmpty && $0 == 0) }
        default: return .failure(VersionError(message: "unrecognized operator '\(op)'"))
        }
        return result.map { $0 != negate }
    }

    /// `major[.minor[.patch]]`, omitted parts zero (mod_version docs).
    static func parseVersion(_ s: String) -> [Int]? {
        // At `.` bytes, as compare_version's strtol steps over them.
        let parts = byteSplit(s[...], UInt8(ascii: "."))
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
