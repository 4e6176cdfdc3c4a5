import HtlintApache
import HtlintContent
import HtlintDiagnostics
import HtlintSimulation

/// A `Strict-Transport-Security` value as a browser reads it (RFC 6797 §6.1): directives
/// separated by `;`, names case-insensitive, `max-age` possibly quoted.
struct HSTSPolicy {
    /// `nil` when the directive is missing or not a number (the header is then invalid, §6.1.1).
    var maxAge: Int?
    var hasMaxAge: Bool
    var includeSubDomains: Bool
    var preload: Bool

    /// The preload list's minimum `max-age` (hstspreload.org; checker `max_age.below_1_year`).
    static let oneYear = 31_536_000

    /// A `max-age` in words: `31536000` → "1 year", `86400` → "1 day", `7200` → "2 hours",
    /// anything not a whole number of those → seconds.
    static func duration(_ seconds: Int) -> String {
        let units = [(oneYear, "year"), (86_400, "day"), (3_600, "hour")]
        for (size, name) in units where seconds >= size && seconds % size == 0 {
            let n = seconds / size
            return "\(n) \(name)\(n == 1 ? "" : "s")"
        }
        return "\(seconds) seconds"
    }

    init(_ value: String) {
        maxAge = nil
        hasMaxAge = false
        includeSubDomains = false
        preload = false
        for part in value.split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            let name = pieces.first.map { String($0).trimmed(of: " \t").lowercased() } ?? ""
            switch name {
            case "max-age":
                hasMaxAge = true
                let raw = pieces.count > 1 ? String(pieces[1]).trimmed(of: " \t\"") : ""
                maxAge = Int(raw)
            case "includesubdomains": includeSubDomains = true
            case "preload": preload = true
            default: break
            }
        }
    }
}

/// A `Header` directive that sets `Strict-Transport-Security`, with its file.
struct HSTSHeader {
    var header: HeaderDirective
    var file: LintFile
    var policy: HSTSPolicy { HSTSPolicy(header.value) }

    /// Every directive of the context that sets the header (`unset`, `echo`, `edit` do not).
    static func all(in context: LintContext) -> [HSTSHeader] {
        context.files.flatMap { file in
            allHeaders(file.config.block).filter {
                $0.name.lowercased() == "strict-transport-security"
                    && ["set", "add", "append", "merge", "setifempty"].contains($0.action)
            }.map { HSTSHeader(header: $0, file: file) }
        }
    }

    /// The range of `token` (case-insensitive) in the directive's value, else the directive's start:
    /// a finding about `max-age` points at `max-age`.
    func range(of token: String) -> SourceRange {
        let r = header.range
        // ASCII case folding byte by byte keeps offsets exact (String.lowercased() may not).
        func folded(_ bytes: some Sequence<UInt8>) -> [UInt8] { bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }
        let text = folded(file.source.bytes[r.start..<min(r.end, file.source.bytes.count)])
        let needle = folded(token.utf8)
        let nameEnd = text.firstRange(of: Array("strict-transport-security".utf8))?.upperBound ?? 0
        if let found = text[nameEnd...].firstRange(of: needle) {
            return file.source.range(r.start + found.lowerBound, r.start + found.upperBound)
        }
        return r
    }
}

extension LintContext {
    /// The root `.htaccess` (or the first file), where a site-wide finding without a directive of
    /// its own is reported: at its first directive, so a comment above does not move it.
    var siteWideLocation: SourceRange? {
        guard let file = files.first(where: { $0.context == .htaccess && $0.directory == "/" }) ?? files.first else { return anchor?.range(0, 0) }
        if let first = file.directives.first { return file.source.range(first.range.start, first.range.start) }
        return file.source.range(0, 0)
    }

    /// Whether a layer in front of Apache ends TLS and reaches it over http (spec §11, §12.1).
    var tlsTerminatedInFront: Bool {
        edge.isProxy && edge.mode != .cloudflareOff && !edge.originTLS(forVisitorScheme: "https")
    }

    /// Whether the site is served over https: a TLS-terminating layer is in front, or the
    /// simulator sends `http://HOST/` to an https URL.
    var servesHTTPS: Bool {
        if tlsTerminatedInFront { return true }
        return httpsRedirect != nil
    }

    /// The first hop of `http://HOST/` when it is a redirect to https (by Apache or a layer).
    var httpsRedirect: Hop? {
        guard let host = hosts.first,
              let probe = probes.first(where: { $0.url == "http://\(host)/" }),
              let first = probe.chain.hops.first, first.answeredBy != "browser",
              (300..<400).contains(first.status),
              first.location.flatMap({ URLResolver.resolveAsBrowser($0, against: first.url) })?.lowercased().hasPrefix("https:") == true
        else { return nil }
        return first
    }
}
