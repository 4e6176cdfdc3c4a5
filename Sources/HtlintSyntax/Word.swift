import HtlintDiagnostics

/// One argument as a directive's parser sees it, with where it came from.
public struct Word: Sendable, Hashable {
    /// The value after the tokeniser's unescaping.
    public var value: String
    /// The raw span in the file, quotes included.
    public var range: SourceRange
    /// The raw span in the logical line, quotes included.
    public var lineRange: Range<Int>
    /// The quote character that opened the word, if any.
    public var quote: Character?
    /// True when a quoted word reached the end of the line without its closing quote.
    public var unterminated: Bool

    public init(value: String, range: SourceRange, lineRange: Range<Int>, quote: Character? = nil,
                unterminated: Bool = false) {
        self.value = value
        self.range = range
        self.lineRange = lineRange
        self.quote = quote
        self.unterminated = unterminated
    }

    /// Range of the value without its quotes (for pointing inside a pattern).
    public var innerStart: Int { quote == nil ? range.start : range.start + 1 }
}
