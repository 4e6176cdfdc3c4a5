#!/usr/bin/env python3
"""WordPress sites with the blocks plugins and hosting panels write into .htaccess: page caches
(WP Super Cache, W3 Total Cache, WP Rocket, LiteSpeed's non-LiteSpeed part) with their cache files
present or absent, security plugins (Wordfence, iThemes, All-In-One WP Security: file protection with
Require and Order/Deny, query-string and user-agent blocking, xmlrpc), hosting panels (cPanel handlers
and php ini blocks, ACME exemptions before https redirects, force https + www), SSL plugins (proxy
headers, %{ENV:HTTPS}, HSTS) and WebP plugins (Accept: image/webp with -f on the .webp file, Vary),
above or below the WordPress block, at the root or in /blog, behind every edge.

Usage: plugins.py OUT N SEED [rich|hits] — writes N oracle cases to OUT (round p1: 1500 601; rich adds
more blocks per site, subdirectory cache .htaccess files and odder request headers;
hits is rich with every cache and WebP variant present, so the cache branches are taken: p3 600 603 hits)."""
import os, random, sys
from casefile import write_case

OUT, N, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
MIX = (sys.argv[4:] or [""])[0]
RICH, HITS = MIX in ("rich", "hits"), MIX == "hits"
def every(xs, k): return list(xs) if HITS else R.sample(xs, k)  # (hits) every cache variant
R = random.Random(SEED)
def ch(*xs): return R.choice(xs)
def maybe(p, xs): return xs if R.random() < p else []
def ifmod(name, lines, p=0.7): return [f"<IfModule {name}>"] + lines + ["</IfModule>"] if R.random() < p else lines

def deny(name, tag="Files"):
    """A file protection the way plugins write it: Require, Order/Deny, or both behind IfModule."""
    inner = ch(["Require all denied"], ["Order allow,deny", "Deny from all"], ["Order deny,allow", "Deny from all"],
               ["<IfModule mod_authz_core.c>", "Require all denied", "</IfModule>", "<IfModule !mod_authz_core.c>",
                "Order deny,allow", "Deny from all", "</IfModule>"],
               ["<IfModule mod_authz_core.c>", "Require all denied", "</IfModule>", "<IfModule !mod_authz_core.c>",
                "Order allow,deny", "Deny from all", "</IfModule>"])
    tag = ch(tag, tag.lower()) if tag == "Files" else tag
    return [f"<{tag} {name}>"] + inner + [f"</{tag}>"]

# --- page caches
def supercache(b, host):
    gz = ch(True, True, False)
    conds = ["RewriteCond %{REQUEST_URI} !^.*[^/]$", "RewriteCond %{REQUEST_URI} !^.*//.*$", "RewriteCond %{REQUEST_METHOD} !POST",
             ch("RewriteCond %{QUERY_STRING} ^$", "RewriteCond %{QUERY_STRING} !.*=.*"),
             ch("RewriteCond %{HTTP:Cookie} !^.*(comment_author_|wordpress_logged_in|wp-postpass_).*$",
                "RewriteCond %{HTTP_COOKIE} !^.*(comment_author_|wordpress_logged_in|wp-postpass_|wordpress_no_cache).*$"),
             "RewriteCond %{HTTP:X-Wap-Profile} !^[a-z0-9\\\"]+ [NC]", "RewriteCond %{HTTP:Profile} !^[a-z0-9\\\"]+ [NC]"]
    name = ch("%{SERVER_NAME}", "%{HTTP_HOST}")
    out = ["# BEGIN WPSuperCache", "# The directives (lines) between \"BEGIN WPSuperCache\" and \"END WPSuperCache\" are",
           "<IfModule mod_mime.c>", "  <FilesMatch \"\\.html\\.gz$\">", "    ForceType text/html", "    FileETag None", "  </FilesMatch>",
           "  AddEncoding gzip .gz", "  AddType text/html .gz", "</IfModule>", "<IfModule mod_deflate.c>", "  SetEnvIfNoCase Request_URI \\.gz$ no-gzip",
           "</IfModule>", "<IfModule mod_rewrite.c>", "RewriteEngine On", f"RewriteBase {b}", "AddDefaultCharset UTF-8"]
    for https, suffix in ((True, "-https"), (False, "")):
        for enc in ((True, False) if gz else (False,)):
            out += conds + (["RewriteCond %{HTTP:Accept-Encoding} gzip"] if enc else []) + \
                   [ch("RewriteCond %{HTTPS} on", "RewriteCond %{HTTPS} =on") if https else ch("RewriteCond %{HTTPS} !on", "RewriteCond %{HTTPS} !=on"),
                    f"RewriteCond %{{DOCUMENT_ROOT}}{b}wp-content/cache/supercache/{name}/$1/index{suffix}.html{'.gz' if enc else ''} -f",
                    f"RewriteRule ^(.*) \"{b}wp-content/cache/supercache/{name}/$1/index{suffix}.html{'.gz' if enc else ''}\" [L]", ""]
    return out + ["</IfModule>", "# END WPSuperCache"]

def supercache_dir():
    return ["# BEGIN supercache", "<IfModule mod_mime.c>", "  <FilesMatch \"\\.html\\.gz$\">", "    ForceType text/html", "    FileETag None",
            "  </FilesMatch>", "  AddEncoding gzip .gz", "  AddType text/html .gz", "</IfModule>", "<IfModule mod_deflate.c>",
            "  SetEnvIfNoCase Request_URI \\.gz$ no-gzip", "</IfModule>", "<IfModule mod_headers.c>", "  Header set Vary \"Accept-Encoding, Cookie\"",
            f"  Header set Cache-Control '{ch('max-age=3, must-revalidate', 'max-age=300, must-revalidate')}'", "</IfModule>",
            "<IfModule mod_expires.c>", "  ExpiresActive On", f"  ExpiresByType text/html {ch('A3', 'A300', 'access plus 5 minutes')}", "</IfModule>",
            "Options -Indexes", "# END supercache"]

