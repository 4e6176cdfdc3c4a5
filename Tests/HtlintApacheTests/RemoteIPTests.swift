import HtlintDiagnostics
import Testing
@testable import HtlintApache

// mod_remoteip as recorded on Apache 2.4 (fixtures/apache/access-remoteip-*): the peer is
// 127.0.0.1, the header X-Forwarded-For.
struct RemoteIPTests {
    static func settings(_ proxies: [(String, Bool)]) -> RemoteIPSettings {
        var s = RemoteIPSettings()
        s.header = "X-Forwarded-For"
        s.proxies = proxies.map { (spec: $0.0, isInternal: $0.1) }
        return s
    }

    @Test(arguments: [
        // header, REMOTE_ADDR, header afterwards (nil: removed; "=" unchanged)
        ("203.0.113.7", "203.0.113.7", nil),
        ("10.0.0.1", "127.0.0.1", "="),
        ("10.0.0.1, 203.0.113.7", "203.0.113.7", "10.0.0.1"),
        ("198.51.100.2, 203.0.113.7", "198.51.100.2", nil),
        ("garbage, 203.0.113.7", "203.0.113.7", "garbage"),
        ("203.0.113.7, garbage", "127.0.0.1", "="),
        ("2001:db8::1", "2001:db8::1", nil),
    ] as [(String, String, String?)])
    func withoutAProxyListEveryPeerIsAnExternalProxy(header: String, address: String, rest: String?) {
        let answer = Self.settings([]).resolve(peer: "127.0.0.1", header: header)
        #expect((answer?.address ?? "127.0.0.1") == address)
        #expect(answer.map { $0.header } ?? "=" == rest)
    }

    @Test func anInternalProxyLetsPrivateAddressesThroughWhileTheyAreListed() {
        let one = Self.settings([("127.0.0.1", true)])
        #expect(one.resolve(peer: "127.0.0.1", header: "203.0.113.7, 10.0.0.1")! == ("10.0.0.1", "203.0.113.7"))
        let both = Self.settings([("127.0.0.1", true), ("10.0.0.0/8", true)])
        #expect(both.resolve(peer: "127.0.0.1", header: "192.168.1.5, 10.1.1.1")! == ("192.168.1.5", nil))
        // The peer itself is not on the list: nothing changes.
        #expect(Self.settings([("10.0.0.0/8", true)]).resolve(peer: "127.0.0.1", header: "203.0.113.7") == nil)
    }

    @Test func aTrustedProxyRefusesPrivateAddresses() {
        let trusted = Self.settings([("127.0.0.1", false), ("198.51.100.2", false)])
        #expect(trusted.resolve(peer: "127.0.0.1", header: "10.0.0.1") == nil)
        #expect(trusted.resolve(peer: "127.0.0.1", header: "203.0.113.7,198.51.100.2")! == ("203.0.113.7", nil))
    }

    @Test func remoteIPDirectivesAreServerSettings() {
        // Not loaded (Debian's default): Apache refuses the directive.
        let unloaded = ConfigReader.read(SourceFile(path: "site.conf", text: "RemoteIPHeader X-Forwarded-For\n"), context: .server)
        #expect(unloaded.diagnostics.first?.message.hasPrefix("Invalid command 'RemoteIPHeader'") == true)
        let text = "RemoteIPHeader CF-Connecting-IP\nRemoteIPInternalProxy 10.0.0.0/8\nRemoteIPTrustedProxy 127.0.0.1 ::1\n"
        var modules = ModuleSet.standard
        modules.insert("remoteip")
        let file = ConfigReader.read(SourceFile(path: "site.conf", text: text), context: .server, modules: modules)
        let settings = file.block.server?.remoteIP
        #expect(settings?.header == "CF-Connecting-IP")
        #expect(settings?.proxies.map { $0.spec } == ["10.0.0.0/8", "127.0.0.1", "::1"])
        #expect(settings?.proxies.map { $0.isInternal } == [true, false, false])
        #expect(file.diagnostics.isEmpty)
    }
}
