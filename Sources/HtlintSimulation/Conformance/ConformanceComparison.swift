import Foundation
import HtlintApache
import HtlintBytes
import HtlintRegex

/// One field where the simulator and the recording disagree.
public struct Disagreement: CustomStringConvertible, Sendable {
    public var request: String
    public var field: String
    public var expected: String
    public var actual: String
    public var description: String { "\(request): \(field): expected \(expected), got \(actual)" }
}

/// Compares simulated chains with a case's recordings, on the fields that matter most
/// (conformance README): outcome, final status, loop cycle; per hop url, status, location,
/// answered_by, served; Apache's uri, query, filename and recursion flag.
public enum ConformanceComparison {
    public static func compare(_ c: ConformanceCase, simulator: ChainSimulator, strict: Bool = false) -> (requests: Int, agreeing: Int, disagreements: [Disagreement]) {
        var all: [Disagreement] = []
        var agreeing = 0
        let names = RecordedFileNames(siteDirectory: c.siteDirectory)
        for (index, request) in c.requests.enumerated() {
            guard index < c.expected.count else { continue }
            let expected = c.expected[index]
            let result = simulator.run(request.url, method: request.method, headers: request.headers)
            let found = compare(result, expected, label: "\(c.name) \(request.method) \(request.url)", strict: strict, names: names)
            if found.isEmpty { agreeing += 1 }
            all += found
        }
        return (min(c.requests.count, c.expected.count), agreeing, all)
    }

    /// A response header as the recording client reads it: each value without the blanks that
    /// follow the colon on the wire (`Header set X "expr= %{…}"` sends `X:  value`), dropped by
    /// scalars: a space followed by a combining mark is one Character (recorded:
    /// header-value-leading-blank-before-combining-mark).
    static func clientView(_ o: OriginResponse, _ name: String) -> String? {
        let values = o.headers.filter { equalsIgnoringASCIICase($0.name, name) }
            .map { String(String.UnicodeScalarView($0.value.unicodeScalars.drop { $0 == " " || $0 == "\t" })) }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    static func methodSet(_ allow: String) -> Set<Substring> {
        Set(allow.split(separator: ",").map { $0.drop { $0 == " " } })
    }

    static func text(_ v: Any?) -> String {
        switch v {
        case nil, is NSNull: return "null"
        case let s as String: return "\"\(s)\""
        case let b as Bool where !(v is NSNumber): return b ? "true" : "false"
        case let n as NSNumber: return n.stringValue
        case let a as [Any]: return "[" + a.map { text($0) }.joined(separator: ", ") + "]"
        default: return "\(v!)"
        }
    }

    /// The recorder logged some non-ASCII paths byte by byte, as Latin-1; compare those as bytes.
    static func sameBytesReadAsLatin1(_ want: Any?, _ got: Any?) -> Bool {
        guard let w = want as? String, let g = got as? String, let bytes = w.data(using: .isoLatin1) else { return false }
        return Array(bytes) == g.rawBytes
    }

    static func compare(_ result: ChainResult, _ expected: [String: Any], label: String, strict: Bool,
                        names: RecordedFileNames? = nil) -> [Disagreement] {
        var out: [Disagreement] = []
        func check(_ field: String, _ want: Any?, _ got: Any?) {
            let w = text(want), g = text(got)
            if w != g, !sameBytesReadAsLatin1(want, got) { out.append(Disagreement(request: label, field: field, expected: w, actual: g)) }
        }
        check("outcome", expected["outcome"], result.outcome.rawValue)
        // The recording client records no hop for an exchange that got no response at all.
        let answered = result.hops.filter { !($0.status == 0 && $0.error != nil) }
        check("final_status", expected["final_status"], answered.last?.status)
        if let loop = expected["loop"] as? [String: Any] {
            check("loop.cycle", loop["cycle"], result.cycle)
        }
        if let off = expected["offsite_url"] { check("offsite_url", off, result.offsiteURL) }
        let hops = expected["hops"] as? [[String: Any]] ?? []
        if hops.count != answered.count {
            check("hops", hops.map { $0["url"] ?? "" }, answered.map(\.url))
        }
        for (i, (want, got)) in zip(hops, answered).enumerated() {
            check("hop\(i).url", want["url"], got.url)
            check("hop\(i).status", want["status"], got.status)
            check("hop\(i).location", want["location"], got.location)
            check("hop\(i).answered_by", want["answered_by"], got.answeredBy)
            // The oracle recognises a body by the site files' contents, never a `.htaccess`
            // file's: Apache sending one (ErrorDocument 403 /.htaccess for /.htaccess, whose
            // access check the same configuration skips) is recorded as null.
            // Nor a body mod_deflate compressed (GET or POST accepting gzip; recorded:
            // header-deflate-compressed-body-not-recognised). A file with another's bytes has
            // that one's name (RecordedFileNames).
            let served = got.origin?.compressed == true ? nil
                : got.served.flatMap { path in path.hasSuffix("/.htaccess") ? nil : names.map { $0.recorded(path) } ?? path }
            if want.keys.contains("served") { check("hop\(i).served", want["served"], served) }
            if let wantHeaders = want["headers"] as? [String: Any], let o = got.origin {
                for (name, value) in wantHeaders.sorted(by: { $0.key < $1.key }) {
                    var seen = name.lowercased() == "location" ? got.location : clientView(o, name)
                    // Apache lists `Allow` in its method registry's hash order, which changes with
                    // every server start: the same methods in another order agree.
                    if name.lowercased() == "allow", let w = value as? String, let g = seen, methodSet(w) == methodSet(g) { seen = w }
                    check("hop\(i).headers.\(name)", value, seen)
                }
            }
            guard let a = want["apache"] as? [String: Any], let o = got.origin else { continue }
            check("hop\(i).apache.uri", a["uri"], o.final.uri)
            check("hop\(i).apache.query", a["query"], o.final.query)
            check("hop\(i).apache.filename", a["filename"], o.final.filename)
            if strict {
                check("hop\(i).apache.status", a["status"], o.final.status)
                check("hop\(i).apache.original_status", a["original_status"], o.original.status)
                check("hop\(i).apache.original_uri", a["original_uri"], o.original.uri)
                check("hop\(i).apache.original_query", a["original_query"], o.original.query)
                check("hop\(i).apache.original_filename", a["original_filename"], o.original.filename)
                // `%R` logs an unset handler as `-`, which the recording reads as null: a handler
                // named `-` (`[H=-]`) is logged the same (recorded: rewrite-flags-handler-dash).
                check("hop\(i).apache.handler", a["handler"], o.final.handler == "-" ? nil : o.final.handler)
                check("hop\(i).apache.error_codes", a["error_codes"], o.errorCodes.filter { !$0.isEmpty })
            }
            check("hop\(i).apache.recursion_limit_exceeded", (a["recursion_limit_exceeded"] as? Bool ?? false) ? 1 : 0,
                  o.recursionLimitExceeded ? 1 : 0)
        }
        return out
    }
}
