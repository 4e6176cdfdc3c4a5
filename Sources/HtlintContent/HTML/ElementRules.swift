/// How an attribute value holds its URLs.
enum AttributeSyntaxKind: Sendable {
    /// One URL, possibly surrounded by spaces.
    case url
    /// Image candidates: `a.png 1x, b.png 2x`.
    case srcset
    /// `N; url=…` of `<meta http-equiv=refresh>`.
    case refresh
    /// CSS declarations (`style` attribute).
    case css
}

/// One attribute to read from an element.
struct Extraction: Sendable {
    var attribute: String
    var kind: ResourceKind
    var syntax: AttributeSyntaxKind = .url
    var detail: String?
    var isCORS = false
}

/// Which attributes of which elements hold URLs, and what the browser does with each
/// (spec §14.2 extraction list and classification table; HTML's fetch algorithms for the
/// destination and initiator).
enum ElementRules {
    /// `method=post` for a form's (or a button's `formmethod`) submission method; HTML knows
    /// `get`, `post` and `dialog` (matched without case, not trimmed), and any other value means `get`.
    static func formMethod(_ value: String?) -> String? {
        guard let value else { return nil }
        let method = value.lowercased()
        return "method=" + (["post", "dialog"].contains(method) ? method : "get")
    }

    static func extractions(for e: HTMLElement, in elements: [HTMLElement]) -> [Extraction] {
        let cors = e.has("crossorigin")
        let media = e.mediaParent.map { elements[$0] }
        switch e.name {
        case "img":
            // HTML "update the image data": an <img> with srcset or inside <picture> fetches with initiator
            // "imageset", which Mixed Content Level 2 excludes from upgrading (spec §14.1).
            let set = e.has("srcset") || media?.name == "picture"
            return [Extraction(attribute: "src", kind: set ? .imageSet : .image, isCORS: cors),
                    Extraction(attribute: "srcset", kind: .imageSet, syntax: .srcset, isCORS: cors)]
        case "image":
            // Inside <svg> an SVG image; elsewhere the HTML parser renames <image> to <img>.
            if e.inSVG { return svgHref(e, kind: .image) }
            return [Extraction(attribute: "src", kind: .image, isCORS: cors)]
        case "source":
            switch media?.name {
            case "picture": return [Extraction(attribute: "srcset", kind: .imageSet, syntax: .srcset)]
            case "video": return [Extraction(attribute: "src", kind: .video, isCORS: media?.has("crossorigin") ?? false)]
            case "audio": return [Extraction(attribute: "src", kind: .audio, isCORS: media?.has("crossorigin") ?? false)]
            default: return []   // browsers ignore a <source> outside picture, video and audio
            }
        case "video":
            return [Extraction(attribute: "src", kind: .video, isCORS: cors),
                    Extraction(attribute: "poster", kind: .image)]
        case "audio":
            return [Extraction(attribute: "src", kind: .audio, isCORS: cors)]
        case "track":
            return [Extraction(attribute: "src", kind: .track)]
        case "input":
            var rules = [Extraction(attribute: "formaction", kind: .form, detail: formMethod(e.value("formmethod")))]
            if e.value("type")?.lowercased() == "image" { rules.append(Extraction(attribute: "src", kind: .image)) }
            return rules
        case "button":
            return [Extraction(attribute: "formaction", kind: .form, detail: formMethod(e.value("formmethod")))]
        case "form":
            return [Extraction(attribute: "action", kind: .form, detail: formMethod(e.value("method")) ?? "method=get")]
        case "script":
            if e.inSVG { return svgHref(e, kind: .script) + [Extraction(attribute: "src", kind: .script)] }
            return [Extraction(attribute: "src", kind: .script)]
        case "link":
            return linkRules(e)
        case "iframe", "frame":
            return [Extraction(attribute: "src", kind: .frame)]
        case "object":
            return [Extraction(attribute: "data", kind: .object)]
        case "embed":
            return [Extraction(attribute: "src", kind: .embed)]
        case "a", "area":
            let kind: ResourceKind = e.has("download") ? .download : .link
            if e.inSVG { return svgHref(e, kind: kind) }
            return [Extraction(attribute: "href", kind: kind)]
        case "use":
            return e.inSVG ? svgHref(e, kind: .fetch, detail: "svg use") : []
        case "base":
            return [Extraction(attribute: "href", kind: .base)]
        case "meta":
            guard e.value("http-equiv")?.lowercased() == "refresh" else { return [] }
            return [Extraction(attribute: "content", kind: .refresh, syntax: .refresh)]
        case "body", "table", "td", "th":
            // The legacy `background` attribute still loads an image (HTML rendering section).
            return [Extraction(attribute: "background", kind: .image)]
        default:
            return []
        }
    }

