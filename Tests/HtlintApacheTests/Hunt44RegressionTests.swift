import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Hunt 44: AllowOverride's Nonfatal bits, mod_autoindex listings and symbolic links, each
/// checked against Apache 2.4.
struct Hunt44RegressionTests {
    func errors(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    /// set_override: a bare `Nonfatal` stops the server with its own message, any other
    /// `Nonfatal=` value is ignored, and `None`/`All` assign the whole word (Nonfatal bits dropped).
    @Test func allowOverrideNonfatalWords() {
        let bare = ConfigReader.read(SourceFile(path: "site.conf", text: "<Directory /var/www/html/a>\nAllowOverride nonfatal\n</Directory>"), context: .server)
        #expect(errors(bare.diagnostics) == ["=Override, =Unknown or =All expected after nonfatal"])
        for line in ["AllowOverride FileInfo Nonfatal=Bogus", "AllowOverride Nonfatal="] {
            let read = ConfigReader.read(SourceFile(path: "site.conf", text: "<Directory /var/www/html/a>\n\(line)\n</Directory>"), context: .server)
            #expect(errors(read.diagnostics).isEmpty)
        }
        guard case .success(let none) = AllowedOverrides.parse(["Nonfatal=All", "None"]),
              case .success(let all) = AllowedOverrides.parse(["Nonfatal=All", "All"]),
              case .success(let only) = AllowedOverrides.parse(["Nonfatal=Unknown"]) else { Issue.record("refused"); return }
        #expect(!none.nonfatalOverride && !none.nonfatalUnknown)
        #expect(!all.nonfatalOverride && !all.nonfatalUnknown)
        #expect(only.nonfatalUnknown)
    }

    /// fixtures/apache/allowoverride-nonfatal-bits-read-the-file: ap_directory_walk opens the
    /// file when any bit of `override` is set, Nonfatal ones included, so a `<Files>` that
    /// Nonfatal=Unknown does not excuse fails the request.
    @Test func nonfatalBitsAloneReadTheFile() {
        let access = [("/nf", "<Files x>\nRequire all denied\n</Files>\n")]
        let vhost = ["<Directory /var/www/html/nf>", "AllowOverride Nonfatal=Unknown", "</Directory>"]
        let r = respondOnSite("/nf/x", vhost: vhost, access: access, files: ["/nf/x"])
        #expect(r.status == 500)
        let unread = respondOnSite("/nf/x", vhost: ["<Directory /var/www/html/nf>", "AllowOverride Nonfatal=All None", "</Directory>"],
                                   access: access, files: ["/nf/x"])
        #expect(unread.status == 200)
    }
}

extension Hunt44RegressionTests {
    /// fixtures/apache/errordoc-directory-listing-page: an ErrorDocument that mod_autoindex lists
    /// goes out with the error status and the listing's type; for HEAD (r->header_only) the
    /// listing is not read, so no entry is looked up.
    @Test func errorDocumentListedWithTheListingType() {
        let vhost = ["ErrorDocument 404 /d/", "<Directory /var/www/html/d>", "Options +Indexes", "</Directory>",
                     "<Files f>", "Require all denied", "</Files>"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/d/f")
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        let get = origin.respond(to: OriginRequest(target: "/missing", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(get.status == 404)
        #expect(get.headers.first { $0.name == "Content-Type" }?.value == "text/html;charset=ISO-8859-1")
        #expect(get.errorCodes == ["AH01630"])
        let head = origin.respond(to: OriginRequest(method: "HEAD", target: "/missing", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(head.status == 404)
        #expect(head.errorCodes.isEmpty)
    }
}

extension Hunt44RegressionTests {
    static func respond(_ target: String, _ fs: SiteFileSystem, vhost: [String]) -> OriginResponse {
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    /// fixtures/apache/access-symlink-refused-before-broken-htaccess: directory_walk refuses the
    /// link (403, AH00037) before it opens the broken .htaccess of the directory it names.
    @Test func refusedLinkBeforeItsBrokenHtaccess() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/real/x")
        fs.addAccessFile("/real", displayPath: "/var/www/html/real/.htaccess", text: "Bogus directive\n")
        fs.addSymlink("/nosym/lnk", target: "../real")
        let vhost = ["<Directory /var/www/html/nosym>", "Options -FollowSymLinks", "</Directory>"]
        let r = Self.respond("/nosym/lnk/x", fs, vhost: vhost)
        #expect(r.status == 403)
        #expect(r.errorCodes == ["AH00037"])
        #expect(Self.respond("/real/x", fs, vhost: vhost).status == 500)
    }

    /// fixtures/apache/dirindex-autoindex-through-symlink: a listing through a link reads the
    /// target's entries; without FollowSymLinks a linked entry is refused by
    /// ap_sub_req_lookup_dirent itself (AH00032) and a dangling one is left out silently.
    @Test func listingThroughALinkAndOfLinks() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/t/secret")
        fs.addSymlink("/lnk", target: "t")
        fs.addFile("/nol/plain")
        fs.addSymlink("/nol/flink", target: "../t/secret")
        fs.addSymlink("/nol/dangling", target: "nowhere")
        let vhost = ["<Directory /var/www/html>", "Options +Indexes", "</Directory>",
                     "<Directory /var/www/html/nol>", "Options Indexes", "</Directory>",
                     "<Files secret>", "Require all denied", "</Files>"]
        let through = Self.respond("/lnk/", fs, vhost: vhost)
        #expect(through.status == 200)
        #expect(through.errorCodes == ["AH01630"])
        let links = Self.respond("/nol/", fs, vhost: vhost)
        #expect(links.status == 200)
        #expect(links.errorCodes == ["AH00032"])
    }

    /// fixtures/apache/allowoverride-nonfatal-skipped-rewrite-replaces-rules: a RewriteRule skipped
    /// under Nonfatal=Override leaves an empty mod_rewrite configuration whose rule list replaces
    /// the parent's; a skipped Redirect leaves the parent's rules in force.
    @Test func skippedRewriteLineReplacesTheParentsRules() {
        let vhost = ["<Directory /var/www/html/p/c>", "AllowOverride Nonfatal=Override", "</Directory>",
                     "<Directory /var/www/html/p/d>", "AllowOverride Nonfatal=Override", "</Directory>"]
        let access = [("/p", "RewriteEngine On\nRewriteRule ^(c|d)/x$ /show.html [L]\n"),
                      ("/p/c", "RewriteRule ^x$ /other.html [L]\n"), ("/p/d", "Redirect 302 /nowhere /other.html\n")]
        let files = ["/show.html", "/other.html", "/p/c/x", "/p/d/x"]
        #expect(respondOnSite("/p/c/x", vhost: vhost, access: access, files: files).served == "/p/c/x")
        #expect(respondOnSite("/p/d/x", vhost: vhost, access: access, files: files).served == "/show.html")
    }

    /// fixtures/apache/section-ht-files-denied-after-directorymatch: the server's `^\.ht`
    /// <FilesMatch> is merged in the file walk, after a <DirectoryMatch> that grants access.
    @Test func htFilesDeniedAfterDirectoryMatch() {
        let vhost = ["<DirectoryMatch \"^/var/www/html/dm\">", "Require all granted", "</DirectoryMatch>"]
        let files = ["/dm/.htsecret", "/dm/plain"]
        let denied = respondOnSite("/dm/.htsecret", vhost: vhost, files: files)
        #expect(denied.status == 403)
        #expect(denied.errorCodes == ["AH01630"])
        #expect(respondOnSite("/dm/plain", vhost: vhost, files: files).status == 200)
    }

    /// fixtures/apache/nested-options-stale-removal-reapplied: `-FollowSymLinks` then a plain
    /// `Options FollowSymLinks` leaves the removal in opts_remove; a deeper object with core
    /// directives (relative Options, ErrorDocument) re-applies it, so its RewriteRule is refused
    /// (AH00670); a deeper file with mod_rewrite lines only keeps FollowSymLinks.
    @Test func staleOptionRemovalReappliedByDeeperCoreObjects() {
        let rules = "RewriteEngine On\nRewriteRule ^x$ /show.html [L]\n"
        let access = [("/o", "Options -FollowSymLinks\nOptions FollowSymLinks\n" + rules), ("/o/s", "Options +Indexes\n" + rules),
                      ("/o/t", "ErrorDocument 404 /nf.html\n" + rules), ("/o/u", rules)]
        let files = ["/show.html", "/o/x", "/o/s/x", "/o/t/x", "/o/u/x"]
        #expect(respondOnSite("/o/x", access: access, files: files).served == "/show.html")
        for target in ["/o/s/x", "/o/t/x"] {
            let r = respondOnSite(target, access: access, files: files)
            #expect(r.status == 403)
            #expect(r.errorCodes == ["AH00670"])
        }
        #expect(respondOnSite("/o/u/x", access: access, files: files).served == "/show.html")
    }

    /// fixtures/apache/errordoc-symlinked-htaccess-distinct-object: the target's .htaccess read
    /// through a link is another object, so the ErrorDocument page's configuration differs from
    /// the request's and its access is checked again (a canned 403).
    @Test func htaccessThroughALinkIsAnotherObject() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/t/x")
        fs.addFile("/t/page.html")
        fs.addAccessFile("/t", displayPath: "/var/www/html/t/.htaccess", text: "Require all denied\nErrorDocument 403 /t/page.html\n")
        fs.addSymlink("/lnk", target: "t")
        let direct = Self.respond("/t/x", fs, vhost: [])
        #expect(direct.status == 403)
        #expect(direct.served == "/t/page.html")
        let linked = Self.respond("/lnk/x", fs, vhost: [])
        #expect(linked.status == 403)
        #expect(linked.served == nil)
        #expect(linked.errorCodes == ["AH01630", "AH01630"])
    }

    /// fixtures/apache/allowoverride-nonfatal-skipped-access-compat-replaces-parent: an `Allow`
    /// skipped under Nonfatal=Override leaves mod_access_compat's empty object, which replaces
    /// the parent's `Order`/`Deny` (the module has no merge); a skipped `Redirect` does not.
    @Test func skippedAccessCompatLineReplacesTheParentsLines() {
        let vhost = ["<Directory /var/www/html/p/c>", "AllowOverride Nonfatal=Override", "</Directory>",
                     "<Directory /var/www/html/p/d>", "AllowOverride Nonfatal=Override", "</Directory>"]
        let access = [("/p", "Order deny,allow\nDeny from all\n"), ("/p/c", "Allow from all\n"),
                      ("/p/d", "Redirect 302 /nowhere /p/x\n")]
        let files = ["/p/x", "/p/c/x", "/p/d/x"]
        #expect(respondOnSite("/p/c/x", vhost: vhost, access: access, files: files).status == 200)
        let d = respondOnSite("/p/d/x", vhost: vhost, access: access, files: files)
        #expect(d.status == 403)
        #expect(d.errorCodes == ["AH01797"])
    }

    /// fixtures/apache/negotiation-untyped-candidate-still-looked-up: read_types_multi looks
    /// every candidate up (fixups included) before it reads the extensions, so mod_rewrite's
    /// refusal without FollowSymLinks (AH00670) is logged for a name mod_mime cannot type too.
    @Test func untypedMultiViewsCandidateStillLookedUp() {
        let access = [("/sub", "Options MultiViews\nRewriteEngine On\nRewriteRule ^x$ y.html [L]\n")]
        let files = ["/sub/page.html", "/sub/page.zzz", "/sub/only.zzz"]
        let page = respondOnSite("/sub/page", access: access, files: files)
        #expect(page.status == 404)
        #expect(page.errorCodes == ["AH00670", "AH00670", "AH00687"])
        let only = respondOnSite("/sub/only", access: access, files: files)
        #expect(only.status == 404)
        #expect(only.errorCodes == ["AH00670", "AH00687"])
    }
}
