#!/usr/bin/env python3
"""Whole CMS and framework .htaccess files (WordPress, multisite, Drupal, Joomla, Laravel,
CodeIgniter, single-page apps, maintenance, language and mobile redirects, legacy maps) with the
hygiene, https and header snippets pasted around them.

Usage: cms.py MODE OUT N SEED — writes N oracle cases to OUT. MODE is
  cms    the files as written (round r5 of docs/architecture.md: 1500 505)
  split  behind separate port-80 and port-443 virtual hosts, as hosting panels write them (r6: 1500 506)
  typos  with one or two hand-editing mistakes each (r7: 1500 507)"""
import json, os, random, sys
from casefile import write_case
MODE, OUT, N, SEED = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
R = random.Random(SEED)
def ch(*xs): return R.choice(xs)
HOSTS = ["example.org", "shop.example", "blog.example.net"]

def wordpress(base):
    b = base
    return ["# BEGIN WordPress", "<IfModule mod_rewrite.c>", "RewriteEngine On",
            "RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]", f"RewriteBase {b}",
            "RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d",
            f"RewriteRule . {b}index.php [L]", "</IfModule>", "# END WordPress"]

def wp_multisite():
    return ["RewriteEngine On", "RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]", "RewriteBase /",
            "RewriteRule ^index\\.php$ - [L]", "RewriteRule ^([_0-9a-zA-Z-]+/)?wp-admin$ $1wp-admin/ [R=301,L]",
            "RewriteCond %{REQUEST_FILENAME} -f [OR]", "RewriteCond %{REQUEST_FILENAME} -d", "RewriteRule ^ - [L]",
            "RewriteRule ^([_0-9a-zA-Z-]+/)?(wp-(content|admin|includes).*) $2 [L]",
            "RewriteRule ^([_0-9a-zA-Z-]+/)?(.*\\.php)$ $2 [L]", "RewriteRule . index.php [L]"]

def drupal():
    return ["Options -Indexes", "Options +FollowSymLinks", "DirectoryIndex index.php index.html index.htm",
            "<FilesMatch \"\\.(engine|inc|install|make|module|profile|po|sh|.*sql|theme|twig|tpl(\\.php)?|xtmpl|yml)(~|\\.sw[op]|\\.bak|\\.orig|\\.save)?$|^(\\.(?!well-known).*|Entries.*|Repository|Root|Tag|Template|composer\\.(json|lock)|web\\.config)$|^#.*#$|\\.php(~|\\.sw[op]|\\.bak|\\.orig|\\.save)$\">",
            "  Require all denied", "</FilesMatch>", "ErrorDocument 404 /index.php",
            "<IfModule mod_rewrite.c>", "  RewriteEngine on", "  RewriteRule ^ - [E=protossl]", "  RewriteCond %{HTTPS} on",
            "  RewriteRule ^ - [E=protossl:s]", "  RewriteRule \"/\\.|^\\.(?!well-known/)\" - [F]",
            "  RewriteCond %{REQUEST_FILENAME} !-f", "  RewriteCond %{REQUEST_FILENAME} !-d",
            "  RewriteCond %{REQUEST_URI} !=/favicon.ico", "  RewriteRule ^ index.php [L]", "</IfModule>"]

def joomla():
    return ["Options +FollowSymlinks", "Options -Indexes", "RewriteEngine On",
            "RewriteCond %{QUERY_STRING} base64_encode[^(]*\\([^)]*\\) [OR]",
            "RewriteCond %{QUERY_STRING} (<|%3C)([^s]*s)+cript.*(>|%3E) [NC,OR]",
            "RewriteCond %{QUERY_STRING} GLOBALS(=|\\[|\\%[0-9A-Z]{0,2}) [OR]",
            "RewriteCond %{QUERY_STRING} _REQUEST(=|\\[|\\%[0-9A-Z]{0,2})", "RewriteRule .* index.php [F]",
            "RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]",
            "RewriteCond %{REQUEST_URI} !^/index\\.php", "RewriteCond %{REQUEST_FILENAME} !-f",
            "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule .* index.php [L]"]

