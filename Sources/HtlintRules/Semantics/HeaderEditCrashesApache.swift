import HtlintApache
import HtlintDiagnostics
import HtlintRegex

/// `Header edit*` with a pattern that can match the empty string: Apache's child process
/// crashes (fixtures/apache/header-edit-star-empty-match-crashes).
struct HeaderEditCrashesApache: LintRule {
    let description = RuleDescription(
        id: "HT218", name: "header-edit-empty-match", family: .semantics,
        summary: "`Header edit*` (or `RequestHeader edit*`) whose pattern can match an empty string crashes Apache's child process",
        rationale: """
        `edit*` replaces every match: mod_headers replaces the first one, then searches the rest of \
        the value again. When a match is empty (`^`, `$`, `x*`, `\\b`) the rest is the same text, \
        so the search recurses on it until the Apache child process runs out of stack and dies: \
        the visitor gets no answer at all (a CDN in front shows its 502), for every request that \
        carries the header. Anchor the pattern to something non-empty (`^(.+)$`), or use `edit` \
        (the first match only) where one replacement is meant.
        """,
        severity: .error,
        triggering: [Example("↓Header always edit* Set-Cookie ^ \"prefix-\""),
                     Example("↓Header edit* Location \"(http:)?\" \"https:\"")],
        nonTriggering: [Example("Header always edit* Set-Cookie \"(?i)samesite=none\" \"SameSite=Lax\""),
                        Example("Header always edit Set-Cookie ^ \"prefix-\"")])

    /// Header values the pattern is tried on, as a stand-in for "some value".
    private static let samples = ["value", "a=1; path=/; HttpOnly", "https://example.com/x?y=1", "A b-C_d.e", "a", ""]

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.config.block.allHeaderDirectives.compactMap { h -> Diagnostic? in
                guard h.action == "edit*", let regex = h.editPattern,
                      let value = Self.samples.first(where: { Self.meetsEmptyMatch(regex, $0) }) else { return nil }
                let example = value.isEmpty ? "an empty value" : "`\(value)`"
                return finding("`\(h.name)` edit* with a pattern that matches an empty string (on \(example)): "
                               + "mod_headers recurses on the same text until the Apache child crashes, and the request gets no answer",
                               at: h.range)
            }
        }
    }

    /// Whether replacing every match of `regex` in `value` meets an empty match, as the engine
    /// finds it (mod_headers' process_regexp searches what follows each match).
    static func meetsEmptyMatch(_ regex: Regex, _ value: String) -> Bool {
        Origin.editHeaderValue(value, regex, "", all: true) == nil
    }
}
