/// What the byte-range filter (modules/http/byterange_filter.c) makes of a `Range` header on
/// a 200 answer whose body length is known.
enum ByteRangeOutcome: Equatable {
    /// The whole body goes out (no or unusable `Range`, too many ranges, `MaxRanges none`).
    case whole
    /// 206 with these (first, last) byte positions, overlapping neighbours merged.
    case partial([ClosedRange<Int>])
    /// Every range starts past the end: 416.
    case unsatisfiable

    /// ap_set_byterange: `bytes=` (any case) then comma-separated `a-b`, `a-` or `-n`; one
    /// malformed range or a reversed one (`5-3`) drops the header altogether; ranges starting
    /// at or past the end are skipped, and 416 only when all are. An empty body is never ranged.
    static func evaluate(_ header: String?, length: Int, maxRanges: Int?) -> ByteRangeOutcome {
        guard let header, length > 0, maxRanges != 0, header.utf8.count >= 6,
              header.prefix(6).asciiLowercased() == "bytes=" else { return .whole }
        // Digits only: a blank (`bytes= 0-3`, `0-3, 5-6`) or a sign drops the header (recorded).
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s.prefix(18))
        }
        var ranges: [ClosedRange<Int>] = []
        var unsatisfiable = false
        for part in header.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false) {
            if part.isEmpty { break }   // ap_getword's empty word ends the list
            guard let dash = part.firstIndex(of: "-") else { return .whole }
            var start: Int, end: Int
            if dash == part.startIndex {
                guard let n = number(part[part.index(after: dash)...]), n >= 1 else { return .whole }
                start = max(length - n, 0)
                end = length - 1
            } else {
                guard let a = number(part[..<dash]) else { return .whole }
                start = a
                let rest = part[part.index(after: dash)...]
                if rest.isEmpty {
                    end = length - 1
                } else {
                    guard let b = number(rest), a <= b else { return .whole }
                    end = b
                }
            }
            if start < 0 { start = 0 }
            if end >= length { end = length - 1 }
            if start > end { unsatisfiable = true; continue }
            // A range touching or overlapping the one before it is merged into it.
            if let last = ranges.last, start <= last.upperBound + 1, end >= last.lowerBound - 1 {
                ranges[ranges.count - 1] = min(start, last.lowerBound)...max(end, last.upperBound)
            } else {
                ranges.append(start...end)
            }
        }
        if ranges.isEmpty { return unsatisfiable ? .unsatisfiable : .whole }
        if let limit = maxRanges, ranges.count > limit { return .whole }
        return .partial(ranges)
    }
}

extension Origin {
    /// Whether the byte-range filter answers the file `record` serves with 416: a `Range` (no
    /// `If-Range`) whose every range starts past the file's end.
    func unsatisfiableRange(_ record: RequestRecord, _ request: OriginRequest) -> Bool {
        guard request.header("If-Range") == nil, let header = request.header("Range"), let f = record.filename,
              case .file(let size)? = site.files.stat(f.hasByteSuffix("/") ? String(f.dropLast()) : f) else { return false }
        let maxRanges = (record.config ?? .vhostDefaults(site)).maxRanges
        return ByteRangeOutcome.evaluate(header, length: size, maxRanges: maxRanges) == .unsatisfiable
    }
}
