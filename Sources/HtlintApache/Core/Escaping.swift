import HtlintBytes
import HtlintRegex

/// URL escaping and unescaping as Apache's utilities do it (apache-semantics §1.2, §6.4, §6.6).

private let hexDigits = Array("0123456789abcdef".utf8)

/// Bytes Apache's path escaper leaves alone: letters, digits and `$-_.+!*'(),:;@&=/~`.
public let pathSafeBytes = ByteSet(range: UInt8(ascii: "a")...UInt8(ascii: "z"))
    .union(ByteSet(range: UInt8(ascii: "A")...UInt8(ascii: "Z")))
    .union(ByteSet(range: UInt8(ascii: "0")...UInt8(ascii: "9")))
    .union(ByteSet("$-_.+!*'(),:;@&=/~".utf8))

/// `%xx`-escapes (lower-case hex) every byte not in `keep`.
public func percentEscape(_ s: String, keep: ByteSet) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    for c in s.rawBytes {
        if keep.contains(c) { out.append(c) } else {
            out.append(UInt8(ascii: "%")); out.append(hexDigits[Int(c >> 4)]); out.append(hexDigits[Int(c & 15)])
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Apache's path escaper (`ap_os_escape_path`, as `ap_escape_uri` uses it for redirects).
public func escapePath(_ s: String) -> String { percentEscape(s, keep: pathSafeBytes) }

/// Bytes `ap_escape_path_segment` leaves alone: the path's set without `;` and `/`.
let pathSegmentSafeBytes = pathSafeBytes.intersection(ByteSet([UInt8(ascii: ";"), UInt8(ascii: "/")]).inverted)

/// Apache's segment escaper (`ap_escape_path_segment`: mod_negotiation's Content-Location).
public func escapePathSegment(_ s: String) -> String { percentEscape(s, keep: pathSegmentSafeBytes) }

func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
}

/// `AllowEncodedSlashes`: what `%2F` in a request path does (core, virtual-host context).
public enum EncodedSlashes: Sendable {
    /// `Off` (default): 404 before any rule runs.
    case forbid
    /// `On`: decoded to `/` like any escape.
    case decode
    /// `NoDecode`: accepted but left as `%2F` (its case kept) in the URI the rules see.
    case keep
}

/// Why a URL path could not be decoded; Apache answers 400 or 404 before any rule runs.
public enum URLDecodingError: Error, Equatable, Sendable {
    /// `%zz` → 400.
    case badEscape
    /// `%2F` (AllowEncodedSlashes Off) or `%00` → 404; Apache still logs the decoded path.
    case forbiddenByte(String)
}

/// Decodes `%xx` in a path like `ap_unescape_url` (apache-semantics §1.2).
public func decodeURLPath(_ s: String, encodedSlashes: EncodedSlashes = .forbid) -> Result<String, URLDecodingError> {
    // Most paths have nothing to decode: keep the string.
    guard s.containsByte(UInt8(ascii: "%")) else { return .success(s) }
    let b = s.rawBytes
    var out: [UInt8] = []
    out.reserveCapacity(b.count)
    var i = 0
    var badEscape = false, forbidden = false
    while i < b.count {
        if b[i] == UInt8(ascii: "%") {
            if i + 2 < b.count, let h = hexValue(b[i + 1]), let l = hexValue(b[i + 2]) {
                let v = h << 4 | l
                if v == UInt8(ascii: "/"), encodedSlashes == .keep {
                    out.append(contentsOf: b[i...(i + 2)])
                    i += 3
                    continue
                }
                if v == 0 || (v == UInt8(ascii: "/") && encodedSlashes == .forbid) { forbidden = true }
                out.append(v)
                i += 3
                continue
            }
            badEscape = true
        }
        out.append(b[i])
        i += 1
    }
    if badEscape { return .failure(.badEscape) }
    if forbidden { return .failure(.forbiddenByte(String(preservingBytes: out))) }
    return .success(String(preservingBytes: out))
}

/// Lenient decoding (ap_expr `unescape`): nil on a malformed escape.
public func percentDecode(_ s: String) -> String? {
    let b = s.rawBytes
    var out: [UInt8] = []
    var i = 0
    while i < b.count {
        if b[i] == UInt8(ascii: "%") {
            guard i + 2 < b.count, let h = hexValue(b[i + 1]), let l = hexValue(b[i + 2]) else { return nil }
            out.append(h << 4 | l); i += 3; continue
        }
        out.append(b[i]); i += 1
    }
    return String(preservingBytes: out)
}

/// Escapes a backreference for `[B]`, `[BNP]`, `[BCTLS]`, `[BNE]` (apache-semantics §6.4).
public func escapeBackreference(_ s: String, _ e: BackrefEscaping) -> String {
    guard e.isActive else { return s }
    var out: [UInt8] = []
    for c in s.rawBytes {
        let isAlnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        // escape_backref: a `B=` list replaces "everything" (and BCTLS replaces it by controls and
        // space); letters, digits and `_` are never escaped, even when listed.
        let candidate = (e.controls ? (c <= 0x20 || c == 0x7F) : e.only.isEmpty) || e.only.contains(c)
        let escape = candidate && !e.never.contains(c) && !(isAlnum || c == UInt8(ascii: "_"))
        if escape {
            if c == 0x20 && !e.noPlus { out.append(UInt8(ascii: "+")); continue }
            out.append(UInt8(ascii: "%")); out.append(hexDigits[Int(c >> 4)]); out.append(hexDigits[Int(c & 15)])
        } else {
            out.append(c)
        }
    }
    // Bytes left unescaped (`B=/` keeps a lone 0xE9) stay bytes, not U+FFFD.
    return String(preservingBytes: out)
}