def w3tc(b):
    out = ["# BEGIN W3TC Page Cache core", "<IfModule mod_rewrite.c>", "    RewriteEngine On", f"    RewriteBase {b}",
           "    RewriteCond %{HTTP:Accept-Encoding} gzip", "    RewriteRule .* - [E=W3TC_ENC:_gzip]",
           "    RewriteCond %{HTTP_COOKIE} w3tc_preview [NC]", "    RewriteRule .* - [E=W3TC_PREVIEW:_preview]",
           "    RewriteCond %{REQUEST_METHOD} !=POST", ch("    RewriteCond %{QUERY_STRING} =\"\"", "    RewriteCond %{QUERY_STRING} =\"\"", "    RewriteCond %{QUERY_STRING} ^$"),
           "    RewriteCond %{REQUEST_URI} \\/$",
           "    RewriteCond %{HTTP_COOKIE} !(comment_author|wp\\-postpass|w3tc_logged_out|wordpress_logged_in|wptouch_switch_toggle) [NC]",
           ch(f"    RewriteCond \"%{{DOCUMENT_ROOT}}{b}wp-content/cache/page_enhanced/%{{HTTP_HOST}}/%{{REQUEST_URI}}/_index%{{ENV:W3TC_PREVIEW}}.html%{{ENV:W3TC_ENC}}\" -f",
              f"    RewriteCond \"%{{DOCUMENT_ROOT}}{b}wp-content/cache/page_enhanced/%{{HTTP_HOST}}/%{{REQUEST_URI}}/_index%{{ENV:W3TC_PREVIEW}}.html%{{ENV:W3TC_ENC}}\" -s"),
           f"    RewriteRule .* \"{b}wp-content/cache/page_enhanced/%{{HTTP_HOST}}/%{{REQUEST_URI}}/_index%{{ENV:W3TC_PREVIEW}}.html%{{ENV:W3TC_ENC}}\" [L]",
           "</IfModule>", "# END W3TC Page Cache core"]
    if R.random() < 0.6:
        out = ["# BEGIN W3TC Browser Cache", "<IfModule mod_mime.c>", "    AddType text/css .css", "    AddType application/javascript .js",
               "    AddType image/webp .webp", "    AddType text/html .html .htm", "</IfModule>", "<IfModule mod_expires.c>", "    ExpiresActive On",
               "    ExpiresByType text/css A31536000", "    ExpiresByType application/javascript A31536000", "    ExpiresByType text/html A3600",
               "    ExpiresByType image/webp A31536000", "</IfModule>",
               "<FilesMatch \"\\.(css|htc|less|js|js2|js3|js4|CSS|HTC|LESS|JS|JS2|JS3|JS4)$\">", "    <IfModule mod_headers.c>",
               "        Header append Vary User-Agent env=!dont-vary", "        Header set Pragma \"public\"",
               ch("        Header append Cache-Control \"public\"", "        Header set Cache-Control \"max-age=31536000, public\""), "    </IfModule>", "</FilesMatch>",
               "<FilesMatch \"\\.(html|htm|rtf|rtx|txt|xsd|xsl|xml|HTML|HTM|RTF|RTX|TXT|XSD|XSL|XML)$\">", "    FileETag MTime Size",
               "    <IfModule mod_headers.c>", "        Header set Pragma \"public\"", "        Header set Cache-Control \"max-age=3600, public\"",
               "    </IfModule>", "</FilesMatch>", "# END W3TC Browser Cache"] + out
    return out

def w3tc_dir():
    return ["# BEGIN W3TC Page Cache cache", "FileETag MTime Size", "<IfModule mod_mime.c>", "    AddType text/html .html_gzip",
            "    AddEncoding gzip .html_gzip", "</IfModule>", "<IfModule mod_setenvif.c>", "    SetEnvIfNoCase Request_URI \\.html_gzip$ no-gzip",
            "</IfModule>", "<IfModule mod_expires.c>", "    ExpiresActive On", "    ExpiresByType text/html " + ("A3600" if RICH else "M3600"), "</IfModule>",
            "<IfModule mod_headers.c>", "    Header set X-Powered-By \"W3 Total Cache/2.7\"", "    Header set Vary \"Accept-Encoding, Cookie\"",
            "    Header set Pragma \"public\"", "    Header append Cache-Control \"public\"", "</IfModule>", "# END W3TC Page Cache cache"]

def rocket(b):
    out = ["# BEGIN WP Rocket", "# Use UTF-8 encoding for anything served text/plain or text/html", "AddDefaultCharset UTF-8",
           "<IfModule mod_mime.c>", "AddCharset UTF-8 .atom .css .js .json .rss .vtt .xml", "</IfModule>",
           "<IfModule mod_headers.c>", "Header unset ETag", "</IfModule>", "FileETag None",
           "<IfModule mod_alias.c>", "<FilesMatch \"\\.(html|htm|rtf|rtx|txt|xsd|xsl|xml)$\">", "<IfModule mod_headers.c>",
           "Header set X-Powered-By \"WP Rocket/3.15\"", "Header unset Pragma", "Header append Cache-Control \"public\"", "Header unset Last-Modified",
           "</IfModule>", "</FilesMatch>", "<FilesMatch \"\\.(css|htc|js|asf|asx|wax|wmv|wmx|avi|bmp|class|divx|doc|docx|eot|exe|gif|gz|gzip|ico|jpg|jpeg|jpe|json|mdb|mid|midi|mov|qt|mp3|m4a|mp4|m4v|mpeg|mpg|mpe|mpp|otf|odb|odc|odf|odg|odp|ods|odt|ogg|pdf|png|pot|pps|ppt|pptx|ra|ram|svg|svgz|swf|tar|tif|tiff|ttf|ttc|wav|wma|wri|xla|xls|xlsx|xlt|xlw|zip)$\">",
           "<IfModule mod_headers.c>", "Header unset Pragma", "Header append Cache-Control \"public\"", "</IfModule>", "</FilesMatch>", "</IfModule>",
           "<IfModule mod_expires.c>", "ExpiresActive on", "ExpiresDefault                              \"access plus 1 month\"",
           "ExpiresByType text/cache-manifest           \"access plus 0 seconds\"", "ExpiresByType text/html                     \"access plus 0 seconds\"",
           "ExpiresByType image/jpeg                    \"access plus 4 months\"", "ExpiresByType image/webp                    \"access plus 4 months\"",
           "ExpiresByType text/css                      \"access plus 1 year\"", "ExpiresByType application/javascript      \"access plus 1 year\"",
           "</IfModule>",
           *(rocket_deflate() if RICH and R.random() < 0.6 else []),
           "<IfModule mod_mime.c>", "AddType text/html .html_gzip", "AddEncoding gzip .html_gzip", "</IfModule>",
           "<IfModule mod_setenvif.c>", "SetEnvIfNoCase Request_URI \\.html_gzip$ no-gzip", "</IfModule>",
           "<IfModule mod_rewrite.c>", "RewriteEngine On", f"RewriteBase {b}",
           "RewriteCond %{HTTPS} on [OR]", "RewriteCond %{SERVER_PORT} ^443$ [OR]", "RewriteCond %{HTTP:X-Forwarded-Proto} https",
           "RewriteRule .* - [E=WPR_SSL:-https]",
           "RewriteCond %{HTTP_ACCEPT} image/webp", "RewriteRule .* - [E=WPR_WEBP:-webp]" if R.random() < 0.3 else "",
           "RewriteCond %{HTTP:Accept-Encoding} gzip", "RewriteRule .* - [E=WPR_ENC:_gzip]",
           "RewriteCond %{REQUEST_METHOD} GET", "RewriteCond %{QUERY_STRING} =\"\"",
           "RewriteCond %{HTTP:Cookie} !(wordpress_logged_in_.+|wp-postpass_|wptouch_switch_toggle|comment_author_|comment_author_email_) [NC]",
           "RewriteCond %{REQUEST_URI} !^(/(.+/)?feed/?.+/?|/(?:.+/)?embed/|/(index\\.php/)?wp\\-json(/.*|$))$ [NC]",
           "RewriteCond %{HTTP_USER_AGENT} !^(facebookexternalhit|WhatsApp).* [NC]",
           f"RewriteCond \"%{{DOCUMENT_ROOT}}{b}wp-content/cache/wp-rocket/%{{HTTP_HOST}}%{{REQUEST_URI}}/index%{{ENV:WPR_SSL}}%{{ENV:WPR_WEBP}}.html%{{ENV:WPR_ENC}}\" -f",
           f"RewriteRule .* \"{b}wp-content/cache/wp-rocket/%{{HTTP_HOST}}%{{REQUEST_URI}}/index%{{ENV:WPR_SSL}}%{{ENV:WPR_WEBP}}.html%{{ENV:WPR_ENC}}\" [L]",
           "</IfModule>", "# END WP Rocket"]
    return [l for l in out if l != "" or R.random() < 0.5]

