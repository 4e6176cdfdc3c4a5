import HtlintBytes

/// mod_speling's fixup (check_speling, APR_HOOK_LAST, after mod_dir's): a GET or HEAD main
/// request whose file does not exist is compared with the names in the directory of its first
/// missing component. One best candidate that is not a mere basename match answers 301 to the
/// corrected URL; several equally good ones, or basename matches only, answer 300.
/// (Recorded: negotiation-speling-corrections, negotiation-speling-rewrites-and-alias,
/// negotiation-speling-after-fallback-and-errordocument, negotiation-speling-config-replaced.)
extension Origin {
    /// spdist's verdicts, best first (SP_MISCAPITALIZED … SP_VERYDIFFERENT).
    enum SpelingQuality: Int { case miscapitalized = 1, transposition, missingChar, extraChar, simpleTypo, veryDifferent }

    func checkSpeling(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> PassResult? {
        guard let cfg = config.speling, cfg.enabled, r.method == "GET" || r.method == "HEAD", !r.isSubrequest,
              let filename = r.filename, site.files.stat(filename) == nil, r.uri != "/",
              let slash = filename.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let good = String(filename[..<slash])
        let bad = String(filename[filename.utf8.index(after: slash)...])
        // The URL must end with the missing name and the path info (not so after a rewrite
        // to another name): what comes before it is the corrected URL's prefix.
        let postgood = Array((bad + r.pathInfo).utf8), uri = Array(r.uri.utf8)
        guard uri.count >= postgood.count, Array(uri[(uri.count - postgood.count)...]) == postgood else { return nil }
        let url = String(decoding: uri[..<(uri.count - postgood.count)], as: UTF8.self)
        guard site.files.isDirectory(good.isEmpty ? "/" : good) else { return nil }
        // Names are compared by their bytes: a byte that is not UTF-8 is one character here
        // (recorded: negotiation-speling-non-utf8-bytes).
        let badBytes = bad.rawBytes
        let dot = badBytes.firstIndex(of: UInt8(ascii: ".")) ?? badBytes.count
        var candidates: [(name: String, quality: SpelingQuality)] = []
        // apr_dir_read lists `.` and `..` too.
        for name in [".", ".."] + site.files.entryNames(in: good.isEmpty ? "/" : good) {
            let n = name.rawBytes
            if n == badBytes { return nil }   // "a broken symlink or some such": no redirect
            if asciiCaseEqual(badBytes[...], n[...]) {
                candidates.append((name, .miscapitalized))
            } else if !cfg.caseOnly, let q = Origin.spdist(badBytes, n), q != .veryDifferent {
                candidates.append((name, q))
            } else if cfg.basenameMatch {
                // CheckCaseOnly skips only the typo checks (recorded:
                // negotiation-speling-case-only-basename-match).
                let entryDot = n.firstIndex(of: UInt8(ascii: ".")) ?? n.count
                if dot == entryDot, asciiCaseEqual(badBytes[..<dot], n[..<entryDot]) {
                    candidates.append((name, .veryDifferent))
                }
            }
        }
        guard !candidates.isEmpty else { return nil }
        let sorted = candidates.sorted { $0.quality.rawValue < $1.quality.rawValue }
        if r.handler == "httpd/unix-directory" { r.handler = nil }
        if sorted[0].quality != .veryDifferent, sorted.count == 1 || sorted[0].quality != sorted[1].quality {
            // ap_escape_uri of the corrected path, then the query as the request line had it.
            let path = escapePath(url + sorted[0].name + r.pathInfo) + (r.parsedQuery.map { "?" + $0 } ?? "")
            let location = fullyQualify(path, chain, r)
            chain.note(.status, "CheckSpelling: 301 to \(location) (\(r.uri) misspelled)")
            return .final(status: 301, location: location)
        }
        chain.note(.status, "CheckSpelling: 300 Multiple Choices for \(r.uri) (\(sorted.map(\.name).joined(separator: ", ")))")
        return .final(status: 300, location: nil)
    }

    /// mod_speling's spdist(): how `s` (the name requested) differs from `t` (a directory entry).
    static func spdist(_ s: [UInt8], _ t: [UInt8]) -> SpelingQuality? {
        func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }
        func at(_ a: [UInt8], _ i: Int) -> UInt8 { i < a.count ? a[i] : 0 }
        var i = 0
        while lower(at(s, i)) == lower(at(t, i)) {
            if at(t, i) == 0 { return .miscapitalized }
            i += 1
        }
        if at(s, i) != 0 {
            if at(t, i) != 0 {
                if at(s, i + 1) != 0, at(t, i + 1) != 0, lower(at(s, i)) == lower(at(t, i + 1)),
                   lower(at(t, i)) == lower(at(s, i + 1)),
                   asciiCaseEqual(s[min(i + 2, s.count)...], t[min(i + 2, t.count)...]) { return .transposition }
                if asciiCaseEqual(s[(i + 1)...], t[(i + 1)...]) { return .simpleTypo }
            }
            if asciiCaseEqual(s[(i + 1)...], t[i...]) { return .extraChar }
        }
        if at(t, i) != 0, asciiCaseEqual(s[i...], t[(i + 1)...]) { return .missingChar }
        return .veryDifferent
    }
}

/// strcasecmp(a, b) == 0 for byte strings (ASCII letters only, as in the C locale).
private func asciiCaseEqual(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) where x != y {
        let lx = x >= 0x41 && x <= 0x5A ? x + 32 : x, ly = y >= 0x41 && y <= 0x5A ? y + 32 : y
        if lx != ly { return false }
    }
    return true
}
