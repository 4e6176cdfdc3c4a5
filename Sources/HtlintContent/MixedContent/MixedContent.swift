import HtlintDiagnostics

/// Classifies references found by `PageScanner` and `CSSScanner` per the W3C Mixed Content
/// specification (Level 2) and spec §14.2, with what current browsers do (§14.3).
public enum MixedContent {
    /// The finding for one reference on the page served at `pageURL`, or `nil` when there is
    /// nothing to report: the page is not a potentially trustworthy origin (only those prohibit
    /// mixed content, §14.1), the URL is secure or local (`https:`, `wss:`, `data:`, `blob:`,
    /// `about:`, `javascript:`, `http://localhost`…), or it is a `<base href>` (whose effect is
    /// reported on each reference it resolves).
    ///
    /// The reference's `resolvedURL` is used when present; otherwise its `url` is resolved
    /// against `pageURL` (a protocol-relative `//host/x` inherits `https` and is fine). With
    /// `upgradeInsecureRequests` (the page sends that CSP directive, §14.5) subresources and
    /// forms are upgraded before the check, as are navigations to the page's own host; the
    /// caller then checks that the `https` host exists instead.
    public static func classify(_ reference: ResourceReference, pageURL: String,
                                upgradeInsecureRequests: Bool = false) -> MixedContentFinding? {
        let page = URIReference(parsing: pageURL)
        guard isPotentiallyTrustworthy(page) else { return nil }
        return classify(reference, page: page, upgradeInsecureRequests: upgradeInsecureRequests)
    }

    /// Every finding of a scanned page, subresources first, then links, each in source order.
    /// `pageURL` defaults to the URL the page was scanned as. (Scan with the page URL: a
    /// relative `<base href>` can only be applied when the scanner knows it.)
    public static func classify(_ scan: PageScan, pageURL: String? = nil) -> [MixedContentFinding] {
        guard let pageURL = pageURL ?? scan.pageURL else { return [] }
        let page = URIReference(parsing: pageURL)
        guard isPotentiallyTrustworthy(page) else { return [] }
        return (scan.references + scan.links).compactMap {
            classify($0, page: page, upgradeInsecureRequests: scan.upgradesInsecureRequests)
        }
    }

    /// `classify` for a page already known to be potentially trustworthy.
    private static func classify(_ reference: ResourceReference, page: URIReference,
                                 upgradeInsecureRequests: Bool) -> MixedContentFinding? {
        guard reference.kind != .base,
              let target = reference.resolvedURL ?? URLResolver.resolveAsBrowser(reference.url, againstParsed: page)
        else { return nil }
        let uri = URIReference(parsing: target)
        guard let scheme = uri.scheme?.lowercased(), scheme == "http" || scheme == "ws",
              !isTrustworthyHost(uri.host ?? "") else { return nil }
        if upgradeInsecureRequests {
            let navigation = reference.kind == .link || reference.kind == .refresh || reference.kind == .download
            if !navigation || (uri.host == page.host && uri.port == nil) { return nil }
        }
        let host = uri.host ?? ""
        let decision = decide(reference, host: host)
        var finding = MixedContentFinding(
            reference: reference, insecureURL: target, verdict: decision.verdict, specClass: decision.specClass,
            exclusion: decision.exclusion, reason: decision.reason, behaviour: [], assumptions: decision.assumptions,
            secureURL: (scheme == "ws" ? "wss" : "https") + target.dropFirst(scheme.count),
            fix: fix(for: reference, scheme: scheme), message: "")
        finding.behaviour = BrowserProfile.current.map { behaviour(of: finding, in: $0) }
        for outcome in finding.behaviour {
            if let a = outcome.assumption, !finding.assumptions.contains(a) { finding.assumptions.append(a) }
        }
        finding.message = message(for: finding, sameSite: host.droppingWWW == (page.host ?? "").droppingWWW)
        return finding
    }

    /// Whether a URL is potentially trustworthy (Secure Contexts, "is url potentially
    /// trustworthy?"): `https:`, `wss:`, `file:`, `data:`, `about:`, `blob:`, and loopback hosts
    /// over `http`.
    public static func isPotentiallyTrustworthy(_ url: String) -> Bool {
        isPotentiallyTrustworthy(URIReference(parsing: url))
    }