def rocket_deflate():
    return ["# Gzip compression", "<IfModule mod_deflate.c>", "# Active compression", "SetOutputFilter DEFLATE", "# Force deflate for mangled headers",
            "<IfModule mod_setenvif.c>", "<IfModule mod_headers.c>",
            "SetEnvIfNoCase ^(Accept-EncodXng|X-cept-Encoding|X{15}|~{15}|-{15})$ ^((gzip|deflate)\\s*,?\\s*)+|[X~-]{4,13}$ HAVE_Accept-Encoding",
            "RequestHeader append Accept-Encoding \"gzip,deflate\" env=HAVE_Accept-Encoding",
            "# Don't compress images and other uncompressible content",
            "SetEnvIfNoCase Request_URI \\.(?:gif|jpe?g|png|rar|zip|exe|flv|mov|wma|mp3|avi|swf|mp?g|mp4|webm|webp|pdf)$ no-gzip dont-vary",
            "</IfModule>", "</IfModule>", "# Compress all output labeled with one of the following MIME-types", "<IfModule mod_filter.c>",
            "AddOutputFilterByType DEFLATE application/atom+xml application/javascript application/json application/rss+xml text/css text/html text/plain",
            "</IfModule>", "<IfModule mod_headers.c>", ch("Header append Vary: Accept-Encoding", "Header append Vary Accept-Encoding"), "</IfModule>", "</IfModule>"]

def litespeed(b):
    out = ["# BEGIN LSCACHE", "## LITESPEED WP CACHE PLUGIN - Do not edit the contents of this block! ##", "<IfModule LiteSpeed>",
           "RewriteEngine on", "CacheLookup on", "RewriteRule .* - [E=Cache-Control:no-autoflush]",
           "RewriteRule \\.litespeed_conf\\.dat - [F,L]", "RewriteCond %{REQUEST_METHOD} GET|HEAD", "RewriteCond %{HTTP_HOST} ^",
           "RewriteRule .* - [E=Cache-Control:max-age=120]", "</IfModule>", "## LITESPEED WP CACHE PLUGIN - Do not edit the contents of this block! ##",
           "# END LSCACHE", "# BEGIN NON_LSCACHE", "## LITESPEED WP CACHE PLUGIN - Do not edit the contents of this block! ##",
           "### marker BROWSER CACHE start ###", "<IfModule mod_expires.c>", "ExpiresActive on", "ExpiresByType application/pdf A31557600",
           "ExpiresByType image/x-icon A31557600", "ExpiresByType image/jpeg A31557600", "ExpiresByType image/png A31557600",
           "ExpiresByType image/webp A31557600", "ExpiresByType text/css A31557600", "ExpiresByType application/javascript A31557600", "</IfModule>",
           "### marker BROWSER CACHE end ###"]
    if R.random() < 0.6:
        out += ["### marker WEBP start ###", "RewriteCond %{HTTP_ACCEPT} image/webp", "RewriteCond %{REQUEST_FILENAME}.webp -f",
                f"RewriteRule (.+) $1.webp [T=image/webp,E=webp,{ch('L', 'END')}]", "### marker WEBP end ###"]
    return out + ["## LITESPEED WP CACHE PLUGIN - Do not edit the contents of this block! ##", "# END NON_LSCACHE"]

# --- security
def wordfence():
    return ["# Wordfence WAF", "<IfModule LiteSpeed>", "php_value auto_prepend_file '/var/www/html/wordfence-waf.php'", "</IfModule>",
            "<IfModule lsapi_module>", "php_value auto_prepend_file '/var/www/html/wordfence-waf.php'", "</IfModule>",
            *deny("\".user.ini\"", "Files"), "# END Wordfence WAF"]

QS_BAD = ["RewriteCond %{QUERY_STRING} \\.\\.\\/ [NC,OR]", "RewriteCond %{QUERY_STRING} ^.*\\.(bash|git|hg|log|svn|swp|cvs) [NC,OR]",
          "RewriteCond %{QUERY_STRING} etc/passwd [NC,OR]", "RewriteCond %{QUERY_STRING} boot\\.ini [NC,OR]", "RewriteCond %{QUERY_STRING} ftp\\:  [NC,OR]",
          "RewriteCond %{QUERY_STRING} http\\:  [NC,OR]", "RewriteCond %{QUERY_STRING} https\\:  [NC,OR]",
          "RewriteCond %{QUERY_STRING} (\\<|%3C).*script.*(\\>|%3E) [NC,OR]", "RewriteCond %{QUERY_STRING} mosConfig_[a-zA-Z_]{1,21}(=|%3D) [NC,OR]",
          "RewriteCond %{QUERY_STRING} base64_encode.*\\(.*\\) [NC,OR]", "RewriteCond %{QUERY_STRING} ^.*(%24&x).* [NC,OR]",
          "RewriteCond %{QUERY_STRING} ^.*(127\\.0).* [NC,OR]", "RewriteCond %{QUERY_STRING} ^.*(globals|encode|localhost|loopback).* [NC,OR]",
          "RewriteCond %{QUERY_STRING} ^.*(request|concat|insert|union|declare).* [NC]"]

