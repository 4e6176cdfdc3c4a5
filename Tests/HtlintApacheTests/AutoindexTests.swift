import Testing
@testable import HtlintApache

// mod_autoindex answers for a directory mod_dir found no index in (recorded in
// fixtures/apache/dirindex-autoindex-*).
struct AutoindexTests {
    static func respond(_ target: String, modules: ModuleSet, access: [(String, String)] = []) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/d/a.txt")
        for (dir, text) in access { fs.addAccessFile(dir, displayPath: "/var/www/html\(dir)/.htaccess", text: text) }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, modules: modules))
        return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    static let without = ModuleSet(ModuleSet.standard.names.subtracting(["autoindex"]))

    @Test func forbiddenWithoutIndexesOption() {
        let r = Self.respond("/d/", modules: .standard)
        #expect(r.status == 403)
        #expect(r.errorCodes == ["AH01276"])
        #expect(Self.respond("/d/", modules: Self.without).status == 404)
    }

    @Test func listingWithIndexesOption() {
        let r = Self.respond("/d/", modules: .standard, access: [("/d", "Options +Indexes")])
        #expect(r.status == 200)
        #expect(r.served == nil)
    }

    @Test func directorySlashOffStillListsWithSlashAddedToFilename() {
        let r = Self.respond("/d", modules: .standard, access: [("/d", "DirectorySlash Off\nOptions +Indexes")])
        #expect(r.status == 200)
        #expect(r.final.filename == "/d/")
        #expect(Self.respond("/d", modules: .standard, access: [("/d", "DirectorySlash Off")]).status == 403)
    }
}
