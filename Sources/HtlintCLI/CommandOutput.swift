/// Exit statuses, ordered; results combine with `max` (0 clean, 1 findings, 2 usage or I/O error).
public enum ExitStatus: Int32, Comparable, Sendable {
    case clean = 0, findings = 1, failure = 2
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// What a command printed and how it ended; the CLI is a function so tests need no process.
public struct CommandOutput: Sendable, Equatable {
    public var stdout = ""
    public var stderr = ""
    public var status = ExitStatus.clean

    public init() {}

    mutating func out(_ line: String) { stdout += line + "\n" }
    mutating func err(_ line: String) { stderr += line + "\n" }
}
