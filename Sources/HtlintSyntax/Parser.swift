import HtlintBytes
import HtlintDiagnostics

/// Where a file is read: `.htaccess` limits and messages differ from the server configuration.
public enum ConfigContext: String, Sendable {
    case htaccess
    case server
}

/// Builds the syntax tree of one file the way `ap_build_config` reads it: comments, directives
/// and nested sections, with recovery so that one run reports every structural error.
public struct Parser {
    /// Most bytes Apache reads for one logical `.htaccess` line, line end included (`HUGE_STRING_LEN`:
    /// `ap_varbuf_cfg_getline` refuses a longer read, apache-semantics §2.1).
    public static let htaccessLineLimit = 8192

    /// Deepest section nesting htlint reads. Apache has no documented limit of its own (it
    /// recurses per section, bounded by its stack), but every consumer of the tree here (the
    /// reader, the rules, the engine) walks it recursively, so 10,000 nested `<IfModule>` would
    /// overflow the stack (issue 9). Real files nest a handful of levels; deeper sections are
    /// reported once (HT101) and their contents kept in the deepest section read.
    public static let sectionNestingLimit = 128

    public let file: SourceFile
    public let context: ConfigContext
    /// Rewrites a directive line before it is tokenised, or returns nil to keep it: Apache
    /// replaces `${NAME}` in each line it reads (`ap_resolve_env`), after comments and the
    /// line limit. The line keeps the file offsets of what it was made from, so every range
    /// still points into the file as written.
    public let expand: ((LogicalLine) -> LogicalLine?)?

    public init(file: SourceFile, context: ConfigContext, expand: ((LogicalLine) -> LogicalLine?)? = nil) {
        self.file = file
        self.context = context
        self.expand = expand
    }

    /// Parses `file`.
    public static func parse(_ file: SourceFile, context: ConfigContext = .htaccess,
                             expand: ((LogicalLine) -> LogicalLine?)? = nil) -> SyntaxTree {
        Parser(file: file, context: context, expand: expand).parse()
    }

    private struct OpenSection {
        var name: String
        var nameRange: SourceRange
        var argumentText: String
        var argumentsRange: SourceRange
        var arguments: [Word]
        var openRange: SourceRange
        var children: [ConfigNode] = []
    }

    public func parse() -> SyntaxTree {
        var diagnostics: [Diagnostic] = []
        var stack: [OpenSection] = []
        var top: [ConfigNode] = []
        // Openers beyond `sectionNestingLimit` that are still open: their closers are consumed
        // without building a node.
        var skippedSections = 0
        var reportedNesting = false

        func append(_ node: ConfigNode) {
            if stack.isEmpty { top.append(node) } else { stack[stack.count - 1].children.append(node) }
        }
        func error(_ code: String, _ message: String, _ range: SourceRange) {
            diagnostics.append(Diagnostic(code: code, severity: .error, message: message, range: range))
        }

        diagnostics += binaryContentDiagnostics()

        for read in LineReader(file: file) {
            var line = read
            var b = line.bytes
            // Apache's reader enforces the limit before it looks at the text, so comment and
            // blank lines count too, untrimmed (apache-semantics §2.1).
            if context == .htaccess, line.readLength > Parser.htaccessLineLimit {
                error(SyntaxCode.lineTooLong,
                      "line too long (\(line.readLength) bytes with its line end; Apache reads at most \(Parser.htaccessLineLimit) in .htaccess)",
                      line.fullRange)
                continue
            }
            if b.isEmpty { continue }
            if b[0] == UInt8(ascii: "#") {
                let text = line.text(1..<b.count).trimmingConfigSpace()
                append(.comment(CommentNode(text: text, range: line.fullRange)))
                continue
            }
            if let expanded = expand?(line) {
                line = expanded
                b = line.bytes
            }
            // The directive name is the first word, read like any argument; Apache skips a
            // line whose first word is empty (`""`).
            guard let nameWord = Tokenizer.generic(line, from: 0, limit: 1).first, !nameWord.value.isEmpty else { continue }
            var argumentStart = nameWord.lineRange.upperBound
            while argumentStart < b.count, isConfigSpace(b[argumentStart]) { argumentStart += 1 }
            var name = nameWord.value
            // Like `ap_build_config`: unless its second character is `/`, a name loses one
            // trailing `>` (`<Else>`, but also `RewriteEngine>`).
            if name.utf8.dropFirst().first != UInt8(ascii: "/"), name.hasSuffix(">") { name.removeLast() }

            if name.hasPrefix("</") {
                if skippedSections > 0 {
                    skippedSections -= 1
                    continue
                }
                guard let open = stack.last else {
                    error(SyntaxCode.section, "\(name) without matching <\(name.dropFirst(2)) section", nameWord.range)
                    continue
                }
                var closeName = String(name.dropFirst(2))
                if closeName.hasSuffix(">") {
                    closeName.removeLast()
                } else {
                    error(SyntaxCode.section, "\(name)> directive missing closing '>'", nameWord.range)
                }
                if open.name.asciiLowercased() == closeName.asciiLowercased() {
                    var node = close(stack.removeLast(), at: line.fullRange)
                    if nameWord.quote != nil || nameWord.lineRange != 0..<b.count || !name.hasSuffix(">") {
                        node.inexactCloseWord = nameWord.value
                    }
                    append(.section(node))
                    continue
                }
                error(SyntaxCode.section, "Expected </\(open.name)> but saw </\(closeName)>", nameWord.range)
                if let depth = stack.lastIndex(where: { $0.name.asciiLowercased() == closeName.asciiLowercased() }) {
                    // Recover: close everything up to the matching section.
                    while stack.count > depth + 1 {
                        let inner = stack.removeLast()
                        append(.section(close(inner, at: nil)))
                    }
                    let section = stack.removeLast()
                    append(.section(close(section, at: line.fullRange)))
                }
                continue
            }

            if name.hasPrefix("<") {
                let sectionName = String(name.dropFirst())
                if stack.count >= Parser.sectionNestingLimit {
                    if !reportedNesting {
                        reportedNesting = true
                        error(SyntaxCode.section,
                              "sections nested deeper than \(Parser.sectionNestingLimit) levels; htlint does not read deeper sections",
                              line.fullRange)
                    }
                    skippedSections += 1
                    continue
                }
                // Apache gives a section opener without arguments the argument text ">" (`<Else>`),
                // and drops everything from the last `>` on. Search the bytes, not decoded text,
                // so invalid UTF-8 cannot shift the offsets.
                let lastBracket = argumentStart >= b.count
                    ? argumentStart : b[argumentStart...].lastIndex(of: UInt8(ascii: ">"))
                guard let argEnd = lastBracket else {
                    error(SyntaxCode.section, "<\(sectionName)> directive missing closing '>'", line.fullRange)
                    // Recover by treating the whole rest as the arguments.
                    stack.append(openSection(sectionName, nameWord, line, argumentStart, b.count))
                    continue
                }
                stack.append(openSection(sectionName, nameWord, line, argumentStart, argEnd))
                continue
            }

            let hasQuote = b[argumentStart...].contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
            for word in (hasQuote ? Tokenizer.generic(line, from: argumentStart) : []) where word.unterminated {
                diagnostics.append(Diagnostic(
                    code: SyntaxCode.unterminatedQuote, severity: .error,
                    message: "quoted argument has no closing `\(word.quote.map(String.init) ?? "")`; Apache reads it to the end of the line",
                    range: word.range))
            }
            append(.directive(DirectiveNode(name: name, nameRange: nameWord.range, line: line,
                                            argumentStart: argumentStart)))
        }
        // Sections still open at the end of the file: whether that is an error depends on the
        // section (a true <IfModule> may run to the end), so the model decides; the node has no
        // closeRange.
        while let section = stack.popLast() {
            append(.section(close(section, at: nil)))
        }
        return SyntaxTree(file: file, nodes: top, diagnostics: diagnostics)
    }

