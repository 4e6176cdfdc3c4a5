import HtlintDiagnostics

/// What a reference makes the browser do, named after the Fetch destination (and initiator)
/// that the Mixed Content specification classifies (spec §14.2).
public enum ResourceKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Destination `image`, empty initiator: `<img src>`, `<input type=image>`, `<video poster>`,
    /// SVG `<image>`, legacy `background` attributes, CSS images. Upgradeable.
    case image
    /// Destination `image`, initiator `imageset`: `<img srcset>`, any `<img>` in `<picture>`,
    /// `<picture><source srcset>`, `<link rel=preload imagesrcset>`. Blockable.
    case imageSet
    /// `<audio src>`, `<source src>` in `<audio>`. Upgradeable.
    case audio
    /// `<video src>`, `<source src>` in `<video>`. Upgradeable.
    case video
    /// `<track src>`. Blockable.
    case track
    /// `<script src>`, `<link rel=modulepreload>`, module `import`s, workers, `importScripts()`.
    /// Blockable.
    case script
    /// `<link rel=stylesheet>`, CSS `@import`. Blockable.
    case style
    /// CSS `@font-face { src: url() }`, `<link rel=preload as=font>`. Blockable.
    case font
    /// `<link rel=icon>`, `apple-touch-icon`, `mask-icon`. Upgradeable by assumption (§17 Q12).
    case icon
    /// `<link rel=manifest>`. Blockable.
    case manifest
    /// `<iframe src>`, `<frame src>`: a nested navigation. Blockable.
    case frame
    /// `<object data>`. Blockable.
    case object
    /// `<embed src>`. Blockable.
    case embed
    /// Empty destination: `<link rel=prefetch>`, `fetch()`, `XMLHttpRequest`, `EventSource`,
    /// `navigator.sendBeacon()`, external SVG `<use>`. Blockable.
    case fetch
    /// `new WebSocket("ws://…")`. Blockable (spec §14.2, [A]).
    case websocket
    /// CSS `cursor: url()`: unclear in the specification, blockable to be safe (§17 Q12).
    case cursor
    /// `<form action>`, `<button formaction>`, `<input formaction>`: a form submission.
    case form
    /// `<a href>`, `<area href>`: a top-level navigation, never mixed content.
    case link
    /// `<a download href>`: a download, blocked and never upgraded.
    case download
    /// `<meta http-equiv=refresh content="…; url=…">`: a top-level navigation.
    case refresh
    /// `<base href>`: not a request; it changes how every relative reference resolves.
    case base

    /// Whether the browser fetches this while rendering the page (as opposed to navigating,
    /// submitting, downloading or resolving).
    public var isSubresource: Bool {
        switch self {
        case .form, .link, .download, .refresh, .base: false
        default: true
        }
    }
}

/// Where in a page or style sheet a reference was written.
public enum ReferenceSource: String, Sendable, Hashable, Codable {
    /// An HTML attribute such as `<img src>`.
    case htmlAttribute
    /// A declaration in an HTML `style="…"` attribute.
    case styleAttribute
    /// A `<style>` element.
    case styleElement
    /// A CSS file.
    case stylesheet
    /// A URL string passed to `fetch()`, `new WebSocket()`… in an inline `<script>`.
    case inlineScript
}