    /// SVG 2 `href`, falling back to the deprecated `xlink:href` when `href` is absent.
    private static func svgHref(_ e: HTMLElement, kind: ResourceKind, detail: String? = nil) -> [Extraction] {
        [Extraction(attribute: e.has("href") ? "href" : "xlink:href", kind: kind, detail: detail)]
    }

    /// `<link>` by `rel` (HTML "link types"). Types that fetch nothing while the page loads
    /// (`canonical`, `alternate` alone, `pingback`, `preconnect`…) are not references.
    private static func linkRules(_ e: HTMLElement) -> [Extraction] {
        let rel = AttributeSyntax.tokens(e.value("rel"))
        let cors = e.has("crossorigin")
        let relText = rel.joined(separator: " ")
        if rel.contains("stylesheet") {
            return [Extraction(attribute: "href", kind: .style, detail: relText)]
        }
        if rel.contains("modulepreload") {
            return [Extraction(attribute: "href", kind: .script, detail: relText)]
        }
        if rel.contains("preload") {
            // A preload without a valid `as` is not fetched at all (HTML "link type preload": no valid `as`, no fetch).
            let destination = e.value("as")?.lowercased() ?? ""
            guard var kind = preloadKinds[destination] else { return [] }
            let hasSet = e.has("imagesrcset")
            if kind == .image, hasSet { kind = .imageSet }
            var rules = [Extraction(attribute: "href", kind: kind, detail: "preload as=\(destination)", isCORS: cors)]
            if hasSet, destination == "image" {
                rules.append(Extraction(attribute: "imagesrcset", kind: .imageSet, syntax: .srcset,
                                        detail: "preload as=image", isCORS: cors))
            }
            return rules
        }
        if rel.contains(where: { $0 == "icon" || $0.hasPrefix("apple-touch-icon") || $0 == "mask-icon" || $0 == "apple-touch-startup-image" }) {
            return [Extraction(attribute: "href", kind: .icon, detail: relText)]
        }
        if rel.contains("manifest") {
            return [Extraction(attribute: "href", kind: .manifest, detail: relText)]
        }
        if rel.contains("prefetch") {
            return [Extraction(attribute: "href", kind: .fetch, detail: relText)]
        }
        return []
    }

    /// Destinations of `<link rel=preload as=…>` (HTML "potential destination" → Fetch
    /// destination; `worker` and the worklets are script-like).
    private static let preloadKinds: [String: ResourceKind] = [
        "image": .image, "audio": .audio, "video": .video, "track": .track,
        "script": .script, "worker": .script, "sharedworker": .script, "serviceworker": .script,
        "audioworklet": .script, "paintworklet": .script,
        "style": .style, "font": .font, "fetch": .fetch, "json": .fetch, "document": .frame,
        "embed": .embed, "object": .object, "manifest": .manifest,
    ]

    /// Whether a `<script>` without `src` holds JavaScript (HTML "the script element": no `type`, an empty
    /// one, `module`, or a JavaScript MIME type). JSON-LD and templates fetch nothing.
    static func isInlineScript(_ e: HTMLElement) -> Bool {
        guard !e.has("src") else { return false }
        guard let type = e.value("type")?.trimmingASCIISpaces.lowercased(), !type.isEmpty else { return true }
        return type == "module" || type.hasSuffix("javascript") || type.hasSuffix("ecmascript")
            || type == "text/jscript" || type == "text/livescript"
    }
}
