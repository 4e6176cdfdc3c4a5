import HtlintDiagnostics

/// Finds every URL an HTML page makes the browser request, navigate to or resolve against,
/// with the exact position of each URL's first character.
///
/// The page is parsed by libxml2's HTML parser (`HTMLTree`); `ElementRules` says which
/// attributes of which elements hold URLs (spec §14.2 extraction list); `StartTagLocator` and
/// `MappedText` find each value in the original bytes, entities and all. CSS in `style`
/// attributes and `<style>` elements goes through `CSSScanner`, inline scripts through
/// `ScriptLiteralScanner`.
public enum PageScanner {
    /// Scans an HTML file. `pageURL` is the URL the page is served at; with it (or an absolute
    /// `<base href>`) every reference also gets its `resolvedURL`.
    public static func scanHTML(_ file: SourceFile, pageURL: String? = nil) -> PageScan {
        var scanner = Scan(file: file, pageURL: pageURL)
        scanner.run()
        return PageScan(file: file.path, pageURL: pageURL, base: scanner.base, baseURL: scanner.baseURL,
                        references: scanner.references, links: scanner.links,
                        upgradesInsecureRequests: scanner.upgradesInsecureRequests)
    }
}

/// The state of one `scanHTML` call.
private struct Scan {
    let file: SourceFile
    let pageURL: String?
    let tree: HTMLTree
    var baseIndex: Int?
    /// Whether the `<base href>` set the document base URL (it does not when it resolves to
    /// `data:` or `javascript:`, or when it is relative and the page URL is unknown).
    var baseApplies = false
    var baseURL: String?
    /// `baseURL` and `pageURL` parsed once; every reference resolves against one of them.
    var parsedBase: URIReference?
    let parsedPage: URIReference?
    var base: ResourceReference?
    var references: [ResourceReference] = []
    var links: [ResourceReference] = []
    var upgradesInsecureRequests = false
    /// End of the last start tag located: the next one starts after it, which bounds every
    /// backward search (source order is document order; libxml2 never reorders elements).
    var lowerBound = 0

    init(file: SourceFile, pageURL: String?) {
        self.file = file
        self.pageURL = pageURL
        tree = HTMLTree(parsing: file.bytes)
        parsedPage = pageURL.map(URIReference.init(parsing:))
        baseURL = pageURL
        // HTML "document base URL": the first <base> with an href, resolved against the page
        // URL; a data: or javascript: result is ignored and the page URL stays the base.
        if let index = tree.elements.firstIndex(where: { $0.name == "base" && !$0.inText && $0.has("href") }) {
            baseIndex = index
            let href = tree.elements[index].value("href") ?? ""
            if let resolved = URLResolver.resolveAsBrowser(href, againstParsed: parsedPage),
               let scheme = URIReference(parsing: resolved).scheme, scheme != "data", scheme != "javascript" {
                baseURL = resolved
                baseApplies = true
            }
        }
        parsedBase = baseURL.map(URIReference.init(parsing:))
    }

    mutating func run() {
        for index in tree.elements.indices {
            let element = tree.elements[index]
            guard !element.inText, let anchor = element.anchor else { continue }
            let rules = ElementRules.extractions(for: element, in: tree.elements)
            let hasStyle = element.has("style")
            if element.name == "meta",
               element.value("http-equiv")?.lowercased() == "content-security-policy",
               AttributeSyntax.hasUpgradeInsecureRequests(element.value("content") ?? "") {
                upgradesInsecureRequests = true
            }
            if element.name == "style" || (element.name == "script" && ElementRules.isInlineScript(element)) {
                scanContent(of: element, anchor: anchor)
            }
            guard !rules.isEmpty || hasStyle else { continue }
            let tag = StartTagLocator.locate(element.name, anchor: anchor, lowerBound: lowerBound, in: tree.parsedBytes,
                                             attributeNames: element.attributes.map(\.name))
            if let tag { lowerBound = tag.end }
            for rule in rules {
                extract(rule, from: element, index: index, tag: tag, anchor: anchor)
            }
            if hasStyle {
                extract(Extraction(attribute: "style", kind: .image, syntax: .css), from: element,
                        index: index, tag: tag, anchor: anchor)
            }
        }
        references.sort { $0.range.start < $1.range.start }
        links.sort { $0.range.start < $1.range.start }
    }

