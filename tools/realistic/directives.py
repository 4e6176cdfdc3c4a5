"""One .htaccess line per case: a directive allowed in .htaccess with one of a few argument
shapes (none, "", one word, two, three, four, On, Off, -1, 0, a URL, a type, ...). Apache
either accepts the line or fails the file with invoke_cmd's usage text or the module's own
check; htlint must answer the same 500 or 200. Deterministic: no seed, every pair once.

    python3 tools/realistic/directives.py OUT [DIRECTIVE ...]
"""
import os
import sys

from casefile import write_case

# Modules loaded on top of the oracle's own, so their directives are known.
MODULES = ["expires", "speling", "negotiation", "actions", "autoindex", "deflate", "filter", "env",
           "access_compat", "auth_basic", "authn_file", "authz_user", "authz_groupfile", "authn_core"]

DIRECTIVES = """AcceptPathInfo AddDefaultCharset ContentDigest DefaultType ErrorDocument FileETag ForceType
LimitRequestBody LimitXMLRequestBody MaxRanges MaxRangeOverlaps MaxRangeReversals Options RLimitCPU RLimitMEM
RLimitNPROC SetHandler SetInputFilter SetOutputFilter CGIMapExtension CGIPassAuth CGIVar EnableMMAP EnableSendfile
ServerSignature QualifyRedirectURL LogLevel LogIOTrackTTFB Require AuthMerging AuthzSendForbiddenOnFailure
AddCharset AddEncoding AddHandler AddInputFilter AddLanguage AddOutputFilter AddType DefaultLanguage
ModMimeUsePathInfo MultiviewsMatch RemoveCharset RemoveEncoding RemoveHandler RemoveLanguage RemoveType
DirectoryCheckHandler DirectoryIndex DirectoryIndexRedirect DirectorySlash FallbackResource Redirect RedirectMatch
RedirectPermanent RedirectTemp RewriteBase RewriteCond RewriteEngine RewriteOptions RewriteRule Header
RequestHeader BrowserMatch BrowserMatchNoCase SetEnvIf SetEnvIfExpr SetEnvIfNoCase SSLRequireSSL SSLOptions
SSLCipherSuite SSLVerifyClient SSLVerifyDepth SSLRenegBufferSize SSLUserName ExpiresActive ExpiresDefault
ExpiresByType Action Script CheckSpelling CheckCaseOnly CheckBasenameMatch LanguagePriority
ForceLanguagePriority AddOutputFilterByType FilterDeclare FilterProvider FilterProtocol FilterTrace
DeflateCompressionLevel SetEnv UnsetEnv PassEnv Order Allow Deny Satisfy AuthType AuthName AuthUserFile
AuthBasicProvider AuthBasicFake AuthBasicAuthoritative AuthBasicUseDigestAlgorithm AuthGroupFile AddIcon
AddIconByType AddIconByEncoding AddAlt AddAltByType AddAltByEncoding AddDescription DefaultIcon IndexOptions
IndexOrderDefault IndexStyleSheet IndexHeadInsert IndexIgnore IndexIgnoreReset HeaderName ReadmeName
DeflateBufferSize DeflateWindowSize DeflateMemLevel DeflateFilterNote DeflateInflateLimitRequestBody
DeflateAlterETag""".split()

# (tag, arguments as written after the name)
SHAPES = [("none", ""), ("empty", ' ""'), ("word", " zzz"), ("two", " a b"), ("three", " a b c"),
          ("four", " 1 2 3 4"), ("on", " On"), ("off", " Off"), ("on-off", " On Off"), ("minus", " -1"),
          ("zero", " 0"), ("one", " 1"), ("url", " /x.html"), ("type", " text/html"), ("ext", " .html"),
          ("plus", " +x"), ("pair", " x=y"), ("default", " default")]


def main():
    out = sys.argv[1]
    names = sys.argv[2:] or DIRECTIVES
    for name in names:
        for tag, args in SHAPES:
            case = {"description": f"directives: `{name}{args}` alone in .htaccess",
                    "host": "shop.example", "aliases": ["www.shop.example"], "edge": "none",
                    "modules": MODULES, "requests": ["http://shop.example/a.html"]}
            write_case(os.path.join(out, f"{name}-{tag}"), case,
                       {".htaccess": f"{name}{args}\n", "a.html": "", "index.html": ""})


if __name__ == "__main__":
    main()
