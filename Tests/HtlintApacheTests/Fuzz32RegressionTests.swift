import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Read-time checks recorded from Apache 2.4 (the fixtures named on each test): how a
/// conditional section reads its argument, FLAG directives, and the filter directives'
/// argument counts. Each error is a 500 in `.htaccess`, located at line:column.
struct Fuzz32RegressionTests {
    /// "line:column message" of each error of `text` read as a `.htaccess`.
    func located(_ text: String) -> [String] {
        let file = SourceFile(path: "/var/www/html/.htaccess", text: text)
        return ConfigReader.read(file, context: .htaccess).diagnostics.filter { $0.severity == .error }.map {
            let p = file.lines.position(of: $0.range.start)
            return "\(p.line):\(p.column) \($0.message)"
        }
    }

    /// Whether the body of `<open>` is read (a `Redirect` inside it lands in the block).
    func taken(_ open: String) -> Bool {
        let name = open.dropFirst().prefix { $0 != " " && $0 != "\t" && $0 != ">" }
        let file = SourceFile(path: "/var/www/html/.htaccess", text: "\(open)\nRedirect 301 /x http://a.example/\n</\(name)>\n")
        let config = ConfigReader.read(file, context: .htaccess)
        return config.fatal == nil && !config.block.redirects.isEmpty
    }

    /// fixtures/apache/section-ifmodule-bang-then-first-word: a `!` that is the argument's first
    /// byte negates; the test is the first word after it as ap_getword_conf reads it.
    @Test func conditionalSectionsTestTheFirstWordAfterTheBang() {
        #expect(!taken("<IfModule ! mod_rewrite.c>"))
        #expect(taken("<IfModule ! mod_nothing.c>"))
        #expect(taken("<IfModule !mod_x.c mod_rewrite.c>"))
        #expect(taken("<IfModule mod_rewrite.c extra>"))
        #expect(!taken("<IfModule mod_x.c mod_rewrite.c>"))
        #expect(taken("<IfModule \"mod_rewrite.c\">"))
        #expect(taken("<IfModule 'mod_rewrite.c' junk>"))
        #expect(!taken("<IfModule \"!mod_x.c\">"))       // the name `!mod_x.c`, not a negation
        #expect(!taken("<IfModule !\"mod_rewrite.c\">"))
        #expect(taken("<IfModule !\"mod x.c\" mod_rewrite.c>"))
        #expect(taken("<IfModule !!mod_x.c>"))
        #expect(!taken("<IfModule\t!\tmod_rewrite.c\textra>"))
        #expect(!taken("<IfModule ! rewrite_module>"))
        #expect(!taken("<IfDirective ! RewriteRule>"))
        #expect(!taken("<IfDefine \"!NOPE\">"))
        #expect(taken("<IfDefine ! NOPE>"))
        #expect(!taken("<IfDefine NOPE x>"))
    }

    /// fixtures/apache/section-ifmodule-bang-then-first-word: no word after the `!` (or an empty
    /// quoted one) is missing_container_arg.
    @Test func conditionalSectionWithoutAWordNeedsArguments() {
        for open in ["<IfModule !>", "<IfModule ! >", "<IfModule \"\">", "<IfModule >", "<IfDefine !>", "<IfDefine \"\">", "<IfFile ! >"] {
            let name = open.dropFirst().prefix { $0 != " " && $0 != ">" }
            #expect(located("\(open)\n</\(name)>\n") == ["1:1 <\(name)> directive requires additional arguments"], "\(open)")
        }
    }

    /// fixtures/apache/syntax-error-flag-directives-on-or-off: the first word must be On or Off
    /// in any case; later words are ignored.
    @Test func flagDirectivesTakeOnOrOff() {
        for name in ["ContentDigest", "CGIPassAuth", "QualifyRedirectURL", "AuthzSendForbiddenOnFailure", "AuthBasicAuthoritative"] {
            #expect(located("\(name) On").isEmpty)
            #expect(located("\(name) oFF").isEmpty)
            #expect(located("\(name) Off # comment").isEmpty)
            #expect(located("\(name) yes") == ["1:\(name.utf8.count + 2) \(name) must be On or Off"])
            #expect(located("\(name) \"\"") == ["1:\(name.utf8.count + 2) \(name) must be On or Off"])
            #expect(located("\(name)") == ["1:\(name.utf8.count + 1) \(name) must be On or Off"])
        }
    }