def laravel_public():
    return ch(["RewriteEngine On", "RewriteRule ^(.*)$ public/$1 [L]"],
              ["RewriteEngine On", "RewriteCond %{REQUEST_URI} !^/public/", "RewriteRule ^(.*)$ /public/$1 [L,QSA]"],
              ["<IfModule mod_rewrite.c>", "RewriteEngine On", "RewriteRule ^(.*)$ public/$1 [L]", "</IfModule>"])

def laravel_inner():
    return ["<IfModule mod_rewrite.c>", "    <IfModule mod_negotiation.c>", "        Options -MultiViews -Indexes", "    </IfModule>",
            "    RewriteEngine On", "    RewriteCond %{HTTP:Authorization} .", "    RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]",
            "    RewriteCond %{REQUEST_FILENAME} !-d", "    RewriteCond %{REQUEST_URI} (.+)/$", "    RewriteRule ^ %1 [L,R=301]",
            "    RewriteCond %{REQUEST_FILENAME} !-d", "    RewriteCond %{REQUEST_FILENAME} !-f", "    RewriteRule ^ index.php [L]", "</IfModule>"]

def codeigniter():
    return ["RewriteEngine On", ch("RewriteBase /", ""), "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d",
            ch("RewriteRule ^(.*)$ index.php/$1 [L]", "RewriteRule ^(.*)$ index.php?/$1 [L]", "RewriteRule ^([\\s\\S]*)$ index.php/$1 [L,NC,QSA]"),
            "RewriteCond %{HTTP:Authorization} .", "RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]"]

