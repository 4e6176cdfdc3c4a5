import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT221's messages, checked against what Apache recorded in
/// rewrite-backref-missing-groups-expand-empty and rewrite-escape-percent-hex-in-substitution-read-as-backref.
struct BackreferenceToMissingGroupTests {
    static func messages(_ code: String) -> [String] {
        Linter(rules: [BackreferenceToMissingGroup()]).run(LintContext(htaccess: code)).map(\.message)
    }

    /// `/new%20page.html` redirects to `/new0page.html`: the finding names the escape and the
    /// fix a redirect needs.
    @Test func percentEscapeInARedirectIsNamedAsSuch() {
        let found = Self.messages("RewriteEngine On\nRewriteRule ^old\\ page$ /new%20page.html [R=302,L]\n")
        #expect(found == ["`%20` is not a percent-escape here: mod_rewrite reads `%2` as a condition's group, and the rule has no "
                          + "`RewriteCond`, so it expands to nothing and only `0` is kept; write `\\%20` with `[NE]`, or the character "
                          + "itself (`[R]` escapes a space as `%20`)"])
    }

    /// Without `[R]` the fix is the character itself.
    @Test func percentEscapeInARewriteSuggestsTheCharacter() {
        let found = Self.messages("RewriteEngine On\nRewriteRule ^p$ /new%20page.html [L]\n")
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("write the character itself (a space as `\\ ` or in a quoted substitution)") == true)
    }

    /// A condition with two groups before a negated one: `%2` is set (recorded `/t/example.org`).
    @Test func negatedConditionKeepsTheGroupsBeforeIt() {
        #expect(Self.messages("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^(www\\.)?(example\\.org)$\nRewriteCond %{HTTPS} !on\nRewriteRule ^two$ /t/%2 [R=302,L]\n").isEmpty)
    }

    /// A later condition that is a pattern replaces the groups (recorded:
    /// rewrite-cond-last-match-groups-replace-earlier, `http:///got-a`); a comparison keeps them.
    @Test func laterPatternReplacesTheGroups() {
        #expect(Self.messages("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^(.+)$\nRewriteCond %{HTTPS} off\nRewriteRule ^a$ http://%1/got-a [R=302,L]\n")
                == ["`%1` refers to group 1, but `%N` takes the groups of the last condition that matched a pattern, `RewriteCond %{HTTPS} off`, "
                    + "which has none (a comparison such as `!=on` or a negated pattern would keep the earlier groups): it always expands to nothing"])
        #expect(Self.messages("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^(.+)$\nRewriteCond %{HTTPS} !=on\nRewriteRule ^b$ http://%1/got-b [R=302,L]\n").isEmpty)
    }

    /// `[E=]` values are expanded like the substitution.
    @Test func environmentValuesAreChecked() {
        #expect(Self.messages("RewriteEngine On\nRewriteRule ^(a)$ - [E=X:$2]\n")
                == ["`$2` refers to group 2, but `^(a)$` has 1 group: it always expands to nothing"])
    }

    /// A `%` followed by a letter is no back-reference at all (`%C3` stays literal): nothing to say.
    @Test func percentBeforeALetterIsLeftAlone() {
        #expect(Self.messages("RewriteEngine On\nRewriteRule ^p5$ /new%C3%A9.html [R=302,L]\n").isEmpty)
    }
}