/// One URL found in a page or style sheet, with its exact position.
public struct ResourceReference: Hashable, Sendable, Codable {
    /// What the browser does with it.
    public var kind: ResourceKind
    /// Whether it was written in an HTML attribute, in CSS or in a script.
    public var source: ReferenceSource
    /// Lower-case element name (`img`, `link`, `style`); `nil` in a CSS file.
    public var element: String?
    /// Attribute holding the URL (`src`, `srcset`, `href`, `content`, `style`); `nil` for
    /// `<style>` and `<script>` content and CSS files.
    public var attribute: String?
    /// More context: the `rel` (and `as`) of a `<link>`; the CSS property or at-rule
    /// (`background-image`, `@import`, `@font-face src`); the script API (`fetch()`); a form's
    /// submission method (`method=post`; nil for a button without `formmethod`).
    public var detail: String?
    /// The URL with character references, CSS escapes or string escapes decoded and the
    /// surrounding whitespace removed: what the browser resolves.
    public var url: String
    /// The same URL exactly as written in the file (`a?x=1&amp;y=2`).
    public var rawText: String
    /// UTF-8 byte range of `rawText` in the file; `range.start` is the URL's first character.
    public var range: SourceRange
    /// `url` resolved against the document base URL (or the style sheet's URL), when that is
    /// known or `url` is absolute.
    public var resolvedURL: String?
    /// Whether resolution went through a `<base href>` rather than the page URL.
    public var resolvedThroughBase: Bool
    /// The element requests it in CORS mode (`crossorigin`), which makes images and media
    /// blockable rather than upgradeable (Mixed Content Level 2 upgrade exceptions, spec §14.1).
    public var isCORS: Bool

    /// Memberwise; scanners build references, tests and callers may build their own.
    public init(kind: ResourceKind, source: ReferenceSource, element: String?, attribute: String?,
                detail: String? = nil, url: String, rawText: String, range: SourceRange,
                resolvedURL: String? = nil, resolvedThroughBase: Bool = false, isCORS: Bool = false) {
        self.kind = kind
        self.source = source
        self.element = element
        self.attribute = attribute
        self.detail = detail
        self.url = url
        self.rawText = rawText
        self.range = range
        self.resolvedURL = resolvedURL
        self.resolvedThroughBase = resolvedThroughBase
        self.isCORS = isCORS
    }

    /// How a message names the place: "`<img srcset>`", "`<link rel=stylesheet href>`",
    /// "`url()` in `background-image`", "`@import`", "`fetch()` in `<script>`".
    public var contextDescription: String {
        switch source {
        case .htmlAttribute:
            let name = element ?? "?"
            let attr = attribute ?? "?"
            if name == "link", let detail { return "`<link rel=\(detail) \(attr)>`" }
            if name == "meta" { return "`<meta http-equiv=refresh>`" }
            if kind == .download { return "`<\(name) download \(attr)>`" }
            return "`<\(name) \(attr)>`"
        case .styleAttribute, .styleElement, .stylesheet:
            let place = source == .styleAttribute ? " in a `style` attribute"
                : source == .styleElement ? " in `<style>`" : ""
            guard let detail else { return "`url()`\(place)" }
            if detail.hasPrefix("@import") { return "`@import`\(place)" }
            return "`url()` in `\(detail)`\(place)"
        case .inlineScript:
            return "`\(detail ?? "script")` in `<script>`"
        }
    }
}

/// Everything `PageScanner` found in one HTML file.
public struct PageScan: Sendable {
    /// Path of the scanned file, as in `SourceRange.file`.
    public var file: String
    /// The URL the page was scanned as (`nil` when unknown).
    public var pageURL: String?
    /// The `<base href>` that sets the document base URL: the first `<base>` with an `href`.
    public var base: ResourceReference?
    /// The document base URL every reference was resolved against: the `<base href>` resolved
    /// against the page URL, else the page URL (HTML "document base URL").
    public var baseURL: String?
    /// Subresources, form targets, refresh targets and `<base href>`s in source order.
    public var references: [ResourceReference]
    /// Hyperlinks (`<a href>`, `<area href>`, downloads) in source order: top-level
    /// navigations, reported apart because they are never mixed content.
    public var links: [ResourceReference]
    /// The page has `<meta http-equiv=Content-Security-Policy content="upgrade-insecure-requests">`,
    /// so browsers rewrite its `http` subresources to `https` before the mixed-content check
    /// (spec §14.5).
    public var upgradesInsecureRequests: Bool

    /// Memberwise.
    public init(file: String, pageURL: String?, base: ResourceReference?, baseURL: String?,
                references: [ResourceReference], links: [ResourceReference],
                upgradesInsecureRequests: Bool) {
        self.file = file
        self.pageURL = pageURL
        self.base = base
        self.baseURL = baseURL
        self.references = references
        self.links = links
        self.upgradesInsecureRequests = upgradesInsecureRequests
    }
}
