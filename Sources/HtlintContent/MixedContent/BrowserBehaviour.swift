/// Browser versions from spec §14.3 ("Browser behaviour over time"), first version with each
/// behaviour; `nil`: never shipped.
enum BrowserTimeline {
    /// Block blockable mixed content (BCD).
    static let blocksBlockable: [Browser: Int] = [.chrome: 79, .firefox: 23, .safari: 9]
    /// Auto-upgrade audio and video (Chromium blog, Mozilla blog).
    static let upgradesMedia: [Browser: Int] = [.chrome: 80, .firefox: 127]
    /// Auto-upgrade images; Mixed Content Level 2's exclusions (image sets, CORS, IP hosts)
    /// take effect together with it.
    static let upgradesImages: [Browser: Int] = [.chrome: 86, .firefox: 127]
    /// Block insecure downloads.
    static let blocksDownloads: [Browser: Int] = [.chrome: 92, .firefox: 90]
    /// Warn before submitting an insecure form.
    static let warnsForms: [Browser: Int] = [.chrome: 87]
}

extension MixedContent {
    /// What `profile` does with a finding (spec §14.2 columns, §14.3 versions).
    ///
    /// Before a browser auto-upgraded a kind of media it loaded it as passive mixed content,
    /// image sets and CORS images included (they became blockable with Level 2's upgrades).
    /// Before it blocked all blockable content, scripts, styles, frames, plugins and fetches
    /// were already blocked as active content; other blockable kinds loaded.
    public static func behaviour(of finding: MixedContentFinding, in profile: BrowserProfile) -> BrowserOutcome {
        let browser = profile.browser
        func outcome(_ action: BrowserAction, _ assumption: ModelAssumption? = nil) -> BrowserOutcome {
            BrowserOutcome(profile: profile, action: action, assumption: assumption)
        }
        let kind = finding.reference.kind
        switch finding.verdict {
        case .insecureLink, .downgrade:
            return outcome(.allowed)
        case .form:
            if browser == .chrome { return outcome(profile.has(since: BrowserTimeline.warnsForms[.chrome]) ? .warned : .allowed) }
            return outcome(.warned, .formWarnings)
        case .download:
            if browser == .safari { return outcome(.allowed, .safariOther) }
            return outcome(profile.has(since: BrowserTimeline.blocksDownloads[browser]) ? .blocked : .allowed)
        case .upgraded, .blocked:
            let media: [ResourceKind: [Browser: Int]] = [
                .image: BrowserTimeline.upgradesImages, .imageSet: BrowserTimeline.upgradesImages,
                .icon: BrowserTimeline.upgradesImages,
                .audio: BrowserTimeline.upgradesMedia, .video: BrowserTimeline.upgradesMedia,
            ]
            if let timeline = media[kind] {
                if browser == .safari {
                    // Safari never upgrades (BCD); the table assumes plain images load and image
                    // sets and CORS images are blocked.
                    return finding.verdict == .upgraded || finding.exclusion == .ipAddressHost
                        ? outcome(.loaded, .safariLoadsUpgradeable) : outcome(.blocked, .safariOther)
                }
                guard profile.has(since: timeline[browser]) else { return outcome(.loaded) }
                if finding.verdict == .upgraded { return outcome(.upgraded) }
                return finding.exclusion == .ipAddressHost ? outcome(.blocked, .ipLiteralBlocked) : outcome(.blocked)
            }
            if profile.has(since: BrowserTimeline.blocksBlockable[browser]) { return outcome(.blocked) }
            let active: Set<ResourceKind> = [.script, .style, .frame, .object, .embed, .fetch, .websocket]
            return outcome(active.contains(kind) ? .blocked : .loaded)
        }
    }

    /// "blocked", "upgraded by Chrome and Firefox, loaded over http by Safari": the
    /// behaviour column of a report.
    public static func summary(_ outcomes: [BrowserOutcome]) -> String {
        var groups: [(BrowserAction, [String])] = []
        for o in outcomes {
            if let i = groups.firstIndex(where: { $0.0 == o.action }) { groups[i].1.append(o.profile.browser.name) }
            else { groups.append((o.action, [o.profile.browser.name])) }
        }
        if groups.count == 1, let only = groups.first { return "\(phrase(only.0)) by all browsers" }
        return groups.map { "\(phrase($0.0)) by \($0.1.joined(separator: " and "))" }.joined(separator: ", ")
    }

    static func phrase(_ action: BrowserAction) -> String {
        switch action {
        case .blocked: "blocked"
        case .upgraded: "upgraded to https"
        case .loaded: "loaded over http"
        case .warned: "warned about"
        case .allowed: "allowed"
        }
    }

    static func message(for f: MixedContentFinding, sameSite: Bool) -> String {
        let ref = f.reference
        var url = "`\(ref.url)`"
        if ref.url != f.insecureURL {
            url += " (`\(f.insecureURL)`\(ref.resolvedThroughBase ? " through `<base href>`" : ""))"
        }
        let place = ref.contextDescription
        let behaviour = summary(f.behaviour)
        switch f.verdict {
        case .blocked: return "\(place) loads \(url) over http: blockable mixed content, \(behaviour)"
        case .upgraded: return "\(place) loads \(url) over http: upgradeable mixed content, \(behaviour)"
        case .form: return "\(place) submits to \(url) over http: \(behaviour)"
        case .download: return "\(place) downloads \(url) over http: \(behaviour)"
        case .insecureLink: return "\(place) links to \(url) over http\(sameSite ? " on the same site" : "")"
        case .downgrade: return "\(place) navigates to \(url): a downgrade to http"
        }
    }
}
