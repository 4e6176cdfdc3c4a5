import Testing
@testable import HtlintApache

// The plain-path fast path of the site's path walk must answer as the full walk does.
struct SiteFileSystemFastPathTests {
    @Test func plainPathsAreThoseTheKernelFindsAsWritten() {
        #expect(SiteFileSystem.isPlain("/"))
        #expect(SiteFileSystem.isPlain("/var/www/html/a.html"))
        #expect(SiteFileSystem.isPlain("/var/www/html/.htaccess"))
        #expect(SiteFileSystem.isPlain("/var/www/html/..x"))
        #expect(!SiteFileSystem.isPlain("/var/www/html/"))
        #expect(!SiteFileSystem.isPlain("/var/www//html"))
        #expect(!SiteFileSystem.isPlain("/var/www/html/./a"))
        #expect(!SiteFileSystem.isPlain("/var/www/html/.."))
        #expect(!SiteFileSystem.isPlain("relative"))
    }

    /// A directory's listing (MultiViews reads it) names each entry once, whatever added it.
    @Test func listingsNameEveryEntryOnce() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/a.html")
        fs.addFile("/blog/post.html")
        fs.addFile("/blog")                       // a name added again is listed once
        fs.addSymlink("/link", target: "blog")
        fs.addAccessFile("/", displayPath: ".htaccess", text: "")
        fs.addFile("/blog/deep/x.txt")
        #expect(fs.entryNames(in: "/var/www/html").sorted() == [".htaccess", "a.html", "blog", "link"])
        #expect(fs.entryNames(in: "/var/www/html/blog").sorted() == ["deep", "post.html"])
        #expect(fs.entryNames(in: "/var/www") == ["html"])
        #expect(fs.entryNames(in: "/var/www/html/missing").isEmpty)
        // Every node below the root is in its parent's listing, and nothing else is.
        let listed = fs.nodes.map(\.key).filter { $0.hasPrefix("/var/www/html/") }.count
        let counted = fs.nodes.map(\.key).filter { fs.isDirectory($0) }.reduce(0) { $0 + fs.entryNames(in: $1).count }
        #expect(counted == listed + 2)              // + "www" in /var and "html" in /var/www
    }

    /// The root's `.htaccess` adds no node for the root written with a slash (lint listed the
    /// document root twice and crashed on the duplicate).
    @Test func rootAccessFileAddsNoSlashedRootNode() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: "")
        fs.addAccessFile("/sub/", displayPath: "sub/.htaccess", text: "")
        #expect(fs.nodes.map(\.key).filter { $0.hasSuffix("/") }.isEmpty)
        #expect(fs.accessFileEntries.map(\.key).sorted() == ["/var/www/html/", "/var/www/html/sub/"])
        #expect(fs.entryNames(in: "/var/www/html").sorted() == [".htaccess", "sub"])
    }

    @Test func missingPlainPathFollowsALinkOnTheWayOnlyWhenThereIsOne() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/real/a.html")
        #expect(fs.stat("/var/www/html/link/a.html") == nil)
        #expect(fs.stat("/var/www/html/real/a.html") != nil)
        fs.addSymlink("/link", target: "/var/www/html/real")
        #expect(fs.resolve("/var/www/html/link/a.html") == "/var/www/html/real/a.html")
        #expect(fs.stat("/var/www/html/link/missing.html") == nil)
    }

    /// One trailing slash demands a directory, as the kernel's walk does: the fast path for such
    /// a name answers like the full walk (a doubled slash takes the full walk).
    @Test func trailingSlashDemandsADirectory() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/a.html")
        fs.addFile("/blog/post.html")
        fs.addSymlink("/to-blog", target: "blog")
        fs.addSymlink("/to-file", target: "a.html")
        for slashes in ["/", "//"] {
            #expect(fs.stat("/var/www/html/blog" + slashes) == .directory)
            #expect(fs.resolve("/var/www/html/blog" + slashes) == "/var/www/html/blog")
            #expect(fs.stat("/var/www/html/a.html" + slashes) == nil)
            #expect(fs.stat("/var/www/html/missing" + slashes) == nil)
            // A final link is followed before a slash, by lstat too.
            #expect(fs.stat("/var/www/html/to-blog" + slashes) == .directory)
            #expect(fs.lstat("/var/www/html/to-blog" + slashes) == .directory)
            #expect(fs.resolve("/var/www/html/to-blog" + slashes) == "/var/www/html/blog")
            #expect(fs.stat("/var/www/html/to-file" + slashes) == nil)
        }
        #expect(fs.lstat("/var/www/html/to-blog") == .symlink(target: "blog"))
    }

    /// The kernel names files by bytes: a precomposed é and an e with a combining accent are
    /// two names (Swift's `String` equality would make them one file).
    @Test func namesAreBytesNotCanonicalEquivalents() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/caf\u{E9}.html")
        #expect(fs.stat("/var/www/html/caf\u{E9}.html") == .file(size: 1))
        #expect(fs.stat("/var/www/html/cafe\u{301}.html") == nil)
        fs.addFile("/cafe\u{301}.html", size: 2)
        #expect(fs.stat("/var/www/html/cafe\u{301}.html") == .file(size: 2))
        #expect(fs.entryNames(in: "/var/www/html").count == 2)
        // A slash followed by a combining mark still separates names.
        fs.addFile("/d/\u{301}x.html")
        #expect(fs.isDirectory("/var/www/html/d"))
        #expect(fs.entryNames(in: "/var/www/html/d") == ["\u{301}x.html"])
    }
}