def spa():
    return ch(["RewriteEngine On", "RewriteBase /", "RewriteRule ^index\\.html$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f",
               "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_FILENAME} !-l", "RewriteRule . /index.html [L]"],
              ["FallbackResource /index.html"], ["Options -MultiViews", "RewriteEngine On", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^ index.html [QSA,L]"])

def maintenance():
    return ch(["RewriteEngine On", "RewriteCond %{REMOTE_ADDR} !^10\\.0\\.0\\.1$", "RewriteCond %{REQUEST_URI} !^/maintenance\\.html$",
               "RewriteCond %{REQUEST_URI} !\\.(css|png)$", "RewriteRule ^(.*)$ /maintenance.html [R=302,L]"],
              ["ErrorDocument 503 /maintenance.html", "RewriteEngine On", "RewriteCond %{REQUEST_URI} !=/maintenance.html", "RewriteRule ^ - [R=503,L]"],
              ["RewriteEngine On", "RewriteCond %{DOCUMENT_ROOT}/maintenance.html -f", "RewriteCond %{SCRIPT_FILENAME} !maintenance.html",
               "RewriteRule ^.*$ /maintenance.html [R=503,L]", "ErrorDocument 503 /maintenance.html"])

def lang():
    return ch(["RewriteEngine On", "RewriteCond %{HTTP:Accept-Language} ^de [NC]", "RewriteRule ^$ /de/ [L,R=302]",
               "RewriteCond %{HTTP:Accept-Language} ^fr [NC]", "RewriteRule ^$ /fr/ [L,R=302]", "RewriteRule ^$ /en/ [L,R=302]"],
              ["RewriteEngine On", "RewriteCond %{HTTP:Accept-Language} (de) [NC]", "RewriteCond %{REQUEST_URI} !^/de/", "RewriteRule ^(.*)$ /de/$1 [R=302,L]"])

def mobile():
    return ["RewriteEngine On", "RewriteCond %{HTTP_USER_AGENT} (android|iphone|mobile) [NC]", "RewriteCond %{REQUEST_URI} !^/m/",
            ch("RewriteRule ^(.*)$ /m/$1 [R=302,L]", "RewriteRule ^(.*)$ https://m.example.org/$1 [R=302,L]", "RewriteRule ^(.*)$ m/$1 [L]")]

def acme_https(host):
    return ["RewriteEngine On", "RewriteCond %{REQUEST_URI} !^/\\.well-known/acme-challenge/", ch("RewriteCond %{HTTPS} off", "RewriteCond %{HTTP:X-Forwarded-Proto} !https", "RewriteCond %{HTTPS} !=on"),
            ch("RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]", f"RewriteRule ^ https://{host}%{{REQUEST_URI}} [R=301,L]")]

def legacy_map():
    m = ["Redirect 301 /old.html /about.html", "Redirect 301 /contact.php /contact/", "RedirectMatch 301 ^/news/([0-9]+)\\.html$ /blog/$1",
         "Redirect 301 /shop https://shop.example/", "RedirectMatch 301 ^/(?i)products/(.*)$ /shop/$1", "Redirect 302 /sale /promo",
         "Redirect 301 /index.htm /", "RedirectMatch 301 ^/old-dir/?$ /new/", "Redirect 301 /blog/ /news/", "Redirect 410 /legacy",
         "RewriteRule ^old-page/?$ /new/page [R=301,L,NC]", "RewriteRule ^item/([0-9]+)$ /product.php?id=$1 [L,QSA]"]
    return ["RewriteEngine On"] + R.sample(m, R.randint(2, 6))

def headers():
    return R.sample(["Header always set Strict-Transport-Security \"max-age=31536000; includeSubDomains\" env=HTTPS",
                     "Header always set X-Content-Type-Options nosniff", "Header set X-Frame-Options DENY",
                     "Header always set Referrer-Policy \"strict-origin-when-cross-origin\"",
                     "<FilesMatch \"\\.(css|png)$\">\nHeader set Cache-Control \"max-age=2592000, public\"\n</FilesMatch>",
                     "SetEnvIf Origin \"^https?://(www\\.)?(example\\.org|other\\.example)$\" ORIGIN_OK=$0",
                     "Header always set Access-Control-Allow-Origin %{ORIGIN_OK}e env=ORIGIN_OK",
                     "Header unset X-Powered-By", "Header always unset ETag", "FileETag None",
                     "Header always edit Location ^http://(.*)$ https://$1",
                     "<IfModule mod_headers.c>\nHeader set Connection keep-alive\n</IfModule>"], R.randint(1, 3))

def hygiene():
    return R.sample(["Options -Indexes", "ServerSignature Off", "AddDefaultCharset UTF-8", "DirectoryIndex index.html index.php",
                     "<Files wp-config.php>\nRequire all denied\n</Files>", "<Files xmlrpc.php>\nRequire all denied\n</Files>",
                     "<FilesMatch \"^\\.\">\nRequire all denied\n</FilesMatch>", "RedirectMatch 404 /\\.git", "ErrorDocument 404 /404.html",
                     "ErrorDocument 403 /403.html", "AddType application/json .json", "AddHandler application/x-httpd-php .html",
                     "Options -MultiViews", "DirectorySlash On", "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.(.*)$ [NC]\nRewriteRule ^(.*)$ https://%1/$1 [R=301,L]",
                     "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} ^TRACE\nRewriteRule .* - [F]",
                     "RewriteEngine On\nRewriteRule ^(.*)/index\\.php$ /$1/ [R=301,L]",
                     "RewriteEngine On\nRewriteCond %{THE_REQUEST} ^[A-Z]+\\ /index\\.php(\\?|\\ ) [NC]\nRewriteRule ^index\\.php$ / [R=301,L]"], R.randint(1, 3))

def make_case(i):
    host = R.choice(HOSTS)
    sub = ch("blog", "wp", "app", "public")
    kind = ch("wordpress", "wordpress-sub", "multisite", "drupal", "joomla", "laravel", "codeigniter", "spa", "maintenance",
              "lang", "mobile", "legacy", "static")
    pre = []
    if R.random() < 0.5: pre += acme_https(host)
    if R.random() < 0.4: pre += hygiene()
    post = []
    if R.random() < 0.5: post += headers()
    if R.random() < 0.3: post += legacy_map()
    files = {"index.php": "root index.php\n", "about.html": "about page\n", "css/app.css": "body{}\n", "img/logo.png": "png-bytes\n",
             "404.html": "custom 404\n", "wp-admin/index.php": "wp admin\n", "wp-content/uploads/a.png": "upload png\n",
             "wp-config.php": "config php\n", "docs/index.html": "docs index\n", "contact/index.html": "contact page\n"}
    if R.random() < 0.5: files["index.html"] = "root index.html\n"
    if R.random() < 0.3: files["maintenance.html"] = "down for maintenance\n"
    if R.random() < 0.2: files[".git/config"] = "[core]\n"
    main = []; subf = None
    if kind == "wordpress": main = wordpress("/")
    elif kind == "wordpress-sub":
        main = ["RewriteEngine On", f"RewriteCond %{{REQUEST_URI}} !^/{sub}/", ch(f"RewriteRule ^(.*)$ /{sub}/$1 [L]", f"RewriteRule ^(.*)$ {sub}/$1 [L]"),
                ch(f"RewriteRule ^(/)?$ {sub}/index.php [L]", "")]
        subf = wordpress(f"/{sub}/")
        files[f"{sub}/index.php"] = f"{sub} index\n"; files[f"{sub}/wp-login.php"] = f"{sub} login\n"
    elif kind == "multisite": main = wp_multisite(); files["site2/.keep"] = "k\n"
    elif kind == "drupal": main = drupal(); files["core/install.php"] = "install\n"; files["composer.json"] = "{}\n"
    elif kind == "joomla": main = joomla(); files["administrator/index.php"] = "admin\n"
    elif kind == "laravel":
        main = laravel_public(); subf = laravel_inner(); sub = "public"
        files["public/index.php"] = "laravel front\n"; files["public/css/app.css"] = "laravel css\n"; files[".env"] = "APP_KEY=x\n"
    elif kind == "codeigniter": main = codeigniter()
    elif kind == "spa": main = spa()
    elif kind == "maintenance": main = maintenance(); files["maintenance.html"] = "down for maintenance\n"
    elif kind == "lang": main = lang(); files["de/index.html"] = "german\n"; files["en/index.html"] = "english\n"
    elif kind == "mobile": main = mobile(); files["m/index.html"] = "mobile\n"
    elif kind == "legacy": main = legacy_map(); files["new/page"] = "new page\n"; files["product.php"] = "product\n"
    elif kind == "static": main = ["Options -Indexes"]
    lines = [l for l in pre + main + post if l != ""]
    files[".htaccess"] = "\n".join(lines) + "\n"
    if subf: files[f"{sub}/.htaccess"] = "\n".join(subf) + "\n"
    hostnames = [host, "www." + host]
    paths = ["/", "/about", "/about.html", "/about/", f"/{sub}", f"/{sub}/", f"/{sub}/hello-world/", f"/{sub}/wp-admin", "/wp-admin",
             "/wp-admin/", "/wp-login.php", "/wp-config.php", "/xmlrpc.php", "/wp-content/uploads/a.png", "/site2/wp-admin",
             "/site2/hello/", "/index.php", "/index.php/foo", "/index.php?p=1", "/css/app.css", "/docs", "/docs/", "/contact",
             "/contact.php", "/old.html", "/news/12.html", "/Products/x", "/shop", "/sale", "/legacy", "/old-page/", "/item/5",
             "/.git/config", "/.env", "/composer.json", "/core/install.php", "/.well-known/acme-challenge/t", "/maintenance.html",
             "/favicon.ico", "/?q=base64_encode(x)", "/?a=%3Cscript%3E", "/administrator/", "/user/login?destination=/x",
             "/api/v1/users", "/blog/", "/index.htm", "/old-dir", "/a%20b/", "/de/", "/m/x", "/img/logo.png"]
    reqs = []
    for _ in range(R.randint(4, 8)):
        url = f"{ch('http', 'https')}://{R.choice(hostnames)}{R.choice(paths)}"
        r = R.random()
        if r < 0.08: reqs.append({"url": url, "method": ch("HEAD", "POST", "OPTIONS")})
        elif r < 0.15: reqs.append({"url": url, "headers": {"User-Agent": ch("Mozilla/5.0 (iPhone)", "curl/8", "Mozilla/5.0 Android")}})
        elif r < 0.21: reqs.append({"url": url, "headers": {"Accept-Language": ch("de-DE,de;q=0.9", "fr", "en-US")}})
        elif r < 0.25: reqs.append({"url": url, "headers": {"Origin": ch("https://other.example", "https://evil.example")}})
        elif r < 0.28: reqs.append({"url": url, "headers": {"Authorization": "Bearer t"}})
        else: reqs.append(url)
    edge = ch("none", "none", "none", "flexible", "flexible+always-https", "full", "full+always-https")
    case = {"description": f"real-cms {SEED}-{i}: {kind}", "host": host, "aliases": ["www." + host], "edge": edge, "requests": reqs, "record_headers": ["Access-Control-Allow-Origin", "Strict-Transport-Security", "Cache-Control", "X-Frame-Options", "Content-Type", "Allow"]}
    d = os.path.join(OUT, f"real-cms-{SEED}-{i:04d}")
    write_case(d, case, files)


# --- split: port-80 and port-443 virtual hosts
def vh_http(host):
    return ch([], [f"Redirect permanent / https://{host}/"], [f"Redirect 301 / https://www.{host}/"],
              ["RewriteEngine On", "RewriteCond %{HTTPS} off", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"],
              ["RewriteEngine On", f"RewriteRule ^/(.*)$ https://{host}/$1 [R=301,L]"],
              ["RewriteEngine On", "RewriteCond %{REQUEST_URI} !^/\\.well-known/", "RewriteRule (.*) https://%{SERVER_NAME}$1 [R=301,L]"],
              ["RewriteEngine On", "RewriteCond %{SERVER_NAME} =" + host + " [OR]", "RewriteCond %{SERVER_NAME} =www." + host,
               "RewriteRule ^ https://%{SERVER_NAME}%{REQUEST_URI} [END,NE,R=permanent]"],
              [f"RedirectMatch 301 ^/(?!\\.well-known)(.*)$ https://{host}/$1"])
def vh_https(host):
    blocks = [
        ["Header always set Strict-Transport-Security \"max-age=63072000; includeSubDomains\""],
        ["<Directory ${DOCROOT}>", ch("AllowOverride All", "AllowOverride None", "AllowOverride FileInfo", "AllowOverride FileInfo Indexes", "AllowOverride AuthConfig FileInfo Limit Options"), "</Directory>"],
        ["RewriteEngine On", "RewriteCond %{HTTP_HOST} ^www\\.(.*)$ [NC]", "RewriteRule ^/(.*)$ https://%1/$1 [R=301,L]"],
        ["RewriteEngine On", f"RewriteCond %{{HTTP_HOST}} !^{host.replace('.', chr(92)+'.')}$", f"RewriteRule ^ https://{host}%{{REQUEST_URI}} [R=301,L]"],
        ["Alias /static ${DOCROOT}/css"], ["ErrorDocument 404 /404.html"], ["DirectoryIndex index.html index.php"],
        ["<Location /wp-admin>", "Require all denied", "</Location>"], ["<Files xmlrpc.php>", "Require all denied", "</Files>"],
        ["RedirectMatch 301 ^/old/(.*)$ /new/$1"], ["<Directory ${DOCROOT}/docs>", "Options -Indexes", "AllowOverride None", "</Directory>"],
        ["RewriteEngine On", "RewriteRule ^/index\\.php$ / [R=301,L]"], ["Header always set X-Frame-Options SAMEORIGIN"],
        ["<Directory ${DOCROOT}>", "Options -MultiViews +FollowSymLinks", "FallbackResource /index.php", "</Directory>"],
        ["RewriteEngine On", "RewriteOptions InheritDown"], ["KeepAlive On"],
    ]
    out = []
    for b in R.sample(blocks, R.randint(0, 3)): out += b
    return out
def make_split(i):
    make_case(i)
    d = os.path.join(OUT, f"real-cms-{SEED}-{i:04d}")
    case = json.load(open(os.path.join(d, "case.json")))
    case["vhost_http"] = vh_http(case["host"]); case["vhost_https"] = vh_https(case["host"])
    case["edge"] = ch("none", "none", "none", "full", "full+always-https", "flexible")
    json.dump(case, open(os.path.join(d, "case.json"), "w"), indent=2)

# --- typos: hand-editing mistakes
# (old, new[, count]) for str.replace; old None appends new to the line.
TYPOS = [
    ("RewriteRule", "RewriteRul", 1), ("RewriteCond", "ReWriteCond", 1),
    ("[L]", "[L"), ("[R=301,L]", "[R=301, L]"), ("[R=301,L]", "[R=301 L]"),
    ("[L]", "[l]"), ("[L]", "[Last]"), ("[L]", "[L,QSA,]"),
    (" [", "[", 1), ("!-f", "! -f"), ("!-d", "-D"),
    ("%{REQUEST_FILENAME}", "%{REQUEST_FILENAME"), ("%{HTTP_HOST}", "%{HTTP_HOST }"),
    ("^(.*)$", "^(.*$"), ("^(.*)$", "^(.*))$"), ("\\.", "\\"),
    ("Require all denied", "Require all deny"), ("Require all denied", "Deny from all"),
    ("Options -Indexes", "Options -Indexes +Multiviews"), ("Options -Indexes", "Options Indexes -FollowSymLinks"),
    ("Options -Indexes", "Options -Index"), ("RewriteEngine On", "RewriteEngine Yes"),
    ("RewriteEngine On", "RewriteEngine on # enable"), ("Redirect 301", "Redirect 301 "),
    ("Redirect 301 ", "Redirect 301 http://"), ("Redirect permanent / ", "Redirect permanent "),
    ("Header set", "Header sett"), ("Header always set", "Header always add"),
    ("</IfModule>", "</IfModule"), ("</IfModule>", ""), ("<IfModule mod_rewrite.c>", "<IfModule mod_rewrite.c"),
    ("</FilesMatch>", "</Files>"), ("ErrorDocument 404 /", "ErrorDocument 404 "),
    ("ErrorDocument 404 /404.html", "ErrorDocument 404 404.html"), ("DirectoryIndex", "DirectoryIndex "),
    ("RewriteBase /", "RewriteBase"), ("RewriteBase /", "RewriteBase blog/"),
    ("FallbackResource /", "FallbackResource "), ("[R=301,L]", "[R=3O1,L]"),
    ("[R=301,L]", "[R=200,L]"), ("[R=302,L]", "[R=399,L]"), ("[L,R=301]", "[L,R=301,NE,NE]"),
    ("[F]", "[F,R=301]"), ("[NC]", "[NC,L]"), ("[NC]", "[NOCASE,OR]"),
    ("[OR]", "[or]"), ("[OR]", "[OR"), ("AddType", "AddType ."),
    ("SetEnvIf Origin", "SetEnvIf origin"), ("env=ORIGIN_OK", "env=!ORIGIN_OK"),
    ("ServerSignature Off", "ServerSignature Of"), ("AddDefaultCharset UTF-8", "AddDefaultCharset"),
    ("RedirectMatch 404", "RedirectMatch 404 "), ("Options +FollowSymLinks", "Options FollowSymLinks -Indexes"),
    ("FileETag None", "FileETag Nope"), ("\"", "", 1), (None, "\\"),
]
def make_err(i):
    make_case(i)
    d = os.path.join(OUT, f"real-cms-{SEED}-{i:04d}")
    p = os.path.join(d, "site", ".htaccess")
    lines = open(p).read().split("\n")
    for _ in range(R.randint(1, 2)):
        for _ in range(40):
            k = R.randrange(len(lines)); old, new, *count = R.choice(TYPOS)
            new = lines[k] + new if old is None else lines[k].replace(old, new, *count)
            if new != lines[k]: lines[k] = new; break
    if R.random() < 0.15: lines.insert(R.randrange(len(lines) + 1), ch("Php_value upload_max_filesize 64M", "php_flag display_errors Off", "SSLRequireSSL", "AuthType Basic", "Order allow,deny", "Allow from all", "LimitRequestBody 100", "CheckSpelling On", "ExpiresActive On", "AddOutputFilterByType DEFLATE text/html", "Satisfy Any", "RewriteLog /tmp/x"))
    open(p, "w").write("\n".join(lines))

make = {"cms": make_case, "split": make_split, "typos": make_err}[MODE]
for i in range(N): make(i)