    /// The URLs of one attribute.
    private mutating func extract(_ rule: Extraction, from element: HTMLElement, index: Int, tag: StartTag?, anchor: Int) {
        guard let value = element.value(rule.attribute) else { return }
        let text = mappedValue(value, of: rule.attribute, in: tag, anchor: anchor)
        if rule.syntax == .css {
            let found = CSSScanner.scan(file, text, source: .styleAttribute, element: element.name,
                                        attribute: "style", baseURL: baseURL, throughBase: baseApplies)
            references += found
            return
        }
        let ranges: [Range<Int>]
        switch rule.syntax {
        case .url: ranges = [AttributeSyntax.trimmed(text.bytes)]
        case .srcset: ranges = AttributeSyntax.srcsetURLs(text.bytes)
        case .refresh: ranges = AttributeSyntax.refreshURL(text.bytes).map { [$0] } ?? []
        case .css: ranges = []
        }
        for range in ranges where !range.isEmpty {
            let raw = text.sourceRange(range)
            let url = String(decoding: text.bytes[range], as: UTF8.self)
            let isBase = rule.kind == .base
            let reference = ResourceReference(
                kind: rule.kind, source: .htmlAttribute, element: element.name, attribute: rule.attribute,
                detail: rule.detail, url: url, rawText: file.text(raw),
                range: file.range(raw.lowerBound, raw.upperBound),
                resolvedURL: URLResolver.resolveAsBrowser(url, againstParsed: isBase ? parsedPage : parsedBase),
                resolvedThroughBase: !isBase && baseApplies && !URLResolver.hasScheme(url),
                isCORS: rule.isCORS)
            if isBase, index == baseIndex, base == nil { base = reference }
            if rule.kind == .link || rule.kind == .download { links.append(reference) } else { references.append(reference) }
        }
    }

    /// The decoded value with its map to the file. When the located raw text decodes to what
    /// libxml2 decoded, the map is exact; otherwise (markup libxml2 read differently) every
    /// character maps to the best position found for the value as a whole.
    private func mappedValue(_ value: String, of name: String, in tag: StartTag?, anchor: Int) -> MappedText {
        let parsed = tree.parsedBytes
        if let range = tag?.attribute(name)?.value {
            for normalizing in [false, true] {
                let mapped = MappedText(attribute: parsed, range, normalizingNewlines: normalizing)
                if mapped.bytes.elementsEqual(value.utf8) {
                    // The URL text comes from the file, not from the sanitized copy.
                    return parsed[range] == file.bytes[range] ? mapped
                        : MappedText(attribute: file.bytes, range, normalizingNewlines: normalizing)
                }
            }
        }
        let start = tag?.attribute(name)?.value?.lowerBound ?? fallbackOffset(of: value, before: anchor)
        return MappedText(assuming: Array(value.utf8), at: start, limit: file.bytes.count)
    }

    private func fallbackOffset(of value: String, before anchor: Int) -> Int {
        let needle = Array(value.utf8)
        let haystack = tree.parsedBytes
        guard !needle.isEmpty, anchor - lowerBound >= needle.count else { return anchor }
        var p = anchor - needle.count
        while p >= lowerBound {
            if haystack[p..<(p + needle.count)].elementsEqual(needle) { return p }
            p -= 1
        }
        return anchor
    }

    /// `<style>` and inline `<script>` content: raw text up to the matching end tag, which
    /// libxml2 (with `HTML_PARSE_RECOVER`) and browsers both end at `</style`/`</script`.
    private mutating func scanContent(of element: HTMLElement, anchor: Int) {
        let bytes = tree.parsedBytes
        guard anchor < bytes.count, bytes[anchor] == UInt8(ascii: ">") else { return }
        let start = anchor + 1
        let end = endTag(element.name, from: start, in: bytes)
        let text = MappedText(raw: file.bytes, start..<end)
        if element.name == "style" {
            references += CSSScanner.scan(file, text, source: .styleElement, element: "style", attribute: nil,
                                          baseURL: baseURL, throughBase: baseApplies)
            return
        }
        for found in ScriptLiteralScanner.urls(in: text.bytes) where !found.url.trimmingASCIISpaces.isEmpty {
            let raw = text.sourceRange(found.range)
            references.append(ResourceReference(
                kind: found.kind, source: .inlineScript, element: "script", attribute: nil, detail: found.api,
                url: found.url.trimmingASCIISpaces, rawText: file.text(raw),
                range: file.range(raw.lowerBound, raw.upperBound),
                resolvedURL: URLResolver.resolveAsBrowser(found.url, againstParsed: parsedBase),
                resolvedThroughBase: baseApplies && !URLResolver.hasScheme(found.url)))
        }
    }

    private func endTag(_ name: String, from start: Int, in b: [UInt8]) -> Int {
        let pattern = Array("</\(name)".utf8)
        var i = start
        while i + pattern.count <= b.count {
            if b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "/") {
                var matches = true
                for k in 2..<pattern.count where b[i + k] | 0x20 != pattern[k] { matches = false; break }
                if matches { return i }
            }
            i += 1
        }
        return b.count
    }
}
