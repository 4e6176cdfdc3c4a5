import HtlintDiagnostics
@testable import HtlintSyntax

// Small builders shared by the syntax tests: a file from text, its logical lines, and the
// `line:column` of a diagnostic as a user would read it.

func sourceFile(_ text: String, path: String = "/var/www/html/.htaccess") -> SourceFile {
    SourceFile(path: path, text: text)
}

func logicalLines(_ text: String) -> [LogicalLine] {
    LineReader(file: sourceFile(text)).lines()
}

/// The first logical line of `text` (for tokenizer tests).
func firstLine(_ text: String) -> LogicalLine {
    logicalLines(text)[0]
}

/// `Tokenizer.generic` values of a whole line.
func genericWords(_ text: String) -> [String] {
    Tokenizer.generic(firstLine(text), from: 0).map(\.value)
}

/// `Tokenizer.rewrite` values of a whole line.
func rewriteWords(_ text: String) -> [String] {
    Tokenizer.rewrite(firstLine(text), from: 0).words.map(\.value)
}

func parse(_ text: String, context: ConfigContext = .htaccess) -> SyntaxTree {
    Parser.parse(sourceFile(text), context: context)
}

/// "line:column message" for each diagnostic, in order.
func located(_ tree: SyntaxTree) -> [String] {
    tree.diagnostics.map { d in
        let p = tree.file.lines.position(of: d.range.start)
        return "\(p.line):\(p.column) \(d.message)"
    }
}

/// "line:column" of a range start.
func where_(_ range: SourceRange, in tree: SyntaxTree) -> String {
    let p = tree.file.lines.position(of: range.start)
    return "\(p.line):\(p.column)"
}

extension ConfigNode {
    var directive: DirectiveNode? { if case .directive(let d) = self { d } else { nil } }
    var section: SectionNode? { if case .section(let s) = self { s } else { nil } }
    var comment: CommentNode? { if case .comment(let c) = self { c } else { nil } }

    /// A compact outline: `Name`, `<Name args>[children]`, `#text`.
    var outline: String {
        switch self {
        case .directive(let d): d.name
        case .comment(let c): "#" + c.text
        case .section(let s):
            "<\(s.name) \(s.argumentText)>[\(s.children.map(\.outline).joined(separator: ", "))]"
                + (s.closeRange == nil ? " unclosed" : "")
        }
    }
}

func outline(_ tree: SyntaxTree) -> [String] { tree.nodes.map(\.outline) }
