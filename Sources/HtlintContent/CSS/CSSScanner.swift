import HtlintDiagnostics

/// Finds the URLs a style sheet makes the browser fetch: `url()` (quoted or not) in any
/// declaration, `@import "x"` and `@import url(x)`, `@font-face { src: url() }`, and strings in
/// `image-set()`. Comments and other strings are skipped, so text that only looks like a URL
/// (`content: "http://…"`) is never reported, and neither is `@namespace url(…)`, which names a
/// namespace and fetches nothing.
///
/// The tokenizer is a small subset of CSS Syntax Level 3 (§4.3): comments, strings with
/// escapes, identifiers, `url(` tokens, blocks. It tracks the declaration's property so a URL
/// gets its destination: `cursor` → `.cursor`, `src` inside `@font-face` → `.font`, `@import`
/// → `.style`, everything else → `.image`.
public enum CSSScanner {
    /// Scans a CSS file, or `range` of it (UTF-8 byte offsets). Relative URLs resolve against
    /// `baseURL`, the style sheet's own URL (CSS Values: relative URLs resolve against the style sheet), when given.
    public static func scan(_ file: SourceFile, range: Range<Int>? = nil, baseURL: String? = nil) -> [ResourceReference] {
        let range = range ?? 0..<file.bytes.count
        return scan(file, MappedText(raw: file.bytes, range.clamped(to: 0..<file.bytes.count)),
                    source: .stylesheet, element: nil, attribute: nil, baseURL: baseURL)
    }

    /// Scans decoded CSS text (a `style` attribute after entity decoding, or raw bytes) and maps
    /// each URL back to the file.
    static func scan(_ file: SourceFile, _ text: MappedText, source: ReferenceSource, element: String?,
                     attribute: String?, baseURL: String?, throughBase: Bool = false) -> [ResourceReference] {
        let base = baseURL.map(URIReference.init(parsing:))
        return CSSTokenizer.urls(in: text.bytes).map { found in
            let raw = text.sourceRange(found.range)
            return ResourceReference(
                kind: found.kind, source: source, element: element, attribute: attribute,
                detail: found.detail, url: found.url, rawText: file.text(raw),
                range: file.range(raw.lowerBound, raw.upperBound),
                resolvedURL: URLResolver.resolveAsBrowser(found.url, againstParsed: base),
                resolvedThroughBase: throughBase && !URLResolver.hasScheme(found.url))
        }
    }
}

extension String {
    var trimmingASCIISpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
              let last = scalars.lastIndex(where: { $0.value > 0x20 }) else { return "" }
        return String(scalars[first...last])
    }
}
