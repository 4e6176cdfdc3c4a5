import Foundation
import HtlintBytes
import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Issue 9 item 3: the engine's -f/-d/-s/-l checks and file mapping consult only the in-memory
/// `SiteFileSystem` loaded from the document root; loading records symbolic links and never
/// follows them out of the root, and resolving them in memory is bounded against loops.
struct ContainedFileAccessTests {
    static func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "htlint-contained-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/site/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        return dir
    }

    /// A name that is not UTF-8 (`caf\xE9.html`) keeps its byte as the engine's strings keep raw
    /// bytes, so `/caf%E9.html` finds it (recorded: rewrite-escape-non-utf8-file-names); empty
    /// files get the size the caller gives them from their path.
    @Test func loadingKeepsTheBytesOfNamesThatAreNotUTF8() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/site/ok.html", contents: nil)
        let latin1 = Array((dir + "/site/caf").utf8) + [0xE9] + Array(".html".utf8) + [0]
        let fd = latin1.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let fs = try SiteFileSystem.load(directory: dir + "/site", mountedAt: "/var/www/html", emptyFileSize: { $0.utf8.count })
        #expect(fs.stat("/var/www/html/ok.html") == .file(size: "/ok.html".utf8.count))
        let name = String(preservingBytes: Array("caf".utf8) + [0xE9] + Array(".html".utf8))
        #expect(Set(fs.entryNames(in: "/var/www/html")) == [name, "ok.html", "sub"])
        #expect(fs.stat("/var/www/html/" + name) == .file(size: ("/" + name).utf8.count))
        #expect(fs.stat("/var/www/html/caf\u{E9}.html") == nil)
    }

    @Test func loadingRecordsSymlinksWithoutFollowingThem() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        _ = fm.createFile(atPath: dir + "/site/index.html", contents: Data("hi".utf8))
        _ = fm.createFile(atPath: dir + "/site/.htaccess", contents: Data("RewriteEngine On\n".utf8))
        _ = fm.createFile(atPath: dir + "/outside/.htaccess", contents: Data("Outside\n".utf8))
        _ = fm.createFile(atPath: dir + "/outside/secret.txt", contents: Data("secret".utf8))
        try fm.createSymbolicLink(atPath: dir + "/site/etc", withDestinationPath: "/etc")
        try fm.createSymbolicLink(atPath: dir + "/site/out", withDestinationPath: dir + "/outside")
        try fm.createSymbolicLink(atPath: dir + "/site/sub/up", withDestinationPath: "../../outside")
        let fs = try SiteFileSystem.load(directory: dir + "/site", mountedAt: "/var/www/html")
        #expect(fs.lstat("/var/www/html/etc") == .symlink(target: "/etc"))
        #expect(fs.lstat("/var/www/html/out") == .symlink(target: dir + "/outside"))
        #expect(fs.lstat("/var/www/html/sub/up") == .symlink(target: "../../outside"))
        // Nothing below a link was loaded: no /etc/passwd, no outside .htaccess or file.
        #expect(fs.nodes.map(\.key).allSatisfy { !$0.hasPrefix("/var/www/html/etc/") && !$0.hasPrefix("/var/www/html/out/") })
        #expect(fs.accessFileEntries.map(\.key).sorted() == ["/var/www/html/"])
        #expect(fs.stat("/var/www/html/out/secret.txt") == nil)
        // Link targets outside the simulated root resolve in the modelled Debian system
        // (`Site.systemNode`), never on the real disk: /etc and /etc/passwd are there, the
        // scratch directories are not.
        #expect(fs.stat("/var/www/html/etc/passwd") == .file(size: 1))
        #expect(fs.stat("/var/www/html/etc") == .directory)
        #expect(fs.stat("/var/www/html/etc/secret.txt") == nil)
        #expect(fs.stat("/var/www/html/sub/up") == nil)
        #expect(fs.contents("/var/www/html/etc/passwd") == nil)
    }

    @Test func symlinkLoopsAreBounded() throws {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addSymlink("/a", target: "b")
        fs.addSymlink("/b", target: "a")
        fs.addSymlink("/self", target: "/var/www/html/self")
        // A chain of 40 links resolves; a 41st hop is refused, as ELOOP is (Linux's
        // MAXSYMLINKS; recorded: access-symlink-chain-of-forty).
        fs.addFile("/target.html")
        for i in 0..<41 { fs.addSymlink("/l\(i)", target: i == 0 ? "target.html" : "l\(i - 1)") }
        #expect(fs.stat("/var/www/html/a") == nil)
        #expect(fs.stat("/var/www/html/self") == nil)
        #expect(fs.stat("/var/www/html/l39") == .file(size: 1))
        #expect(fs.stat("/var/www/html/l40") == nil)
        #expect(fs.lstat("/var/www/html/a") == .symlink(target: "b"))
    }

    @Test func enginesFileTestsOnALoopAnswerWithoutHanging() throws {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addSymlink("/a", target: "b")
        fs.addSymlink("/b", target: "a")
        fs.addSymlink("/etc", target: "/etc")
        fs.addAccessFile("/", displayPath: ".htaccess", text: """
            RewriteEngine On
            RewriteCond %{REQUEST_FILENAME} -f [OR]
            RewriteCond %{REQUEST_FILENAME} -d [OR]
            RewriteCond %{REQUEST_FILENAME} -l
            RewriteRule ^ - [L]
            RewriteRule ^ index.html [L]
            """)
        let origin = Origin(site: Site(serverName: "example.org", files: fs))
        for target in ["/a", "/etc/passwd", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd"] {
            let response = origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org")]))
            #expect([200, 400, 403, 404].contains(response.status), "\(target): \(response.status)")
        }
    }

    @Test func oversizedHtaccessIsRefusedUnread() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/site/.htaccess"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        // A sparse file: 17 MiB by its size, written with one byte at the end.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(SourceFile.sizeLimit + (1 << 20)))
        handle.write(Data("\n".utf8))
        try handle.close()
        #expect(throws: SiteFileSystem.LoadError.self) {
            try SiteFileSystem.load(directory: dir + "/site", mountedAt: "/var/www/html", displayPrefix: "site")
        }
        do {
            _ = try SiteFileSystem.load(directory: dir + "/site", mountedAt: "/var/www/html", displayPrefix: "site")
        } catch {
            #expect("\(error)" == "cannot read 'site/.htaccess': file is \(SourceFile.sizeLimit + (1 << 20) + 1) bytes; htlint reads at most 16777216 bytes (16 MiB)")
        }
    }
}
