import Testing
@testable import HtlintApache

// `DocumentRoot` in the vhost moves URL mapping and %{DOCUMENT_ROOT}; the directory walk still
// starts where the files are mounted, so the parent .htaccess is read (fixtures/apache/subfolder-docroot-vhost).
struct VhostDocumentRootTests {
    private let vhost = ["DocumentRoot /var/www/html/pub"]
    private let files = ["/x.html", "/pub/x.html", "/pub/t.html", "/pub/index.html"]

    @Test func siteKeepsBothRoots() {
        let site = Site(serverName: "shop.example", files: SiteFileSystem(root: "/var/www/html"), vhostLines: vhost)
        #expect(site.documentRoot == "/var/www/html/pub")
        #expect(site.mountedRoot == "/var/www/html")
    }

    @Test func urlsMapUnderTheNewRoot() {
        let r = respond("/x.html", vhost: vhost, files: files)
        #expect(r.status == 200)
        #expect(r.final.filename == "/pub/x.html")
        #expect(respond("/", vhost: vhost, files: files).final.filename == "/pub/index.html")
    }

    @Test func documentRootVariableAndBothHtaccessFiles() {
        let r = respond("/a", vhost: vhost,
                        access: [("/", "Header always set X-Parent yes"),
                                 ("/pub", "RewriteEngine On\nRewriteRule ^a$ /t.html?d=%{DOCUMENT_ROOT} [R=302,L]")],
                        files: files)
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/t.html?d=/var/www/html/pub")
        #expect(r.headers.contains(HTTPHeader("X-Parent", "yes")))
    }
}
