import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT225's messages, for the answers recorded in rewrite-cond-or-skipped-group-empty: `%1` after
/// `^go$ [OR]` and `^www\.(.+)$` was empty for `/a?go`, and `%2` after `^(www)\.(.+)$`,
/// `!^go$ [OR]` and `^www\.(.+)$` was empty for `/b?go`.
struct BackreferenceSkippedByOrTests {
    static func messages(_ code: String) -> [String] {
        Linter(rules: [BackreferenceSkippedByOr()]).run(LintContext(htaccess: "RewriteEngine On\n" + code)).map(\.message)
    }

    @Test func alternativeWithoutGroupsLeavesTheReferenceEmpty() {
        let found = Self.messages("RewriteCond %{QUERY_STRING} ^go$ [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^a$ http://shop.example/got-%1 [R=302,L]\n")
        #expect(found == ["`%1` can be empty: when `RewriteCond %{QUERY_STRING} ^go$` is the `[OR]` alternative that holds, "
                          + "the alternatives after it are skipped and `%1` takes its groups, of which it has none"])
    }

    /// The last alternative holding replaces the groups of a condition before the `[OR]` group.
    @Test func laterAlternativeReplacesEarlierGroups() {
        let found = Self.messages("RewriteCond %{HTTP_HOST} ^(www)\\.(.+)$ [NC]\nRewriteCond %{QUERY_STRING} !^go$ [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^b$ http://shop.example/b-%1-%2 [R=302,L]\n")
        #expect(found == ["`%2` can be empty: when `RewriteCond %{HTTP_HOST} ^www\\.(.+)$` is the `[OR]` alternative that holds, "
                          + "`%2` takes its groups, of which it has 1 group"])
    }

    /// A comparison captures nothing: the groups are those before it, here none.
    @Test func comparisonAlternativeKeepsNoGroups() {
        let found = Self.messages("RewriteCond %{HTTPS} !=on [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]\n")
        #expect(found == ["`%1` can be empty: when `RewriteCond %{HTTPS} !=on` is the `[OR]` alternative that holds, "
                          + "no condition has matched a pattern whose groups `%1` could take"])
    }

    /// A group every way sets is fine, and one no way sets is HT221's, not this rule's.
    @Test func setOnEveryWayOrOnNoneIsNotReported() {
        #expect(Self.messages("RewriteCond %{HTTP_HOST} ^a\\.(.+)$ [OR]\nRewriteCond %{HTTP_HOST} ^b\\.(.+)$\nRewriteRule ^ https://%1/ [R=301,L]\n").isEmpty)
        #expect(Self.messages("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\.\nRewriteRule ^ https://%1/ [R=301,L]\n").isEmpty)
    }

    /// The alternative named is the one that decided the groups, not a later `[OR]` group's
    /// member that only kept them.
    @Test func alternativeThatDecidedIsNamed() {
        let found = Self.messages("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [OR]\nRewriteCond %{HTTP_HOST} !\\.\nRewriteCond %{REQUEST_FILENAME} !-f [OR]\nRewriteCond %{REQUEST_FILENAME} !-d\nRewriteRule ^ https://%1/ [R=301,L]\n")
        #expect(found == ["`%1` can be empty: when `RewriteCond %{HTTP_HOST} !\\.` is the `[OR]` alternative that holds, "
                          + "no condition has matched a pattern whose groups `%1` could take"], "\(found)")
    }

    /// A trailing `[OR]` lets the rule hold with no alternative matched, the groups before kept:
    /// that way is HT206's finding (the `[OR]` itself), not a back-reference's.
    @Test func trailingOrIsLeftToHT206() {
        #expect(Self.messages("RewriteCond %{HTTP_HOST} ^(.+)$\nRewriteCond %{QUERY_STRING} ^(x)(y)$ [OR]\nRewriteRule ^ /%2 [R=302,L]\n").isEmpty)
    }

    /// `%N` in a later condition's test string takes the groups the `[OR]` group before it left
    /// (rewrite-cond-or-skipped-group-empty-in-later-condition, its `.htaccess`): reported there,
    /// before the substitution's; one in the same `[OR]` group as the `%N` is not a choice made
    /// before it.
    @Test func laterConditionTestStringIsChecked() {
        let htaccess = #"""
            RewriteEngine On
            RewriteCond %{QUERY_STRING} ^go$ [OR]
            RewriteCond %{HTTP_HOST} ^www\.(.+)$ [NC]
            RewriteCond %1 ^$
            RewriteRule ^a$ http://shop.example/a-empty [R=302,L]
            RewriteRule ^a$ http://shop.example/a-set [R=302,L]
            RewriteCond %{HTTPS} off [OR]
            RewriteCond %{HTTP_HOST} ^www\.(.+)$ [NC]
            RewriteCond %{DOCUMENT_ROOT}/hosts/%1 -d
            RewriteRule ^b$ http://shop.example/b-dir-%1 [R=302,L]
            RewriteCond %{HTTP_HOST} ^www\.(.+)$ [NC]
            RewriteCond %{QUERY_STRING} ^go$ [OR]
            RewriteCond %1 ^shop
            RewriteRule ^c$ http://shop.example/c-%1 [R=302,L]

            """#
        let found = Linter(rules: [BackreferenceSkippedByOr()]).run(LintContext(htaccess: htaccess))
        #expect(found.map(\.message) == [
            "`%1` can be empty: when `RewriteCond %{QUERY_STRING} ^go$` is the `[OR]` alternative that holds, the alternatives after it "
                + "are skipped and `%1` takes its groups, of which it has none; `RewriteCond %1 ^$` is then tested with `%1` empty",
            "`%1` can be empty: when `RewriteCond %{HTTPS} off` is the `[OR]` alternative that holds, the alternatives after it "
                + "are skipped and `%1` takes its groups, of which it has none; `RewriteCond %{DOCUMENT_ROOT}/hosts/%1 -d` is then tested with `%1` empty"])
        // Lines 4 and 9, at the `%1` of the condition.
        #expect(found.map { htaccess.utf8.prefix($0.range.start).filter { $0 == UInt8(ascii: "\n") }.count + 1 } == [4, 9])
        #expect(found.map { String(decoding: htaccess.utf8.dropFirst($0.range.start).prefix($0.range.end - $0.range.start), as: UTF8.self) } == ["%1", "%1"])
    }
}
