#!/usr/bin/env python3
"""Sites built from the .htaccess snippets people paste (https, www, slashes, extensions, front
controllers, subfolders, redirects, deny rules, query rules, env, advanced flags) with vhost lines.

Usage: snippets.py OUT N SEED — writes N oracle cases to OUT (round r3 of docs/architecture.md: 1500 503)."""
import os, random, sys
from casefile import write_case

OUT, N, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
R = random.Random(SEED)
def ch(*xs): return R.choice(xs)

HOSTS = ["example.org", "shop.example", "blog.example.net"]

def https_block(host):
    conds = [
        ["RewriteCond %{HTTPS} off"], ["RewriteCond %{HTTPS} !=on"], ["RewriteCond %{HTTPS} !on [NC]"],
        ["RewriteCond %{SERVER_PORT} 80"], ["RewriteCond %{SERVER_PORT} ^80$"], ["RewriteCond %{SERVER_PORT} !^443$"],
        ["RewriteCond %{HTTP:X-Forwarded-Proto} !https"], ["RewriteCond %{HTTP:X-Forwarded-Proto} =http"],
        ["RewriteCond %{HTTP:X-Forwarded-Proto} !=https", "RewriteCond %{HTTPS} !=on"],
        ["RewriteCond %{HTTPS} off", "RewriteCond %{HTTP:X-Forwarded-Proto} !https"],
        ["RewriteCond %{HTTP:CF-Visitor} '\"scheme\":\"http\"'"], ["RewriteCond %{HTTP:CF-Visitor} !https"],
        ["RewriteCond %{ENV:HTTPS} !on"], ["RewriteCond %{REQUEST_SCHEME} =http"],
        ["RewriteCond %{HTTPS} off [OR]", "RewriteCond %{HTTP_HOST} ^www\\. [NC]"],
    ]
    targets = ["https://%{HTTP_HOST}/$1", "https://%{HTTP_HOST}%{REQUEST_URI}", "https://%{SERVER_NAME}/$1",
               f"https://{host}/$1", f"https://www.{host}/$1", "https://%{HTTP_HOST}$1", f"https://{host}%{{REQUEST_URI}}"]
    pats = ["^(.*)$", "^/?(.*)", "(.*)", "^", ".*", "^(.*)"]
    flags = ["[R=301,L]", "[R,L]", "[L,R=301]", "[R=302,L]", "[R=301,L,NE]", "[R=301]", "[L,R=301,QSA]", "[R=308,L]", "[END,R=301]"]
    return R.choice(conds) + [f"RewriteRule {R.choice(pats)} {R.choice(targets)} {R.choice(flags)}"]

def www_block(host):
    if R.random() < 0.5:  # add www
        return [f"RewriteCond %{{HTTP_HOST}} ^{host.replace('.', chr(92)+'.')}$ {ch('[NC]', '')}".rstrip(),
                f"RewriteRule ^(.*)$ {ch('http', 'https', 'http%{ENV:proto}')}://www.{host}/$1 {ch('[R=301,L]', '[L,R=301]', '[R,L]')}"]
    return [ch("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]", "RewriteCond %{HTTP_HOST} ^www\\.(.*)$", "RewriteCond %{HTTP_HOST} !^" + host.replace('.', '\\.') + "$ [NC]"),
            ch("RewriteRule ^(.*)$ https://%1/$1 [R=301,L]", "RewriteRule ^ http://%1%{REQUEST_URI} [R=301,L]",
               f"RewriteRule ^(.*)$ http://{host}/$1 [R=301,L]", f"RewriteRule ^ https://{host}%{{REQUEST_URI}} [L,R=301]")]

def slash_block():
    return ch(
        ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule ^(.*)/$ /$1 [L,R=301]"],
        ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_URI} (.+)/$", "RewriteRule ^ %1 [L,R=301]"],
        ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_URI} !(.*)/$", "RewriteRule ^(.*)$ /$1/ [L,R=301]"],
        ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^(.*[^/])$ $1/ [R=301,L]"],
        ["RewriteRule ^(.+)/$ /$1 [R=301,L]"],
        ["RewriteCond %{REQUEST_URI} !\\.[a-z0-9]+$ [NC]", "RewriteCond %{REQUEST_URI} !/$", "RewriteRule ^(.*)$ /$1/ [R=302,L]"])

