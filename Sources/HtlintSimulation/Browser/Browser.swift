/// The client at the start of the chain (layers-and-mixed-content §13.1): how many redirects
/// it follows, whether it keeps HSTS state, and how redirects change the method (§13.2).
public struct Browser: Sendable, Hashable {
    /// Profile name (`chrome`, `firefox`, `safari`, `curl`, `googlebot`).
    public var name: String
    /// Redirects followed before giving up. The chain stops after this many hops: Chrome's 21st
    /// request fails, the recordings stop after 20 hops; the verdict is the same.
    public var maxRedirects: Int
    /// Whether the client applies and learns HSTS (curl does not unless told to).
    public var usesHSTS: Bool
    /// HSTS entries the client already holds (preload list or an earlier visit).
    public var hsts: HSTSStore

    /// A custom client profile.
    public init(name: String, maxRedirects: Int, usesHSTS: Bool, hsts: HSTSStore = HSTSStore()) {
        self.name = name
        self.maxRedirects = maxRedirects
        self.usesHSTS = usesHSTS
        self.hsts = hsts
    }

    /// Current Chrome: 20 redirects (`kMaxRedirects`), dynamic HSTS store.
    public static let chrome = Browser(name: "chrome", maxRedirects: 20, usesHSTS: true)
    /// Firefox: `network.http.redirection-limit` 20.
    public static let firefox = Browser(name: "firefox", maxRedirects: 20, usesHSTS: true)
    /// Safari: 16 (a 2015 measurement, §17 Q11).
    public static let safari = Browser(name: "safari", maxRedirects: 16, usesHSTS: true)
    /// curl -L: 50 redirects, no HSTS unless `--hsts` is given.
    public static let curl = Browser(name: "curl", maxRedirects: 50, usesHSTS: false)
    /// Googlebot follows up to 10 hops.
    public static let googlebot = Browser(name: "googlebot", maxRedirects: 10, usesHSTS: false)

    /// The built-in profiles (§13.1).
    public static let profiles: [Browser] = [.chrome, .firefox, .safari, .curl, .googlebot]

    /// A built-in profile by name (`chrome`, `curl`, …).
    public static func named(_ name: String) -> Browser? {
        profiles.first { $0.name == name.lowercased() }
    }

    /// The method of the request that follows a redirect, per Fetch: 301/302 turn POST into
    /// GET, 303 turns everything but GET/HEAD into GET, 307/308 keep the method (§13.2).
    public static func methodAfter(status: Int, method: String) -> String {
        switch status {
        case 301, 302: return method == "POST" ? "GET" : method
        case 303: return method == "GET" || method == "HEAD" ? method : "GET"
        default: return method
        }
    }
}
