import Foundation

/// A rule set compiled into a graph: for each rule, where control goes when it does not match
/// (past the rest of its `[C]` chain), and whether it ends the pass. Built once per distinct
/// effective rule list and shared by all requests; analyses reuse the same structure.
public final class CompiledRuleSet: Sendable {
    public let rules: [RewriteRule]
    /// For rule i: the index of the next rule to try when i does not match (skips the chain).
    public let onNoMatch: [Int]
    /// For rule i: the next index after a match that does not stop the pass (`[S=k]` applied).
    public let onMatch: [Int]
    /// Rules that end the pass when they match ([L], [END], [PT], [P], status flags).
    public let stops: [Bool]
    /// Literal-prefix index for large rule sets (nil: scan linearly).
    let index: RuleIndex?

    public init(rules: [RewriteRule], indexed: Bool = true) {
        self.rules = rules
        var noMatch: [Int] = []
        var match: [Int] = []
        var stops: [Bool] = []
        for (i, rule) in rules.enumerated() {
            var j = i
            while j < rules.count - 1, rules[j].flags.chain { j += 1 }
            noMatch.append(rule.flags.chain ? j + 1 : i + 1)
            match.append(i + 1 + max(0, rule.flags.skip))
            let f = rule.flags
            stops.append(f.last || f.end || f.passThrough || f.proxy || f.statusOverride != nil)
        }
        self.onNoMatch = noMatch
        self.onMatch = match
        self.stops = stops
        self.index = indexed ? RuleIndex(rules: rules) : nil
    }
}

/// All compiled rule sets of a site, keyed by the identity of the merged rule list.
final class RuleGraph: @unchecked Sendable {
    private var sets: [String: CompiledRuleSet] = [:]
    /// The set `ruleSet` returned last, with its key.
    private var last: (key: String, set: CompiledRuleSet)?
    private let lock = NSLock()
    /// The server-context rule set of the virtual host.
    let server: CompiledRuleSet

    let indexed: Bool

    init(site: Site, indexed: Bool) {
        self.indexed = indexed
        server = CompiledRuleSet(rules: site.vhost.block.rewrite?.rules ?? [], indexed: indexed)
    }

    func ruleSet(_ rewrite: EffectiveRewrite) -> CompiledRuleSet {
        lock.lock()
        defer { lock.unlock() }
        // Most passes of a run use the set the last one did (the root `.htaccess`): comparing
        // the key costs less than hashing it.
        if let last, last.key == rewrite.key { return last.set }
        let s: CompiledRuleSet
        if let known = sets[rewrite.key] {
            s = known
        } else {
            s = CompiledRuleSet(rules: rewrite.rules, indexed: indexed)
            sets[rewrite.key] = s
        }
        last = (rewrite.key, s)
        return s
    }
}
