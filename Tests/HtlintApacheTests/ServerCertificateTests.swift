import Testing
@testable import HtlintApache

/// mod_ssl's `SSL_SERVER_*` variables from a certificate the simulation was told about
/// (recorded with the oracle's one: https-ssl-server-certificate-and-session-variables).
struct ServerCertificateTests {
    let certificate = ServerCertificate(
        subject: [.init("C", "DE"), .init("O", "Shop, Inc."), .init("OU", "a"), .init("OU", "b"), .init("CN", "shop.example")],
        issuer: [.init("CN", "Test CA")], keyAlgorithm: "rsaEncryption", signatureAlgorithm: "sha256WithRSAEncryption")

    @Test func namesPrintLastAttributeFirstWithRFC2253Escapes() {
        #expect(certificate.variable("S_DN") == "CN=shop.example,OU=b,OU=a,O=Shop\\, Inc.,C=DE")
        #expect(certificate.variable("I_DN") == "CN=Test CA")
        #expect(certificate.variable("M_VERSION") == "3")
        #expect(certificate.variable("A_KEY") == "rsaEncryption")
        #expect(certificate.variable("A_SIG") == "sha256WithRSAEncryption")
    }

    @Test func attributeLookUpTakesTheFirstOfItsTagCaseSensitively() {
        #expect(certificate.variable("S_DN_OU") == "a")
        #expect(certificate.variable("S_DN_CN") == "shop.example")
        #expect(certificate.variable("I_DN_CN") == "Test CA")
        #expect(certificate.variable("S_DN_L") == nil)
        #expect(certificate.variable("S_DN_cn") == nil)
        #expect(certificate.variable("s_dn_CN") == nil)
        #expect(certificate.variable("S_dn_CN") == "shop.example")
        #expect(certificate.variable("S_DN_OU_1") == "b")
        #expect(certificate.variable("S_DN_OU_2") == nil)
        #expect(certificate.variable("S_DN_OU_") == "a")
        #expect(certificate.variable("S_DN_OU_1_RAW") == "b")
        #expect(certificate.variable("S_DN_O_RAW") == "Shop, Inc.")
        #expect(certificate.variable("s_dn") == nil)
        #expect(certificate.variable("m_version") == "3")
        #expect(certificate.variable("M_SERIAL") == nil)
        #expect(certificate.variable("V_START") == nil)
    }

    @Test func stdEnvVarsExportEachTaggedAttributeNumberingRepeats() {
        let names = certificate.componentVariables.map { "\($0.name)=\($0.value)" }
        #expect(names == ["SSL_SERVER_S_DN_C=DE", "SSL_SERVER_S_DN_O=Shop, Inc.", "SSL_SERVER_S_DN_OU=a",
                          "SSL_SERVER_S_DN_OU_1=b", "SSL_SERVER_S_DN_CN=shop.example", "SSL_SERVER_I_DN_CN=Test CA"])
    }

    @Test func aNameAsPrintedReadsBackInTheCertificatesOrder() {
        let printed = ServerCertificate.distinguishedName(certificate.subject)
        #expect(ServerCertificate.attributes(fromDistinguishedName: printed) == certificate.subject)
        #expect(ServerCertificate.attributes(fromDistinguishedName: "CN=a,emailAddress=x@y")
            == [.init("Email", "x@y"), .init("CN", "a")])
        #expect(ServerCertificate.attributes(fromDistinguishedName: "XX=1") == nil)
        #expect(ServerCertificate.attributes(fromDistinguishedName: "CN") == nil)
    }
}
