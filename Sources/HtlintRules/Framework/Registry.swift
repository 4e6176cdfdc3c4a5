/// Every built-in rule, sorted by id. To add a rule: write its file and add one line here.
public let builtInRules: [any LintRule] = (readErrorRules + [
    RewriteEngineNotOn(),
    RedirectWithoutLast(),
    RelativeRedirectLeaksPath(),
    ImplicitRedirect(),
    PathDropped(),
    TrailingOr(),
    ShadowedRule(),
    AlwaysEmptyVariable(),
    LeadingSlashPattern(),
    RedirectRunsAfterRewrite(),
    SubfolderWithoutGuard(),
    ChildDisablesParentRules(),
    RewriteWithoutFollowSymLinks(),
    RedirectLoop(),
    InternalRecursion(),
    HTTPSDowngrade(),
    TemporaryHTTPSRedirect(),
    RedirectChain(),
    RedirectToMissing(),
    HSTSWithoutAlways(),
    OpenRedirect(),
    UnescapedDotInHost(),
    UnanchoredHostPattern(),
    HostPatternWithoutNoCase(),
] as [any LintRule]).sorted { $0.description.id < $1.description.id }

/// Looks a rule up by id (`HT202`) or name (`redirect-without-last`).
public func rule(named key: String) -> (any LintRule)? {
    builtInRules.first { $0.description.id == key.uppercased() || $0.description.name == key }
}
