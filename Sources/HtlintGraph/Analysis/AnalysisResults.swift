import HtlintDiagnostics

/// A rule as it occurs in one effective rule set of the site.
public struct RuleReference: Sendable, Hashable, Codable {
    /// Id of the rule's node in `RuleGraph`.
    public var node: String
    /// `server`, or the URL-path of the directory whose rule set this is (`/`, `/blog/`).
    public var context: String
    /// 1-based line of the `RewriteRule`.
    public var line: Int
    /// The directive's range (where findings point).
    public var range: SourceRange
    /// The directive as written (`RewriteRule ^(.*)$ /$1 [R=301,L]`).
    public var text: String
}

/// A `RewriteCond` referred to by a finding.
public struct ConditionReference: Sendable, Hashable, Codable {
    /// 1-based line of the `RewriteCond` (0 when its file is not at hand).
    public var line: Int
    /// The directive's range.
    public var range: SourceRange
    /// The directive as written.
    public var text: String
}

/// A cycle of the fires-on relation: rules each of which can fire on what the previous one
/// produces. Confirmed when a simulated request from its witnesses really loops.
public struct LoopCandidate: Sendable, Hashable, Codable {
    /// How the requests go round.
    public enum Kind: String, Sendable, Codable {
        /// The browser is redirected round the cycle (ERR_TOO_MANY_REDIRECTS).
        case redirect
        /// Apache rewrites internally round the cycle until it answers 500 (AH00124).
        case internalRedirect = "internal-redirect"
    }

    /// Redirect loop (browser) or internal rewrite loop (Apache).
    public var kind: Kind
    /// The rules, starting with the one a witness first hits.
    public var cycle: [RuleReference]
    /// How each rule's output reaches the next one (`redirect`, `internal-redirect`, `same-pass`).
    public var via: [String]
    /// What simulation said about the candidate.
    public enum Status: String, Sendable, Codable {
        /// A witness request really loops.
        case confirmed
        /// No witness looped, but the cycle depends on things the analysis cannot vary
        /// (`unmodelled`), so the loop may still happen for some visitors.
        case unconfirmed
        /// Everything on the cycle was modelled and no witness loops: an artefact of the
        /// analysis (which cannot count, e.g. a prefix that shrinks each round).
        case refuted
    }

    /// Confirmed, unconfirmed or refuted.
    public var status: Status
    /// A witness request really loops.
    public var confirmed: Bool { status == .confirmed }
    /// The request that loops (confirmed), or the first one tried.
    public var witness: String?
    /// Every request simulated for this candidate.
    public var triedWitnesses: [String]
    /// The confirmed chain, one line per hop (`http://… → 301 http://…`).
    public var chain: [String]
    /// Variables the loop depends on that the analysis cannot vary (client address, time, …).
    public var unmodelled: [String]
}

/// A rule that can never fire.
public struct DeadRule: Sendable, Hashable, Codable {
    /// Why a rule never fires.
    public enum Reason: String, Sendable, Codable {
        /// The pattern matches no subject this rule set ever sees.
        case neverMatches = "never-matches"
        /// Earlier rules that end the pass take every request it would match.
        case shadowed
        /// Its conditions cannot hold together, or not behind this topology.
        case conditions
    }

    /// The dead rule (its first occurrence).
    public var rule: RuleReference
    /// The kind of reason; `explanation` says it in words.
    public var reason: Reason
    /// The earlier rules, for `shadowed`.
    public var shadowedBy: [RuleReference]
    /// The conditions involved, for `conditions`.
    public var conditions: [ConditionReference]
    /// A condition reads a name mod_rewrite does not know (always empty; HT208 reports it).
    public var involvesUnknownVariable: Bool
    /// Why, in words.
    public var explanation: String
    /// Only values the edge in front sets make the conditions fail (`%{HTTP:X-Forwarded-Proto}`
    /// is always `https`, `%{SERVER_PORT}` always `443`): the rule is redundant behind the edge
    /// but still guards a request that reaches the origin directly. Nil otherwise.
    public var redundantBehindEdge: Bool? = nil
}

/// A redirect whose targets nothing on the site serves: no file, no directory with an index,
/// no rule and no `Redirect` handles any URL the rule redirects to.
public struct UnservedTarget: Sendable, Hashable, Codable {
    /// The redirecting rule.
    public var rule: RuleReference
    /// One of the target URL-paths.
    public var example: String
}

/// One pair of the fires-on relation.
public struct FiresOnPair: Sendable, Hashable, Codable {
    /// Node id of the rule whose output it is.
    public var from: String
    /// Node id of the rule that can fire on it.
    public var to: String
    /// `redirect`, `internal-redirect` or `same-pass`.
    public var via: String
}

/// Everything the all-URL analysis found.
public struct GraphAnalysis: Sendable, Codable {
    /// Cycles of the fires-on relation, shortest first, with what simulation said.
    public var loops: [LoopCandidate] = []
    /// Rules that never fire.
    public var deadRules: [DeadRule] = []
    /// Redirects whose targets nothing serves.
    public var unservedTargets: [UnservedTarget] = []
    /// The fires-on relation (graph node ids).
    public var relation: [FiresOnPair] = []
    /// Parts of the analysis that were skipped or cut short, in words.
    public var limits: [String] = []

    public init() {}
}
