import Foundation
import Testing
@testable import HtlintCLI

/// `lint --no-simulation` on a document root still reads the site's files and virtual host:
/// the static rules that ask about them find what they find with simulation. HT224 reports
/// `Redirect 301 /old /new/` where `/old` is a directory of the site (recorded:
/// alias-redirect-trailing-slash-mismatch, /old/x → /new//x), and HT201 stays silent on rules
/// whose engine the virtual host's `<Directory>` switches on.
struct NoSimulationSiteTests {
    @Test func staticRulesReadTheSiteWithoutSimulation() throws {
        let scratch = try ScratchSite(files: ["index.html": "", "old/index.html": "",
                                             ".htaccess": "Redirect 301 /old /new/\nRewriteRule ^a$ /b [R=301,L]\n"],
                                      vhost: "<Directory /var/www/html>\nRewriteEngine On\n</Directory>\n")
        defer { scratch.remove() }
        let (site, vhost) = (scratch.site, scratch.vhost)
        let args = ["lint", "--format", "concise", "--only", "HT224", "--only", "HT201", "--host", "shop.example",
                    "--docroot", site.path, "--vhost", vhost.path]
        let expected = ["\(site.path)/.htaccess:1:19: warning: `/old/x` is sent to `/new//x`, with a double slash: "
                        + "end both the URL-path and the target with a slash, or neither [HT224]"]
        for extra in [[], ["--no-simulation"]] {
            let found = runCLI(args + extra).stdout.split(separator: "\n").map(String.init)
            #expect(found == expected, "\(extra): \(found)")
        }
    }
}
