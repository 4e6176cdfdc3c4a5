import HtlintApache
import HtlintDiagnostics

/// `Header set X "%{Name}i"`: in mod_headers `%i` is the idle-worker share and its `{…}` is
/// ignored, so the request header never reaches the response (recorded with Apache 2.4: the
/// value is `i=50`).
struct HeaderFormatArgumentIgnored: LintRule {
    let description = RuleDescription(
        id: "HT220", name: "header-format-argument-ignored", family: .semantics,
        summary: "a `Header` value uses `%{Name}i` (or `%{…}` before `t`, `D`, `l`, `b`) as if it read a request header",
        rationale: """
        mod_headers' value formats are not mod_log_config's: only `%{VAR}e` (environment) and \
        `%{VAR}s` (mod_ssl) read their name. `%i` is the share of idle workers, `%b` the busy \
        share, `%l` the load average, `%t` the request time and `%D` its duration; a `{Name}` \
        in front of them is ignored. So `Header set X-Client \"%{X-Forwarded-For}i\"` sends \
        `X-Client: i=50` on every response, never the header it names. To copy a request header, \
        write the value as an expression: `Header set X-Client \"expr=%{req:X-Forwarded-For}\"`.
        """,
        severity: .warning,
        triggering: [Example("↓Header set X-Client \"%{X-Forwarded-For}i\""),
                     Example("↓RequestHeader set X-Seen \"at %{now}t\"")],
        nonTriggering: [Example("Header set X-Client \"expr=%{req:X-Forwarded-For}\""),
                        Example("Header set X-Timing \"%D %t\""),
                        Example("Header set X-Host \"%{HTTP_HOST}e\"")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.config.block.allHeaderDirectives.compactMap { h -> Diagnostic? in
                guard h.valueExpression == nil, h.action != "unset", h.action != "echo",
                      case .success(let pieces) = parseHeaderFormat(h.value) else { return nil }
                for case .tag(let tag, let arg) in pieces where !arg.isEmpty && tag != "e" && tag != "s" {
                    let meaning = Self.meaning(of: tag)
                    let hint = tag == "i" ? "; to copy the header write \"expr=%{req:\(arg)}\"" : ""
                    return finding("`%{\(arg)}\(tag)` in `\(h.name)` is not the request header `\(arg)`: mod_headers ignores "
                                   + "`{\(arg)}` and writes \(meaning)\(hint)", at: h.range)
                }
                return nil
            }
        }
    }

    /// What mod_headers writes for a tag that takes no argument (`parseHeaderFormat` admits
    /// only D t e s l i b, and `e`/`s` read theirs).
    private static func meaning(of tag: Character) -> String {
        switch tag {
        case "i": "the idle-worker share (`i=50`)"
        case "b": "the busy-worker share (`b=50`)"
        case "l": "the load average (`l=0.10/0.20/0.30`)"
        case "t": "the request time (`t=…` in microseconds)"
        default: "the time taken so far (`D=…` in microseconds)"
        }
    }
}
