/// Diagnostic codes of the syntax family (HT1xx). Codes are stable: never reuse a retired one.
public enum SyntaxCode {
    /// Apache could not read the file: section structure errors (missing `>`, mismatched or
    /// stray closing tags, unclosed sections).
    public static let section = "HT101"
    /// A logical line longer than Apache accepts in `.htaccess` (8190 bytes).
    public static let lineTooLong = "HT102"
    /// A quoted argument without its closing quote (Apache reads to the end of the line).
    public static let unterminatedQuote = "HT103"
    /// Bytes that cannot be configuration text (NUL, invalid UTF-8).
    public static let binaryContent = "HT104"
}