def ithemes():
    out = ["# BEGIN iThemes Security - Do not modify or remove this line", "# iThemes Security Config Details: 2",
           "\t# Protect System Files - Security > Settings > System Tweaks > System Files"]
    for f in R.sample([".htaccess", "readme.html", "readme.txt", "wp-config.php", "install.php"], R.randint(1, 4)):
        out += ["\t" + l for l in deny(f, "files")]
    out += ["\t# Disable Directory Browsing", "\tOptions -Indexes", "\t<IfModule mod_rewrite.c>", "\t\tRewriteEngine On",
            "\t\t# Protect System Files - Security > Settings > System Tweaks > System Files", "\t\tRewriteRule ^wp-admin/install\\.php$ - [F]",
            "\t\tRewriteRule ^wp-admin/includes/ - [F]", "\t\tRewriteRule !^wp-includes/ - [S=3]", "\t\tRewriteRule ^wp-includes/[^/]+\\.php$ - [F]",
            "\t\tRewriteRule ^wp-includes/js/tinymce/langs/.+\\.php - [F]", "\t\tRewriteRule ^wp-includes/theme-compat/ - [F]",
            "\t\tRewriteCond %{REQUEST_FILENAME} -f", "\t\tRewriteRule (^|.*/)\\.(git|svn)/.* - [F]",
            "\t\t# Disable PHP in Uploads", "\t\tRewriteRule ^wp\\-content/uploads/.*\\.(?:php[1-7]?|pht|phtml?|phps)\\.?$ - [NC,F]"]
    if R.random() < 0.7:
        out += ["\t\t# Filter Suspicious Query Strings in the URL"] + ["\t\t" + l for l in QS_BAD] + \
               ["\t\tRewriteCond %{QUERY_STRING} !^loggedout=true", "\t\tRewriteCond %{QUERY_STRING} !^action=jetpack-sso",
                "\t\tRewriteCond %{QUERY_STRING} !^action=rp", "\t\tRewriteCond %{HTTP_COOKIE} !^.*wordpress_logged_in_.*$",
                "\t\tRewriteCond %{HTTP_REFERER} !^http://maps\\.googleapis\\.com(.*)$", "\t\tRewriteRule ^.* - [F]"]
    out += ["\t\t# Block Tracking", "\t\tRewriteCond %{REQUEST_METHOD} ^(TRACE|TRACK)", "\t\tRewriteRule ^.* - [F]"]
    if R.random() < 0.6: out += ["\t\t# Disable XML-RPC", "\t\tRewriteRule xmlrpc\\.php$ - [F]"]
    return out + ["\t</IfModule>", "# END iThemes Security - Do not modify or remove this line"]

UA_BAD = "(archive.org|binlar|casper|checkpriv|choppy|clshttp|cmsworld|diavol|dotbot|extract|feedfinder|flicky|g00g1e|harvest|heritrix|httrack|kmccrew|loader|miner|nikto|nutch|planetwork|postrank|purebot|pycurl|python|seekerspider|siclab|skygrid|sqlmap|sucker|turnit|vikspider|winhttp|xxxyy|youda|zmeu|zune)"

def aiowps():
    out = ["# BEGIN All In One WP Security", "#AIOWPS_BLOCK_WP_FILE_ACCESS_START"]
    for f in R.sample(["license.txt", "wp-config-sample.php", "readme.html"], R.randint(1, 3)): out += deny(f)
    out += ["#AIOWPS_BLOCK_WP_FILE_ACCESS_END", "#AIOWPS_BASIC_HTACCESS_RULES_START", *deny(".htaccess"), "ServerSignature Off",
            f"LimitRequestBody {ch('10485760', '10240000', '1024')}", *deny("wp-config.php"), "#AIOWPS_BASIC_HTACCESS_RULES_END"]
    if R.random() < 0.6: out += ["#AIOWPS_PINGBACK_HTACCESS_RULES_START", *deny("xmlrpc.php"), "#AIOWPS_PINGBACK_HTACCESS_RULES_END"]
    out += ["#AIOWPS_DISABLE_TRACE_TRACK_START", "RewriteEngine On", "RewriteCond %{REQUEST_METHOD} ^(TRACE|TRACK)", "RewriteRule .* - [F]",
            "#AIOWPS_DISABLE_TRACE_TRACK_END"]
    if R.random() < 0.6:
        out += ["#AIOWPS_DENY_BAD_QUERY_STRINGS_START", "RewriteCond %{QUERY_STRING} tag= [NC,OR]", "RewriteCond %{QUERY_STRING} ftp: [NC,OR]",
                "RewriteCond %{QUERY_STRING} http: [NC,OR]", "RewriteCond %{QUERY_STRING} https: [NC,OR]", "RewriteCond %{QUERY_STRING} mosConfig [NC,OR]",
                "RewriteCond %{QUERY_STRING} ^.*(globals|encode|localhost|loopback).* [NC,OR]",
                "RewriteCond %{QUERY_STRING} (\\;|'|\\\"|%22).*(request|insert|union|declare|drop) [NC]", "RewriteRule ^(.*)$ - [F,L]",
                "#AIOWPS_DENY_BAD_QUERY_STRINGS_END"]
    if R.random() < 0.4:
        chars = R.sample(["\\,", "\\:", "\\;", "\\=", "\\[", "\\]", "\\^", "\\`", "\\{", "\\}", "\\~", "\\\"", "\\$", "\\<", "\\>", "\\|", "\\.\\.",
                          "\\%0", "\\%A", "\\%B", "\\%C", "\\%D", "\\%E", "\\%F", "\\%22", "\\%27", "\\%28", "\\%29", "\\%3C", "\\%3E", "\\%3F",
                          "\\%5B", "\\%5C", "\\%5D", "\\%7B", "\\%7C", "\\%7D", "\\/\\/", "base64_encode", "\\.cgi$", "\\.exe"], R.randint(4, 12))
        out += ["#AIOWPS_ADVANCED_CHAR_STRING_FILTER_START", "<IfModule mod_alias.c>"] + [f"RedirectMatch 403 {c}" for c in chars] + \
               ["</IfModule>", "#AIOWPS_ADVANCED_CHAR_STRING_FILTER_END"]
    if R.random() < 0.5:
        out += ["#AIOWPS_FIVE_G_BLACKLIST_START", "# 5G:[USER AGENTS]", "<IfModule mod_setenvif.c>",
                "SetEnvIfNoCase User-Agent ([a-z0-9]{2000}) bad_bot", f"SetEnvIfNoCase User-Agent {UA_BAD} bad_bot"]
        out += ch(["<limit GET POST PUT>", "Order Allow,Deny", "Allow from all", "Deny from env=bad_bot", "</limit>"],
                  ["<RequireAll>", "Require all granted", "Require not env bad_bot", "</RequireAll>"],
                  ["<IfModule mod_authz_core.c>", "<RequireAll>", "Require all granted", "Require not env bad_bot", "</RequireAll>", "</IfModule>",
                   "<IfModule !mod_authz_core.c>", "Order Allow,Deny", "Allow from all", "Deny from env=bad_bot", "</IfModule>"])
        out += ["</IfModule>", "#AIOWPS_FIVE_G_BLACKLIST_END"]
    if R.random() < 0.3:
        out += ["#AIOWPS_BLOCK_SPAMBOTS_START", "<IfModule mod_rewrite.c>", "RewriteCond %{REQUEST_METHOD} POST",
                "RewriteCond %{REQUEST_URI} ^(.*)?wp-comments-post\\.php(.*)$", "RewriteCond %{HTTP_REFERER} !^http(s)?://(.*)?\\.example\\.org [NC,OR]",
                "RewriteCond %{HTTP_USER_AGENT} ^$", "RewriteRule .* http://127.0.0.1 [L]", "</IfModule>", "#AIOWPS_BLOCK_SPAMBOTS_END"]
    return out + ["# END All In One WP Security"]