def html_block():
    return ch(
        ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_FILENAME}.html -f", "RewriteRule ^(.+)$ $1.html [L]"],
        ["RewriteCond %{REQUEST_FILENAME}.html -f", "RewriteRule ^(.*)$ $1.html [NC,L]"],
        ["RewriteCond %{THE_REQUEST} \\s/([^.]+)\\.html[\\s?] [NC]", "RewriteRule ^ /%1 [R=301,L]",
         "RewriteCond %{REQUEST_FILENAME}.html -f", "RewriteRule ^(.*)$ $1.html [L]"],
        ["RewriteRule ^(.*)\\.html$ /$1 [R=301,L]", "RewriteCond %{REQUEST_FILENAME}.html -f", "RewriteRule ^(.*)$ $1.html"],
        ["RewriteCond %{THE_REQUEST} /index\\.(php|html) [NC]", "RewriteRule ^(.*)index\\.(php|html)$ /$1 [R=301,L]"],
        ["RewriteCond %{THE_REQUEST} ^[A-Z]{3,9}\\ /(.*)index\\.php", "RewriteRule ^index\\.php$ / [R=301,L]"])

def front_block(base):
    return ch(
        [f"RewriteBase {base}", "RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f",
         "RewriteCond %{REQUEST_FILENAME} !-d", f"RewriteRule . {base}index.php [L]"],
        ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^ index.php [L]"],
        ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^(.*)$ index.php?url=$1 [QSA,L]"],
        ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule ^(.*)$ index.php/$1 [L]"],
        ["FallbackResource /index.html"], [f"FallbackResource {base}index.php"],
        ["RewriteCond %{REQUEST_FILENAME} -s [OR]", "RewriteCond %{REQUEST_FILENAME} -l [OR]", "RewriteCond %{REQUEST_FILENAME} -d",
         "RewriteRule ^.*$ - [NC,L]", "RewriteRule ^(.*) /index.html [NC,L]"],
        ["RewriteRule ^(.*)$ index.php?/$1 [L]"],
        ["RewriteCond %{REQUEST_URI} !^/index\\.php", "RewriteRule ^(.*)$ index.php [END]"])

