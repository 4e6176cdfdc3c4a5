import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Where server directives may stand, as `apache2 -t` (Apache 2.4, prefork) answered for each:
/// main-server-only (GLOBAL_ONLY) ones stop the server inside `<VirtualHost>`, core and MPM
/// directives of a stock apache2.conf are known, and `Error` stops reading with its own message.
struct MainServerDirectiveTests {
    private func errors(_ text: String, context: ConfigContext = .server) -> [String] {
        ConfigReader.read(SourceFile(path: "site.conf", text: text), context: context).diagnostics
            .filter { $0.severity == .error }.map(\.message)
    }

    private func insideVirtualHost(_ line: String) -> String {
        "<VirtualHost *:80>\nServerName example.org\n\(line)\n</VirtualHost>"
    }

    @Test("refused inside <VirtualHost>, accepted in the main server", arguments: [
        "ServerTokens Prod", "RegexDefaultOptions +ICASE", "Listen 8081", "Mutex default", "PidFile /tmp/x.pid",
        "User www-data", "Group www-data", "ExtendedStatus On", "StartServers 2", "MaxRequestWorkers 10",
        "MaxConnectionsPerChild 0", "GracefulShutdownTimeout 5", "RegisterHttpMethod FOO", "AcceptFilter http none",
        "GlobalLog /tmp/x.log common", "ChrootDir /tmp", "WatchdogInterval 5", "ThreadsPerChild 25",
        "SSLSessionCache none", "SSLRandomSeed startup builtin", "SSLPassPhraseDialog builtin", "SSLStaplingCache none",
    ])
    func mainServerOnly(_ line: String) {
        let name = String(line.split(separator: " ")[0])
        #expect(errors(insideVirtualHost(line)) == ["\(name) cannot occur within <VirtualHost> section"])
        #expect(errors(line + "\n" + insideVirtualHost("")) == [])
    }

