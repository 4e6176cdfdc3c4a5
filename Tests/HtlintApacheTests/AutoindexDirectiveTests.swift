import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// mod_autoindex's checks of `IndexOptions` and `IndexOrderDefault` in a `.htaccess`, with the
/// messages Apache 2.4 logged (recorded: dirindex-indexoptions-checked).
struct AutoindexDirectiveTests {
    private func fatal(_ text: String) -> (message: String, column: Int)? {
        let file = SourceFile(path: "/d/.htaccess", text: text)
        guard let d = ConfigReader.read(file, context: .htaccess, modules: ModuleSet(ModuleSet.standard.names.union(["autoindex"]))).fatal
        else { return nil }
        return (d.message, file.lines.position(of: d.range.start).column)
    }

    @Test(arguments: [
        ("IndexOptions FancyIndexing #c", "Invalid directory indexing option", 28),
        ("IndexOptions \"\" FancyIndexing", "Invalid directory indexing option", 14),
        ("IndexOptions +-FancyIndexing", "Invalid directory indexing option", 14),
        ("IndexOptions +None", "Cannot combine '+' or '-' with 'None' keyword", 14),
        ("IndexOptions None FancyIndexing", "Cannot combine other IndexOptions keywords with 'None'", 14),
        ("IndexOptions None\nIndexOptions FancyIndexing", "Cannot combine other IndexOptions keywords with 'None'", 14),
        ("IndexOptions NameWidth", "NameWidth with no value may only appear as '-NameWidth'", 14),
        ("IndexOptions NameWidth=3", "NameWidth value must be greater than 5", 14),
        ("IndexOptions DescriptionWidth=5", "DescriptionWidth value must be greater than 12", 14),
        ("IndexOptions -IconWidth=5", "Cannot combine '-' with IconWidth=n", 14),
        ("IndexOrderDefault Up Name", "First keyword must be 'Ascending' or 'Descending'", 19),
        ("IndexOrderDefault Ascending Title", "Second keyword must be 'Name', 'Date', 'Size', or 'Description'", 29),
        ("IndexOrderDefault Ascending", "IndexOrderDefault takes two arguments, {Ascending,Descending} {Name,Size,Description,Date}", 19),
    ])
    func refused(_ text: String, _ message: String, _ column: Int) {
        let found = fatal(text)
        #expect(found?.message == message)
        #expect(found?.column == column)
    }

    @Test(arguments: [
        "IndexOptions FancyIndexing FoldersFirst HTMLTable VersionSort XHTML ShowForbidden UseOldDateFormat",
        "IndexOptions IconWidth IconHeight=16 NameWidth=* NameWidth=0 DescriptionWidth=30 Type=text/plain",
        "IndexOptions -NameWidth -DescriptionWidth -IconWidth",
        "IndexOptions FancyIndexing \"\"",
        "IndexOptions",
        "IndexOptions FancyIndexing\nIndexOptions None",
        "IndexOptions None +FancyIndexing",
        "IndexOrderDefault descending date",
    ])
    func accepted(_ text: String) {
        #expect(fatal(text) == nil)
    }

    @Test func charsetIsKept() {
        let file = ConfigReader.read(SourceFile(path: "/d/.htaccess", text: "IndexOptions +FancyIndexing Charset=UTF-8"),
                                     context: .htaccess, modules: ModuleSet(ModuleSet.standard.names.union(["autoindex"])))
        #expect(file.block.indexCharset == "UTF-8")
    }

    /// `IndexIgnore` words are kept in order; ignore_entry matches each one's last path
    /// component with `*` and `?` only (recorded: dirindex-autoindex-entry-lookups).
    @Test func indexIgnorePatterns() {
        let file = ConfigReader.read(SourceFile(path: "/d/.htaccess", text: "IndexIgnore .ht* *.log\nIndexIgnore dir/?.txt [ab].md\nIndexIgnoreReset On"),
                                     context: .htaccess, modules: ModuleSet(ModuleSet.standard.names.union(["autoindex"])))
        #expect(file.block.indexIgnore == [".ht*", "*.log", "dir/?.txt", "[ab].md"])
        #expect(file.block.indexIgnoreReset == true)
        let patterns = file.block.indexIgnore
        #expect(Origin.indexIgnores(patterns, ".htaccess"))
        #expect(Origin.indexIgnores(patterns, "a.log"))
        #expect(Origin.indexIgnores(patterns, "x.txt"))
        #expect(!Origin.indexIgnores(patterns, "xy.txt"))
        #expect(!Origin.indexIgnores(patterns, "a.md"))
        #expect(Origin.indexIgnores(patterns, "[ab].md"))
        #expect(!Origin.indexIgnores(patterns, "A.LOG.txt"))
    }
}
