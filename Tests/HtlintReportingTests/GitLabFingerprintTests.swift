import HtlintDiagnostics
@testable import HtlintReporting
import Testing

/// GitLab tells new findings from old ones by fingerprint, so it must be stable across runs,
/// processes and platforms.
struct GitLabFingerprintTests {
    @Test func fnv1aMatchesPublishedTestVectors() {
        // From the FNV reference test suite (fnv64a test vectors).
        #expect(GitLabFormatter.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(GitLabFormatter.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(GitLabFormatter.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    @Test func fingerprintIsAFixedValueForFixedInput() {
        let f = GitLabFormatter.fingerprint(code: "HT301", path: "public/.htaccess", line: 4, message: "loop")
        #expect(f.count == 16 && f.allSatisfy(\.isHexDigit))
        // Pinned (computed independently in Python): a change here changes every fingerprint
        // users have in GitLab, which then shows every old finding as fixed and every one as new.
        #expect(f == "89001244aaa25265")
        #expect(GitLabFormatter.fingerprint(code: "HT301", path: "public/.htaccess", line: 4, message: "loop", occurrence: 0) == f)
    }

    @Test func fingerprintDependsOnEveryField() {
        let base = GitLabFormatter.fingerprint(code: "HT301", path: "a", line: 1, message: "m")
        #expect(base != GitLabFormatter.fingerprint(code: "HT302", path: "a", line: 1, message: "m"))
        #expect(base != GitLabFormatter.fingerprint(code: "HT301", path: "b", line: 1, message: "m"))
        #expect(base != GitLabFormatter.fingerprint(code: "HT301", path: "a", line: 2, message: "m"))
        #expect(base != GitLabFormatter.fingerprint(code: "HT301", path: "a", line: 1, message: "n"))
        // Field boundaries are part of the hash: ("a", "b") is not ("ab", "").
        #expect(GitLabFormatter.fingerprint(code: "a", path: "b", line: 1, message: "")
            != GitLabFormatter.fingerprint(code: "ab", path: "", line: 1, message: ""))
    }

    @Test func identicalFindingsGetDistinctFingerprintsAndOutputIsStable() {
        #expect(GitLabFormatter().format(Fixture.report) == GitLabFormatter().format(Fixture.report))
        let twice = Report(diagnostics: Fixture.report.diagnostics + Fixture.report.diagnostics, sources: [])
        let prints = GitLabFormatter().format(twice).split(separator: "\n").filter { $0.contains("\"fingerprint\"") }
        #expect(prints.count == 12)
        #expect(Set(prints).count == 12)
    }

    @Test func fingerprintIgnoresALeadingDotSlash() {
        #expect(repositoryPath("./public/.htaccess") == "public/.htaccess")
        #expect(repositoryPath("././a") == "a")
        #expect(repositoryPath("/abs/a") == "/abs/a")
        let d = { (path: String) in
            Diagnostic(code: "HT1", severity: .error, message: "m", range: .point(path, 0))
        }
        #expect(GitLabFormatter().format(Report(diagnostics: [d("./a/.htaccess")], sources: []))
            == GitLabFormatter().format(Report(diagnostics: [d("a/.htaccess")], sources: [])))
    }
}
