import Foundation

/// ANSI styling for human output, off unless the decision says so (no-color.org).
struct TextStyle: Sendable {
    var enabled: Bool

    /// Colour on a terminal unless NO_COLOR is set and non-empty; `--color`/`--no-color` force it.
    static func decide(color: Bool, noColor: Bool, isTerminal: Bool, environment: [String: String]) -> TextStyle {
        if noColor { return TextStyle(enabled: false) }
        if color { return TextStyle(enabled: true) }
        return TextStyle(enabled: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty)
    }

    private func wrap(_ s: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func cyan(_ s: String) -> String { wrap(s, "36") }
}
