import HtlintApache
import HtlintDiagnostics

/// The back-references a rule expands, for the rules about them (HT219, HT221).
extension RewriteRule {
    /// `$N` and `%N` parts of the substitution, `[E=]` and `[CO=]` values, in the order they are
    /// written, map keys and defaults included.
    var backreferences: [Template.Part] {
        var out: [Template.Part] = []
        func visit(_ t: Template) {
            for p in t.parts {
                switch p {
                case .ruleCapture, .conditionCapture: out.append(p)
                case .map(_, let key, let fallback):
                    visit(key)
                    if let fallback { visit(fallback) }
                default: break
                }
            }
        }
        visit(substitution)
        flags.env.forEach(visit)
        flags.cookies.forEach(visit)
        return out
    }

    /// Where `reference` (`$2`, `%1`) is first written: in the substitution, else in the flags.
    func range(of reference: String, in file: LintFile) -> SourceRange? {
        for word in [substitutionRange, flagsRange].compactMap({ $0 }) {
            let text = file.text(word)
            guard let at = text.utf8.firstRange(of: reference.utf8) else { continue }
            let start = word.start + text.utf8.distance(from: text.utf8.startIndex, to: at.lowerBound)
            return SourceRange(file: word.file, start: start, end: start + reference.utf8.count)
        }
        return nil
    }
}
