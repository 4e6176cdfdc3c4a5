import HtlintApache
import HtlintDiagnostics

/// Apache with `<VirtualHost>` sections: a connection is answered by the section its port and
/// `Host` pick (httpd's vhost matching: the sections on that port, the first named for the
/// host, else the first), each section read with the main server's lines into an origin of
/// its own. A site whose `example.com` section redirects to `www.example.com` and whose `www`
/// section serves the pages is then two origins, as it is two servers to a browser.
public struct VirtualHostOrigins: Sendable {
    private let sections: [VirtualHostSection]
    /// By port, the origin of each section some host reaches there (nil: no section listens on
    /// the port, and the main server answers).
    private let origins: [Int: [SourceRange?: Origin]]
    /// Every origin once, in a fixed order (the known origin, then by port and section order).
    public let all: [Origin]

    /// Reads the configuration once for every section a connection to `ports` can reach;
    /// `known` is an origin already read for one connection (it is not read again).
    init(source: SiteSource, ports: [Int], sections: [VirtualHostSection], known: (VirtualHostChoice, Origin)) {
        self.sections = sections
        var origins: [Int: [SourceRange?: Origin]] = [:]
        var all: [Origin] = []
        for port in Set(ports).sorted() {
            var byPort: [SourceRange?: Origin] = [:]
            if known.0.port == port {
                byPort[sections.answering(known.0)?.openRange] = known.1
                all.append(known.1)
            }
            // A host that reaches each section: one of its names (a wildcard filled in), or none
            // for the default one; a section no host reaches never answers.
            let candidates = sections.flatMap { $0.names.map(VirtualHostOrigins.example) } + [""]
            for host in candidates {
                let choice = VirtualHostChoice(port: port, host: host)
                let key = sections.answering(choice)?.openRange
                if byPort.keys.contains(key) { continue }
                let origin = Origin(site: source.build(virtualHost: choice))
                byPort[key] = origin
                all.append(origin)
            }
            origins[port] = byPort
        }
        self.origins = origins
        self.all = all
    }

    private init(sections: [VirtualHostSection], origins: [Int: [SourceRange?: Origin]], all: [Origin]) {
        self.sections = sections
        self.origins = origins
        self.all = all
    }

    /// The origin answering a connection to `port` that asks for `host` (a `Host` value; a port
    /// in it and a trailing dot are ignored, as httpd's fix_hostname drops them); nil for a port
    /// the table was not built for.
    public func origin(port: Int, host: String) -> Origin? {
        guard let byPort = origins[port] else { return nil }
        return byPort[sections.answering(VirtualHostChoice(port: port, host: splitHostHeader(host).host))?.openRange]
    }

    /// The same sections with each origin replaced; `transform` must give the same origin for
    /// the same one (an origin answers for several hosts).
    func map(_ transform: (Origin) -> Origin) -> VirtualHostOrigins {
        VirtualHostOrigins(sections: sections, origins: origins.mapValues { $0.mapValues(transform) }, all: all.map(transform))
    }

    /// A host name a pattern matches: `*.example.com` → `x.example.com`.
    private static func example(_ pattern: String) -> String {
        String(pattern.map { $0 == "*" || $0 == "?" ? "x" : $0 })
    }
}
