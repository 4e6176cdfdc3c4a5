import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// What `diff` keeps of one chain: per hop the URL, status and `Location`, and the final answer.
/// Two chains "differ" exactly when their digests differ.
struct ChainDigest: Equatable, Encodable {
    struct HopDigest: Equatable, Encodable {
        var url: String
        var status: Int
        var location: String?
    }

    var hops: [HopDigest]
    var finalStatus: Int
    var verdict: String

    init(_ r: ChainResult) {
        hops = r.hops.map { HopDigest(url: $0.url, status: $0.status, location: $0.location) }
        finalStatus = r.finalStatus
        verdict = r.verdict.rawValue
    }

    /// `301 → https://example.org/b (200)`, `404`, `301 → /a → 301 → /a (loop)`.
    var text: String {
        var parts: [String] = []
        var end = ""
        for (i, h) in hops.enumerated() {
            let status = h.status == 0 ? "no answer" : String(h.status)
            if let location = h.location, i < hops.count - 1 || verdict != Verdict.ok.rawValue {
                parts.append("\(status) → \(location)")
            } else {
                end = status
            }
        }
        let note = verdict == Verdict.ok.rawValue ? "" : verdict
        if parts.isEmpty { return end.isEmpty ? "(\(note))" : end + (note.isEmpty ? "" : " (\(note))") }
        let tail = [end, note].filter { !$0.isEmpty }.joined(separator: ", ")
        return parts.joined(separator: " → ") + (tail.isEmpty ? "" : " (\(tail))")
    }
}

/// The directive a difference is laid at: a rule or `Redirect` of the old or the new configuration.
struct Directive: Hashable, Comparable {
    /// "old" or "new": which configuration it belongs to.
    var config: String
    var file: String
    /// 1-based; 0 when the file's text is not at hand (virtual-host lines).
    var line: Int
    var text: String

    var heading: String { (line > 0 ? "\(file):\(line)" : file) + (text.isEmpty ? "" : ": \(text)") }

    static func < (a: Self, b: Self) -> Bool {
        (a.file, a.line, a.text, a.config) < (b.file, b.line, b.text, b.config)
    }
}

/// One distinct request whose old and new chains differ.
struct DiffEntry {
    var method: String
    var url: String
    /// How many requests of the input were this method and URL.
    var occurrences: Int
    var old: ChainDigest
    var new: ChainDigest
    /// Index of the first hop that differs.
    var hop: Int
    /// Where the difference comes from; nil when no rule or `Redirect` fired at that hop on either side.
    var directive: Directive?
    /// Matched by an `--allow` pattern: listed, but not a failure.
    var allowed: Bool

    /// Compares two chains for one request; nil when they agree.
    static func compare(_ request: ReplayRequest, old: ChainResult, new: ChainResult, oldSite: Site, newSite: Site,
                        allowed: Bool) -> DiffEntry? {
        let a = ChainDigest(old), b = ChainDigest(new)
        if a == b { return nil }
        var i = 0
        while i < a.hops.count, i < b.hops.count, a.hops[i] == b.hops[i] { i += 1 }
        i = max(0, min(i, max(a.hops.count, b.hops.count) - 1))
        return DiffEntry(method: request.method, url: request.url, occurrences: 1, old: a, new: b, hop: i,
                         directive: blame(old: old, new: new, hop: i, oldSite: oldSite, newSite: newSite), allowed: allowed)
    }

    /// The directive responsible for hop `i` differing. The rules that fired for that hop on each
    /// side are compared in order by their text; the first one where the sides part is the cause —
    /// the new configuration's when it has one there (a changed or added rule), else the old one's
    /// (a rule that no longer fires). When both fired the same rules (the files under them
    /// changed), the last rule the new side fired, else the old side's.
    static func blame(old: ChainResult, new: ChainResult, hop i: Int, oldSite: Site, newSite: Site) -> Directive? {
        func fired(_ r: ChainResult, _ site: Site) -> [(range: SourceRange, text: String)] {
            guard i < r.hops.count, let origin = r.hops[i].origin else { return [] }
            return origin.firedRules.map { ($0, site.text(of: $0) ?? "") }
        }
        func directive(_ f: (range: SourceRange, text: String), _ site: Site, _ config: String) -> Directive {
            Directive(config: config, file: f.range.file, line: site.line(of: f.range) ?? 0,
                      text: f.text.trimmingCharacters(in: .whitespaces))
        }
        let a = fired(old, oldSite), b = fired(new, newSite)
        var k = 0
        while k < a.count, k < b.count, a[k].text == b[k].text { k += 1 }
        if k < b.count { return directive(b[k], newSite, "new") }
        if k < a.count { return directive(a[k], oldSite, "old") }
        if let last = b.last { return directive(last, newSite, "new") }
        if let last = a.last { return directive(last, oldSite, "old") }
        return nil
    }
}

/// `--allow PATTERN`: `*` matches any run of characters; matched against the URL's path, or the
/// whole URL when the pattern has a scheme.
struct AllowPattern {
    let pattern: [UInt8]
    let wholeURL: Bool

    init(_ text: String) {
        pattern = Array(text.utf8)
        wholeURL = text.contains("://")
    }

