import Foundation

/// The browser's HSTS state (RFC 6797, layers-and-mixed-content §13.3): which hosts it will only
/// contact over https. Preloaded entries and entries learnt from `Strict-Transport-Security`
/// headers behave the same way.
public struct HSTSStore: Sendable, Hashable {
    /// Host (lower case) → whether the policy covers its subdomains.
    public private(set) var entries: [String: Bool] = [:]

    /// A store holding policies for `hosts` (e.g. from the preload list).
    public init(hosts: [String] = [], includeSubDomains: Bool = false) {
        for h in hosts { entries[h.lowercased()] = includeSubDomains }
    }

    /// A host matches when it equals a recorded host, or is a subdomain of one recorded with
    /// `includeSubDomains` (RFC 6797 §8.2). IP literals never match (§8.1.1).
    public func covers(_ host: String) -> Bool {
        let h = host.lowercased()
        if URLParts.isIPLiteral(h) { return false }
        if entries[h] != nil { return true }
        return entries.contains { key, sub in sub && h.hasSuffix("." + key) }
    }

    /// Records the policy of a header received over a secure connection. `max-age=0` deletes the
    /// entry; IP hosts are never recorded (RFC 6797 §8.1).
    public mutating func learn(_ header: String, host: String) {
        let h = host.lowercased()
        guard !URLParts.isIPLiteral(h) else { return }
        var maxAge: Int? = nil
        var sub = false
        for directive in header.split(separator: ";") {
            let d = directive.trimmingCharacters(in: .whitespaces).lowercased()
            if d == "includesubdomains" { sub = true }
            if d.hasPrefix("max-age") {
                let value = d.drop { $0 != "=" }.dropFirst().trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                maxAge = Int(value)
            }
        }
        guard let age = maxAge else { return }  // a header without max-age is invalid and ignored
        if age == 0 { entries[h] = nil } else { entries[h] = sub }
    }

    /// A stable text for loop detection: the state changes when the store changes (§1.3).
    public var digest: String {
        if entries.isEmpty { return "" }
        return entries.keys.sorted().map { "\($0)\(entries[$0]! ? "+sub" : "")" }.joined(separator: ",")
    }
}
