import HtlintRegex
import Foundation

/// The default handler's ap_meets_conditions for a file it is about to send. A file here is as
/// old as the clock (the oracle writes the site just before it asks), and its ETag is unknown to
/// the client, so only `*` matches one.
extension Origin {
    /// 304 or 412 when the request's preconditions fail, in Apache's order (recorded:
    /// header-if-match-and-if-unmodified-since-412): If-Match not starting with `*` (412),
    /// If-Unmodified-Since with a valid date before now, If-Match `*` or not (412), then
    /// If-None-Match `*` (304 for GET and HEAD, 412 otherwise).
    func failedPrecondition(_ request: OriginRequest, method: String, chain: RequestChain) -> Int? {
        if let ifMatch = request.header("If-Match"), !ifMatch.hasBytePrefix("*") { return 412 }
        if let ius = request.header("If-Unmodified-Since"), let date = Origin.parseHTTPDate(ius), date != 0 {
            chain.readsClock = true
            if date < Int64(Date().timeIntervalSince1970) { return 412 }
        }
        if request.header("If-None-Match")?.hasBytePrefix("*") == true { return method == "GET" || method == "HEAD" ? 304 : 412 }
        return nil
    }

    /// apr_date_parse_http in seconds since the epoch, nil for APR_DATE_BAD: the first word (the
    /// weekday, unchecked) is skipped, then RFC 1123 (two- or one-digit day), RFC 850 or asctime
    /// must follow, zone unread; impossible days (31 Apr, 29 Feb off leap years) are bad.
    static func parseHTTPDate(_ s: String) -> Int64? {
        var b = Array(s.utf8)[...]
        while let c = b.first, c == 32 || c == 9 { b = b.dropFirst() }
        guard !b.isEmpty, let space = b.firstIndex(of: 32) else { return nil }
        let d = Array(b[(space + 1)...])
        func fits(_ mask: String) -> Bool {
            var i = 0
            for m in mask.utf8 {
                if m == UInt8(ascii: "*") { return true }
                guard i < d.count else { return false }
                let c = d[i]
                switch m {
                case UInt8(ascii: "@"): guard c >= 65 && c <= 90 else { return false }
                case UInt8(ascii: "$"): guard c >= 97 && c <= 122 else { return false }
                case UInt8(ascii: "#"): guard c >= 48 && c <= 57 else { return false }
                case UInt8(ascii: "~"): guard c == 32 || (c >= 48 && c <= 57) else { return false }
                default: guard c == m else { return false }
                }
                i += 1
            }
            return i == d.count
        }
        func num(_ at: Int, _ n: Int) -> Int { d[at..<(at + n)].reduce(0) { $0 * 10 + Int($1) - 48 } }
        var year: Int, day: Int, mon: Int, time: Int
        if fits("## @$$ #### ##:##:## *") { (day, mon, year, time) = (num(0, 2), 3, num(7, 4), 12) }
        else if fits("##-@$$-## ##:##:## *") { (day, mon, year, time) = (num(0, 2), 3, num(7, 2), 10); year += year < 70 ? 2000 : 1900 }
        else if fits("@$$ ~# ##:##:## ####*") { (day, mon, year, time) = ((d[4] == 32 ? 0 : num(4, 1) * 10) + num(5, 1), 0, num(16, 4), 7) }
        else if fits("# @$$ #### ##:##:## *") { (day, mon, year, time) = (num(0, 1), 2, num(6, 4), 11) }
        else { return nil }
        guard year >= 1900 else { return nil }
        let (h, m, sec) = (num(time, 2), num(time + 3, 2), num(time + 6, 2))
        let name = String(decoding: d[mon..<(mon + 3)], as: UTF8.self)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard day >= 1, day <= 31, h <= 23, m <= 59, sec <= 61, let month = months.firstIndex(of: name) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        if day == 31, [3, 5, 8, 10].contains(month) { return nil }
        if month == 1, day > 29 || (day == 29 && !leap) { return nil }
        // Days from the civil date (proleptic Gregorian), as apr_time_exp_gmt_get counts them.
        let y = month < 2 ? year - 1 : year, mp = (month + 10) % 12
        let era = y / 400, yoe = y - era * 400
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + (153 * mp + 2) / 5 + day - 1
        let days = era * 146097 + doe - 719468
        return Int64(days) * 86400 + Int64(h * 3600 + m * 60 + sec)
    }
}
