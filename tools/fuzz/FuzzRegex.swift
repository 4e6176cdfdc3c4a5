// libFuzzer target: the regex layer (issue 9, item 1). The first line is a pattern compiled
// with Apache's options, the rest a subject; a compile error or a match-limit failure is an
// answer, a crash or hang is a bug.
import HtlintApache
import HtlintRegex

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegex(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let pattern = String(decoding: bytes[..<newline], as: UTF8.self)
    let subject = newline < bytes.count ? String(decoding: bytes[(newline + 1)...], as: UTF8.self) : ""
    if let regex = try? Regex(pattern) {
        switch regex.search(subject) {
        case .success(let m?): _ = m
        default: break
        }
    }
    // The same text as a substitution template.
    _ = Template(parsing: pattern)
    return 0
}