def ua_block():
    return ch(["RewriteEngine On", f"RewriteCond %{{HTTP_USER_AGENT}} {ch('(ahrefs|semrush|mj12bot|dotbot)', '^.*(AhrefsBot|SemrushBot|MJ12bot).*$', '(python|curl|wget)')} [NC]",
               f"RewriteRule {ch('.*', '^.*$', '^')} - [{ch('F', 'F,L', 'G', 'R=403,L')}]"],
              ["SetEnvIfNoCase User-Agent \"^.*(AhrefsBot|SemrushBot|curl).*$\" bad_bot", "<RequireAll>", "Require all granted", "Require not env bad_bot", "</RequireAll>"],
              ["BrowserMatchNoCase \"(curl|python-requests)\" bad_bot", "<IfModule mod_authz_core.c>", "<RequireAll>", "Require all granted",
               "Require not env bad_bot", "</RequireAll>", "</IfModule>"])

def xmlrpc():
    return ch(["# Block WordPress xmlrpc.php requests", *deny("xmlrpc.php")],
              ["RewriteEngine On", "RewriteRule ^xmlrpc\\.php$ - [F,L]"], ["Redirect 403 /xmlrpc.php"],
              ["<FilesMatch \"^(xmlrpc\\.php|wp-trackback\\.php)$\">", "Require all denied", "</FilesMatch>"],
              ["RewriteEngine On", "RewriteRule ^xmlrpc\\.php$ \"http\\:\\/\\/0\\.0\\.0\\.0\\/\" [R=301,L]"])

def wpconfig():
    return ch(deny("wp-config.php"), ["<FilesMatch \"^(wp-config\\.php|php\\.ini|\\.[hH][tT][aApP].*)$\">", "Require all denied", "</FilesMatch>"],
              ["RewriteEngine On", "RewriteRule ^wp-config\\.php$ - [F,L]"], ["<Files ~ \"^wp-config\"> ", "Require all denied", "</Files>"])

# --- hosting panels
def cpanel():
    v = ch("81", "82", "74", "83")
    out = ["# php -- BEGIN cPanel-generated handler, do not edit", f"# Set the \u201cea-php{v}\u201d package as the default \u201cPHP\u201d programming language.",
           "<IfModule mime_module>", f"  AddHandler application/x-httpd-ea-php{v}{ch(' .php .php8 .phtml', ' .php .php7 .phtml', ' .php')}", "</IfModule>",
           "# php -- END cPanel-generated handler, do not edit"]
    if R.random() < 0.5:
        out = ["# BEGIN cPanel-generated php ini directives, do not edit", "# Manual editing of this file may result in unexpected behavior.",
               f"<IfModule php{v[0]}_module>", "   php_flag display_errors Off", "   php_value max_execution_time 300", "   php_value memory_limit 256M",
               "</IfModule>", "<IfModule lsapi_module>", "   php_flag display_errors Off", "   php_value memory_limit 256M", "</IfModule>",
               "# END cPanel-generated php ini directives, do not edit"] + out if R.random() < 0.5 else out + \
              ["# BEGIN cPanel-generated php ini directives, do not edit", f"<IfModule php{v[0]}_module>", "   php_value upload_max_filesize 64M", "</IfModule>",
               "# END cPanel-generated php ini directives, do not edit"]
    return out

def acme_https():
    excl = R.sample(["RewriteCond %{REQUEST_URI} !^/[0-9]+\\..+\\.cpaneldcv$",
                     "RewriteCond %{REQUEST_URI} !^/\\.well-known/pki-validation/[A-F0-9]{32}\\.txt(?:\\ Comodo\\ DCV)?$",
                     ch("RewriteCond %{REQUEST_URI} !^/\\.well-known/acme-challenge/", "RewriteCond %{REQUEST_URI} !^/\\.well-known/acme-challenge/[0-9a-zA-Z_-]+$",
                        "RewriteCond %{REQUEST_URI} !^/\\.well-known/"), "RewriteCond %{REQUEST_URI} !^/\\.well-known/cpanel-dcv/[0-9a-zA-Z_-]+$"],
                    R.randint(1, 3))
    https = ch(["RewriteCond %{HTTPS} off"], ["RewriteCond %{HTTPS} !=on"], ["RewriteCond %{HTTPS} !on"], ["RewriteCond %{SERVER_PORT} 80"],
               ["RewriteCond %{HTTP:X-Forwarded-Proto} !https"])
    rule = ch("RewriteRule ^(.*)$ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]", "RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]",
              "RewriteRule (.*) https://%{SERVER_NAME}%{REQUEST_URI} [R=301,L,NE]", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]")
    return ["RewriteEngine On"] + (excl + https if R.random() < 0.5 else https + excl) + [rule]

def force_www(host):
    h = host.replace(".", "\\.")
    return ch(["RewriteEngine On", "RewriteCond %{HTTPS} off [OR]", "RewriteCond %{HTTP_HOST} !^www\\. [NC]",
               "RewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$ [NC]", "RewriteRule ^ https://www.%1%{REQUEST_URI} [L,NE,R=301]"],
              ["RewriteEngine On", "RewriteCond %{HTTP_HOST} !^www\\. [NC]", "RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]",
               "RewriteCond %{HTTPS} off", "RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"],
              ["RewriteEngine On", f"RewriteCond %{{HTTP_HOST}} ^{h} [NC]", f"RewriteRule ^(.*)$ https://www.{host}/$1 [L,R=301]"],
              ["RewriteEngine On", "RewriteCond %{HTTP_HOST} ^www\\.(.*)$ [NC]", "RewriteRule ^(.*)$ https://%1/$1 [R=301,L]",
               "RewriteCond %{HTTPS} !=on", "RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"],
              ["# Plesk: permanent SEO-safe 301 redirect", "RewriteEngine on", "RewriteCond %{HTTPS} !=on [OR]", f"RewriteCond %{{HTTP_HOST}} !^www\\.{h}$ [NC]",
               f"RewriteRule ^(.*)$ https://www.{host}/$1 [R=301,L]"],
              ["RewriteEngine On", "RewriteCond %{HTTP:X-Forwarded-Proto} !https [OR]", f"RewriteCond %{{HTTP_HOST}} ^{h}$ [NC]",
               f"RewriteRule ^ https://www.{host}%{{REQUEST_URI}} [R=301,L]"])

