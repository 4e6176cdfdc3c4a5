import Foundation
import HtlintBytes

/// A set of requests, described per component: every combination of a host, a path and a query
/// from these languages, over one visitor scheme. The all-URL analysis moves such sets through
/// the rules instead of single URLs.
struct RequestSpace: @unchecked Sendable, Hashable {
    /// The scheme the visitor uses (what reaches Apache depends on the edge).
    var scheme: String
    /// `%{HTTP_HOST}`.
    var host: DFA
    /// The decoded URL-path, with its leading `/`.
    var path: DFA
    /// `%{QUERY_STRING}` as sent ("" for none).
    var query: DFA
    /// Created by an internal redirect (REDIRECT_STATUS is set; THE_REQUEST is the client's).
    var internalRedirect: Bool
    /// `%{THE_REQUEST}` when it is not the request line of this space itself (internal
    /// redirects keep the client's); nil: derived from path and query.
    var theRequest: DFA?
    /// Variables the analysis could not model on the way here (`%{REMOTE_ADDR}`, …).
    var freeVariables: [String] = []

    var isEmpty: Bool { host.isEmpty || path.isEmpty || query.isEmpty }

    /// `GET path[?query] HTTP/1.1`, the request line of a request from this space. The target
    /// is sent encoded, so it has no spaces or control characters (a decoded path with them is
    /// sent with `%XX`, which the language then misses: THE_REQUEST tests rarely care).
    func requestLine() -> DFA {
        if let theRequest { return theRequest }
        let key = RequestLineKey(path: path, query: query)
        RequestSpace.lock.lock()
        if let c = RequestSpace.requestLines[key] { RequestSpace.lock.unlock(); return c }
        RequestSpace.lock.unlock()
        let line = derivedRequestLine()
        RequestSpace.lock.lock()
        if RequestSpace.requestLines.count > 2_000 { RequestSpace.requestLines.removeAll() }
        RequestSpace.requestLines[key] = line
        RequestSpace.lock.unlock()
        return line
    }

    private struct RequestLineKey: Hashable {
        var path: DFA
        var query: DFA
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var requestLines: [RequestLineKey: DFA] = [:]

    private func derivedRequestLine() -> DFA {
        let target = RequestSpace.targetCharacters
        let p = path.intersection(target) ?? path
        let q = query.intersection(target) ?? query
        let withQuery = DFA.literal("?").concatenating(q.subtracting(.literal("")) ?? q).flatMap { x in
            q.accepts("") ? x.union(.literal("")) : x
        } ?? DFA.all()
        let line = DFA.literal("GET ").concatenating(p)?.concatenating(withQuery)?.concatenating(.literal(" HTTP/1.1"))
        return line ?? DFA.all()
    }

    /// Bytes a request target can contain as sent.
    static let targetCharacters = DFA.all(of: ByteSet(range: 0x21...0x7E))

    mutating func noteFree(_ names: [String]) {
        for n in names where !freeVariables.contains(n) { freeVariables.append(n) }
    }
}
