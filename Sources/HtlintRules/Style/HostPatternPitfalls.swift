import HtlintApache
import HtlintDiagnostics

/// Host conditions: `%{HTTP_HOST}` is the raw `Host` header (any case, may carry a port).
private func hostConditions(_ context: LintContext) -> [RewriteCondition] {
    // A loop, not nested flatMaps: a 100,000-rule map made an array per rule (and the file,
    // a large value, was copied beside every condition).
    var found: [RewriteCondition] = []
    for file in context.files {
        for rule in file.rules {
            for c in rule.conditions {
                guard case .regex = c.test else { continue }
                let variables = c.variables
                if variables == ["HTTP_HOST"] || variables == ["SERVER_NAME"] { found.append(c) }
            }
        }
    }
    return found
}

/// The pattern text as written (without `!`).
private func patternText(_ c: RewriteCondition) -> String {
    c.rawPattern.hasPrefix("!") ? String(c.rawPattern.dropFirst()) : c.rawPattern
}

/// `^www.example.com$`: an unescaped dot matches any character.
struct UnescapedDotInHost: LintRule {
    let description = RuleDescription(
        id: "HT601", name: "unescaped-dot-in-host", family: .style,
        summary: "a host pattern with an unescaped `.`",
        rationale: "In a regular expression `.` matches any character: `^www.example.com$` also matches `wwwXexample.com`. Write `^www\\.example\\.com$`.",
        severity: .warning,
        triggering: [Example("↓RewriteCond %{HTTP_HOST} ^www.example.com$ [NC]\nRewriteRule ^ https://example.com/ [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTP_HOST} ^www\\.example\\.com$ [NC]\nRewriteRule ^ https://example.com/ [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^(.*)$ [NC]\nRewriteRule ^ https://%1/ [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        hostConditions(context).compactMap { c in
            let p = Array(patternText(c).utf8)
            for i in p.indices where p[i] == UInt8(ascii: ".") {
                let escaped = i > 0 && p[i - 1] == UInt8(ascii: "\\")
                let letterBefore = i > 0 && isAlnum(p[i - 1])
                let letterAfter = i + 1 < p.count && isAlnum(p[i + 1])
                if !escaped && letterBefore && letterAfter {
                    return finding("`\(patternText(c))` has an unescaped `.`, which matches any character", at: c.range)
                }
            }
            return nil
        }
    }
}

/// `example\.com` without anchors also matches `notexample.com.evil.net`.
struct UnanchoredHostPattern: LintRule {
    let description = RuleDescription(
        id: "HT602", name: "unanchored-host-pattern", family: .style,
        summary: "a host pattern without `^`…`$` anchors matches other hosts too",
        rationale: "`%{HTTP_HOST} example\\.com` is a search: it matches `notexample.com` and `example.com.evil.net`. Anchor it: `^(www\\.)?example\\.com$`.",
        severity: .warning,
        triggering: [Example("↓RewriteCond %{HTTP_HOST} example\\.com [NC]\nRewriteRule ^ https://www.example.com/ [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTP_HOST} ^example\\.com$ [NC]\nRewriteRule ^ https://www.example.com/ [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} !^www\\. [NC]\nRewriteRule ^ https://www.%{HTTP_HOST}/ [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        hostConditions(context).compactMap { c in
            let p = patternText(c)
            guard !p.hasPrefix("^"), !p.hasSuffix("$"), p.contains(where: { $0.isLetter }), !p.hasPrefix("(") else { return nil }
            return finding("`\(p)` is not anchored: it also matches hosts that merely contain it", at: c.range)
        }
    }
}

/// Host names are case-insensitive but `%{HTTP_HOST}` is the raw header.
struct HostPatternWithoutNoCase: LintRule {
    let description = RuleDescription(
        id: "HT603", name: "host-pattern-without-nocase", family: .style,
        summary: "a host pattern without `[NC]`",
        rationale: "`%{HTTP_HOST}` is the `Host` header as the client sent it: `WWW.Example.com` does not match `^www\\.example\\.com$` unless the condition has `[NC]`.",
        severity: .note,
        triggering: [Example("↓RewriteCond %{HTTP_HOST} ^www\\.example\\.com$\nRewriteRule ^ https://example.com/ [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTP_HOST} ^www\\.example\\.com$ [NC]\nRewriteRule ^ https://example.com/ [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^(.+)$\nRewriteRule ^ https://%1/ [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        hostConditions(context).compactMap { c in
            guard !c.noCase, patternText(c).contains(where: { $0.isLetter && $0.isLowercase }) else { return nil }
            return finding("host comparison without `[NC]`: an upper-case `Host` header does not match", at: c.range)
        }
    }
}

private func isAlnum(_ c: UInt8) -> Bool {
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
}
