/// mod_speling's per-directory configuration (`CheckSpelling`, `CheckCaseOnly`,
/// `CheckBasenameMatch`, all OR_OPTIONS). The module has no merge function, so a configuration
/// object that sets any of them starts from the defaults below and replaces the inherited one.
public struct SpelingConfig: Sendable, Hashable {
    public var enabled = false
    public var caseOnly = false
    public var basenameMatch = true
    public init() {}
}

extension ConfigReader {
    mutating func spelingDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        guard let on = flag(line) else { return }
        var s = block.speling ?? SpelingConfig()
        switch line.info.name {
        case "CheckSpelling": s.enabled = on
        case "CheckCaseOnly": s.caseOnly = on
        default: s.basenameMatch = on
        }
        block.speling = s
    }
}