    private func openSection(_ name: String, _ nameWord: Word, _ line: LogicalLine, _ argStart: Int,
                             _ argEnd: Int) -> OpenSection {
        var end = argEnd
        while end > argStart, isConfigSpace(line.bytes[end - 1]) { end -= 1 }
        let argRange = argStart < end ? line.range(argStart..<end) : SourceRange.point(line.file, nameWord.range.end)
        let truncated = LogicalLine(bytes: Array(line.bytes[0..<end]), offsets: Array(line.offsets[0..<end]),
                                    endOffset: end > 0 ? line.offset(at: end - 1) + 1 : line.endOffset,
                                    line: line.line, file: line.file)
        return OpenSection(name: name, nameRange: nameWord.range,
                           argumentText: argStart < end ? line.text(argStart..<end) : "",
                           argumentsRange: argRange,
                           arguments: Tokenizer.generic(truncated, from: argStart),
                           openRange: line.fullRange)
    }

    private func close(_ s: OpenSection, at range: SourceRange?) -> SectionNode {
        SectionNode(name: s.name, nameRange: s.nameRange, argumentText: s.argumentText,
                    argumentsRange: s.argumentsRange, arguments: s.arguments, children: s.children,
                    openRange: s.openRange, closeRange: range)
    }

    /// NUL bytes and invalid UTF-8 mean the file is not text (an upload of the wrong file).
    private func binaryContentDiagnostics() -> [Diagnostic] {
        let bytes = file.bytes
        if let nul = bytes.firstIndex(of: 0) {
            return [Diagnostic(code: SyntaxCode.binaryContent, severity: .error,
                               message: "file contains a NUL byte; it does not look like a configuration file",
                               range: file.range(nul, nul + 1))]
        }
        if String(validating: bytes, as: UTF8.self) == nil {
            var it = bytes.makeIterator()
            var decoder = UTF8()
            var offset = 0
            loop: while true {
                switch decoder.decode(&it) {
                case .scalarValue(let s): offset += UTF8.width(s)
                case .emptyInput: break loop
                case .error:
                    return [Diagnostic(code: SyntaxCode.binaryContent, severity: .warning,
                                       message: "invalid UTF-8 at this byte; Apache compares bytes, but the text shown here may differ",
                                       range: file.range(offset, offset + 1))]
                }
            }
        }
        return []
    }
}

extension String {
    /// Trims Apache's whitespace characters.
    func trimmingConfigSpace() -> String {
        let u = Array(utf8)
        var lo = 0, hi = u.count
        while lo < hi, isConfigSpace(u[lo]) { lo += 1 }
        while hi > lo, isConfigSpace(u[hi - 1]) { hi -= 1 }
        return String(preservingBytes: u[lo..<hi])
    }
}