def subfolder_block(sub):
    return ch(
        [f"RewriteCond %{{REQUEST_URI}} !^/{sub}/", f"RewriteRule ^(.*)$ /{sub}/$1 [L]"],
        [f"RewriteRule ^(.*)$ /{sub}/$1 [L]"],
        [f"RewriteRule ^$ {sub}/ [L]", f"RewriteRule (.*) {sub}/$1 [L]"],
        [f"RewriteCond %{{REQUEST_URI}} !^/{sub}", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d", f"RewriteRule ^(.*)$ /{sub}/$1", f"RewriteRule ^(/)?$ {sub}/index.php [L]"],
        [f"RewriteCond %{{REQUEST_URI}} !^/{sub}/", f"RewriteRule ^(.*)$ /{sub}/$1 [R=301,L]"],
        [f"RewriteRule ^$ /{sub}/ [R=301,L]"],
        [f"RewriteCond %{{ENV:REDIRECT_STATUS}} ^$", f"RewriteRule ^(.*)$ {sub}/$1 [L]"],
        [f"RewriteCond %{{REQUEST_URI}} !^/{sub}/", f"RewriteRule ^(.*)$ {sub}/$1 [L,PT]"])

def alias_block():
    return R.sample([
        "Redirect 301 /old /new", "Redirect /old-page.html /about.html", "Redirect permanent /promo https://shop.example/sale",
        "RedirectMatch 301 ^/old/(.*)$ /new/$1", "RedirectMatch ^/blog/(\\d+)/(.*)$ /blog/$2", "Redirect gone /removed",
        "Redirect 410 /gone.html", "RedirectPermanent /docs /documentation", "RedirectMatch 302 (?i)^/SHOP$ /store/",
        "Redirect 303 /form /thanks", "RedirectMatch 301 ^/category/(.*)$ /blog/category/$1", "Redirect /a/ /b/",
        "RedirectTemp /tmp /tmp-new", "Redirect 301 /about /about/", "RedirectMatch 301 /index\\.html$ /"], R.randint(1, 3))

def deny_block():
    return ch(
        ["RewriteRule ^secret - [F]"], ["RewriteRule (^|/)\\. - [F,L]"], ["RewriteRule \\.(env|git|ini)$ - [F,NC]"],
        ["RewriteCond %{QUERY_STRING} (union|select|<script) [NC]", "RewriteRule .* - [F,L]"],
        ["RewriteCond %{HTTP_USER_AGENT} (bot|crawl) [NC]", "RewriteRule ^private - [F]"],
        ["RewriteCond %{HTTP_REFERER} !^$", "RewriteCond %{HTTP_REFERER} !^https?://(www\\.)?example\\.org [NC]", "RewriteRule \\.(png|jpg)$ - [F,NC]"],
        ["RewriteRule ^removed - [G]"], ["RewriteRule ^wp-admin - [R=404,L]"],
        ["RewriteCond %{REQUEST_METHOD} ^(TRACE|DELETE|POST)$", "RewriteRule .* - [F]"],
        ["RewriteRule ^old/(.*)$ /new/$1 [R=301,L]"])

def query_block():
    return ch(
        ["RewriteCond %{QUERY_STRING} ^p=([0-9]+)$", "RewriteRule ^$ /post-%1? [R=301,L]"],
        ["RewriteCond %{QUERY_STRING} ^id=([0-9]+)$", "RewriteRule ^product\\.php$ /product/%1 [R=301,L,QSD]"],
        ["RewriteCond %{QUERY_STRING} (^|&)utm_[^&]+", "RewriteRule ^(.*)$ /$1? [R=301,L]"],
        ["RewriteRule ^product/([0-9]+)/?$ product.php?id=$1 [L,QSA]"],
        ["RewriteRule ^search/(.*)$ /index.php?s=$1 [L,B]"],
        ["RewriteRule ^go/(.*)$ /index.php?to=$1 [L,NE,QSA]"],
        ["RewriteCond %{QUERY_STRING} .", "RewriteRule ^about$ /about? [R=302,L]"],
        ["RewriteRule ^page/([a-z]+)$ /index.php?page=$1&%{QUERY_STRING} [L]"])

def env_block():
    return ch(
        ["SetEnvIf Host ^www\\. IS_WWW=1", "RewriteCond %{ENV:IS_WWW} =1", "RewriteRule ^env-test$ /about.html [R=302,L]"],
        ["RewriteRule ^ - [E=proto:s]", "RewriteCond %{HTTPS} !on", "RewriteRule ^ - [E=proto:]"],
        ["RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]"],
        ["RewriteCond %{ENV:REDIRECT_STATUS} 200", "RewriteRule ^ - [L]"],
        ["RewriteRule ^api/(.*)$ - [E=API:$1]", "RewriteCond %{ENV:API} !^$", "RewriteRule ^api/ /index.php [L]"])

def misc_block(base):
    return R.sample([
        "Options -Indexes", "Options -MultiViews", "Options +FollowSymLinks -MultiViews", "DirectoryIndex index.php index.html",
        "DirectoryIndex index.html", "DirectorySlash Off", "ErrorDocument 404 /404.html", "ErrorDocument 403 /403.html",
        "ErrorDocument 404 \"Not here\"", "ErrorDocument 500 /500.html", "AcceptPathInfo On", "Options +Indexes",
        "ErrorDocument 404 /index.php", "ErrorDocument 404 https://example.org/", "Header always set Strict-Transport-Security \"max-age=300\"",
        "Header set X-Frame-Options SAMEORIGIN", "AddType text/plain .php", "Options +MultiViews",
        "<Files \".env\">\nRequire all denied\n</Files>", "<FilesMatch \"\\.(bak|sql)$\">\nRequire all denied\n</FilesMatch>",
        "RewriteOptions inherit", "RewriteOptions InheritDown"], R.randint(1, 2))

def sub_htaccess(sub):
    return ch(
        ["RewriteEngine On", f"RewriteBase /{sub}/", "RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f",
         "RewriteCond %{REQUEST_FILENAME} !-d", f"RewriteRule . /{sub}/index.php [L]"],
        ["RewriteEngine On", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^(.*)$ index.php [L]"],
        ["RewriteEngine On"], ["RewriteEngine Off"], ["RewriteEngine On", "RewriteOptions inherit"],
        ["RewriteEngine On", "RewriteRule ^(.*)$ /$1 [R=301,L]"],
        ["RewriteEngine On", "RewriteRule ^old$ new [R=301,L]", "RewriteRule ^x$ /about.html [L]"],
        ["DirectoryIndex index.php", "Options -Indexes"], ["Require all denied"],
        ["RewriteEngine On", "RewriteCond %{HTTPS} off", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"],
        ["RewriteEngine On", "RewriteRule ^(.*)$ ../index.html [L]"],
        ["Redirect 301 /" + sub + "/old /" + sub + "/new"])


def adv_block(sub):
    return ch(
        ["RewriteRule ^a/(.*)$ b/$1 [C]", "RewriteRule ^b/(.*)$ /docs/$1 [L]"],
        ["RewriteRule ^x$ - [S=1]", "RewriteRule ^x$ /about.html [R=302,L]", "RewriteRule ^x$ /docs/ [R=301,L]"],
        ["RewriteRule ^(.*)_(.*)$ $1-$2 [N]", "RewriteRule ^(.*-.*)$ /docs/?q=$1 [R=302,L]"],
        ["RewriteRule ^dp/(.*)$ /$1 [DPI,L]"], ["RewriteRule ^pt/(.*)$ /docs/$1 [PT,L]"],
        ["RewriteCond %{REQUEST_FILENAME} -l [OR]", "RewriteCond %{REQUEST_FILENAME} -s", "RewriteRule ^ - [L]"],
        ["<If \"%{HTTPS} != 'on'\">", "Redirect 301 /secure https://example.org/secure", "</If>"],
        ["<If \"%{HTTP_HOST} =~ /^www\\./\">", "RedirectMatch 301 ^/w/(.*)$ /docs/$1", "</If>"],
        ["<IfModule !mod_ssl.c>", "RewriteRule ^ssl$ /no-ssl [R,L]", "</IfModule>", "<IfModule mod_ssl.c>", "RewriteRule ^ssl$ /has-ssl [R,L]", "</IfModule>"],
        ["RewriteCond %{REQUEST_URI} ^/(.+)/(.+)$", "RewriteCond %1 !=docs", "RewriteRule ^ /docs/%2 [R=302,L]"],
        ["RewriteCond %{HTTP_HOST} ^(www\\.)?(.+)$", "RewriteCond %{REQUEST_URI} ^/h(.*)$", "RewriteRule ^ https://%2%1 [R=301,L]"],
        ["RewriteRule ^t/(.*)$ /docs/guide.html [T=text/plain,L]"], ["RewriteRule ^h/ - [H=text/plain]"],
        ["RewriteRule ^c/ /about.html [CO=seen:1:.example.org,R=302,L]"],
        ["RewriteRule ^ns/(.*)$ /docs/$1 [NS,L]"], ["RewriteRule ^nc/(.*)$ /DOCS/$1 [NC,R=301,L]"],
        ["RewriteCond expr \"%{QUERY_STRING} =~ /debug/\"", "RewriteRule ^ - [F]"],
        ["RewriteCond %{REQUEST_URI} -U", "RewriteRule ^u/(.*)$ /$1 [L]"],
        ["RewriteCond %{THE_REQUEST} \\?", "RewriteRule ^q$ /docs/? [R=301,L]"],
        [f"RewriteRule ^{sub}/(.*)$ /$1 [R=301,L]"],
        ["RewriteRule ^(.*)/(.*)/(.*)$ /$3/$2/$1 [L]"],
        ["RewriteRule ^end/(.*)$ /docs/$1 [END]", "RewriteRule ^docs/(.*)$ /about.html [R=302,L]"],
        ["RewriteRule ^loop/(.*)$ /loop/x$1 [L]"],
        ["RewriteRule ^(.*)$ $1 [L]"],
        ["RewriteRule ^ /about.html [L]"],
        ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^(.*)$ /%{REQUEST_URI}/index.php [L]"],
        ["Options +MultiViews"], ["Options -FollowSymLinks"], ["Options None"],
        ["RewriteRule ^gone$ - [G,L]", "ErrorDocument 410 /about.html"],
        ["ErrorDocument 404 /" + sub + "/index.php"], ["ErrorDocument 403 /missing.html", "RewriteRule ^f$ - [F]"])


VHOST = [
    ["Alias /static ${DOCROOT}/docs"], ["Alias /static/ ${DOCROOT}/docs/"],
    ["<Directory ${DOCROOT}/SUB>", "AllowOverride None", "</Directory>"],
    ["<Directory ${DOCROOT}>", "AllowOverride FileInfo", "</Directory>"],
    ["<Directory ${DOCROOT}>", "AllowOverride AuthConfig Limit", "</Directory>"],
    ["<Directory ${DOCROOT}>", "Options -FollowSymLinks", "</Directory>"],
    ["RewriteEngine On", "RewriteRule ^/vh/(.*)$ /docs/$1 [R=302,L]"],
    ["RewriteEngine On", "RewriteCond %{HTTPS} off", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"],
    ["RewriteEngine On", "RewriteRule ^/old/(.*)$ /new/$1 [PT]"],
    ["Redirect 301 /vredir /about.html"], ["<Location /private>", "Require all denied", "</Location>"],
    ["UseCanonicalName On"], ["DirectoryIndex index.php"], ["ErrorDocument 404 /404.html"],
    ["<Directory ${DOCROOT}>", "RewriteEngine On", "RewriteRule ^dirrule$ /about.html [R=302,L]", "</Directory>"],
    ["RewriteEngine On", "RewriteOptions Inherit"], ["AllowEncodedSlashes On"], ["AcceptPathInfo On"],
    ["Header always set X-VH yes"], ["<LocationMatch \"^/docs/\">", "Redirect 302 /docs/guide.html /about.html", "</LocationMatch>"],
]

def make_case(i):
    host = R.choice(HOSTS)
    sub = ch("blog", "wp", "app", "shop")
    base = ch("/", "/", f"/{sub}/")
    lines = []
    kinds = R.sample(["https", "www", "slash", "html", "front", "subfolder", "alias", "deny", "query", "env", "misc", "adv", "adv", "adv"], R.randint(3, 7))
    if R.random() < 0.3: kinds = ["https"] + [k for k in kinds if k != "https"]
    engine = R.random() < 0.95
    if engine: lines.append("RewriteEngine On")
    for k in kinds:
        if k == "https": lines += https_block(host)
        elif k == "www": lines += www_block(host)
        elif k == "slash": lines += slash_block()
        elif k == "html": lines += html_block()
        elif k == "front": lines += front_block(base)
        elif k == "subfolder": lines += subfolder_block(sub)
        elif k == "alias": lines += alias_block()
        elif k == "deny": lines += deny_block()
        elif k == "query": lines += query_block()
        elif k == "env": lines += env_block()
        elif k == "misc": lines += misc_block(base)
        elif k == "adv": lines += adv_block(sub)
    if R.random() < 0.15:
        lines = ["<IfModule mod_rewrite.c>"] + lines + ["</IfModule>"]
    files = {"index.php": "root index.php\n", "about.html": "about page\n", "css/app.css": "body{}\n", "img/logo.png": "png-bytes\n",
             "robots.txt": "User-agent: *\n", "404.html": "custom 404\n", "docs/index.html": "docs index\n", "docs/guide.html": "guide\n",
             "new/page": "new page\n", "product.php": "product script\n"}
    if R.random() < 0.5: files["index.html"] = "root index.html\n"
    if R.random() < 0.3: files["403.html"] = "custom 403\n"
    if R.random() < 0.3: files[".env"] = "SECRET=1\n"
    if R.random() < 0.3: files["secret.txt"] = "secret text\n"
    if R.random() < 0.7:
        files[f"{sub}/index.php"] = f"{sub} index.php\n"
        if R.random() < 0.5: files[f"{sub}/post.html"] = f"{sub} post\n"
        if R.random() < 0.5: files[f"{sub}/.htaccess"] = "\n".join(sub_htaccess(sub)) + "\n"
    hostnames = [host, "www." + host]
    paths = ["/", "/about", "/about.html", "/about/", f"/{sub}", f"/{sub}/", f"/{sub}/post-1", f"/{sub}/post.html", "/?p=3",
             "/index.php", "/index.php/foo", "/index.html", "/css/app.css", "/docs", "/docs/", "/docs/guide", "/old", "/old/page",
             "/old-page.html", "/wp-admin/", "/a%20b", "/product.php?id=42", "/product/7", "/search/a b".replace(" ", "%20"),
             "/x?utm_source=a&b=1", "/.env", "/secret.txt", "/removed", "/promo", "/img/logo.png", "/page/home", "/api/users",
             "/go/a%2Fb", "/Docs/", "/new/page", "/env-test", "/private/x", "/gone.html", "/about?x=1", "/%7Euser",
             "/blog/2020/hello", "/static/guide.html", "/static", "/vh/x", "/vredir", "/private/", "/dirrule", "/old/page", "/a%2Fb", "/docs/guide.html/extra", "/a/x", "/x", "/a_b_c", "/dp/about.html", "/pt/guide.html", "/secure", "/w/guide.html", "/ssl", "/t/x", "/h/x.txt", "/c/", "/ns/guide.html", "/nc/guide.html", "/?debug=1", "/u/about.html", "/q?a=1", "/end/guide.html", "/loop/a", "/gone", "/f", "/docs/guide.html?x=%41", "/a/b/c", "/category/news", "/SHOP", "/form", "/docs/guide.html", "/404.html", "/a/b/c/"]
    reqs = []
    for _ in range(R.randint(4, 8)):
        url = f"{ch('http', 'https')}://{R.choice(hostnames)}{R.choice(paths)}"
        r = R.random()
        if r < 0.08: reqs.append({"url": url, "method": ch("HEAD", "POST")})
        elif r < 0.14: reqs.append({"url": url, "headers": {"User-Agent": ch("Googlebot/2.1", "curl/8", "Mozilla/5.0 Mobile")}})
        elif r < 0.18: reqs.append({"url": url, "headers": {"Referer": ch("https://other.example/x", "https://example.org/p")}})
        elif r < 0.21: reqs.append({"url": url, "headers": {"X-Forwarded-Proto": "https"}})
        else: reqs.append(url)
    edge = ch("none", "none", "none", "flexible", "flexible+always-https", "full", "full+always-https")
    case = {"description": f"real-gen {SEED}-{i}: {' '.join(kinds)}", "host": host, "aliases": ["www." + host], "edge": edge, "requests": reqs}
    if any(l.startswith("SetEnvIf") or "%{ENV:" in l for l in lines) and R.random() < 0.5: pass
    if R.random() < 0.4:
        v = []
        for blk in R.sample(VHOST, R.randint(1, 3)): v += [l.replace("SUB", sub) for l in blk]
        case["vhost"] = v
    if R.random() < 0.2:
        for extra in ("blog", "docs", "wp"):
            if R.random() < 0.5:
                files[f"{extra}/.htaccess"] = "\n".join(sub_htaccess(extra)) + "\n"
    d = os.path.join(OUT, f"real-gen-{SEED}-{i:04d}")
    files[".htaccess"] = "\n".join(lines).replace("\\n", "\n") + "\n"
    write_case(d, case, files)

for i in range(N): make_case(i)
