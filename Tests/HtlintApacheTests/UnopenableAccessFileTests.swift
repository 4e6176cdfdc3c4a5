import Testing
@testable import HtlintApache

private func get(_ origin: Origin, _ target: String) -> OriginResponse {
    origin.respond(to: OriginRequest(method: "GET", target: target, headers: [HTTPHeader("Host", "open.example")]))
}

// fixtures/apache/allowoverride-unopenable-htaccess-forbids: ap_parse_htaccess answers 403
// (AH00529) for an access file it cannot open, and passes over a missing one.
struct UnopenableAccessFileTests {
    private func origin(vhost: [String] = []) -> Origin {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/x.html", "/d/x.html", "/l/x.html", "/m/x.html", "/n/x.html"] { fs.addFile(f) }
        fs.addDirectory("/d/.htaccess")
        fs.addSymlink("/l/.htaccess", target: ".htaccess")
        fs.addSymlink("/m/.htaccess", target: "missing")
        fs.addSymlink("/n/.htaccess", target: "../d/.htaccess")
        return Origin(site: Site(serverName: "open.example", files: fs, vhostLines: vhost))
    }

    @Test func aDirectoryOrALinkCycleIsForbidden() {
        let o = origin()
        for target in ["/d/x.html", "/l/x.html", "/n/x.html"] {
            let r = get(o, target)
            #expect(r.status == 403, "\(target)")
            #expect(r.errorCodes == ["AH00529"], "\(target)")
        }
        // The walk stops at the directory; what it had not walked is path info.
        #expect(get(o, "/d/no/such/page").final.filename == "/d/")
    }

    @Test func aDanglingLinkIsMissing() {
        let o = origin()
        #expect(get(o, "/m/x.html").status == 200)
        #expect(get(o, "/x.html").status == 200)
    }

    @Test func allowOverrideNoneOpensNothing() {
        let o = origin(vhost: ["<Directory /var/www/html/d>", "AllowOverride None", "</Directory>"])
        #expect(get(o, "/d/x.html").status == 200)
    }
}
