import Foundation
import HtlintApache

/// Hops already answered, shared by the chains of one simulator in a bulk run (replay, diff).
/// A hop is a function of its request when the chain carries no headers of its own (the first
/// hop's `Host` override), the layers' caches are empty before and after it, and Apache did not
/// read the clock. Many chains of a log meet the same hops (a page's https redirect, the page
/// itself), so a hop met again is looked up instead of simulated again.
///
/// Memory is spent only where it pays. A kept hop costs about a kilobyte, and in many logs hops
/// seldom repeat (W1's migration map: one in nine; a typical site's W2: more than one in four). So the
/// memo keeps the first `probeWindow` hops it meets and then goes on keeping hops only if at
/// least one in ten of those was a hit (W1: one in nineteen, W2: one in seven at that point);
/// else it empties and stays empty. It keeps at most `limit` hops, each with what bulk runs
/// read — URL, method, status, Location, error, who answered, Apache's record and the rules that
/// fired, and of the headers the one the chain reads (`Strict-Transport-Security`) — not the
/// other headers, the layers' path or the request Apache received.
public final class HopMemo: @unchecked Sendable {
    /// A kept hop, field by field: a whole `Hop` holds a few hundred bytes inline, WordPress's
    /// answer (rare, kept apart) the largest part.
    private final class Entry: @unchecked Sendable {
        let url: String, method: String, status: Int, location: String?
        let answerer: Answerer, producer: String
        let strictTransportSecurity: String?
        let served: String?, origin: OriginResponse?, reason: String?, error: String?, cached: String?
        let app: AppBox?

        init(_ hop: Hop) {
            url = hop.url
            method = hop.method
            status = hop.status
            location = hop.location
            answerer = hop.answerer
            producer = hop.producer
            strictTransportSecurity = hop.header("Strict-Transport-Security")
            served = hop.served
            origin = hop.origin.map(Entry.slim)
            reason = hop.reason
            error = hop.error
            cached = hop.cached
            app = hop.app.map(AppBox.init)
        }

        var hop: Hop {
            Hop(url: url, method: method, status: status, location: location, answerer: answerer, producer: producer,
                headers: strictTransportSecurity.map { [HTTPHeader("Strict-Transport-Security", $0)] } ?? [],
                served: served, origin: origin, reason: reason, app: app?.answer, error: error, cached: cached)
        }

        /// Apache's answer without its headers, errors and trace.
        static func slim(_ o: OriginResponse) -> OriginResponse {
            var slim = OriginResponse(status: o.status, location: o.location, headers: [], served: o.served, final: o.final,
                                      original: o.original, recursionLimitExceeded: o.recursionLimitExceeded, errors: [],
                                      errorCodes: [], trace: [], internalRedirects: o.internalRedirects, firedRules: o.firedRules)
            slim.compressed = o.compressed
            slim.connectionLost = o.connectionLost
            return slim
        }
    }

    private final class AppBox: @unchecked Sendable {
        let answer: AppAnswer
        init(_ answer: AppAnswer) { self.answer = answer }
    }

    private enum Phase { case probing, keeping, off }
    private var phase = Phase.probing
    private var probed = 0, hits = 0
    private var entries: [Key: Entry] = [:]
    private let lock = NSLock()
    private let limit: Int
    private let probeWindow: Int

    public init(limit: Int = 32_768, probeWindow: Int = 4_096) {
        self.limit = limit
        self.probeWindow = probeWindow
    }

    /// A hop request: every field of the URL (scheme as written, user, host, port as written,
    /// target, an omitted path) and the method.
    private struct Key: Hashable {
        let method: String
        let url: URLParts
    }

    /// The kept hop for this request, if any.
    func answer(_ url: URLParts, method: String) -> Hop? {
        lock.lock()
        defer { lock.unlock() }
        guard phase != .off, let entry = entries[Key(method: method, url: url)] else { return nil }
        if phase == .probing { hits += 1; count() }
        return entry.hop
    }

    /// Notes a hop just simulated that left the layers' caches empty (see the type's comment).
    func remember(_ hop: Hop, _ url: URLParts, method: String) {
        guard hop.origin?.readsClock != true else { return }
        lock.lock()
        defer { lock.unlock() }
        let key = Key(method: method, url: url)
        switch phase {
        case .off:
            return
        case .probing:
            entries[key] = Entry(hop)
            count()
        case .keeping:
            if entries.count < limit { entries[key] = Entry(hop) }
        }
    }

    /// One more hop of the probe window; at its end, whether to go on keeping hops.
    private func count() {
        probed += 1
        guard probed >= probeWindow else { return }
        phase = hits * 10 >= probed ? .keeping : .off
        if phase == .off { entries = [:] }
    }
}