    static func isPotentiallyTrustworthy(_ uri: URIReference) -> Bool {
        switch uri.scheme?.lowercased() {
        case "https", "wss", "file", "data", "about", "blob": return true
        case "http", "ws": return isTrustworthyHost(uri.host ?? "")
        default: return false
        }
    }

    /// `localhost`, `*.localhost`, `127.0.0.0/8` and `[::1]` (Secure Contexts; spec §14.1).
    static func isTrustworthyHost(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "localhost." || h.hasSuffix(".localhost") || h == "[::1]" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// IPv4 dotted quads and bracketed IPv6 literals: hosts Level 2 never upgrades (§14.1).
    static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The outcome of the classification table for one reference.
    private struct Decision {
        var verdict: MixedContentVerdict
        var specClass: MixedContentClass?
        var exclusion: UpgradeExclusion?
        var reason: String
        var assumptions: [ModelAssumption] = []

        static func blockable(_ reason: String, _ exclusion: UpgradeExclusion? = nil,
                              _ assumptions: [ModelAssumption] = []) -> Decision {
            Decision(verdict: .blocked, specClass: .blockable, exclusion: exclusion, reason: reason, assumptions: assumptions)
        }
    }

    /// Spec §14.2's table, row by row.
    private static func decide(_ ref: ResourceReference, host: String) -> Decision {
        switch ref.kind {
        case .form:
            return Decision(verdict: .form, reason: "browsers may warn about or block form submissions to http (spec §14.1)")
        case .link:
            return Decision(verdict: .insecureLink, reason: "a top-level navigation is never mixed content, but its target is not secure")
        case .download:
            return Decision(verdict: .download, reason: "downloads over http from an https page are blocked, never upgraded")
        case .refresh:
            return Decision(verdict: .downgrade, reason: "the page navigates itself to an insecure URL")
        case .image, .icon, .audio, .video:
            var assumptions: [ModelAssumption] = []
            if ref.kind == .icon || ref.source != .htmlAttribute { assumptions.append(.cssAndIconImages) }
            if ref.kind == .image, ref.source == .htmlAttribute, ref.element != "img" { assumptions.append(.imageLikeElements) }
            if ref.isCORS {
                return .blockable("`crossorigin` makes it a CORS request, which is never upgraded", .corsMode, assumptions)
            }
            if isIPLiteral(host) {
                return .blockable("the host is an IP address, which is never upgraded", .ipAddressHost,
                                  assumptions + [.ipLiteralBlocked])
            }
            let what = ref.kind == .audio || ref.kind == .video ? "\(ref.kind.rawValue) requests" : "image requests"
            return Decision(verdict: .upgraded, specClass: .upgradeable,
                            reason: "\(what) are upgradeable (spec §14.1)", assumptions: assumptions)
        case .imageSet:
            return .blockable("`srcset` and `<picture>` request an image set (initiator `imageset`), which is never upgraded", .imageSet)
        case .cursor:
            return .blockable("CSS cursor images are treated as blockable", nil, [.cssAndIconImages])
        case .websocket:
            return .blockable("WebSocket connections are blockable", nil, [.websocketBlocked])
        case .track, .script, .style, .font, .manifest, .frame, .object, .embed, .fetch, .base:
            let what: String = switch ref.kind {
            case .frame: "nested navigations (frames)"
            case .object, .embed: "plugin content requests"
            case .fetch: "requests with an empty destination"
            default: "\(ref.kind.rawValue) requests"
            }
            return .blockable("\(what) are blockable (spec §14.1)")
        }
    }

    private static func fix(for ref: ResourceReference, scheme: String) -> FixIt? {
        let raw = ref.rawText.lowercased()
        guard raw.hasPrefix(scheme + ":") else { return nil }
        let edit = TextEdit(range: SourceRange(file: ref.range.file, start: ref.range.start, end: ref.range.start + scheme.count),
                            replacement: scheme == "ws" ? "wss" : "https")
        return FixIt(title: scheme == "ws" ? "Use `wss://`" : "Use `https://`", edits: [edit], applicability: .unsafe)
    }
}

extension String {
    var droppingWWW: String { hasPrefix("www.") ? String(dropFirst(4)) : self }
}