    /// fixtures/apache/syntax-error-flag-directives-on-or-off: Off or MD5, one word.
    @Test func authBasicUseDigestAlgorithmTakesOffOrMD5() {
        #expect(located("AuthBasicUseDigestAlgorithm md5").isEmpty)
        #expect(located("AuthBasicUseDigestAlgorithm OFF").isEmpty)
        #expect(located("AuthBasicUseDigestAlgorithm SHA256") == ["1:29 Invalid algorithm in AuthBasicUseDigestAlgorithm: SHA256"])
        #expect(located("AuthBasicUseDigestAlgorithm On") == ["1:29 Invalid algorithm in AuthBasicUseDigestAlgorithm: On"])
        let usage = "AuthBasicUseDigestAlgorithm takes one argument, Set to 'MD5' to use the auth provider's authentication check for digest auth, using a hash of 'user:realm:pass'"
        #expect(located("AuthBasicUseDigestAlgorithm MD5 extra") == ["1:33 \(usage)"])
        #expect(located("AuthBasicUseDigestAlgorithm \"\"") == ["1:29 \(usage)"])
    }

    /// fixtures/apache/syntax-error-flag-directives-on-or-off: the override class comes first;
    /// Nonfatal=Override skips a refused line with a bad argument.
    @Test func overrideClassIsCheckedBeforeTheFlag() {
        let file = SourceFile(path: "/var/www/html/.htaccess", text: "ContentDigest bogus\nCGIPassAuth Off\n")
        var overrides = AllowedOverrides.none
        overrides.categories = [.authConfig]
        overrides.nonfatalOverride = true
        let config = ConfigReader.read(file, context: .htaccess, overrides: overrides)
        #expect(config.fatal == nil)
    }

    /// fixtures/apache/syntax-error-mime-filter-directive-arguments.
    @Test func filterDirectiveArgumentCounts() {
        let addOut = "AddOutputFilter requires at least two arguments, output filter name (or ; delimited names) followed by one or more file extensions"
        let addIn = "AddInputFilter requires at least two arguments, input filter name (or ; delimited names) followed by one or more file extensions"
        #expect(located("AddOutputFilter DEFLATE") == ["1:17 \(addOut)"])
        #expect(located("AddOutputFilter \"\" .txt") == ["1:17 \(addOut)"])
        #expect(located("AddOutputFilter DEFLATE \"\"").isEmpty)
        #expect(located("AddOutputFilter DEFLATE .txt # comment").isEmpty)
        #expect(located("AddInputFilter DEFLATE") == ["1:16 \(addIn)"])
        #expect(located("AddInputFilter DEFLATE \"\"").isEmpty)
        #expect(located("RemoveOutputFilter \"\"") == ["1:20 RemoveOutputFilter requires at least one argument, one or more file extensions"])
        #expect(located("RemoveInputFilter") == ["1:18 RemoveInputFilter requires at least one argument, one or more file extensions"])
        #expect(located("RemoveOutputFilter .txt \"\" .gz").isEmpty)
        let byType = "AddOutputFilterByType requires at least two arguments"
        #expect(located("AddOutputFilterByType DEFLATE") == ["1:23 \(byType)"])
        #expect(located("AddOutputFilterByType DEFLATE \"\"") == ["1:23 \(byType)"])
        #expect(located("AddOutputFilterByType NOPE \"\"") == ["1:23 \(byType)"])
        #expect(located("AddOutputFilterByType \"\" text/html").isEmpty)
        #expect(located("AddOutputFilterByType DEFLATE \"\" text/css").isEmpty)
        #expect(located("FilterChain") == ["1:12 FilterChain requires at least one argument, list of filter names with optional [+-=!@]"])
        #expect(located("FilterDeclare a b c") == ["1:19 FilterDeclare takes 1-2 arguments, filter-name [filter-type]"])
        #expect(located("FilterProtocol x") == ["1:16 FilterProtocol takes two or three arguments, filter-name [provider-name] protocol-args"])
    }
}
