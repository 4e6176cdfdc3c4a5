import Testing
@testable import HtlintRules

/// HT220: a `{Name}` before a mod_headers tag that takes none. Recorded with Apache 2.4: with
/// `X-In: hello` sent, `Header set X-B "%{X-In}i"` answered `i=0` and
/// `Header set X-A "expr=%{req:X-In}"` answered `hello`.
struct HeaderFormatArgumentTests {
    @Test func namesBeforeArgumentlessTagsAreFlagged() {
        let text = """
            Header set X-B "%{X-In}i"
            Header always set X-D "took %{ms}D"
            Header set X-A "expr=%{req:X-In}"
            Header set X-E "%{HTTP_HOST}e %{HTTPS}s %D %t"
            Header unset X-F
            <If "%{HTTPS} == 'on'">
            RequestHeader set X-L "%{x}l"
            </If>

            """
        let found = findings(of: "HT220", in: text)
        #expect(found.map(\.message) == [
            "`%{X-In}i` in `X-B` is not the request header `X-In`: mod_headers ignores `{X-In}` and writes the idle-worker share (`i=50`); to copy the header write \"expr=%{req:X-In}\"",
            "`%{ms}D` in `X-D` is not the request header `ms`: mod_headers ignores `{ms}` and writes the time taken so far (`D=…` in microseconds)",
            "`%{x}l` in `X-L` is not the request header `x`: mod_headers ignores `{x}` and writes the load average (`l=0.10/0.20/0.30`)",
        ])
        #expect(found.map(\.range.start) == [0, 26, 184])
    }
}
