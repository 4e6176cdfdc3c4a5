import HtlintBytes

/// A file name as the kernel compares it: byte for byte (see `ByteKey`). Swift's `String`
/// equality would find `café.html` written with a precomposed é when a request names it with
/// `e` and a combining accent (Apache: 404).
typealias PathKey = ByteKey

extension ByteKey {
    var path: String { string }
}
