import HtlintBytes

/// `RewriteCond` comparisons (apache-semantics §7.3), shared by the engine and the graph
/// analysis so both read a condition the same way.
public enum ConditionComparison {
    /// String operators `= < > <= >=`. Without `[NC]` a shorter string is always smaller; only
    /// strings of equal length are compared byte by byte. The bytes are Apache's (`rawBytes`),
    /// and `[NC]` folds ASCII letters only (strcasecmp in the C locale: `=/é [NC]` is not `/É`;
    /// recorded: cond-nc-string-compare-ascii-only).
    public static func string(_ op: String, _ a: String, _ b: String, noCase: Bool) -> Bool {
        func bytes(_ s: String) -> [UInt8] {
            noCase ? s.rawBytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } : s.rawBytes
        }
        let x = bytes(a), y = bytes(b)
        if op == "=" { return x == y }
        let cmp: Int
        if !noCase && x.count != y.count {
            cmp = x.count < y.count ? -1 : 1
        } else if x == y {
            cmp = 0
        } else {
            cmp = x.lexicographicallyPrecedes(y) ? -1 : 1
        }
        switch op {
        case "<": return cmp < 0
        case ">": return cmp > 0
        case "<=": return cmp <= 0
        default: return cmp >= 0
        }
    }

    /// Integer operators `-eq -ne -lt -le -gt -ge`, both sides read with C `atoi`.
    public static func integer(_ op: String, _ a: String, _ b: String) -> Bool {
        let x = atoi(a), y = atoi(b)
        switch op {
        case "-eq": return x == y
        case "-ne": return x != y
        case "-lt": return x < y
        case "-le": return x <= y
        case "-gt": return x > y
        default: return x >= y
        }
    }
}