    /// server_hostname_port, as `apache2 -t` answered for each.
    @Test func serverNameRefusesWildcardsAndBadPorts() {
        for bad in ["shop.example:abc", "shop.example:0", "shop.example:70000", "a:b:c", "shop.example:"] {
            #expect(errors("<VirtualHost *:80>\nServerName \(bad)\n</VirtualHost>")
                == ["The port number \"\(bad)\" is outside the appropriate range (i.e., 1..65535)."], "\(bad)")
        }
        for wildcard in ["*.example.com", "shop?.example", "sh[op].example", "[::1]", "[::1]:8080"] {
            #expect(errors("<VirtualHost *:80>\nServerName \(wildcard)\n</VirtualHost>")
                == ["Invalid ServerName \"\(wildcard)\" use ServerAlias to set multiple server names."], "\(wildcard)")
        }
        for fine in ["shop.example:80x", "http://x.example:8a", "https://shop.example:8443", "shop.example:8080", "shop.example", "a[b"] {
            #expect(errors("<VirtualHost *:80>\nServerName \(fine)\n</VirtualHost>") == [], "\(fine)")
        }
    }

    @Test("accepted inside <VirtualHost>", arguments: [
        "KeepAliveTimeout 5", "MaxKeepAliveRequests 100", "HttpProtocolOptions Unsafe", "ProtocolsHonorOrder On",
        "MergeTrailers off", "StrictHostCheck off", "ReadBufferSize 8192", "ErrorLogFormat \"%M\"", "MaxRangeOverlaps 10",
        "TraceEnable Off", "ServerSignature Off", "NameVirtualHost *:80", "Protocol http", "BufferedLogs On",
        "LoadFile /usr/lib/x86_64-linux-gnu/libz.so.1", "LogIOTrackTTFB On", "RequestReadTimeout header=20-40,MinRate=500",
        // mod_ssl: server directives, and the AuthConfig-class ones that are SSL_CMD_ALL.
        "SSLHonorCipherOrder on", "SSLSessionTickets off", "SSLCompression off", "SSLUseStapling off", "SSLProxyEngine on",
        "SSLOpenSSLConfCmd Options -SessionTicket", "SSLCipherSuite HIGH:!aNULL", "SSLVerifyClient none", "SSLVerifyDepth 2",
        "SSLUserName SSL_CLIENT_S_DN_CN",
    ])
    func virtualHostLevel(_ line: String) {
        #expect(errors(insideVirtualHost(line)) == [])
    }

    /// RSRC_CONF-only directives are refused inside a `<Directory>`, `<Location>`, `<Files>` or
    /// `<If>` of the server configuration; those that are ACCESS_CONF too are read there. Each
    /// recorded with Apache 2.4 (it refused to start, or answered).
    @Test("refused in directory sections", arguments: [
        ("<Directory /var/www/html>", "ServerName a.example", "ServerName not allowed in <Directory> context"),
        ("<Location />", "DocumentRoot /var/www/html", "DocumentRoot not allowed in <Location> context"),
        ("<Files x>", "AliasMatch ^/x /var/www/html", "AliasMatch not allowed in <Files> context"),
        ("<If \"true\">", "RewriteMap m int:tolower", "RewriteMap not allowed in <If> context"),
        ("<Location />", "Alias /x /var/www/html", "Alias cannot occur within directory context"),
        ("<Directory /var/www/html>", "ScriptAlias /x /var/www/html", "ScriptAlias cannot occur within directory context"),
    ] as [(String, String, String)])
    func serverLevelOnlyInDirectorySections(_ open: String, _ line: String, _ message: String) {
        let close = "</" + open.dropFirst().prefix { $0 != " " && $0 != ">" } + ">"
        #expect(errors(insideVirtualHost("\(open)\n\(line)\n\(close)")) == [message])
    }

    @Test("accepted in directory sections", arguments: [
        "UseCanonicalName On", "UseCanonicalPhysicalPort On", "HostnameLookups Off", "AllowOverride None", "LogLevel warn",
    ])
    func accessConfInDirectorySections(_ line: String) {
        #expect(errors(insideVirtualHost("<Directory /var/www/html>\n\(line)\n</Directory>")) == [])
        #expect(errors(insideVirtualHost("<Location /x>\nAlias /var/www/html\n</Location>")) == [])
    }

    /// Directory-only (AuthConfig) directives stay refused at virtual-host level.
    @Test func directoryOnlySSLDirectivesAreRefusedInTheVirtualHost() {
        #expect(errors(insideVirtualHost("SSLRenegBufferSize 1000")) == ["SSLRenegBufferSize not allowed in <VirtualHost> context"])
        #expect(errors(insideVirtualHost("SSLRequireSSL")) == ["SSLRequireSSL not allowed in <VirtualHost> context"])
    }

    /// A case's (or a site file's) vhost lines are the inside of the site's `<VirtualHost>`.
    @Test func vhostLinesAreInsideTheVirtualHost() {
        let site = Site(serverName: "example.org", files: SiteFileSystem(root: "/var/www/html"),
                        vhostLines: ["ServerTokens Prod", "KeepAliveTimeout 5"])
        #expect(site.vhost.diagnostics.filter { $0.severity == .error }.map(\.message)
                == ["ServerTokens cannot occur within <VirtualHost> section"])
    }

    @Test func mainServerDirectivesAreNotAllowedInHtaccess() {
        #expect(errors("ServerTokens Prod", context: .htaccess) == ["ServerTokens not allowed here"])
        #expect(errors("MaxRangeOverlaps 10", context: .htaccess) == ["MaxRangeOverlaps not allowed here"])
    }

    /// Recorded: `.htaccess: boom` (500); without a message Apache names the problem itself.
    @Test func errorDirectiveStopsWithItsMessage() {
        #expect(errors("Error \"mod_rewrite is required\"", context: .htaccess) == ["mod_rewrite is required"])
        #expect(errors("Error 'single'", context: .htaccess) == ["single"])
        #expect(errors("Error boom", context: .htaccess) == ["boom"])
        #expect(errors("Error", context: .htaccess) == ["The Error directive was used with no message."])
        #expect(errors("<IfModule !mod_rewrite.c>\nError \"need rewrite\"\n</IfModule>", context: .htaccess) == [])
        #expect(errors(insideVirtualHost("Error \"stop\"")) == ["stop"])
    }

    /// mod_logio is compiled in, and its one directive is allowed everywhere (recorded: 200).
    @Test func logioDirectiveIsAllowedInHtaccess() {
        #expect(errors("LogIOTrackTTFB On", context: .htaccess) == [])
    }

    /// Each MPM has its own: prefork (the recordings' server) knows no thread directives.
    @Test func mpmDirectivesFollowTheLoadedMPM() {
        let prefork = ModuleSet(ModuleSet.builtIn.union(["mpm_prefork"]))
        let read = { (text: String, modules: ModuleSet) in
            ConfigReader.read(SourceFile(path: "site.conf", text: text), context: .server, modules: modules).diagnostics.map(\.message)
        }
        #expect(read("MinSpareServers 2", prefork) == [])
        #expect(read("ThreadsPerChild 25", prefork)
                == ["Invalid command 'ThreadsPerChild', perhaps misspelled or defined by a module not included in the server configuration"])
        #expect(read("ThreadsPerChild 25", .standard) == [])
        // ThreadStackSize is core's, known under every MPM (section-ifdirective-threadstacksize-is-core).
        #expect(read("ThreadStackSize 1048576", prefork) == [])
        #expect(errors("ThreadStackSize 1048576", context: .htaccess) == ["ThreadStackSize not allowed here"])
    }

    /// fixtures/apache/syntax-error-rlimit-and-ssl-directive-arguments: invoke_cmd's counts and
    /// mod_ssl's own checks of the per-directory SSL settings.
    @Test func rlimitAndSSLDirectiveArguments() {
        let htaccess = { (text: String) in errors(text, context: .htaccess) }
        #expect(htaccess("RLimitCPU") == ["RLimitCPU takes 1-2 arguments, Soft/hard limits for max CPU usage in seconds"])
        #expect(htaccess("RLimitNPROC 5") == [])
        #expect(htaccess("LogIOTrackTTFB yes") == ["LogIOTrackTTFB must be On or Off"])
        #expect(htaccess("SSLVerifyClient sometimes") == ["SSLVerifyClient: Invalid argument 'sometimes'"])
        #expect(htaccess("SSLVerifyClient Optional_No_CA") == [])
        #expect(htaccess("SSLVerifyClient On") == [])
        #expect(htaccess("SSLVerifyClient off") == [])
        #expect(htaccess("SSLVerifyDepth -1") == ["SSLVerifyDepth: Invalid argument '-1'"])
        #expect(htaccess("SSLRenegBufferSize -1") == ["Invalid size for SSLRenegBufferSize: -1"])
        #expect(htaccess("SSLRenegBufferSize 12k") == [])
        #expect(htaccess("SSLUserName") == ["SSLUserName takes one argument, Set user name to SSL variable value"])
        #expect(htaccess("SSLCipherSuite TLSv1.3 TLS_AES_256_GCM_SHA384") == ["TLSv1.3 ciphers cannot be set inside a directory context"])
        #expect(htaccess("SSLCipherSuite TLSv1.2 HIGH") == ["protocol 'TLSv1.2' not supported"])
        #expect(htaccess("SSLCipherSuite SSL HIGH") == [])
    }

    /// fixtures/apache/syntax-error-autoindex-auth-deflate-directive-arguments.
    @Test func autoindexAuthAndDeflateDirectiveArguments() {
        var modules = ModuleSet.standard
        for m in ["authz_groupfile", "auth_basic", "authn_file"] { modules.insert(m) }
        let htaccess = { (text: String) in
            ConfigReader.read(SourceFile(path: ".htaccess", text: text), context: .htaccess, modules: modules).diagnostics
                .filter { $0.severity == .error }.map(\.message)
        }
        #expect(htaccess("AddAlt x") == ["AddAlt requires at least two arguments, alternate descriptive text followed by one or more filenames"])
        #expect(htaccess("AddIconByType /i.png text/*") == [])
        #expect(htaccess("DefaultIcon a b") == ["DefaultIcon takes one argument, an icon URL"])
        #expect(htaccess("AuthGroupFile") == ["AuthGroupFile takes one argument, text file containing group names and member user IDs"])
        #expect(htaccess("AuthBasicProvider file") == [])
        #expect(htaccess("AuthBasicProvider File") == ["Unknown Authn provider: File"])
        #expect(htaccess("AuthBasicProvider file dbm") == ["Unknown Authn provider: dbm"])
        #expect(htaccess("DeflateInflateLimitRequestBody +5") == [])
        #expect(htaccess("DeflateInflateLimitRequestBody 12k") == ["DeflateInflateLimitRequestBody requires a non-negative integer."])
        #expect(htaccess("DeflateInflateLimitRequestBody -1") == ["DeflateInflateLimitRequestBody requires a non-negative integer."])
        #expect(htaccess("SSLOptions \"\"") == ["SSLOptions: Illegal option ''"])
        // fixtures/apache/syntax-error-limitxmlrequestbody-negative
        #expect(htaccess("LimitXMLRequestBody -1") == ["LimitXMLRequestBody requires a non-negative integer."])
        #expect(htaccess("LimitXMLRequestBody 12k") == [])
        #expect(htaccess("LimitXMLRequestBody -0") == [])
    }

    /// mod_cgi is not among the loaded modules: its `ScriptLog` is unknown, as in Apache.
    @Test func scriptLogNeedsModCGI() {
        #expect(errors("ScriptLog /tmp/x") == ["Invalid command 'ScriptLog', perhaps misspelled or defined by a module not included in the server configuration"])
    }
}
