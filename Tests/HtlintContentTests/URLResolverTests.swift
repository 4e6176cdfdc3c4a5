import Testing
@testable import HtlintContent

// RFC 3986 §5.4: every reference-resolution example, against base "http://a/b/c/d;p?q".
private let rfcBase = "http://a/b/c/d;p?q"

@Test(arguments: [
    // §5.4.1 normal examples
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
    ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
    ("../../g", "http://a/g"),
    // §5.4.2 abnormal examples (strict parser)
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
    ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
])
func rfc3986Examples(_ reference: String, _ expected: String) {
    #expect(URLResolver.resolve(reference, against: rfcBase) == expected)
}

@Test func removeDotSegmentsFollowsTheRFCWalkthrough() {
    // §5.2.4's two worked examples.
    #expect(URIReference.removingDotSegments("/a/b/c/./../../g") == "/a/g")
    #expect(URIReference.removingDotSegments("mid/content=5/../6") == "mid/6")
}

@Test func componentsAreSplitAsAppendixB() {
    let uri = URIReference(parsing: "http://user:pw@Example.COM:8080/p/a?q=1#frag")
    #expect(uri.scheme == "http")
    #expect(uri.authority == "user:pw@Example.COM:8080")
    #expect(uri.host == "example.com")
    #expect(uri.port == 8080)
    #expect(uri.path == "/p/a")
    #expect(uri.query == "q=1")
    #expect(uri.fragment == "frag")
    #expect(URIReference(parsing: "http://[::1]:3000/").host == "[::1]")
    #expect(URIReference(parsing: "1http:x").scheme == nil)   // not a valid scheme: a relative path
}

@Test func aReferenceWithoutAnAbsoluteBaseDoesNotResolve() {
    #expect(URLResolver.resolve("g", against: "/relative/base") == nil)
    #expect(URLResolver.resolveAsBrowser("g", against: nil as String?) == nil)
    #expect(URLResolver.resolveAsBrowser("HTTP://Example.com", against: nil as String?) == "http://example.com/")
}

@Test(arguments: [
    // Scheme-relative, absolute path, relative path with dot segments, query-only, fragment-only.
    ("//cdn.example.net/x.js", "https://cdn.example.net/x.js"),
    ("/img/a.png", "https://example.com/img/a.png"),
    ("../img/./b/../a.png", "https://example.com/blog/img/a.png"),
    ("?page=2", "https://example.com/blog/post/?page=2"),
    ("#comments", "https://example.com/blog/post/#comments"),
    // What browsers do beyond RFC 3986 (URL Standard).
    ("  \thttp://example.com/a\n.png  ", "http://example.com/a.png"),
    ("\\\\evil.example\\x", "https://evil.example/x"),
    ("http:\\\\example.com\\y?a\\b", "http://example.com/y?a\\b"),
    ("https:sub/page", "https://example.com/blog/post/sub/page"),
    ("http:other.example/z", "http://other.example/z"),
    ("HTTP://EXAMPLE.COM:80/Path", "http://example.com/Path"),
    ("https://example.com:443", "https://example.com/"),
    ("http://example.com:8080/x", "http://example.com:8080/x"),
    ("data:image/png;base64,AAAA", "data:image/png;base64,AAAA"),
    ("javascript:void(0)", "javascript:void(0)"),
])
func browserResolution(_ reference: String, _ expected: String) {
    #expect(URLResolver.resolveAsBrowser(reference, against: "https://example.com/blog/post/") == expected)
}
