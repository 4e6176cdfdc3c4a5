import HtlintDiagnostics

/// The compiled rule graph of a site as a value: one cluster per effective rule set (the server
/// context and each directory after `.htaccess` inheritance), its rules with their condition
/// groups, and the edges control and requests take — fall-through, skip, chain, stop, internal
/// redirect, the browser following a redirect — down to the exits (redirect, 403, 410, proxy,
/// served file). Exported as DOT, Mermaid, JSON and SVG.
public struct SiteRuleGraph: Sendable, Codable {
    /// One effective rule set.
    public struct Context: Sendable, Codable, Hashable {
        /// Node id of the context (`c0`).
        public var id: String
        /// `server`, or the URL-path of the directory (`/`, `/blog/`).
        public var name: String
        /// Files the rules come from.
        public var files: [String]
        /// `RewriteBase` in effect.
        public var base: String?
        /// Node ids of its rules in order.
        public var rules: [String]
    }

    /// A rule, as drawn.
    public struct RuleDetail: Sendable, Codable, Hashable {
        /// File the rule is written in.
        public var file: String
        /// 1-based line of the `RewriteRule`.
        public var line: Int
        /// The directive's range in its file.
        public var range: SourceRange
        /// `!` included when negated.
        public var pattern: String
        /// The substitution as written (`-` for none).
        public var substitution: String
        /// The flags as written, without brackets (`R=301,L`).
        public var flags: String
        /// `[OR]` groups: the rule needs one condition of every group.
        public var conditionGroups: [[String]]
    }

    /// A box of the drawing.
    public struct Node: Sendable, Codable, Hashable {
        /// What a node stands for: the incoming request, a rule set, a rule, the end of a rule set, an exit.
        public enum Kind: String, Sendable, Codable {
            case request, context, rule, end, exit
        }
        /// Stable id (`c0_r3`, `c0_r3_redirect`, `exit_served`), used by edges and highlights.
        public var id: String
        /// What the node stands for.
        public var kind: Kind
        /// Text shown for non-rule nodes (rules draw their detail).
        public var label: String
        /// Context id for rules and ends.
        public var context: String?
        /// The rule, for rule nodes.
        public var rule: RuleDetail?
    }

    /// An arrow of the drawing.
    public struct Edge: Sendable, Codable, Hashable {
        /// What an edge means.
        public enum Kind: String, Sendable, Codable {
            /// A request reaches a rule set (or its first rule).
            case enter
            /// The rule does not match: the next rule (past its `[C]` chain).
            case noMatch = "no-match"
            /// The rule matched and the pass goes on.
            case next
            /// `[S=n]`.
            case skip
            /// `[C]`: the next rule runs only after this one matched.
            case chain
            /// The pass ends and nothing changed (`[L]` on `-`, `[END]`).
            case stop
            /// A per-directory rewrite: Apache starts over with an internal redirect.
            case internalRedirect = "internal-redirect"
            /// The rule answers with a redirect.
            case redirect
            /// `[F]`, `[G]`, `[P]` and `[R=4xx]`: the rule answers itself.
            case forbidden, gone, proxy, status
            /// The mapped file is served.
            case serve
            /// The browser follows a redirect back to the site.
            case follow
            /// A redirect to another site.
            case offsite
            /// From the all-URL analysis: the target rule fires on what the source produces
            /// (drawn for loops and highlighted paths).
            case fires
            /// A step of a simulated request that no static edge shows.
            case trace
        }
        /// Node id the edge leaves.
        public var from: String
        /// Node id the edge enters.
        public var to: String
        /// What the edge means.
        public var kind: Kind
        /// Short text on the arrow.
        public var label: String?
    }

    /// A path to draw in colour: a detected loop, or the path of one simulated URL.
    public struct Highlight: Sendable, Codable, Hashable {
        /// What the path is (`redirect loop (confirmed): http://…`).
        public var title: String
        /// True for loops (drawn red), false for a URL's path.
        public var isLoop: Bool
        /// Node ids on the path, in order.
        public var nodes: [String]
        /// Edges of the path; `fires`/`trace` edges here are drawn even though the graph's
        /// `edges` do not list them.
        public var edges: [Edge]
    }

    /// The site's host names, for the drawing's title.
    public var site: String
    /// The layer in front of Apache (`none`, `cloudflare-flexible`, …).
    public var edge: String
    /// The rule sets, in the order their node ids are numbered.
    public var contexts: [Context]
    /// Every node: the request, rule sets, rules, ends and exits.
    public var nodes: [Node]
    /// The static edges (highlights may add `fires`/`trace` edges).
    public var edges: [Edge]
    /// Paths to draw in colour.
    public var highlights: [Highlight]

    /// The node with this id.
    public func node(_ id: String) -> Node? { nodes.first { $0.id == id } }
}
