import Testing
@testable import HtlintApache

/// The file tests walk a path as the kernel does (fixtures/apache/rewrite-cond-file-test-path-syntax).
struct SitePathWalkTests {
    var fs: SiteFileSystem {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/blog/index.php")
        fs.addFile("/static/about_.html")
        fs.addFile("/sub/index.html")
        fs.addSymlink("/link", target: "sub")
        return fs
    }

    @Test func repeatedSlashesAndDotsAreSkipped() {
        #expect(fs.isFile("/var/www/html/blog//index.php"))
        #expect(fs.isFile("/var/www/html/static//about_.html"))
        #expect(fs.isFile("/var/www/html/./blog/../blog/index.php"))
        #expect(fs.isDirectory("/var/www/html/blog/"))
    }

    /// fixtures/apache/rewrite-cond-system-paths-cleaned-up: paths outside the site are cleaned
    /// up the same way before they are looked up among the system's directories and files.
    @Test func systemPathsAreCleanedUpToo() {
        #expect(Site.systemNode("//") == .directory)
        #expect(Site.systemNode("/etc/") == .directory)
        #expect(Site.systemNode("/tmp/../") == .directory)
        #expect(Site.systemNode("/etc//passwd") == .file)
        #expect(Site.systemNode("/etc/../etc/passwd") == .file)
        #expect(Site.systemNode("/usr/sbin/apache2") == .executable)
        #expect(Site.systemNode("/etc/passwd/") == nil)
        #expect(Site.systemNode("/etc/passwd/..") == nil)
        #expect(Site.systemNode("/nothere/") == nil)
    }

    /// The origin skips the system walk inside its mounted root; the answer must not change.
    @Test(arguments: ["/var/www/html", "/var/www/html/", "/var/www/html/x", "/var/www/html//", "/var/www/html/./x",
                      "/var/www/html/../../etc/passwd", "/var/www/html/..", "/var/www/htmlx", "/var/www/", "/etc//passwd", "//"])
    func systemLookupInsideTheRootAgreesWithTheWalk(_ path: String) {
        let origin = Origin(site: Site(serverName: "example.org", files: SiteFileSystem(root: "/var/www/html")))
        #expect(origin.systemNode(path) == Site.systemNode(path))
    }

    @Test func aFileFollowedByASlashIsNothing() {
        #expect(!fs.isFile("/var/www/html/blog/index.php/"))
        #expect(fs.stat("/var/www/html/blog/index.php/.") == nil)
        #expect(fs.stat("/var/www/html/blog/index.php/x") == nil)
    }

    @Test func aLinkedDirectoryIsFollowedOnTheWay() {
        #expect(fs.isFile("/var/www/html/link/index.html"))
        #expect(fs.isFile("/var/www/html/link/./index.html"))
        #expect(fs.lstat("/var/www/html/link") == .symlink(target: "sub"))
        #expect(fs.isDirectory("/var/www/html/link/"))
        #expect(fs.resolve("/var/www/html/link/../blog/index.php") == "/var/www/html/blog/index.php")
    }
}
