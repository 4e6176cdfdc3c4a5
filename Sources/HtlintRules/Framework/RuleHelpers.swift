import HtlintApache
import HtlintDiagnostics

extension RewriteRule {
    /// True for `R`/`R=3xx`.
    var redirects: Bool { flags.redirect.map { (300...399).contains($0) } ?? false }
    /// The pass ends after this rule matches.
    var stopsPass: Bool { flags.last || flags.end || flags.passThrough || flags.proxy || flags.statusOverride != nil }
    /// The substitution is an absolute URL.
    var targetsURL: Bool {
        let s = rawSubstitution
        return hasPrefixIgnoringASCIICase(s, "http://") || hasPrefixIgnoringASCIICase(s, "https://")
            || hasPrefixIgnoringASCIICase(s, "%{request_scheme}://")
    }
    /// Numbers of `$N` used in the substitution and conditions.
    var usedCaptures: Set<Int> {
        var used = Set<Int>()
        func scan(_ t: Template) {
            for p in t.parts {
                if case .ruleCapture(let i) = p { used.insert(i) }
                if case .map(_, let key, let fallback) = p { scan(key); if let f = fallback { scan(f) } }
            }
        }
        scan(substitution)
        for c in conditions { scan(c.testString) }
        for e in flags.env { scan(e) }
        return used
    }
    /// The variable names tested by the conditions (upper-cased).
    var testedVariables: [String] {
        conditions.flatMap { c in
            c.testString.parts.compactMap { if case .variable(let v) = $0 { v.uppercased() } else { nil } }
        }
    }
    /// A fix-it that appends flags to the rule (`[R=301]` → `[R=301,L]`, or adds `[L]`).
    func addingFlags(_ extra: String, title: String, applicability: Applicability = .safe) -> FixIt {
        if let fr = flagsRange {
            let end = SourceRange(file: fr.file, start: fr.end - 1, end: fr.end - 1)
            return FixIt(title: title, edits: [TextEdit(range: end, replacement: "," + extra)], applicability: applicability)
        }
        let end = SourceRange(file: substitutionRange.file, start: substitutionRange.end, end: substitutionRange.end)
        return FixIt(title: title, edits: [TextEdit(range: end, replacement: " [\(extra)]")], applicability: applicability)
    }
}

extension RewriteCondition {
    /// Upper-cased names of the variables in the test string.
    var variables: [String] {
        testString.parts.compactMap { if case .variable(let v) = $0 { v.uppercased() } else { nil } }
    }
}

extension ConfigBlock {
    /// `Header` and `RequestHeader` lines of a configuration, sections included.
    var allHeaderDirectives: [HeaderDirective] {
        var out = headers + requestHeaders
        for f in files { out += f.block.allHeaderDirectives }
        for chain in ifChains { for branch in chain.branches { out += branch.block.allHeaderDirectives } }
        for d in server?.directories ?? [] { out += d.block.allHeaderDirectives }
        for l in (server?.locations ?? []) + (server?.directoryMatches ?? []) { out += l.block.allHeaderDirectives }
        return out
    }
}

/// True when a regex pattern matches every input (`^(.*)$`, `.*`, `^`, `(.*)`).
func isCatchAll(_ pattern: String) -> Bool { catchAllPatterns.contains(pattern) }

/// One hash look-up per rule (rules ask this of every rule of a 100,000-rule map).
private let catchAllPatterns: Set<String> = ["^(.*)$", "(.*)", ".*", "^.*$", "^(.*)", "^", "^/?(.*)$", "^/?(.*)", "(.*)$", "^(.+)$", "^(.*)/?$"]

extension LintFile {
    /// A fix-it that writes `line` on its own line before `range`, with the same indentation.
    func insertingLine(_ line: String, before range: SourceRange, title: String, applicability: Applicability = .safe) -> FixIt {
        let bytes = source.bytes
        var start = range.start
        while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
        let indent = source.text(start..<range.start)
        return FixIt(title: title,
                     edits: [TextEdit(range: SourceRange(file: range.file, start: range.start, end: range.start),
                                      replacement: line + "\n" + indent)],
                     applicability: applicability)
    }
}
