/// A pattern PCRE2 refused to compile.
///
/// Carries PCRE2's own wording and position so diagnostics can quote exactly what httpd
/// would print when it rejects the same pattern at startup.
public struct RegexCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's own message, e.g. "missing closing parenthesis".
    public let message: String
    /// UTF-8 byte offset in the pattern where PCRE2 reports the error.
    public let offset: Int

    /// Creates a compile error; public so callers can build expected values in tests.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// Human-readable form, e.g. "missing closing parenthesis at offset 4".
    public var description: String {
        "\(message) at offset \(offset)"
    }
}

/// Why a match attempt ended without a definite answer.
///
/// Apache collapses all of these into "no match"; `Regex.search(_:)` keeps them apart so a
/// linter can warn about patterns whose outcome depends on resource limits.
public enum RegexMatchFailure: Error, Sendable, Hashable {
    /// Apache's match limit (`Regex.apacheMatchLimit`) was exhausted, typically by catastrophic backtracking.
    case matchLimit
    /// Apache's backtracking depth limit (`Regex.apacheDepthLimit`) was exhausted.
    case depthLimit
    /// Any other PCRE2 matching error, with PCRE2's message (for example the heap limit).
    case other(String)
}
