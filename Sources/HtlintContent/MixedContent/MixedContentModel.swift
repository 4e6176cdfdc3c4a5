import HtlintDiagnostics

/// The two request categories of Mixed Content Level 2 (spec §14.1).
public enum MixedContentClass: String, Sendable, Hashable, Codable {
    /// Rewritten to `https` by current browsers before fetching ("optionally-blockable" in Level 1).
    case upgradeable
    /// Blocked outright.
    case blockable
}

/// Why a request of an upgradeable kind (image, audio, video) is blockable: the exceptions in
/// Mixed Content Level 2's upgrade algorithm (spec §14.1).
public enum UpgradeExclusion: String, Sendable, Hashable, Codable {
    /// `<img srcset>`, `<img>` in `<picture>`, `<source srcset>`: initiator `imageset`.
    case imageSet
    /// `crossorigin`: a CORS-mode request is force-failed, never upgraded.
    case corsMode
    /// An IP-address host is not upgraded, so the request is blocked.
    case ipAddressHost
}

/// The verdict codes of spec §14.2 / §15 (H22, H1).
public enum MixedContentVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Blockable mixed content: the resource does not load.
    case blocked = "MIXED_BLOCKED"
    /// Upgradeable mixed content: loads only if the `https` variant exists.
    case upgraded = "MIXED_UPGRADED"
    /// A form that submits to `http`.
    case form = "MIXED_FORM"
    /// A download over `http` from an `https` page: blocked, never upgraded.
    case download = "MIXED_DOWNLOAD"
    /// A hyperlink to `http`: a top-level navigation, not mixed content (informational).
    case insecureLink = "INSECURE_LINK"
    /// A meta refresh to `http`: the page navigates itself to an insecure URL.
    case downgrade = "DOWNGRADE"

    /// Severity per spec §15 H22 (errors for blocked, form and download, a warning for
    /// upgraded) and H1 (downgrade); links are informational.
    public var severity: Severity {
        switch self {
        case .blocked, .form, .download, .downgrade: .error
        case .upgraded: .warning
        case .insecureLink: .note
        }
    }
}

/// Browsers whose behaviour spec §14.3 records.
public enum Browser: String, Sendable, Hashable, Codable, CaseIterable {
    case chrome, firefox, safari

    /// Display name.
    public var name: String {
        switch self {
        case .chrome: "Chrome"
        case .firefox: "Firefox"
        case .safari: "Safari"
        }
    }
}

/// A browser at a major version; `version == nil` means the current release.
public struct BrowserProfile: Hashable, Sendable, Codable {
    public var browser: Browser
    /// Major version; `nil` for the current release.
    public var version: Int?

    /// `BrowserProfile(.chrome, version: 85)`; without a version, the current release.
    public init(_ browser: Browser, version: Int? = nil) {
        self.browser = browser
        self.version = version
    }

    /// The default report's columns: current Chrome, Firefox and Safari (spec §14.3).
    public static let current: [BrowserProfile] = Browser.allCases.map { BrowserProfile($0) }

    /// Whether this version has a feature introduced in `since` (`nil`: never shipped).
    func has(since: Int?) -> Bool {
        guard let since else { return false }
        return (version ?? Int.max) >= since
    }
}

/// What a browser does with a reference.
public enum BrowserAction: String, Sendable, Hashable, Codable {
    /// Not fetched (or the download aborted).
    case blocked
    /// Fetched over `https` instead.
    case upgraded
    /// Fetched over `http`, with a degraded padlock.
    case loaded
    /// The user is warned before a form is submitted.
    case warned
    /// No mixed-content handling: a navigation, or a browser without the rule.
    case allowed
}

/// One browser's handling of one finding.
public struct BrowserOutcome: Hashable, Sendable, Codable {
    /// The browser and version this outcome is for.
    public var profile: BrowserProfile
    /// What it does.
    public var action: BrowserAction
    /// Set when the outcome is a modelling assumption rather than documented behaviour.
    public var assumption: ModelAssumption?
}

/// Undocumented behaviour the classification relies on (spec §17); reports list the ones a
/// verdict used.
public enum ModelAssumption: String, Sendable, Hashable, Codable, CaseIterable {
    /// Q11: Safari does not auto-upgrade and loads upgradeable content over `http`.
    case safariLoadsUpgradeable = "Q11"
    /// Q12: CSS images are upgradeable (spec note; MDN disagrees), favicons upgradeable,
    /// CSS `cursor` blockable.
    case cssAndIconImages = "Q12"
    /// Q17 and §14.2: which browsers other than Chrome warn about insecure forms.
    case formWarnings = "Q17"
    /// Q18: upgradeable content from an IP-address host is blocked, not loaded.
    case ipLiteralBlocked = "Q18"
    /// §14.2 [A]: `<input type=image>`, `<video poster>`, SVG `<image>` and legacy
    /// `background` attributes are image requests with an empty initiator.
    case imageLikeElements = "A-IMAGE"
    /// §14.2 [A]: `ws://` from an `https` page is blocked.
    case websocketBlocked = "A-WEBSOCKET"
    /// §14.2 [A]: Safari's handling of insecure downloads and of `srcset`/CORS images.
    case safariOther = "A-SAFARI"

    /// One line for a report's assumption list.
    public var explanation: String {
        switch self {
        case .safariLoadsUpgradeable: "Safari is assumed to load upgradeable content over http (§17 Q11)"
        case .cssAndIconImages: "CSS images and favicons are treated as upgradeable, CSS cursors as blockable (§17 Q12)"
        case .formWarnings: "Firefox and Safari are assumed to warn about insecure form submissions (§17 Q17)"
        case .ipLiteralBlocked: "upgradeable content from an IP-address host is assumed blocked (§17 Q18)"
        case .imageLikeElements: "this element is assumed to make an ordinary image request (§14.2)"
        case .websocketBlocked: "`ws://` from an https page is assumed blocked (§14.2)"
        case .safariOther: "Safari's behaviour here is assumed (§14.2)"
        }
    }
}

/// A reference that is mixed content (or an insecure navigation) on an `https` page.
public struct MixedContentFinding: Hashable, Sendable, Codable {
    /// The reference as found by the scanner.
    public var reference: ResourceReference
    /// The insecure URL the browser would request: the reference resolved.
    public var insecureURL: String
    /// The verdict code (spec §14.2's htlint column).
    public var verdict: MixedContentVerdict
    /// For subresources, the specification's class; `nil` for forms, links, downloads, refreshes.
    public var specClass: MixedContentClass?
    /// Set when an image or media request is blockable only because of a Level 2 exception.
    public var exclusion: UpgradeExclusion?
    /// Why the reference got its class, e.g. "`srcset` requests an image set (initiator
    /// `imageset`), which is never upgraded".
    public var reason: String
    /// What current Chrome, Firefox and Safari do (spec §14.2 columns).
    public var behaviour: [BrowserOutcome]
    /// Assumptions (spec §17) this verdict relies on.
    public var assumptions: [ModelAssumption]
    /// The URL with `https`/`wss` for `http`/`ws`, explicit ports kept: what an upgrade requests
    /// and what a fix would write.
    public var secureURL: String
    /// Rewrites the scheme in place when the reference is written as an absolute `http:`/`ws:`
    /// URL. Always `.unsafe`: it only works if the host serves the `https` variant, which the
    /// simulator, not this module, can tell.
    public var fix: FixIt?
    /// The message: what is wrong, naming the URL as written.
    public var message: String

    /// The verdict's severity (spec §15 H22).
    public var severity: Severity { verdict.severity }
}
