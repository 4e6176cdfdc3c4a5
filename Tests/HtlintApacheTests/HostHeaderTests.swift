import Testing
@testable import HtlintApache

/// httpd's fix_hostname, which `%{SERVER_NAME}`, self-referential URLs and the choice of a
/// virtual host all read the `Host` header through.
@Test func hostHeadersAreReadAsFixHostnameReadsThem() {
    #expect(splitHostHeader("WWW.Example.ORG.:8080") == ("www.example.org", 8080))
    #expect(splitHostHeader("[::1]:8443") == ("[::1]", 8443))
    #expect(splitHostHeader("[::1]") == ("[::1]", nil))
    #expect(splitHostHeader("example.org") == ("example.org", nil))
}
