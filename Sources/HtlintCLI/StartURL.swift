import HtlintSimulation

/// URLs given on the command line, where a chain starts. `URLParts` reads whatever a server may
/// send in `Location` (the chain must follow it as a browser would); a visitor's first URL is
/// held to more: http or https, a host, and an IPv6 address in one pair of brackets.
enum StartURL {
    /// Why `text` cannot start a chain, or nil when it can.
    static func problem(_ text: String) -> String? {
        guard let url = URLParts(text) else { return "'\(text)' is not an absolute URL (expected http://host/path)" }
        guard url.scheme == "http" || url.scheme == "https" else { return "'\(text)' is not an http or https URL" }
        guard !url.host.isEmpty else { return "'\(text)' has no host" }
        let brackets = url.host.filter { $0 == "[" || $0 == "]" }
        if !brackets.isEmpty, brackets != "[]" || !url.host.hasPrefix("[") || !url.host.hasSuffix("]") {
            return "'\(text)' has a malformed host (an IPv6 address is written in brackets: http://[::1]/)"
        }
        return nil
    }
}
