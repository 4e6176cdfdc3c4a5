import HtlintRegex
import Foundation

/// mod_expires' per-directory configuration: `ExpiresActive`, `ExpiresDefault`,
/// `ExpiresByType` (OR_INDEXES). Codes are kept as check_code makes them: `A<seconds>`
/// (from the request time) or `M<seconds>` (from the file's modification time).
public struct ExpiresConfig: Sendable, Hashable {
    /// nil: ACTIVE_DONTCARE (inherited; off where nothing says On).
    public var active: Bool?
    public var defaultCode: String?
    /// Type (lower-cased, apr tables compare keys case-insensitively) to code.
    public var byType: [String: String] = [:]
    /// set_expiresbytype's `wildcards`: this object has an `ExpiresByType major/*` line. Only
    /// then does the filter look a `major/*` entry up, and the merge takes the child's flag,
    /// never the parent's: a child object with mod_expires lines of its own but no wildcard
    /// turns the parent's `image/*` off, its entry kept but never read (recorded:
    /// header-expires-wildcards-not-inherited).
    public var wildcards = false
    public init() {}

    /// merge_expires_dir_configs: the child's settings over the parent's, its types overlaid.
    func merged(over base: ExpiresConfig) -> ExpiresConfig {
        var m = self
        m.active = active ?? base.active
        m.defaultCode = defaultCode ?? base.defaultCode
        m.byType = base.byType.merging(byType) { _, new in new }
        m.wildcards = wildcards
        return m
    }

    /// check_code: `A3600`/`M3600` as written, else `<base> [plus] {<num> <type>}*`, where
    /// only the first letters count (`n`/`a` access, `m` modification, `p` plus, `mo` months,
    /// `mi` minutes). Returns the code or Apache's complaint.
    static func code(_ text: String) -> Result<String, ExpiresCodeError> {
        if text.hasBytePrefix("A") || text.hasBytePrefix("M") { return .success(text) }
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0).asciiLowercased() }[...]
        func next() -> String { words.popFirst() ?? "" }
        var word = next()
        let base: Character
        if word.hasBytePrefix("n") || word.hasBytePrefix("a") { base = "A" }
        else if word.hasBytePrefix("m") { base = "M" }
        else { return .failure(ExpiresCodeError(message: "bad expires code, unrecognised <base> '\(word)'")) }
        word = next()
        if word.hasBytePrefix("p") { word = next() }
        var seconds = 0
        while !word.isEmpty {
            guard let first = word.utf8.first, first >= 0x30, first <= 0x39 else {
                return .failure(ExpiresCodeError(message: "bad expires code, numeric value expected <num> '\(word)'"))
            }
            let num = Int(atoi(word))
            let type = next()
            if type.isEmpty { return .failure(ExpiresCodeError(message: "bad expires code, missing <type>")) }
            let factor: Int
            if type.hasBytePrefix("y") { factor = 60 * 60 * 24 * 365 }
            else if type.hasBytePrefix("mo") { factor = 60 * 60 * 24 * 30 }
            else if type.hasBytePrefix("w") { factor = 60 * 60 * 24 * 7 }
            else if type.hasBytePrefix("d") { factor = 60 * 60 * 24 }
            else if type.hasBytePrefix("h") { factor = 60 * 60 }
            else if type.hasBytePrefix("mi") { factor = 60 }
            else if type.hasBytePrefix("s") { factor = 1 }
            else { return .failure(ExpiresCodeError(message: "bad expires code, unrecognised <type>'\(type)'")) }
            seconds += factor * num
            word = next()
        }
        return .success("\(base)\(Int32(truncatingIfNeeded: seconds))")
    }
}

struct ExpiresCodeError: Error { let message: String }

extension ConfigReader {
    mutating func expiresDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words
        var e = block.expires ?? ExpiresConfig()
        switch line.info.name {
        case "ExpiresActive":
            guard let on = flag(line) else { return }
            e.active = on
        case "ExpiresDefault":
            guard arity(line, 1...1, "ExpiresDefault takes one argument, an expiry date code") else { return }
            switch ExpiresConfig.code(words[0].value) {
            case .success(let c): e.defaultCode = c
            case .failure(let f): error(ConfigCode.badArguments, "'ExpiresDefault \(words[0].value)': \(f.message)", words[0].range); return
            }
        default:   // ExpiresByType
            guard arity(line, 2...2, "ExpiresByType takes two arguments, a MIME type followed by an expiry date code") else { return }
            let type = words[0].value
            guard let slash = type.utf8.lastIndex(of: UInt8(ascii: "/")) else {
                error(ConfigCode.badArguments, "Invalid mimetype: should contain a slash", words[0].range); return
            }
            // strrchr: what follows the last slash is exactly `*`.
            if type.utf8[type.utf8.index(after: slash)...].elementsEqual("*".utf8) { e.wildcards = true }
            switch ExpiresConfig.code(words[1].value) {
            case .success(let c): e.byType[words[0].value.asciiLowercased()] = c
            case .failure(let f): error(ConfigCode.badArguments, "'ExpiresByType \(words[0].value) \(words[1].value)': \(f.message)", words[1].range); return
            }
        }
        block.expires = e
    }
}

extension Origin {
    /// mod_expires' filter (inserted by insert_filter for a handler's answer and by
    /// insert_error_filter for one Apache writes, HEAD too; not for 4xx/5xx, not in
    /// subrequests), running before mod_headers' filter: the
    /// code for the response's type (without parameters), else its `major/*` one, else the
    /// default, merges `Cache-Control: max-age=N` into the table and sets `Expires`.
    /// (Recorded: header-expires-cache-control, header-expires-codes-and-redirects.) A code counting from the file's modification
    /// time is not modelled (htlint does not know the time): no header.
    func expiresHeaders(_ r: RequestRecord, status: Int, contentType: String?, config: MergedConfig?,
                        chain: RequestChain) -> [HTTPHeader] {
        guard let e = config?.expires, e.active == true, !r.isSubrequest, status < 400 else { return [] }
        var code: String? = nil
        if let t = contentType {
            let bare = beforeSemicolonByte(t).trimmingCharacters(in: .whitespaces).asciiLowercased()
            code = e.byType[bare]
            if code == nil, e.wildcards, let slash = t.firstIndex(ofByte: UInt8(ascii: "/")) {
                code = e.byType[t[..<t.utf8.index(after: slash)].asciiLowercased() + "*"]
            }
        }
        guard let c = code ?? e.defaultCode, c.hasBytePrefix("A") else {
            if (code ?? e.defaultCode)?.hasBytePrefix("M") == true {
                chain.note(.note, "mod_expires: a modification-time code needs the file's time, not modelled (no Cache-Control)")
            }
            return []
        }
        let seconds = max(0, Int(atoi(String(c.dropFirst()))))
        chain.readsClock = true
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return [HTTPHeader("Cache-Control", "max-age=\(seconds)"),
                HTTPHeader("Expires", f.string(from: Date(timeIntervalSinceNow: Double(seconds))))]
    }
}
