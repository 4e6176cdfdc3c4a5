import HtlintDiagnostics
import HtlintRegex

/// How `[B]`-family flags escape backreferences (apache-semantics §6.4).
public struct BackrefEscaping: Sendable, Hashable {
    /// `B` without a list: escape everything but letters, digits and `_`.
    public var all = false
    /// `B=chars`: escape only these.
    public var only: [UInt8] = []
    /// `BCTLS`: escape control characters and space.
    public var controls = false
    /// `BNP`: space becomes `%20`, not `+`.
    public var noPlus = false
    /// `BNE=chars`: never escape these.
    public var never: [UInt8] = []

    public var isActive: Bool { all || !only.isEmpty || controls }
}

/// The flags of one `RewriteRule` (apache-semantics §5).
public struct RewriteFlags: Sendable, Hashable {
    public var chain = false
    public var cookies: [Template] = []
    public var discardPathInfo = false
    public var env: [Template] = []
    public var end = false
    public var forbidden = false
    public var gone = false
    public var handler: Template? = nil
    public var last = false
    /// `[N]`: restart; the value is the round limit.
    public var next: Int? = nil
    public var noCase = false
    public var noEscape = false
    public var noSubrequest = false
    public var proxy = false
    public var passThrough = false
    public var qsAppend = false
    public var qsDiscard = false
    public var qsLast = false
    /// `[R]`: the status (302 by default).
    public var redirect: Int? = nil
    public var skip = 0
    public var type: Template? = nil
    public var unsafeAllow3F = false
    public var unsafePrefixStat = false
    public var unc = false
    public var escaping = BackrefEscaping()

    public init() {}

    /// A status flag ends the pass with that status ([F], [G], [R=non-3xx]).
    public var statusOverride: Int? {
        if forbidden { return 403 }
        if gone { return 410 }
        if let r = redirect, !(300...399).contains(r) { return r }
        return nil
    }
}

/// `RewriteCond` pattern kinds (apache-semantics §7.1).
public enum ConditionTest: Sendable {
    case regex(Regex)
    /// `-d -f -s -l -L -h -x -F -U`.
    case file(Character)
    /// `-eq -ne -lt -le -gt -ge` with the operand (a template).
    case integer(String, Template)
    /// `= < > <= >=` with the operand.
    case string(String, Template)
    /// `expr` condition.
    case expression(ApExpression)
}

/// One `RewriteCond`.
public struct RewriteCondition: Sendable {
    public var testString: Template
    public var rawTestString: String
    public var rawPattern: String
    public var test: ConditionTest
    public var negated: Bool
    public var noCase: Bool
    public var orNext: Bool
    public var noVary: Bool
    public var range: SourceRange
}

/// One `RewriteRule` with the conditions attached to it.
public struct RewriteRule: Sendable {
    public var pattern: String
    public var negated: Bool
    public var regex: Regex
    /// The substitution as written (`-` means none).
    public var rawSubstitution: String
    public var substitution: Template
    /// True for `-`.
    public var isDash: Bool
    /// The substitution ended with `?` (removed) or had no `?` with `[QSD]`: the query is cleared
    /// and the expansion is not split at `?` (apache-semantics §6.5).
    public var noQuery: Bool
    public var flags: RewriteFlags
    public var conditions: [RewriteCondition]
    public var range: SourceRange
    public var patternRange: SourceRange
    public var substitutionRange: SourceRange
    public var flagsRange: SourceRange?
    /// 1-based line, for traces.
    public var line: Int
}