# --- ssl plugins
def rsssl():
    cond = ch(["RewriteCond %{HTTPS} !=on [NC]"], ["RewriteCond %{HTTP:X-Forwarded-Proto} !https"], ["RewriteCond %{ENV:HTTPS} !=on"],
              ["RewriteCond %{HTTP:CF-Visitor} '\"scheme\":\"http\"'"], ["RewriteCond %{HTTP:X-Forwarded-Proto} !https", "RewriteCond %{HTTPS} !=on"],
              ["RewriteCond %{HTTPS} !=on [NC]", "RewriteCond %{HTTP:X-Forwarded-Proto} !https [NC]"], ["RewriteCond %{SERVER_PORT} !443"],
              ["RewriteCond %{HTTP:X-Forwarded-SSL} !on", "RewriteCond %{HTTPS} !=on"], ["RewriteCond %{ENV:HTTPS} !on", "RewriteCond %{HTTP:CF-Visitor} !https"])
    out = ["# BEGIN rlrssslReallySimpleSSL rsssl_version[8.1.4]", "<IfModule mod_rewrite.c>", "RewriteEngine on"] + cond + \
          maybe(0.5, ["RewriteCond %{REQUEST_URI} !^/\\.well-known/acme-challenge/"]) + \
          [ch("RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]", "RewriteRule ^(.*)$ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]")] + \
          ["</IfModule>", "# END rlrssslReallySimpleSSL"]
    if R.random() < 0.6: out += hsts()
    return out

def hsts():
    age = ch('"max-age=31536000"', '"max-age=63072000; includeSubDomains; preload"')
    cond = ch('', ' env=HTTPS', ' "expr=%{HTTPS} == \'on\'"')
    hs = R.sample([f"Header always set Strict-Transport-Security {age}{cond}",
                   "Header always set Content-Security-Policy \"upgrade-insecure-requests\"", "Header always set X-Content-Type-Options \"nosniff\"",
                   "Header always set X-XSS-Protection \"1; mode=block\"", "Header always set Referrer-Policy: \"strict-origin-when-cross-origin\"",
                   "Header always set Referrer-Policy \"no-referrer-when-downgrade\"", "Header always set X-Frame-Options SAMEORIGIN",
                   "Header always set Permissions-Policy \"geolocation=(), microphone=()\"", "Header set X-Frame-Options: \"SAMEORIGIN\""], R.randint(1, 4))
    return ifmod("mod_headers.c", hs)

# --- webp
def webp(b):
    kind = ch("express", "ewww", "shortpixel", "imagify", "optimole")
    if kind == "express":
        out = ["# BEGIN WebP Express", "<IfModule mod_rewrite.c>", "  RewriteEngine On",
               "  RewriteCond %{HTTP_ACCEPT} image/webp", "  RewriteCond %{REQUEST_FILENAME} (?i)(.*)(\\.jpe?g|\\.png)$",
               "  RewriteCond %1\\.webp -f", "  RewriteCond %{QUERY_STRING} (?:^|&)original(?:&|$) [NC]" if R.random() < 0.2 else "",
               f"  RewriteRule (?i)(.*)(\\.jpe?g|\\.png)$ %1\\.webp [T=image/webp,E=EXISTING:1,{ch('L', 'END')}]",
               "  <IfModule mod_headers.c>", "    Header append Vary Accept env=EXISTING", "    <FilesMatch (?i)\\.webp$>",
               "      Header set Vary Accept", "    </FilesMatch>", "  </IfModule>", "</IfModule>", "<IfModule mod_mime.c>", "  AddType image/webp .webp",
               "</IfModule>", "# END WebP Express"]
    elif kind == "ewww":
        out = ["# BEGIN EWWWIO", "<IfModule mod_rewrite.c>", "RewriteEngine On", "RewriteCond %{HTTP_ACCEPT} image/webp",
               "RewriteCond %{REQUEST_FILENAME} (.*)\\.(jpe?g|png|gif)$", "RewriteCond %{REQUEST_FILENAME}\\.webp -f",
               "RewriteCond %{QUERY_STRING} !type=original", "RewriteRule (.+)\\.(jpe?g|png|gif)$ %{REQUEST_URI}.webp [T=image/webp,L]", "</IfModule>",
               "<IfModule mod_headers.c>", "<FilesMatch \"\\.(jpe?g|png|gif)$\">", "Header append Vary Accept", "</FilesMatch>", "</IfModule>",
               "AddType image/webp .webp", "# END EWWWIO"]
    elif kind == "shortpixel":
        out = ["# BEGIN ShortPixelWebp", "<IfModule mod_rewrite.c>", "  RewriteEngine On", "  ##### TRY FIRST the file appended with .webp (ex. test.jpg.webp) #####",
               "  RewriteCond %{HTTP_ACCEPT} image/webp", "  RewriteCond %{REQUEST_URI} (.*)\\.(jpe?g|png)$ [NC]" if R.random() < 0.5 else "",
               "  RewriteCond %{DOCUMENT_ROOT}/$1.$2.webp -f", "  RewriteRule (.+)\\.(jpe?g|png)$ $1.$2.webp [NC,T=image/webp,E=webp,L]",
               "  ##### IF NOT, try the file with replaced extension (test.webp) #####", "  RewriteCond %{HTTP_ACCEPT} image/webp",
               "  RewriteCond %{DOCUMENT_ROOT}/$1.webp -f", "  RewriteRule (.+)\\.(?:jpe?g|png)$ $1.webp [NC,T=image/webp,E=webp,L]", "</IfModule>",
               "<IfModule mod_headers.c>", "  <FilesMatch \"(?i)\\.(jpe?g|png)$\">", "    Header append Vary Accept", "  </FilesMatch>",
               "  Header append Vary Accept env=REDIRECT_webp", "</IfModule>", "<IfModule mod_mime.c>", "  AddType image/webp .webp", "</IfModule>",
               "# END ShortPixelWebp"]
    elif kind == "imagify":
        out = ["# BEGIN Imagify: rewrite rules for webp", "<IfModule mod_setenvif.c>", "    # Vary: Accept for all the requests to jpeg, png, and gif.",
               "    SetEnvIf Request_URI \"\\.(jpg|jpeg|jpe|png|gif)$\" REQUEST_image", "</IfModule>", "<IfModule mod_rewrite.c>", "    RewriteEngine On",
               f"    RewriteBase {b}", "    # Does browser support WebP?", "    RewriteCond %{HTTP_ACCEPT} \\bimage/webp\\b",
               "    # Does it have an existing WebP file?", "    RewriteCond %{REQUEST_FILENAME}.webp -f", "    # Replace the extension.",
               f"    RewriteRule (.+)\\.(jpg|jpeg|jpe|png|gif)$ $1.$2.webp [T=image/webp,NC,E=REQUEST_image,{ch('L', 'END')}]", "</IfModule>",
               "<IfModule mod_headers.c>", "    # Update the MIME type accordingly.", "    Header append Vary Accept env=REQUEST_image", "</IfModule>",
               "<IfModule mod_mime.c>", "    AddType image/webp .webp", "</IfModule>", "# END Imagify: rewrite rules for webp"]
    else:
        out = ["<IfModule mod_rewrite.c>", "RewriteEngine On", "RewriteCond %{HTTP_ACCEPT} image/webp", "RewriteCond %{HTTP_USER_AGENT} !(Edge|Trident) [NC]",
               "RewriteCond %{DOCUMENT_ROOT}%{REQUEST_URI}.webp -f", "RewriteRule ^(.+\\.(?:jpe?g|png))$ $1.webp [T=image/webp,L]", "</IfModule>",
               "Header merge Vary Accept"]
    return [l for l in out if l]

