import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// The rule index (issue 8): the facts it keys rules on, and — what matters — that an indexed
/// origin answers every request exactly as the unindexed one does.
struct RuleIndexTests {
    func shape(_ pattern: String, caseless: Bool = false) -> PatternShape {
        PatternShape(pattern: pattern, caseless: caseless)
    }
    func text(_ list: [[UInt8]]) -> [String] { list.map { String(decoding: $0, as: UTF8.self) } }

    @Test func literalPrefixStopsAtTheFirstNonLiteral() {
        #expect(String(decoding: shape("^old/products/boot-0/?$").prefix, as: UTF8.self) == "old/products/boot-0")
        #expect(String(decoding: shape("^store/Item7([A-Z]?)\\.aspx$").prefix, as: UTF8.self) == "store/Item7")
        #expect(String(decoding: shape("^ab?c").prefix, as: UTF8.self) == "a")
        #expect(String(decoding: shape("^ab+c").prefix, as: UTF8.self) == "ab")
        #expect(String(decoding: shape("^a{2}b").prefix, as: UTF8.self) == "a")
        #expect(String(decoding: shape("^Old/Page", caseless: true).prefix, as: UTF8.self) == "old/page")
        #expect(shape("old/page").prefix.isEmpty)
    }

    @Test func wordsNeedABoundaryOnBothSides() {
        #expect(text(shape("^(.*)/print-77/?$").words) == ["print-77"])
        #expect(text(shape("^([a-z]{2})/old-section-5/(.+)$").words) == ["old-section-5"])
        #expect(text(shape("(^|&)id=77(&|$)").words) == ["id", "77"])
        #expect(text(shape("^id=77$").words) == ["id", "77"])
        // `-` is a word byte: `-9` after a capture is the tail of a longer word.
        #expect(text(shape("^blog/(\\d+)/([a-z0-9-]+)-9/?$").words) == ["blog"])
        // An optional group or literal in between proves nothing.
        #expect(text(shape("^a(?:-x)?b$").words) == [])
        #expect(text(shape("^x(foo)?/y$").words) == ["y"])
        // `ab+` can be `abbb`.
        #expect(text(shape("^ab+/").words) == [])
    }

    @Test func suffixesAllowOneOptionalTrailingByte() {
        #expect(text(shape("^blog/(\\d+)/([a-z0-9-]+)-9/?$").suffixes) == ["-9", "-9/"])
        #expect(text(shape("^legacy/(.+)\\.html$").suffixes) == [".html"])
        // `*` and `{0,n}` may repeat the byte: `.htmll` ends with neither `.htm` nor `.html`.
        #expect(text(shape("^(.*)\\.html*$").suffixes) == [])
        #expect(text(shape("^(.*)\\.html{0,3}$").suffixes) == [])
        #expect(text(shape("^legacy/(.+)\\.html").suffixes) == [])
        #expect(text(shape("^a/b$", caseless: false).suffixes) == ["a/b"])
        #expect(PatternShape(pattern: "^a/b$", caseless: false, dollarEndOnly: false).suffixes.isEmpty)
    }

    @Test func literalRunsAreTheMandatoryByteRuns() {
        #expect(text(shape("^(.*)/print-77/?$").literalRuns) == ["/print-77"])
        #expect(text(shape("^forum/(topic|thread)-12(?:-page-(\\d+))?\\.html$").literalRuns) == ["forum/", "-12", ".html"])
        #expect(text(shape("^Old/X+y", caseless: true).literalRuns) == ["old/x", "y"])
    }

    @Test func unreadablePatternsHaveNoFacts() {
        for p in ["(?i)^abc", "^a|b", "^(?=x)abc", "\\Qa+b\\E", "(*UTF)^a", "^a\\bc", "^(?<n>a)b", "^\\cAb", "^\\x41b",
                  "^\\101b", "^(a)\\1b", "^\\p{L}b"] {
            let s = shape(p)
            #expect(s.prefix.isEmpty && s.words.isEmpty && s.suffixes.isEmpty && s.literalRuns.isEmpty, "\(p)")
        }
    }

    // MARK: indexed answers equal unindexed answers

