import Testing
@testable import HtlintApache

/// ap_expr's wildcard and address operators (apache-semantics §7.7), on a fixed environment.
struct ExpressionOperatorTests {
    struct Env: ExpressionEnvironment {
        var vars = ["REQUEST_URI": "/s/Page.html", "REMOTE_ADDR": "127.0.0.1"]
        func expressionVariable(_ name: String) -> String { vars[name] ?? "" }
        func requestHeader(_ name: String) -> String { "" }
        func environment(_ name: String) -> String { "" }
        func fileTest(_ op: Character, _ path: String) -> Bool { false }
    }

    func holds(_ text: String) throws -> Bool {
        var captures: [String] = []
        return try ApExpression(parsing: text).evaluate(Env(), captures: &captures)
    }

    @Test(arguments: [
        ("%{REQUEST_URI} -strmatch '/s*'", true), ("%{REQUEST_URI} -strmatch '/S*'", false),
        ("%{REQUEST_URI} -strmatch '/*.html'", true), // * crosses /
        ("%{REQUEST_URI} -strcmatch '/S/PAGE.*'", true),
        ("%{REQUEST_URI} -fnmatch '/*.html'", false), ("%{REQUEST_URI} -fnmatch '/*/*.html'", true),
        ("%{REQUEST_URI} -fnmatch '/s?Page.html'", false),
        ("%{REMOTE_ADDR} -ipmatch '127.0.0.0/8'", true), ("%{REMOTE_ADDR} -ipmatch '10.0.0.0/8'", false),
        ("%{REMOTE_ADDR} -ipmatch '127.0'", true),
        ("-R '127.0.0.1'", true), ("-R '10.0.0.0/8'", false),
        ("%{REMOTE_ADDR} -ipmatch '127.0.0.0/8' && %{REQUEST_URI} -strmatch '/s/*'", true),
    ])
    func operatorsEvaluate(_ text: String, _ expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    @Test func pathnameWildcardKeepsSlashesLiteral() {
        #expect(wildcardMatch("/d/*.html", "/d/x.html", pathname: true))
        #expect(!wildcardMatch("/d/*.html", "/d/e/x.html", pathname: true))
        #expect(wildcardMatch("/d/*", "/d/e/x.html"))
        #expect(!wildcardMatch("/d/[/]x", "/d//x", pathname: true))
        #expect(wildcardMatch("*.HTML", "x.html", caseless: true))
    }

    /// An unquoted `/` or `m#` opens a regex; never closed, it ends the expression, so the tail
    /// after a complete expression is ignored (conditional-expr-unquoted-slash-tail-ignored).
    @Test(arguments: [
        ("%{REQUEST_URI} == %{REQUEST_URI}/x", true), ("%{REQUEST_URI} == '/s'/Page.html", false),
        ("-n %{REMOTE_ADDR} m#x", true), ("(-z %{REMOTE_ADDR}) /x)", false),
    ])
    func unterminatedRegexTailIsIgnored(_ text: String, _ expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    /// conditional-expr-ipmatch-unquoted-number-refused: a digit token is no constant string.
    @Test(arguments: [("%{REMOTE_ADDR} -ipmatch 127", "%{REMOTE_ADDR} -ipmatch '127'"), ("-R 127", "-R '127'")])
    func anUnquotedNumberIsNoSubnet(_ refused: String, _ quoted: String) throws {
        #expect(throws: ApExpression.ParseError.self) { try ApExpression(parsing: refused) }
        #expect(try holds(quoted))
    }

    @Test(arguments: ["-n %{REMOTE_ADDR} /x/", "%{REQUEST_URI} =~ /a", "-n %{REMOTE_ADDR} && -n /x", "-n %{REMOTE_ADDR} mx"])
    func regexTokenOrMissingOperandStillFails(_ text: String) {
        #expect(throws: ApExpression.ParseError.self) { try ApExpression(parsing: text) }
    }

    /// fixtures/apache/rewrite-cond-expr-group-without-match-crashes-child: `$1` with no regex
    /// match of the expression's own crashes Apache's child in a RewriteCond; `$0`, or `$1`
    /// after the expression's own `=~`, does not.
    @Test(arguments: [("$1 == 'x'", true), ("tolower($2) == 'x'", true), ("-n $9", true), ("$0 == 'x'", false),
                      ("%{REQUEST_URI} =~ m#^/c/(x)# && $1 == 'x'", false), ("%{REQUEST_URI} == 'x'", false)])
    func groupReadWithoutMatch(_ text: String, _ expected: Bool) throws {
        #expect(try ApExpression(parsing: text).readsGroupWithoutMatch == expected)
    }
}
