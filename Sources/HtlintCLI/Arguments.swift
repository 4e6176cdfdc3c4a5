/// A small command-line option reader: `--name value`, `--name=value`, repeated options,
/// boolean flags and positionals, with errors for anything unknown.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// `valued` options take a value; `booleans` do not.
    init(_ args: [String], valued: Set<String>, booleans: Set<String>) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("-") || a == "-" {
                positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = a
            var inline: String? = nil
            if let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            if valued.contains(name) {
                if let inline { values[name, default: []].append(inline); continue }
                guard i < args.count else { throw UsageError(description: "option '\(name)' needs a value") }
                values[name, default: []].append(args[i])
                i += 1
            } else if booleans.contains(name), inline == nil {
                flags.insert(name)
            } else {
                throw UsageError(description: "unknown option '\(a)'")
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// A whole-number option of at least `minimum`, or nil when it is not given; anything else
    /// is a usage error that names the option and what it got.
    func number(_ name: String, atLeast minimum: Int) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), n >= minimum else {
            throw .usage("\(name) expects a number\(minimum > 0 ? " of at least \(minimum)" : " (0 or more)"), got '\(text)'")
        }
        return n
    }

    /// Whether `name` was given at all (valued or boolean).
    func given(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// Options that contradict each other are a usage error rather than one silently winning
    /// (issue 9, item 4).
    func rejectConflict(_ a: String, _ b: String) throws(UsageError) {
        if given(a) && given(b) { throw UsageError(description: "\(a) and \(b) cannot be used together") }
    }
}