    /// A deterministic generator (so a failure names the same case every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ list: [T]) -> T { list[next(list.count)] }
    }

    /// A migration map in the forms sites write (and the index keys on), with chains, `[NC]`,
    /// negated patterns, `[S]`, `[OR]` and query conditions mixed in.
    static func rules(_ g: inout Generator, count: Int) -> String {
        var lines = ["RewriteEngine On", "RewriteCond %{HTTP:X-Forwarded-Proto} !https", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"]
        for i in 0..<count {
            switch g.next(16) {
            case 0: lines.append("RewriteRule ^old/p-\(i)/?$ /new/p-\(i)/ [R=301,L]")
            case 1: lines.append("RewriteRule ^Old/Q-\(i)\\.html$ /q/\(i) [NC,R=301,L]")
            case 2: lines.append("RewriteRule ^(.*)/print-\(i)/?$ /$1/p\(i) [R=302,L]")
            case 3: lines.append("RewriteRule ^blog/(\\d+)/([a-z0-9-]+)-\(i)/?$ /posts/$2 [R=301,L]")
            case 4: lines += ["RewriteCond %{QUERY_STRING} (^|&)id=\(i % 40)(&|$)", "RewriteRule ^product\\.php$ /item/\(i)? [R=301,L]"]
            case 5: lines += ["RewriteCond %{QUERY_STRING} ^p=\(i % 30)$ [NC]", "RewriteRule ^$ /page-\(i)/? [R=301,L]"]
            case 6: lines += ["RewriteRule ^chain-\(i)$ - [C]", "RewriteRule ^(.*)$ /c/$1 [R=301,L]"]
            case 7: lines.append("RewriteRule !^keep-\(i) - [S=1]")
            case 8: lines += ["RewriteCond %{QUERY_STRING} a=\(i % 7) [OR]", "RewriteCond %{QUERY_STRING} b=1", "RewriteRule ^or\\.php$ /or/\(i) [R=301,L]"]
            case 9: lines.append("RewriteRule ^forum/(topic|thread)-\(i)(?:-page-(\\d+))?\\.html$ /f/\(i)/$2 [R=301,L]")
            case 10: lines.append("RewriteRule ^([a-z]{2})/sec-\(i)/(.+)$ /$1/s/$2 [R=301,L]")
            case 11: lines.append("RewriteRule ^(?i)mixed-\(i)$ /m/\(i) [R=301,L]")
            case 12: lines.append("RewriteRule ^a+b-\(i)$ /ab/\(i) [R=301,L]")
            case 13: lines.append("RewriteRule ^x/\(i)\\.php$ /y/\(i).php")
            case 14: lines += ["RewriteCond %{HTTP_HOST} ^old\(i % 5)\\.example$", "RewriteRule ^page-\(i)/?$ https://www.example.com/p/\(i) [R=301,L]"]
            default: lines.append("RewriteRule ^store/Item\(i)([A-Z]?)\\.aspx$ /shop/\(i)$1 [R=301,L,NC]")
            }
        }
        lines += ["RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d",
                  "RewriteRule . /index.php [L]"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func urls(_ g: inout Generator, count: Int) -> [(String, String)] {
        let hosts = ["www.example.com", "old1.example", "OLD3.example"]
        var out: [(String, String)] = []
        for _ in 0..<count {
            let i = g.next(count)
            let path = g.pick(["/old/p-\(i)", "/old/p-\(i)/", "/OLD/q-\(i).HTML", "/x/y/print-\(i)", "/x/print-\(i)x",
                               "/blog/2020/my-post-\(i)/", "/blog/2020/post\(i)", "/product.php?id=\(i % 50)",
                               "/product.php?x=1&id=\(i % 50)&y", "/?p=\(i % 35)", "/?P=\(i % 35)", "/chain-\(i)",
                               "/keep-\(i)", "/or.php?a=\(i % 9)", "/or.php?b=1", "/forum/thread-\(i)-page-3.html",
                               "/forum/topic-\(i).html", "/fr/sec-\(i)/deep/x", "/MIXED-\(i)", "/aaab-\(i)", "/x/\(i).php",
                               "/page-\(i)", "/store/item\(i)B.aspx", "/index.php", "/wp-content/a.css", "/",
                               "/%70rint-\(i)", "/old/p-\(i)%0A"])
            out.append((g.pick(hosts), path))
        }
        return out
    }

    @Test(arguments: [1, 2, 3])
    func indexedOriginAnswersAsTheUnindexedOne(seed: UInt64) throws {
        var g = Generator(state: seed)
        let text = Self.rules(&g, count: 400)
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.php")
        fs.addFile("/wp-content/a.css")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(text.utf8)))
        let site = Site(serverName: "www.example.com", aliases: ["old1.example", "old3.example"], files: fs)
        let indexed = Origin(site: site, tracing: false, indexed: true)
        let linear = Origin(site: site, tracing: false, indexed: false)
        var compared = 0
        for (host, target) in Self.urls(&g, count: 600) {
            for proto in ["https", "http"] {
                let request = OriginRequest(target: target, headers: [HTTPHeader("Host", host), HTTPHeader("X-Forwarded-Proto", proto)])
                let a = indexed.respond(to: request), b = linear.respond(to: request)
                #expect(a.status == b.status && a.location == b.location && a.served == b.served && a.final == b.final
                        && a.firedRules == b.firedRules, "\(host)\(target) \(proto)")
                compared += 1
            }
        }
        #expect(compared == 1200)
    }
}
