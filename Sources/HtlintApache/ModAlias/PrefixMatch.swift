import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// Segment-aware prefix match used by `Redirect` and `Alias` (apache-semantics §8.3): each `/`
/// in the configured path matches one or more `/`; the match ends at a segment boundary.
/// Returns the unmatched rest of the URI.
public func prefixMatch(_ configured: String, _ uri: String) -> String? {
    var configured = configured, uri = uri
    let rest: Int? = configured.withUTF8 { c in uri.withUTF8 { u in prefixMatchLength(c, u) } }
    guard let rest else { return nil }
    return rest == uri.utf8.count ? "" : String(decoding: uri.utf8.dropFirst(rest), as: UTF8.self)
}

/// The number of URI bytes `prefixMatch` consumes, or nil. Runs of `/` on either side match
/// each other as long as both have at least one (mod_alias's alias_matches). An empty
/// configured path consumes nothing, and mod_alias applies only a match of at least one byte:
/// `Redirect 301 "" /b.html` never applies (recorded: alias-empty-path-never-matches).
private func prefixMatchLength(_ c: UnsafeBufferPointer<UInt8>, _ u: UnsafeBufferPointer<UInt8>) -> Int? {
    let slash = UInt8(ascii: "/")
    guard !c.isEmpty else { return nil }
    var i = 0, j = 0
    while i < c.count {
        if c[i] == slash {
            guard j < u.count, u[j] == slash else { return nil }
            while i < c.count, c[i] == slash { i += 1 }
            while j < u.count, u[j] == slash { j += 1 }
            continue
        }
        guard j < u.count, u[j] == c[i] else { return nil }
        i += 1; j += 1
    }
    // A configured path ending in `/` consumed the slashes already.
    if c.last == slash || j == u.count || u[j] == slash { return j }
    return nil
}
