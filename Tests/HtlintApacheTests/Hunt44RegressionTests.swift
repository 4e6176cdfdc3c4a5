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
