import Testing
import HtlintRegex
@testable import HtlintGraph

/// The witness generator: exact answers inside the subset, verified fallback outside it.
struct RegexWitnessTests {
    @Test func naturalWitnessesOfTypicalRulePatterns() {
        #expect(RegexWitness.witness(for: "^old/page-([0-9]+)$") == "old/page-0")
        #expect(RegexWitness.witness(for: "^(.*)/print-3/?$") == "x/print-3/")
        #expect(RegexWitness.witness(for: "^index\\.php$") == "index.php")
        #expect(RegexWitness.witness(for: "^(en|de)/(.+)$") == "en/x")
        #expect(RegexWitness.witness(for: "^blog/(?:news|posts)/([^/]+)$") == "blog/news/x")
        #expect(RegexWitness.witness(for: "^([a-z]{2})/page-(\\d+)\\.html$") == "aa/page-0.html")
        #expect(RegexWitness.witness(for: "^(?i)About$") == "about")
        #expect(RegexWitness.witness(for: "^a{0}b$") == "b")
    }

    @Test func patternsOutsideTheSubsetHaveNoExactWitness() {
        #expect(RegexWitness.witness(for: "^(a)\\1$") == nil)
        #expect(RegexWitness.witness(for: "^(?=x)y") == nil)
        #expect(RegexWitness.witness(for: "^never$(?<=x)") == nil)
    }

    /// Outside the subset the automaton is built for a larger language and every candidate is
    /// checked with PCRE2: what comes back matches, and says it came from the fallback.
    @Test(arguments: ["^(a+)\\1$", "^(?!admin)[a-z]+$", "^(?=.*\\d)[a-z0-9]+$", "\\bfoo\\b", "^a++b$", "^(?>ab|a)c$",
                      "^(?<year>[0-9]{4})/(?P=year)?$", "^(?(?=a)ab|cd)$"])
    func fallbackWitnessesAreVerifiedByPCRE(_ pattern: String) throws {
        let regex = try Regex(pattern)
        let found = RegexWitness.witnesses(for: regex, limit: 3)
        #expect(!found.isEmpty, "no witness for \(pattern)")
        for w in found {
            #expect(regex.matches(w.text), "\(w.text) does not match \(pattern)")
            #expect(w.method == .fallback)
            #expect(!w.approximations.isEmpty)
        }
    }

    /// When no candidate of the larger language matches, there is no witness — never a guess.
    @Test func fallbackGivesNothingRatherThanAGuess() throws {
        #expect(RegexWitness.witnesses(for: try Regex("^(?=a)b$")).isEmpty)
        #expect(RegexWitness.witnesses(for: try Regex("^x(?!y)y$")).isEmpty)
    }

    static let corpus = [
        "^$", "^/?$", "(.*)", "^(.*)$", "^([^/]+)/?$", "^shop/[0-9]+/?$", "^(.+?)/?$", "^old-(.*)$", "\\.php$",
        "^(wp-(content|admin|includes).*)", "^([_0-9a-zA-Z-]+/)?(.*\\.php)$", "^(.*)_(.*)$", "^[a-z]{2}(-[a-z]{2})?/",
        "^index\\.(php|html?)$", "^api/v[12]/(users|posts)/(\\d+)$", "[^\\x00-\\x7f]", "^.{3,5}$", "^(?:foo|bar)+$",
        "^\\Qa.b\\E$", "^[[:alpha:]]+[[:digit:]]$", "^\\w+\\s\\S$", "^(?i:www\\.)example\\.com$", "x{2,}y?z*$", "^[]a]+$",
        "^[^]a]$", "^[a\\-z]$", "a|b|", "^(a|)b$", "^\\x41\\101?$", "\\.(?:jpe?g|png|gif)$",
    ]

    /// Every witness of the exact subset matches the real pattern, and has the requested shape.
    @Test(arguments: corpus)
    func witnessesMatchPCRE(_ pattern: String) throws {
        for caseless in [false, true] {
            let regex = try Regex(pattern, options: caseless ? [.dotAll, .dollarEndOnly, .caseless] : .apacheDefault)
            for w in RegexWitness.witnesses(for: regex, limit: 4) {
                #expect(regex.matches(w.text), "\(w.text.debugDescription) does not match \(pattern)")
                #expect(w.method == .exact)
            }
            for w in RegexWitness.witnesses(for: regex, shape: .relativePath, limit: 4) {
                #expect(regex.matches(w.text) && !w.text.hasPrefix("/") && !w.text.contains("//"))
            }
            for w in RegexWitness.witnesses(for: regex, shape: .absolutePath, limit: 4) {
                #expect(regex.matches(w.text) && w.text.hasPrefix("/") && !w.text.contains("//"))
            }
        }
    }

    @Test func shapesConstrainTheWitness() {
        #expect(RegexWitness.witnesses(for: "example\\.com$", shape: .host).first?.text == "example.com")
        #expect(RegexWitness.witnesses(for: "^www\\.", shape: .host).first?.text == "www.a")
        #expect(RegexWitness.witnesses(for: "(.*)/$", shape: .relativePath).first?.text == "x/")
        #expect(RegexWitness.witnesses(for: "^/$", shape: .relativePath).isEmpty)
        #expect(RegexWitness.witnesses(for: "^(.*)$", shape: .absolutePath).first?.text == "/")
        #expect(Set(RegexWitness.witnesses(for: "^[a-z]+$", limit: 3).map(\.text)).count == 3)
    }
}

/// The automata the analysis computes with.
struct AutomatonTests {
    func language(_ p: String, caseless: Bool = false) -> DFA { PatternLanguage.of(p, caseInsensitive: caseless).matches! }

    @Test func searchSemanticsAndAnchors() {
        let unanchored = language("b+c")
        #expect(unanchored.accepts("abbcd") && !unanchored.accepts("ac"))
        let anchored = language("^a$")
        #expect(anchored.accepts("a") && !anchored.accepts("ba") && !anchored.accepts("a\n"))
        #expect(language("^A", caseless: true).accepts("abc"))
    }

    @Test func setOperations() throws {
        let digits = language("^[0-9]+$"), short = language("^.{1,2}$")
        let both = try #require(digits.intersection(short))
        #expect(both.accepts("42") && !both.accepts("123") && !both.accepts("ab"))
        let long = try #require(digits.subtracting(short))
        #expect(long.accepts("123") && !long.accepts("12"))
        let joined = try #require(DFA.literal("/shop/").concatenating(digits))
        #expect(joined.accepts("/shop/7") && !joined.accepts("/shop/"))
        #expect(joined.removingPrefix("/shop/").accepts("12"))
        #expect(DFA.literal("a.html").removingSuffix(".html").singleton == "a")
        #expect(DFA.literals(["x", "y"]).singleton == nil && DFA.literal("x").singleton == "x")
        #expect(try #require(digits.intersection(language("^[a-z]+$"))).isEmpty)
    }

    /// What a capture can hold, given the subjects the pattern is matched against.
    @Test func captureLanguages() throws {
        let relative = URLShapes.language(.relativePath)
        let pattern = PatternLanguage.of("^(.*)/$", caseInsensitive: false)
        let group = try #require(pattern.capture(1, within: relative))
        #expect(group.accepts("shop/12") && !group.accepts("shop/12/") && !group.accepts(""))
        let host = try #require(PatternLanguage.of("^www\\.(.+)$", caseInsensitive: true).capture(1, within: .literal("www.example.com")))
        #expect(host.singleton == "example.com")
    }
}
