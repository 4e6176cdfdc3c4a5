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
    public var discardPathInfo = false
    public var end = false
    public var forbidden = false
    public var gone = false
    public var last = false
    public var noCase = false
    public var noEscape = false
    public var noSubrequest = false
    public var proxy = false
    public var passThrough = false
    public var qsAppend = false
    public var qsDiscard = false
    public var qsLast = false
    public var unsafeAllow3F = false
    public var unsafePrefixStat = false
    public var unc = false
    /// `[R]`: the status (302 by default).
    public var redirect: Int? = nil
    public var skip = 0

    /// Flags few rules carry, boxed: a 100,000-rule map whose rules carry none of them does
    /// not pay for their room. Copy on write; no box at the defaults, so equal flags compare
    /// equal however they were set.
    private struct Rare: Hashable {
        var cookies: [Template] = []
        var env: [Template] = []
        var handler: Template? = nil
        var type: Template? = nil
        var next: Int? = nil
        var escaping = BackrefEscaping()
        var forcedStatus: Int? = nil
    }
    private final class RareBox: Sendable, Hashable {
        let value: Rare
        init(_ value: Rare) { self.value = value }
        static func == (a: RareBox, b: RareBox) -> Bool { a.value == b.value }
        func hash(into h: inout Hasher) { h.combine(value) }
    }
    private var rareBox: RareBox? = nil
    // Getters read the box directly: the rule loop asks for these on every rule.
    private mutating func updateRare(_ change: (inout Rare) -> Void) {
        var r = rareBox?.value ?? Rare()
        change(&r)
        rareBox = r == Rare() ? nil : RareBox(r)
    }

    public var cookies: [Template] {
        get { rareBox?.value.cookies ?? [] }
        set { updateRare { $0.cookies = newValue } }
    }
    public var env: [Template] {
        get { rareBox?.value.env ?? [] }
        set { updateRare { $0.env = newValue } }
    }
    public var handler: Template? {
        get { rareBox?.value.handler }
        set { updateRare { $0.handler = newValue } }
    }
    public var type: Template? {
        get { rareBox?.value.type }
        set { updateRare { $0.type = newValue } }
    }
    /// `[N]`: restart; the value is the round limit.
    public var next: Int? {
        get { rareBox?.value.next }
        set { updateRare { $0.next = newValue } }
    }
    public var escaping: BackrefEscaping {
        get { rareBox?.value.escaping ?? BackrefEscaping() }
        set { updateRare { $0.escaping = newValue } }
    }
    /// The status of a status rule when the flags' order decides it: Apache keeps one
    /// forced_responsecode that F, G and R=code each overwrite (`[G,R=307]` answers 307).
    public var forcedStatus: Int? {
        get { rareBox?.value.forcedStatus }
        set { updateRare { $0.forcedStatus = newValue } }
    }

    public init() {}

    /// A status flag ends the pass with that status ([F], [G], [R=non-3xx]).
    public var statusOverride: Int? {
        if let f = forcedStatus { return f }
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

/// One `RewriteRule` with the conditions attached to it. A class: the rule loop passes rules
/// around constantly, and copying a struct this size costs a retain per field.
public final class RewriteRule: @unchecked Sendable {
    public let pattern: String
    public let negated: Bool
    public let regex: Regex
    /// The substitution as written (`-` means none).
    public let rawSubstitution: String
    public let substitution: Template
    /// True for `-`.
    public let isDash: Bool
    /// The substitution ended with `?` (removed) or had no `?` with `[QSD]`: the query is cleared
    /// and the expansion is not split at `?` (apache-semantics §6.5).
    public let noQuery: Bool
    public let flags: RewriteFlags
    public let conditions: [RewriteCondition]
    public let range: SourceRange
    /// The words' offsets in `range.file` (flags: -1 when absent), rather than three more
    /// ranges each naming the file again: the rule's size matters in a 100,000-rule file.
    private let wordOffsets: (patternStart: Int32, patternEnd: Int32, substitutionStart: Int32, substitutionEnd: Int32,
                              flagsStart: Int32, flagsEnd: Int32)
    public var patternRange: SourceRange {
        SourceRange(file: range.file, start: Int(wordOffsets.patternStart), end: Int(wordOffsets.patternEnd))
    }
    public var substitutionRange: SourceRange {
        SourceRange(file: range.file, start: Int(wordOffsets.substitutionStart), end: Int(wordOffsets.substitutionEnd))
    }
    public var flagsRange: SourceRange? {
        wordOffsets.flagsStart < 0 ? nil : SourceRange(file: range.file, start: Int(wordOffsets.flagsStart), end: Int(wordOffsets.flagsEnd))
    }
    /// 1-based line, for traces.
    public let line: Int
    /// Some template of the rule reads `$N` (or an `expr` condition may): only then does a
    /// match build its captures.
    let readsRuleCaptures: Bool
    /// Some template reads `%N`: only then does a condition match build its captures.
    let readsConditionCaptures: Bool

    public init(pattern: String, negated: Bool, regex: Regex, rawSubstitution: String, substitution: Template,
                isDash: Bool, noQuery: Bool, flags: RewriteFlags, conditions: [RewriteCondition], range: SourceRange,
                patternRange: SourceRange, substitutionRange: SourceRange, flagsRange: SourceRange?, line: Int) {
        self.pattern = pattern
        self.negated = negated
        self.regex = regex
        self.rawSubstitution = rawSubstitution
        self.substitution = substitution
        self.isDash = isDash
        self.noQuery = noQuery
        self.flags = flags
        self.conditions = conditions
        self.range = range
        // Files are at most 16 MiB (the reader's limit), so offsets fit 32 bits.
        wordOffsets = (Int32(clamping: patternRange.start), Int32(clamping: patternRange.end),
                       Int32(clamping: substitutionRange.start), Int32(clamping: substitutionRange.end),
                       Int32(clamping: flagsRange?.start ?? -1), Int32(clamping: flagsRange?.end ?? -1))
        self.line = line
        var templates = [substitution] + flags.env + flags.cookies + [flags.type, flags.handler].compactMap { $0 }
        var hasExpression = false
        for c in conditions {
            templates.append(c.testString)
            switch c.test {
            case .integer(_, let operand), .string(_, let operand): templates.append(operand)
            case .expression: hasExpression = true
            case .regex, .file: break
            }
        }
        readsRuleCaptures = hasExpression || templates.contains { $0.refers { if case .ruleCapture = $0 { true } else { false } } }
        readsConditionCaptures = hasExpression
            || templates.contains { $0.refers { if case .conditionCapture = $0 { true } else { false } } }
    }
}