    func matches(_ url: String) -> Bool {
        if wholeURL { return Self.glob(pattern, Array(url.utf8)) }
        let target = URLParts(url)?.target ?? url
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        return Self.glob(pattern, Array(path.utf8))
    }

    /// Linear-time `*` matching (the last star backtracks, earlier ones never need to).
    static func glob(_ p: [UInt8], _ s: [UInt8]) -> Bool {
        var i = 0, j = 0
        var star = -1, mark = 0
        while j < s.count {
            if i < p.count, p[i] == UInt8(ascii: "*") {
                star = i
                mark = j
                i += 1
            } else if i < p.count, p[i] == s[j] {
                i += 1
                j += 1
            } else if star >= 0 {
                i = star + 1
                mark += 1
                j = mark
            } else {
                return false
            }
        }
        while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
        return i == p.count
    }
}

/// Everything `diff` found: counts, and the differing requests grouped by directive.
struct DiffReport {
    var requests = 0
    var distinct = 0
    var skipped = SkippedLines()
    var entries: [DiffEntry] = []

    var differing: Int { entries.count }
    var allowed: Int { entries.filter(\.allowed).count }
    var failing: Int { differing - allowed }

    struct Group {
        var directive: Directive?
        var entries: [DiffEntry]
        var requests: Int { entries.reduce(0) { $0 + $1.occurrences } }
    }

    /// Groups by directive (file, line; differences no directive explains last), URLs sorted.
    func groups(allowed: Bool) -> [Group] {
        var byDirective: [Directive?: [DiffEntry]] = [:]
        for e in entries where e.allowed == allowed { byDirective[e.directive, default: []].append(e) }
        return byDirective.map { key, list in
            Group(directive: key, entries: list.sorted { ($0.url, $0.method) < ($1.url, $1.method) })
        }.sorted { a, b in
            switch (a.directive, b.directive) {
            case let (x?, y?): x < y
            case (_?, nil): true
            default: false
            }
        }
    }

    func summary() -> String {
        var s = "\(requests) request\(requests == 1 ? "" : "s"), \(distinct) distinct, \(differing) differ"
        if allowed > 0 { s += " (\(allowed) allowed by --allow)" }
        if skipped.count > 0 { s += "; \(skipped.count) line\(skipped.count == 1 ? "" : "s") skipped" }
        return s + "\n"
    }

    static let noDirective = "(no RewriteRule or Redirect fired there: the files differ, or directives such as Require or ErrorDocument)"

    func text(examples: Int) -> String {
        var s = summary()
        func render(_ groups: [Group]) {
            for g in groups {
                s += "\n" + (g.directive?.heading ?? Self.noDirective) + "\n"
                let n = g.entries.count
                s += "  \(n) URL\(n == 1 ? "" : "s")" + (g.requests == n ? "" : " (\(g.requests) requests)")
                switch g.directive?.config {
                case "new": s += " · new configuration\n"
                case "old": s += " · old configuration, nothing in its place in the new one\n"
                default: s += "\n"
                }
                for e in g.entries.prefix(examples) {
                    s += "  " + (e.method == "GET" ? "" : e.method + " ") + e.url
                        + (e.occurrences > 1 ? "  (×\(e.occurrences))" : "") + "\n"
                    s += "    old: \(e.old.text)\n"
                    s += "    new: \(e.new.text)\n"
                }
                if n > examples { s += "  … and \(n - examples) more (--examples N, or --format json for all)\n" }
            }
        }
        render(groups(allowed: false))
        let allowedGroups = groups(allowed: true)
        if !allowedGroups.isEmpty {
            s += "\nallowed by --allow (\(allowed) URL\(allowed == 1 ? "" : "s"), not a failure):\n"
            render(allowedGroups)
        }
        return s
    }

    // MARK: - JSON

    struct Document: Encodable {
        struct Summary: Encodable {
            var requests, distinct, differ, allowed, skipped: Int
        }
        var summary: Summary
        var groups: [GroupOut]
        var allowed: [GroupOut]
    }

    struct GroupOut: Encodable {
        /// "old" or "new"; absent (like file, line, directive) when no directive fired.
        var config: String?
        var file: String?
        var line: Int?
        var directive: String?
        var count: Int
        var requests: Int
        var urls: [EntryOut]
    }

    struct EntryOut: Encodable {
        var method: String
        var url: String
        var requests: Int
        /// 0-based index of the first differing hop.
        var hopIndex: Int
        var old: ChainDigest
        var new: ChainDigest
    }

    func json() -> String {
        func out(_ g: Group) -> GroupOut {
            GroupOut(config: g.directive?.config, file: g.directive?.file, line: g.directive.flatMap { $0.line > 0 ? $0.line : nil },
                     directive: g.directive?.text, count: g.entries.count, requests: g.requests,
                     urls: g.entries.map { EntryOut(method: $0.method, url: $0.url, requests: $0.occurrences, hopIndex: $0.hop,
                                                    old: $0.old, new: $0.new) })
        }
        let doc = Document(summary: .init(requests: requests, distinct: distinct, differ: differing, allowed: allowed, skipped: skipped.count),
                           groups: groups(allowed: false).map(out), allowed: groups(allowed: true).map(out))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(doc)) ?? Data(), as: UTF8.self) + "\n"
    }
}
