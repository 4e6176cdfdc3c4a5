import Testing
import HtlintDiagnostics
@testable import HtlintApache
import HtlintSyntax

// Conditional sections and `Define` as Apache 2.4.71 (Debian) reads them; recorded in
// fixtures/apache/conditional-*.

/// Whether the body of `<open>` … `</close>` is read, in server context.
private func holds(_ open: String, modules: ModuleSet = .standard, fileExists: @escaping (String) -> Bool = ConfigReader.systemFileExists) -> Bool {
    let name = open.dropFirst().prefix { $0 != " " }
    let text = "\(open)\nRewriteEngine On\n</\(name)>"
    let file = ConfigReader.read(SourceFile(path: "<vhost>", text: text), context: .server, modules: modules,
                                 fileExists: fileExists)
    return file.block.rewrite?.engine == true
}

private func serverErrors(_ text: String) -> [String] {
    ConfigReader.read(SourceFile(path: "<vhost>", text: text), context: .server).diagnostics
        .filter { $0.severity == .error }.map(\.message)
}

@Suite struct ConditionalSectionTests {
    @Test func ifVersionComparesWith2_4_71() {
        #expect(!holds("<IfVersion < 2.4>"))
        #expect(!holds("<IfVersion > 3>"))
        #expect(holds("<IfVersion <= 2.4.99>"))
        #expect(holds("<IfVersion >= 2.4>"))
        #expect(holds("<IfVersion 2.4.71>"))
        #expect(holds("<IfVersion = 2.4.71>"))
        #expect(!holds("<IfVersion == 2.4>"))   // omitted parts are zero
        #expect(holds("<IfVersion != 2.4>"))
        #expect(!holds("<IfVersion /^2\\.5/>"))
        #expect(holds("<IfVersion ~ ^2\\.4\\.>"))
        #expect(!holds("<IfVersion !~ ^2\\.4>"))
    }

    @Test func falseIfVersionBodyIsNotParsed() {
        #expect(serverErrors("<IfVersion < 2.4>\nNoSuchDirective\n</IfVersion>").isEmpty)
        #expect(serverErrors("<IfVersion >= 2.4>\nNoSuchDirective\n</IfVersion>").count == 1)
    }

    @Test func ifFileUsesSiteAndFixedSystemPaths() {
        #expect(holds("<IfFile /etc/passwd>"))
        #expect(!holds("<IfFile !/etc/passwd>"))
        #expect(holds("<IfFile apache2.conf>"))          // relative to ServerRoot /etc/apache2
        #expect(!holds("<IfFile /nonexistent/x>"))
        #expect(holds("<IfFile /var/www/html/flag>", fileExists: { $0 == "/var/www/html/flag" }))
    }

    // fixtures/apache/section-iffile-trailing-slash-needs-a-directory
    @Test func ifFileFoldsDotsByNameButATrailingSlashNeedsADirectory() {
        #expect(!holds("<IfFile /etc/passwd/>"))
        #expect(holds("<IfFile /etc/>"))
        #expect(holds("<IfFile /etc/passwd/..>"))
        #expect(holds("<IfFile /etc/passwd/../hosts>"))
        let site: (String) -> Bool = { ["/var/www/html/a.html", "/var/www/html/sub", "/var/www/html/sub/"].contains($0) }
        #expect(!holds("<IfFile /var/www/html/a.html/>", fileExists: site))
        #expect(holds("<IfFile /var/www/html/sub/>", fileExists: site))
    }

    // fixtures/apache/section-ifdirective-names-sections-with-their-bracket
    @Test func ifDirectiveFindsASectionByItsBracketedName() {
        #expect(holds("<IfDirective <Directory>"))
        #expect(holds("<IfDirective <files>"))
        #expect(!holds("<IfDirective <Proxy>"))
        #expect(!holds("<IfDirective </Directory>"))
        #expect(!holds("<IfDirective Directory>"))
    }

    @Test func ifSectionDependsOnLoadedModules() {
        #expect(!holds("<IfSection Proxy>"))
        #expect(holds("<IfSection !Proxy>"))
        #expect(holds("<IfSection directory>"))
        var modules = ModuleSet.standard
        modules.insert("proxy")
        #expect(holds("<IfSection Proxy>", modules: modules))
    }

    @Test func defineFeedsIfDefineAndVariables() throws {
        let vhost = ConfigReader.read(SourceFile(path: "<vhost>", text: """
            Define FLAG
            Define VAL hello
            <IfDefine FLAG>
            RewriteEngine On
            </IfDefine>
            RewriteRule ^/b$ /ok.html?v=${VAL}&u=${NOPE} [R=302,L]
            """), context: .server)
        #expect(vhost.block.rewrite?.engine == true)
        #expect(vhost.defines == ["FLAG", "VAL"])
        #expect(vhost.variables == ["VAL": "hello"])
        let rule = try #require(vhost.block.rewrite?.rules.first)
        #expect(rule.rawSubstitution.contains("?v=hello&u=${NOPE}"))
        let htaccess = ConfigReader.read(SourceFile(path: "/var/www/html/.htaccess", text: "RewriteRule ^b$ /x?${VAL}"),
                                         context: .htaccess, defines: vhost.defines, variables: vhost.variables)
        #expect(htaccess.block.rewrite?.rules.first?.rawSubstitution.contains("/x?hello") == true)
    }

    @Test func expandVariablesLeavesUnknownAndMapReferences() throws {
        let line = try #require(LineReader(file: SourceFile(path: "f", text: "a${X}b${Y}c${m:k}${X")).lines().first)
        #expect(Conditionals.expandVariables(in: line, ["X": "1"])?.text == "a1b${Y}c${m:k}${X")
        #expect(Conditionals.expandVariables(in: line, ["Z": "1"]) == nil)
    }

    /// Ranges stay in the file as written: a diagnostic after a `${NAME}` whose value has
    /// another length keeps its column, and a word made from a value covers the reference.
    @Test func diagnosticsAfterAVariableKeepTheirColumns() throws {
        let text = """
            Define LONG averyveryverylongvalue
            Define TWO "^a$ /b"
            RewriteEngine On
            RewriteRule ${LONG} /x [BOGUS]
            RewriteRule ${TWO} [R=302,L]
            """
        let source = SourceFile(path: "<vhost>", text: text)
        let file = ConfigReader.read(source, context: .server)
        let flag = try #require(file.diagnostics.first { $0.message.contains("BOGUS") })
        let lines = LineIndex(Array(text.utf8))
        #expect(lines.position(of: flag.range.start) == SourcePosition(line: 4, column: 25))
        let rule = try #require(file.block.rewrite?.rules.last)
        #expect(rule.pattern == "^a$")
        #expect(rule.rawSubstitution == "/b")
        #expect(lines.position(of: rule.range.start) == SourcePosition(line: 5, column: 1))
    }

    @Test func authAndAccessConfigDirectivesAreRefusedAtVhostLevel() {
        #expect(serverErrors("AllowOverride None") == ["AllowOverride not allowed in <VirtualHost> context"])
        #expect(serverErrors("Require all denied") == ["Require not allowed in <VirtualHost> context"])
        #expect(serverErrors("<RequireAll>\nRequire all granted\n</RequireAll>")
                == ["<RequireAll not allowed in <VirtualHost> context"])
        #expect(serverErrors("<Directory /x>\nAllowOverride None\nRequire all denied\n</Directory>").isEmpty)
        #expect(serverErrors("<Files x>\nRequire all denied\n</Files>").isEmpty)
    }
}
