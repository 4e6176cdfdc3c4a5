/// mod_ssl's `SSLOptions` on one per-directory record: the options in force and the `+`/`-`
/// changes that ssl_config_perdir_merge applies over the enclosing record.
public struct SSLOptionsSetting: Sendable, Equatable {
    /// SSL_OPT_RELSET: no option was written without a sign, so the record only changes the
    /// enclosing options (an empty record, or `+StdEnvVars`, inherits them).
    public var relative = true
    public var options: Set<String> = []
    public var add: Set<String> = []
    public var remove: Set<String> = []

    public init() {}

    /// ssl_cmd_SSLOptions, one word (`option` lower-cased, `sign` its `+` or `-`). A word without
    /// a sign replaces the options with itself alone: `SSLOptions StdEnvVars ExportCertData`
    /// leaves ExportCertData only (recorded: env-ssloptions-stdenvvars-merging).
    mutating func apply(_ option: String, sign: Character?) {
        switch sign {
        case "-"?:
            add.remove(option); remove.insert(option); options.remove(option)
        case "+"?:
            add.insert(option); remove.remove(option); options.insert(option)
        default:
            relative = false
            options = [option]; add = [option]; remove = []
        }
    }

    /// ssl_config_perdir_merge: a relative record adds and removes its options over `base`'s
    /// (its own removals also cancel the base's additions); an absolute one replaces them.
    func merged(over base: SSLOptionsSetting) -> SSLOptionsSetting {
        guard relative else { return self }
        var m = SSLOptionsSetting()
        m.relative = base.relative
        m.add = base.add.subtracting(remove).union(add)
        m.remove = base.remove.subtracting(add).union(remove)
        m.options = base.options.subtracting(m.remove).union(m.add)
        return m
    }
}
