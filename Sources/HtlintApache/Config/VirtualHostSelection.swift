import HtlintRegex
import HtlintDiagnostics
import HtlintSyntax

/// The connection a server configuration with `<VirtualHost>` sections is read for: Apache
/// answers it from one section (plus what stands outside every section), never from all.
public struct VirtualHostChoice: Sendable, Hashable {
    /// The port the connection reached (80 for plain HTTP, 443 for TLS by default).
    public var port: Int
    /// The host name asked for (`Host`), lower-case, without a port.
    public var host: String

    public init(port: Int, host: String) {
        self.port = port
        self.host = host
    }
}

/// One `<VirtualHost addr:port …>` section, as vhost matching sees it.
public struct VirtualHostSection: Sendable, Hashable {
    /// The opening line: identifies the section.
    public let openRange: SourceRange
    /// The ports of its addresses; nil for an address without a port (`*`), which matches any.
    public let ports: [Int?]
    /// `ServerName` (host part) and `ServerAlias` names, lower-case; aliases may hold `*`/`?`.
    public internal(set) var names: [String]
    /// Whether the section has a `ServerName` of its own (else it takes the main server's).
    var hasServerName = false

    func listens(on port: Int) -> Bool { ports.contains { $0 == nil || $0 == port } }

    func isNamed(_ host: String) -> Bool { names.contains { wildcardMatch($0, host) } }
}

extension [VirtualHostSection] {
    /// The section that answers a connection (nil: none listens on its port, the main server does).
    public func answering(_ choice: VirtualHostChoice) -> VirtualHostSection? { VirtualHosts.select(choice, among: self) }
}

enum VirtualHosts {
    /// Every `<VirtualHost>` section in file order, inside conditional sections that hold
    /// (`holds`: whether a conditional section's contents are read with these `Define`s, nil for
    /// other sections); Apache never creates one in a false `<IfModule>`/`<IfDefine>`. `defines`
    /// follows the file's `Define`/`UnDefine` lines in reading order, as Apache's do.
    /// A section without a `ServerName` is named after the main server's (the last one in the
    /// file, as ap_fixup_virtual_hosts fills it in after reading): name-based matching sees it
    /// (recorded: vhost-nameless-section-takes-main-servername).
    static func sections(in nodes: [ConfigNode], defines: inout Set<String>,
                         holds: (SectionNode, Set<String>) -> Bool?) -> [VirtualHostSection] {
        var mainName: String? = nil
        var found = collect(nodes, defines: &defines, holds: holds, mainName: &mainName)
        if let mainName {
            for i in found.indices where !found[i].hasServerName { found[i].names.insert(mainName, at: 0) }
        }
        return found
    }

    private static func collect(_ nodes: [ConfigNode], defines: inout Set<String>, holds: (SectionNode, Set<String>) -> Bool?,
                                mainName: inout String?) -> [VirtualHostSection] {
        var found: [VirtualHostSection] = []
        for node in nodes {
            switch node {
            case .directive(let d) where d.key == "servername":
                if let name = d.words.first?.value { mainName = Site.parseServerName(name).host }
            case .directive(let d) where d.key == "define":
                if let name = d.words.first?.value { defines.insert(name) }
            case .directive(let d) where d.key == "undefine":
                if let name = d.words.first?.value { defines.remove(name) }
            case .section(let s) where s.name.asciiLowercased() == "virtualhost":
                var section = VirtualHostSection(openRange: s.openRange, ports: s.arguments.map { port(of: $0.value) },
                                                 names: names(in: s.children))
                section.hasServerName = s.children.contains {
                    if case .directive(let d) = $0 { return d.key == "servername" } else { return false }
                }
                found.append(section)
            case .section(let s) where holds(s, defines) != false:
                found += collect(s.children, defines: &defines, holds: holds, mainName: &mainName)
            default: break
            }
        }
        return found
    }

    /// The section that answers: among those listening on the port, the first named for the
    /// host, else the first of them (the default server for that address, httpd's vhost.c).
    /// Nil when none listens there: the main server answers. Sections naming the port exactly
    /// (`*:443`) form their own address; those without a port (`*`) are only looked at when
    /// none does (find_default_server prefers the exact port, and names are matched within the
    /// one address found), so `<VirtualHost *>` never answers for a name on :443 when a
    /// `*:443` section exists (recorded: vhost-exact-port-before-any-port).
    static func select(_ choice: VirtualHostChoice, among sections: [VirtualHostSection]) -> VirtualHostSection? {
        var listening = sections.filter { $0.ports.contains(choice.port) }
        if listening.isEmpty { listening = sections.filter { $0.ports.contains(nil) } }
        return listening.first { $0.isNamed(choice.host) } ?? listening.first
    }

    /// `*:80` → 80, `[::1]:443` → 443, `_default_`, `*` or an address alone → nil.
    static func port(of address: String) -> Int? {
        guard let colon = address.lastIndex(ofByte: UInt8(ascii: ":")), !address.hasByteSuffix("]") else { return nil }
        return Int(bytesAfter(address, colon))
    }

    /// The names a section answers to, from its own `ServerName` (the last one: each replaces
    /// the one before) and `ServerAlias` lines.
    private static func names(in nodes: [ConfigNode]) -> [String] {
        var serverName: [String] = []
        var aliases: [String] = []
        for node in nodes {
            guard case .directive(let d) = node else { continue }
            switch d.key {
            case "servername": serverName = d.words.prefix(1).map { Site.parseServerName($0.value).host }
            case "serveralias": aliases += d.words.map { $0.value.asciiLowercased() }
            default: break
            }
        }
        return serverName + aliases
    }
}
