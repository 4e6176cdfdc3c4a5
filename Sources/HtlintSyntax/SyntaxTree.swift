import HtlintDiagnostics

/// A directive line: its name and its argument text, tokenised on demand because Apache's
/// directives use two different tokenisers. A class: the tree and the linter's flat list share
/// one copy (a 100,000-line file held each directive's 120 bytes twice, in both arrays).
public final class DirectiveNode: Sendable {
    /// The name as written (Apache looks it up case-insensitively).
    public let name: String
    /// The name lower-cased, for look-ups (computed once: readers and rules ask for it several
    /// times per directive).
    public let key: String
    public let nameRange: SourceRange
    /// The whole logical line.
    public let line: LogicalLine
    /// Index in `line.bytes` where the arguments start (after the name and its whitespace).
    public let argumentStart: Int

    public init(name: String, nameRange: SourceRange, line: LogicalLine, argumentStart: Int) {
        self.name = name
        self.key = name.asciiLowercased()
        self.nameRange = nameRange
        self.line = line
        self.argumentStart = argumentStart
    }

    /// The directive's whole range.
    public var range: SourceRange { line.fullRange }
    /// The raw argument text.
    public var rawArguments: String { line.text(argumentStart..<line.bytes.count) }
    /// Range of the raw argument text (a point after the name when there are none).
    public var argumentsRange: SourceRange {
        argumentStart < line.bytes.count ? line.range(argumentStart..<line.bytes.count)
            : SourceRange.point(line.file, line.endOffset)
    }
    /// Arguments split the `ap_getword_conf` way.
    public var words: [Word] { Tokenizer.generic(line, from: argumentStart) }
    /// Arguments split the mod_rewrite way (at most three, plus the ignored rest).
    public var rewriteWords: (words: [Word], rest: Range<Int>?) { Tokenizer.rewrite(line, from: argumentStart) }
}

/// A `<Section args>` … `</Section>` block.
public struct SectionNode: Sendable {
    /// Name without `<` (`IfModule`).
    public var name: String
    public var nameRange: SourceRange
    /// The argument text before the last `>` of the opening line, trimmed.
    public var argumentText: String
    public var argumentsRange: SourceRange
    /// Arguments split the `ap_getword_conf` way.
    public var arguments: [Word]
    public var children: [ConfigNode]
    /// The opening line.
    public var openRange: SourceRange
    /// The closing line; nil when the file ended first.
    public var closeRange: SourceRange?
    /// The closing line's first word when that line is more than `</Name>` alone (`</IfModule> # end`):
    /// a true conditional section is read by ap_build_cont_config, which only ends at a line that
    /// is exactly `</Name>`, so for it this line is a stray closer. Nil for an exact closing line.
    public var inexactCloseWord: String?

    public init(name: String, nameRange: SourceRange, argumentText: String, argumentsRange: SourceRange,
                arguments: [Word], children: [ConfigNode], openRange: SourceRange, closeRange: SourceRange?) {
        self.name = name
        self.nameRange = nameRange
        self.argumentText = argumentText
        self.argumentsRange = argumentsRange
        self.arguments = arguments
        self.children = children
        self.openRange = openRange
        self.closeRange = closeRange
    }

    public var key: String { name.asciiLowercased() }
    /// From the opening line to the end of the closing line (or of the last child).
    public var range: SourceRange {
        let end = closeRange?.end ?? children.last?.range.end ?? openRange.end
        return SourceRange(file: openRange.file, start: openRange.start, end: end)
    }
}

/// A comment line (kept for suppression comments such as `# htlint disable=HT301`).
public struct CommentNode: Sendable {
    /// Text after `#`, trimmed.
    public var text: String
    public var range: SourceRange
    public init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}

/// A node of the configuration tree.
public enum ConfigNode: Sendable {
    case directive(DirectiveNode)
    /// Boxed, as comments: every node then takes a pointer's room (a 100,000-line file's
    /// node array would otherwise take a section's room per node).
    indirect case section(SectionNode)
    indirect case comment(CommentNode)

    public var range: SourceRange {
        switch self {
        case .directive(let d): d.range
        case .section(let s): s.range
        case .comment(let c): c.range
        }
    }
}

/// A parsed file: its nodes and the syntax errors found while reading it.
public struct SyntaxTree: Sendable {
    public var file: SourceFile
    public var nodes: [ConfigNode]
    public var diagnostics: [Diagnostic]

    public init(file: SourceFile, nodes: [ConfigNode], diagnostics: [Diagnostic]) {
        self.file = file
        self.nodes = nodes
        self.diagnostics = diagnostics
    }
}
