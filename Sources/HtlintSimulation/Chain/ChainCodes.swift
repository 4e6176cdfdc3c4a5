import HtlintApache

extension ChainResult {
    /// The layers spec's verdict codes (§1.5) that one chain shows on its own: `OK`,
    /// `OK_EXTRA_HOPS(n)`, `LOOP(n)`, `TOO_MANY_REDIRECTS`, `EDGE_ERROR(code)`, `DOWNGRADE`,
    /// `METHOD_CHANGED`, `REDIRECT_TO_IP`, `ORIGIN_LEAK`, `CACHE_LOOP`, `INTERNAL_RECURSION`, `OFFSITE`, `ERROR`.
    /// Codes that compare clients (`HSTS_DEPENDENT`) come from `ChainSimulator.isHSTSDependent`.
    public var codes: [String] {
        var out: [String] = []
        let redirects = hops.filter { (300...399).contains($0.status) && $0.location != nil }.count
        switch verdict {
        case .ok: out.append(redirects >= 2 ? "OK_EXTRA_HOPS(\(redirects))" : "OK")
        case .loop:
            out.append("LOOP(\(cycleLength ?? 0))")
            // The loop exists only through an answer a cache stored for another request (§1.5).
            if hops[(loopStart ?? 0)...].contains(where: { $0.cached != nil }) { out.append("CACHE_LOOP") }
        case .tooManyRedirects: out.append("TOO_MANY_REDIRECTS")
        case .internalRecursion: out.append("INTERNAL_RECURSION")
        case .offsite: out.append("OFFSITE")
        case .error:
            if let last = hops.last, last.answerer == .edge { out.append("EDGE_ERROR(\(last.status))") } else { out.append("ERROR") }
        }
        var targets: [URLParts] = []
        for (i, hop) in hops.enumerated() {
            guard let from = URLParts(hop.url), let location = hop.location, let to = URLParts(from.resolve(location)) else { continue }
            targets.append(to)
            if from.scheme == "https", to.scheme == "http", !out.contains("DOWNGRADE") { out.append("DOWNGRADE") }
            if hop.method == "POST", i + 1 < hops.count, hops[i + 1].method == "GET", !out.contains("METHOD_CHANGED") {
                out.append("METHOD_CHANGED")
            }
        }
        if targets.contains(where: \.isIPLiteral) { out.append("REDIRECT_TO_IP") }
        if targets.contains(where: { internalHosts.contains($0.host.lowercased()) || internalHosts.contains($0.hostHeader.lowercased()) }) {
            out.append("ORIGIN_LEAK")
        }
        return out
    }
}

extension ChainSimulator {
    /// The same topology seen by a browser that already holds HSTS for `hosts` (or none).
    public func withHSTS(_ hosts: [String], includeSubDomains: Bool = false) -> ChainSimulator {
        var s = self
        s.browser.usesHSTS = true
        s.browser.hsts = HSTSStore(hosts: hosts, includeSubDomains: includeSubDomains)
        return s
    }

    /// `HSTS_DEPENDENT` (§1.5): the verdict differs between a browser holding an HSTS policy
    /// for the URL's host and a client without HSTS (curl).
    public func isHSTSDependent(_ url: String, method: String = "GET") -> Bool {
        guard let host = URLParts(url)?.host else { return false }
        var plain = self
        plain.browser.usesHSTS = false
        return withHSTS([host]).run(url, method: method).verdict != plain.run(url, method: method).verdict
    }
}