def expires():
    return ifmod("mod_expires.c", ["ExpiresActive On", f"ExpiresDefault \"{ch('access plus 2 days', 'access plus 1 month', 'now')}\""] +
                 R.sample(["ExpiresByType image/jpg \"access plus 1 year\"", "ExpiresByType image/jpeg \"access plus 1 year\"",
                           "ExpiresByType image/webp \"access plus 1 year\"", "ExpiresByType text/css \"access plus 1 month\"",
                           "ExpiresByType text/html \"access plus 0 seconds\"", "ExpiresByType text/html A600", "ExpiresByType image/* A86400",
                           "ExpiresByType text/plain \"modification plus 1 hour\""][:7 if RICH else 8], R.randint(2, 5)), 0.85)

def wordpress(b):
    return ["# BEGIN WordPress", "# The directives (lines) between \"BEGIN WordPress\" and \"END WordPress\" are", "# dynamically generated.",
            "<IfModule mod_rewrite.c>", "RewriteEngine On", "RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]",
            f"RewriteBase {b}", "RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d",
            f"RewriteRule . {b}index.php [L]", "</IfModule>", "# END WordPress"]

CACHES = ("supercache", "w3tc", "rocket", "litespeed")
TOP = ("cpanel", "acme", "www", "rsssl", "wordfence", "ithemes", "aiowps", "ua", "xmlrpc", "wpconfig")
BOTTOM = ("webp", "expires", "hsts", "cpanel", "xmlrpc", "wpconfig", "ua")

def block(k, b, host):
    return {"supercache": lambda: supercache(b, host), "w3tc": lambda: w3tc(b), "rocket": lambda: rocket(b), "litespeed": lambda: litespeed(b),
            "cpanel": cpanel, "acme": acme_https, "www": lambda: force_www(host), "rsssl": rsssl, "wordfence": wordfence, "ithemes": ithemes,
            "aiowps": aiowps, "ua": ua_block, "xmlrpc": xmlrpc, "wpconfig": wpconfig, "webp": lambda: webp(b), "expires": expires, "hsts": hsts}[k]()

