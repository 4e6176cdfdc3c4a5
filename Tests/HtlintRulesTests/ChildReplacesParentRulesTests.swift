import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT213 with a child that has rules of its own (scenario S34): the parent's https redirect and
/// blocking rules stop running below the child's directory; the finding names them by line.
struct ChildReplacesParentRulesTests {
    static let parent = """
        RewriteEngine On
        RewriteCond %{HTTPS} off
        RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
        RewriteRule (^|/)\\.git - [F]
        RewriteRule ^old$ /new [R=301,L]
        """
    static let child = "# shop\nRewriteEngine On\nRewriteRule ^x$ index.php [L]"

    @Test func namesTheDroppedGuardsAtTheChildsEngineLine() throws {
        let d = try #require(findings(of: "HT213", in: Self.child, parent: Self.parent).first)
        #expect(d.message == "this file's rules replace the parent's for /sub/: the parent's https redirect (line 3), blocking rule (line 4) "
                + "no longer run for any URL below /sub/; add `RewriteOptions Inherit` or repeat them here")
        #expect(d.range.file == "sub/.htaccess")
        #expect(SourceFile(path: "", text: Self.child).lines.position(of: d.range.start) == SourcePosition(line: 2, column: 1))
        #expect(d.notes.first?.range?.file == ".htaccess")
    }

    @Test func guardsAnchoredOnAnotherDirectoryAreNotDropped() {
        let parent = "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^admin/ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        #expect(findings(of: "HT213", in: Self.child, parent: parent).isEmpty)
        let sub = "RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\. [NC]\nRewriteRule ^SUB/ https://www.example.com/$0 [R=301,L,NC]"
        #expect(findings(of: "HT213", in: Self.child, parent: sub).first?.message.contains("canonical-host redirect (line 3)") == true)
    }

    @Test func inheritingChildIsQuiet() {
        #expect(findings(of: "HT213", in: "RewriteEngine On\nRewriteOptions Inherit\nRewriteRule ^x$ index.php [L]", parent: Self.parent).isEmpty)
    }
}
