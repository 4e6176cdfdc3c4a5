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