def make_case(i):
    host = ch("example.org", "shop.example", "blog.example.net")
    canon = ch(host, "www." + host)
    sub = ch("", "", "", "blog/")           # WordPress at the root or in /blog
    b = "/" + sub
    files = {"index.html": "root index.html\n", "about.html": "about page\n", "robots.txt": "robots\n"}
    wp = [f"{sub}index.php", f"{sub}wp-login.php", f"{sub}wp-config.php", f"{sub}xmlrpc.php", f"{sub}readme.html", f"{sub}license.txt",
          f"{sub}wp-config-sample.php", f"{sub}.user.ini", f"{sub}wp-admin/index.php", f"{sub}wp-admin/install.php", f"{sub}wp-includes/version.php",
          f"{sub}wp-includes/js/jquery.js", f"{sub}wp-content/themes/t/style.css", f"{sub}wp-content/uploads/2024/05/photo.jpg",
          f"{sub}wp-content/uploads/2024/05/logo.png", f"{sub}wp-content/uploads/2024/05/shell.php", f"{sub}wp-comments-post.php"]
    for f in wp: files[f] = f"{f} contents\n"
    up = f"{sub}wp-content/uploads/2024/05/"
    webps = R.sample([up + "photo.jpg.webp", up + "photo.webp", up + "logo.png.webp", up + "logo.webp"], R.randint(1, 3) if HITS else R.randint(0, 3))
    for f in webps: files[f] = f"{f} webp contents\n"
    caches = R.sample(CACHES, ch(0, 1, 1, 1, 2) if not RICH else ch(1, 1, 2))
    top = R.sample(TOP, R.randint(1, 4 if not RICH else 6))
    bottom = R.sample(BOTTOM, R.randint(0, 2 if not RICH else 4))
    modules = set()
    if R.random() < (0.85 if RICH else 0.55): modules.add("expires")
    if R.random() < (0.75 if RICH else 0.3): modules.add("access_compat")
    if R.random() < (0.3 if RICH else 0.08): modules.update(["deflate"] + (["filter"] if RICH and R.random() < 0.5 else []))
    # cache files: present for a few pages, hosts and schemes
    pages = ["", "hello-world/", "about-us/", "shop/item-1/"]
    hot = R.sample(pages, 2) if RICH else []  # pages the requests favour (rich)
    for c in caches:
        for page in (hot + R.sample(pages, 1) if RICH else R.sample(pages, R.randint(0, 3))):
            for h in every([host, "www." + host], R.randint(1, 2)):
                if c == "supercache":
                    names = every(["index.html", "index.html.gz", "index-https.html", "index-https.html.gz"], R.randint(1, 4))
                    for n in names: files[f"{sub}wp-content/cache/supercache/{h}/{page}{n}"] = f"supercache {h}/{page}{n}\n"
                elif c == "w3tc":
                    for n in every(["_index.html", "_index.html_gzip", "_index_preview.html"], R.randint(1, 2)):
                        d = f"{sub}wp-content/cache/page_enhanced/{h}/{sub if RICH else ''}{page}"
                        files[d + n] = f"w3tc {h}/{page}{n}\n"
                elif c == "rocket":
                    for n in every(["index.html", "index.html_gzip", "index-https.html", "index-https.html_gzip", "index-https-webp.html"], R.randint(1, 3)):
                        files[f"{sub}wp-content/cache/wp-rocket/{h}/{sub}{page}{n}"] = f"rocket {h}/{sub}{page}{n}\n"
        if c == "supercache" and R.random() < (0.5 if RICH else 0.3): files[f"{sub}wp-content/cache/supercache/.htaccess"] = "\n".join(supercache_dir()) + "\n"
        if c == "w3tc" and R.random() < (0.5 if RICH else 0.3): files[f"{sub}wp-content/cache/page_enhanced/.htaccess"] = "\n".join(w3tc_dir()) + "\n"
    if R.random() < 0.2: files[f"{sub}wp-content/uploads/.htaccess"] = "\n".join(ch(
        ["# BEGIN Wordfence code execution protection", "<IfModule mod_php5.c>", "php_flag engine 0", "</IfModule>", "<IfModule mod_php7.c>",
         "php_flag engine 0", "</IfModule>", "AddHandler cgi-script .php .phtml .php3 .pl .py .jsp .asp .htm .shtml .sh .cgi", "Options -ExecCGI",
         "# END Wordfence code execution protection"],
        ["<Files *.php>", "deny from all", "</Files>"], ["<FilesMatch \"\\.(?i:php)$\">", "  <IfModule !mod_authz_core.c>", "    Order allow,deny",
                                                      "    Deny from all", "  </IfModule>", "  <IfModule mod_authz_core.c>", "    Require all denied",
                                                      "  </IfModule>", "</FilesMatch>"])) + "\n"
    kinds = caches + top + bottom
    main = []
    for k in top: main += block(k, b, host) + [""]
    for k in caches: main += block(k, b, host) + [""]
    main += wordpress(b) + [""]
    for k in bottom: main += block(k, b, host) + [""]
    main = [l for l in main if l is not None]
    if sub:
        root = ch(["RewriteEngine On", "RewriteRule ^$ blog/ [L]"], [], ["DirectoryIndex index.html"], acme_https(),
                  ["RewriteEngine On", "RewriteCond %{REQUEST_URI} !^/blog/", "RewriteRule ^(.*)$ /blog/$1 [L]"]) + \
               (block(R.choice(TOP), "/", host) if R.random() < 0.5 else [])
        if root: files[".htaccess"] = "\n".join(root) + "\n"
        files[f"{sub}.htaccess"] = "\n".join(main) + "\n"
    else:
        files[".htaccess"] = "\n".join(main) + "\n"
    hostnames = [host, "www." + host]
    paths = ["/", "/hello-world/", "/about-us/", "/shop/item-1/", "/hello-world", "/about.html", "/robots.txt", "/wp-config.php", "/xmlrpc.php",
             "/.user.ini", "/readme.html", "/license.txt", "/wp-config-sample.php", "/.htaccess", "/wp-admin/install.php", "/wp-admin/",
             "/wp-includes/version.php", "/wp-includes/js/jquery.js", "/wp-content/themes/t/style.css", "/wp-content/uploads/2024/05/photo.jpg",
             "/wp-content/uploads/2024/05/logo.png", "/wp-content/uploads/2024/05/shell.php", "/wp-content/uploads/2024/05/photo.jpg?type=original",
             "/.well-known/acme-challenge/tok-en_1", "/.well-known/pki-validation/0123456789ABCDEF0123456789ABCDEF.txt", "/123.abc.cpaneldcv",
             "/?s=hello", "/?p=12", "/hello-world/?utm_source=x", "/?q=base64_encode(x)", "/?a=%3Cscript%3E", "/?x=../../etc/passwd",
             "/?tag=1", "/?u=http:%2F%2Fevil", "/feed/", "/wp-json/wp/v2/posts", "/index.php", "/wp-login.php", "/wp-comments-post.php",
             "/a,b", "/a:b", "/x..y/", "/a//b/", "/%7Euser", "/wp-content/cache/supercache/", "/hello-world/?"]
    reqs = []
    for _ in range(R.randint(4, 8)):
        p = "/" + R.choice(hot) if RICH and R.random() < 0.35 else R.choice(paths)
        if sub and R.random() < 0.8: p = "/blog" + p
        url = f"{ch('http', 'https', 'https')}://{R.choice(hostnames)}{p}"
        hd = {}
        if R.random() < 0.45: hd["Accept-Encoding"] = ch("gzip, deflate, br", "gzip", "br", "identity", "deflate")
        if R.random() < 0.25: hd["Cookie"] = ch("wordpress_logged_in_abc=1", "comment_author_x=y", "w3tc_preview=1", "a=b", "wp-postpass_1=x; a=b", "wordpress_test_cookie=1")
        if R.random() < 0.3 or "/uploads/" in p: hd["Accept"] = ch("image/avif,image/webp,*/*", "image/png,image/*;q=0.8", "text/html,*/*", "image/webp")
        if R.random() < 0.2: hd["User-Agent"] = ch("Mozilla/5.0 AhrefsBot/7.0", "curl/8.4", "python-requests/2.31", "facebookexternalhit/1.1", "Mozilla/5.0 (Windows NT 10.0) Edge/18", "WhatsApp/2.0", "")
        if R.random() < 0.12: hd.update(ch({"X-Forwarded-Proto": "https"}, {"X-Forwarded-SSL": "on"}, {"CF-Visitor": "{\"scheme\":\"https\"}"}, {"Referer": "https://maps.googleapis.com/x"}, {"X-Wap-Profile": "\"http://wap\""}))
        if RICH and R.random() < 0.1: hd.update(ch({"Accept-Encoding": "GZIP"}, {"Cookie": "WORDPRESS_LOGGED_IN_X=1"}, {"Accept": "IMAGE/WEBP"}, {"Via": "1.1 proxy"}))
        if RICH and R.random() < 0.08: hd["Host"] = ch(url.split("/")[2].upper(), url.split("/")[2] + ":" + ("443" if url.startswith("https") else "80"))
        method = ch(*(["GET"] * 8 + ["HEAD", "POST", "TRACE" if RICH and not HITS else "GET"]))
        if hd.get("User-Agent") == "": hd.pop("User-Agent")
        if not hd and method == "GET": reqs.append(url)
        else:
            r = {"url": url, "headers": hd}
            if method != "GET": r["method"] = method
            reqs.append(r)
    edge = ch("none", "none", "flexible", "flexible+always-https", "full", "full+always-https")
    case = {"description": f"plugins-gen {SEED}-{i}: {' '.join(kinds)}{' in /' + sub if sub else ''}", "host": host, "aliases": ["www." + host],
            "edge": edge, "requests": reqs,
            "record_headers": ["Content-Type", "Content-Encoding", "Vary", "Cache-Control", "Strict-Transport-Security", "X-Frame-Options",
                               "Referrer-Policy", "X-Powered-By", "Pragma"]}
    if modules: case["modules"] = sorted(modules)
    if RICH and R.random() < 0.2: case["vhost_https"] = ["Header always set Strict-Transport-Security \"max-age=300\""] + \
        maybe(0.5, ["<Directory ${DOCROOT}/wp-content/uploads>", ch("AllowOverride None", "AllowOverride FileInfo", "Options -Indexes"), "</Directory>"])
    d = os.path.join(OUT, f"plugins-gen-{SEED}-{i:04d}")
    write_case(d, case, files)

for i in range(N): make_case(i)
