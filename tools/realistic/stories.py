#!/usr/bin/env python3
"""Multi-file sites in the shape of the shared corpus's story/tricky/nested/recursion/base/backref/
env/lend cases: a root .htaccess (https/www guards, root-to-subfolder maps, Redirect/RedirectMatch,
[E=] read by later conditions, %N/$N, [N], query and escape flags) over /blog, /shop, /app/public
and /docs, each with its own .htaccess (RewriteBase and RewriteOptions variants), behind every edge.

Usage: stories.py OUT N SEED [deep|odd|wire] — writes N oracle cases to OUT (round r8 of docs/architecture.md:
1500 508; r9: 1500 509 deep, which adds a third .htaccess level, vhost rules and rarer flags; r10:
1500 510 odd, deep sites asked with odd requests: dot segments, double slashes, bad escapes, Host forms;
r11: 1500 511 wire, as odd with conditional, range, Expect and unknown-method requests; layers: deep sites
whose virtual host always stacks 2-5 server-context layers over the .htaccess files: server-context
RewriteRule and Redirect/RedirectMatch on the same paths, <Directory>/<DirectoryMatch> rule sets with
RewriteOptions and RewriteBase, <Location>/<LocationMatch> rules, Redirects and headers, an Alias with
its own <Directory>, <If> redirects, AllowOverride and Options limits)."""
import os, random, sys
from casefile import write_case

OUT, N, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
MIX = (sys.argv[4:] or ["story"])[0]
DEEP = MIX in ("deep", "odd", "wire", "layers")
R = random.Random(SEED)
def ch(*xs): return R.choice(xs)
def maybe(p, xs): return xs if R.random() < p else []

def https_block(host):
    cond = ch(["RewriteCond %{HTTPS} !=on"], ["RewriteCond %{HTTPS} off"], ["RewriteCond %{SERVER_PORT} ^80$"],
              ["RewriteCond %{HTTP:X-Forwarded-Proto} !=https", "RewriteCond %{HTTPS} !=on"],
              ["RewriteCond %{HTTP:X-Forwarded-Proto} =http [OR]", "RewriteCond %{HTTPS} off"],
              ["RewriteCond %{HTTP:CF-Visitor} '\"scheme\":\"http\"'"], ["RewriteCond %{REQUEST_SCHEME} =http"],
              ["RewriteCond %{ENV:HTTPS} !on"], ["RewriteCond %{HTTPS} !=on", "RewriteCond %{HTTP:X-Forwarded-Proto} !https"])
    target = ch("https://%{SERVER_NAME}/$1", "https://%{HTTP_HOST}%{REQUEST_URI}", "https://%{HTTP_HOST}/$1", f"https://{host}/$1")
    return cond + [f"RewriteRule {ch('^/?(.*)', '^(.*)$', '(.*)')} {target} {ch('[R=301,L]', '[L,R=301]', '[R=301,L,NE]', '[R=302]', '[R=301,END]')}"]

def www_block(host):
    h = host.replace(".", "\\.")
    return ch([f"RewriteCond %{{HTTP_HOST}} ^{h}$ [NC]", f"RewriteRule ^(.*)$ https://www.{host}/$1 [R=301,L]"],
              ["RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]", "RewriteRule ^ %{REQUEST_SCHEME}://%1%{REQUEST_URI} [R=301,L]"],
              ["RewriteCond %{HTTPS}s ^on(s)|", f"RewriteCond %{{HTTP_HOST}} !^www\\. [NC]", f"RewriteRule ^ http%1://www.{host}%{{REQUEST_URI}} [R=301,L]"],
              ["RewriteCond %{HTTP_HOST} ^(www\\.)?(.+)$", "RewriteCond %1 =www.", "RewriteRule ^(.*)$ http://%2/$1 [R=302,L]"])

def map_block(sub):
    g = ch([f"RewriteCond %{{REQUEST_URI}} !^/{sub}/"], [f"RewriteCond %{{REQUEST_URI}} !^/{sub}"], [],
           ["RewriteCond %{ENV:REDIRECT_STATUS} ^$"], ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d"],
           [f"RewriteCond $1 !^{sub}/"])
    host = maybe(0.4, ["RewriteCond %{HTTP_HOST} ^(www\\.)?[a-z.]+$ [NC]"])
    rule = ch(f"RewriteRule ^(.*)$ {sub}/$1", f"RewriteRule ^(.*)$ /{sub}/$1", f"RewriteRule ^(.*)$ {sub}", f"RewriteRule (.*) {sub}/$1",
              f"RewriteRule ^$ {sub}/", f"RewriteRule ^(?!{sub}/)(.*)$ {sub}/$1")
    return host + g + [f"{rule} {ch('[L]', '[END]', '[PT,L]', '[L,QSA]', '')}".rstrip()]

def alias_block(subs):
    s = R.choice(subs)
    return R.sample([f"Redirect 301 /old-{s} /{s}/", f"Redirect /{s}/old /{s}/new", f"RedirectMatch 301 ^/{s}/(\\d+)$ /{s}/?p=$1",
                     f"RedirectMatch ^/{s}$ /{s}/", f"Redirect permanent /{s}/legacy http://www.example.org/{s}/", "Redirect 410 /gone",
                     f"RedirectMatch 302 ^/(?!{s})([a-z]+)/item/(.*)$ /{s}/item/$2", "Redirect 301 /start /about.html?from=start",
                     f"RedirectMatch 301 (?i)^/{s.upper()}/(.*) /{s}/$1", "Redirect seeother /form /about.html"], R.randint(1, 3))

def env_block(subs):
    s = R.choice(subs)
    return ch(["RewriteRule ^ - [E=SITE:main]", "RewriteCond %{ENV:SITE} =main", "RewriteRule ^whoami$ about.html [L]"],
              [f"RewriteRule ^{s}/(.*)$ - [E=SECTION:{s},E=REST:$1]", "RewriteCond %{ENV:SECTION} !^$", f"RewriteRule ^{s}/x-(.*)$ {s}/%{{ENV:REST}}.html [L]"],
              ["RewriteCond %{ENV:REDIRECT_STATUS} =200", "RewriteRule ^ - [L]"],
              ["RewriteCond %{ENV:REDIRECT_MAPPED} =1", "RewriteRule ^ - [E=SEEN:again]", "RewriteRule ^mapped$ about.html [E=MAPPED:1,L]"],
              ["RewriteCond %{HTTP:X-Forwarded-Proto} =https", "RewriteRule ^ - [E=HTTPS:on]", "RewriteCond %{ENV:HTTPS} !=on", "RewriteRule ^secure$ https://%{HTTP_HOST}/secure [R=301,L]"],
              ["SetEnvIf Request_URI ^/" + s + " IN_SUB=1", "RewriteCond %{ENV:IN_SUB} =1", f"RewriteRule ^{s}/setenv$ /about.html [R=302,L]"],
              ["RewriteRule ^ - [E=PROTO:http]", "RewriteCond %{HTTPS} =on", "RewriteRule ^ - [E=PROTO:https]", "RewriteRule ^proto$ %{ENV:PROTO}://%{HTTP_HOST}/about.html [R=302,L]"])

def backref_block(subs):
    s = R.choice(subs)
    return ch(["RewriteCond %{QUERY_STRING} (^|&)p=(\\d+)(&|$)", "RewriteRule ^$ /post-%2? [R=301,L]"],
              ["RewriteCond %{REQUEST_URI} ^/([^/]+)/([^/]+)$", "RewriteCond %1 !=" + s, "RewriteRule ^ /" + s + "/%2 [R=302,L]"],
              ["RewriteCond %{DOCUMENT_ROOT}/" + s + "/$1 -f", "RewriteRule ^(.+)$ " + s + "/$1 [L]"],
              ["RewriteCond %{HTTP_HOST} ^(www\\.)?(.+)$", "RewriteRule ^h/(.*)$ http://%2/$1 [R=302,L]"],
              ["RewriteRule ^(\\w+)/(\\d+)$ show.html?type=$1&id=$2 [L]"],
              ["RewriteCond $1 ^(a|b)", "RewriteRule ^(\\w)-(\\w+)$ /%1/$2 [R=302,L]"],
              ["RewriteCond %{QUERY_STRING} ^id=([0-9]+)$", "RewriteRule ^item\\.php$ /" + s + "/item/%1? [R=301,L]"],
              ["RewriteRule ^old/.*$ /archive/$0 [R=301,L]"],
              ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^((\\d{4})/(\\d{2}))/(.*)$ show.html?ym=$1&y=$2&m=$3&slug=$4 [L,QSA]"])

def flags_block():
    return ch(["RewriteRule ^(.*)_(.*)$ $1-$2 [N]", "RewriteRule ^(\\w+-\\w+.*)$ show.html?n=$1 [L]"],
              ["RewriteRule ^a/(.*)$ b/$1", "RewriteRule ^b/(.*)$ show.html?b=$1 [L]"],
              ["RewriteRule ^q/(.*)$ show.html?q=$1 [B,L]"], ["RewriteRule ^q/(.*)$ show.html?q=$1 [L,NE]"],
              ["RewriteRule ^r/(.*)$ /show.html?q=$1 [R=302,NE,L]"], ["RewriteRule ^r/(.*)$ /show.html?q=$1 [R=302,B,L]"],
              ["RewriteRule ^k/(.*)$ show.html?k=$1 [QSA,L]"], ["RewriteRule ^k/(.*)$ show.html [QSD,L]"],
              ["RewriteRule ^k/(.*)$ /show.html?k=$1 [R=302,QSD]"], ["RewriteRule ^z/(.*)$ show.html?z=$1?y=2 [QSL,L]"],
              ["RewriteRule ^s$ - [S=1]", "RewriteRule ^s$ show.html [L]", "RewriteRule ^s$ about.html [L]"],
              ["RewriteRule ^c/(.*)$ - [C]", "RewriteRule ^c/(.*)$ show.html?c=$1 [L]"],
              ["RewriteRule ^e/(.*)$ show.html?e=$1 [END]", "RewriteRule ^show\\.html$ about.html [L]"],
              ["RewriteRule ^loop/(.*)$ loop/x$1 [L]"], ["RewriteRule ^p/(.*)$ p/$1 [L]"],
              ["RewriteRule ^(.*)$ - [E=PATH_SEEN:$1]", "RewriteCond %{ENV:PATH_SEEN} ^about$", "RewriteRule ^ about.html [L]"],
              ["RewriteRule ^([^.]+)$ $1.html [N=3]"])

def slash_block():
    return ch(["DirectorySlash Off"], ["DirectorySlash Off", "RewriteCond %{REQUEST_FILENAME} -d", "RewriteRule ^(.*[^/])$ $1/ [R=301,L]"],
              ["DirectoryIndex index.php"], ["DirectoryIndex missing.html about.html"], ["DirectoryIndex disabled"],
              ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule ^(.+)/$ /$1 [R=301,L]"],
              ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^(.*[^/])$ /$1/ [R=301,L]"],
              ["RewriteCond %{REQUEST_FILENAME}.html -f", "RewriteRule ^(.+)$ $1.html [L]"])

def root_front():
    return ch(["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule . /index.php [L]"],
              ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^(.*)$ index.php?path=$1 [QSA,END]"], ["FallbackResource /index.php"])

def rewrite_opts():
    return maybe(0.55, [ch("RewriteOptions Inherit", "RewriteOptions InheritBefore", "RewriteOptions IgnoreInherit", "RewriteOptions Inherit",
                           "RewriteOptions InheritDown", "RewriteOptions MergeBase")])

def base(sub):
    return ch([], [f"RewriteBase /{sub}/"], [f"RewriteBase /{sub}/"], ["RewriteBase /"], [f"RewriteBase /{sub}"])

def sub_htaccess(sub):
    if sub == "blog":
        b = base("blog")
        core = ["RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d",
                f"RewriteRule . {ch('/blog/index.php', 'index.php', '/index.php')} {ch('[L]', '[END]', '[L,QSA]')}"]
        extra = maybe(0.3, ch(["RewriteCond %{ENV:REDIRECT_SITE} =main", "RewriteRule ^who$ wp-login.php [L]"],
                              ["RewriteRule ^feed/?$ /blog/?feed=rss2 [R=301,L]"], ["RewriteRule ^(\\d+)/?$ ?p=$1 [L,QSA]"],
                              ["RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]"]))
        body = b + extra + core
    elif sub == "shop":
        body = base("shop") + ["RewriteRule ^item/([0-9]+)$ item.html?id=$1 [L,QSA]", f"RewriteRule ^old-cart$ {ch('cart.html', '/shop/cart.html', 'cart.html?from=old')} [R=301,L]",
                               ch("RewriteRule ^c/(.*)$ cart.html?c=$1 [B,L]", "RewriteRule ^$ item.html [L]", "RewriteRule ^x$ ../about.html [L]", "RewriteRule ^sale$ - [G]")]
    elif sub == "app":
        body = ["RewriteRule ^$ public/ [L]", f"RewriteRule (.*) public/$1 {ch('[L]', '[END]', '[L,QSA]')}"]
    elif sub == "app/public":
        body = maybe(0.6, ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_URI} (.+)/$", "RewriteRule ^ %1 [L,R=301]"]) + \
               ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_FILENAME} !-f", f"RewriteRule ^ index.php {ch('[L]', '[END]', '[QSA,L]')}"]
    else:  # docs
        body = ch(["DirectorySlash Off"], ["DirectoryIndex guide.html"], ["Redirect 301 /docs/old /docs/guide.html"],
                  ["RewriteRule ^guide$ guide.html [L]"], ["RewriteRule ^api$ api/ [R=301,L]"], ["Options -Indexes"],
                  ["RewriteRule ^(.*)\\.htm$ $1.html [L]"], ["Header set X-Docs yes"], ["RedirectMatch 302 ^/docs/v1/(.*)$ /docs/api/$1"])
    rew = any(l.startswith("Rewrite") for l in body)
    head = [ch("RewriteEngine On", "RewriteEngine On", "RewriteEngine On", "RewriteEngine Off", "# RewriteEngine On")] if rew else \
           maybe(0.3, ["RewriteEngine On"])
    lines = head + (rewrite_opts() if rew or head else []) + body
    if R.random() < 0.2: lines = ["<IfModule mod_rewrite.c>"] + lines + ["</IfModule>"]
    if R.random() < 0.15: lines.append(f"Header always set X-Env \"%{{SITE}}e|%{{REDIRECT_SITE}}e|%{{REDIRECT_STATUS}}e\"")
    return lines

def deep_block(subs):
    s = R.choice(subs)
    return ch([f"RewriteRule ^d/(.*)$ /{s}/$1 [DPI,L]"], ["RewriteRule ^b/(.*)$ show.html?b=$1 [BNP,L]"], ["RewriteRule ^b/(.*)$ show.html?b=$1 [B=?&,L]"],
              ["RewriteRule ^ns/(.*)$ show.html?ns=$1 [NS,L]"], [f"RewriteRule ^{s.upper()}/(.*)$ /{s}/$1 [NC,R=permanent,L]"],
              ["RewriteRule ^t/(.*)$ show.html [QSA,QSD,L]"], ["RewriteRule ^u/(.*)$ /show.html?u=$1 [R=seeother,QSA,L]"],
              [f"RewriteRule ^pt/(.*)$ /{s}/$1 [PT]"], [f"ErrorDocument 404 /{s}/index.php"], ["ErrorDocument 404 /show.html"],
              ["RewriteCond %{THE_REQUEST} \\s/+([^?\\s]*)\\.html[\\s?]", "RewriteRule ^ /%1 [R=301,NE,L]"],
              ["RewriteCond %{REQUEST_URI} ^(.*)//(.*)$", "RewriteRule . %1/%2 [R=301,L]"],
              ["RewriteRule ^(.*)$ - [E=ORIG:%{REQUEST_URI}]", "RewriteCond %{ENV:REDIRECT_ORIG} ^/(.+)$", "RewriteRule ^ - [E=FROM:%1]"],
              [f"RewriteCond %{{REQUEST_URI}} ^/{s}/(.*)$", f"RewriteRule ^ - [E=INNER:%1,S=1]", "RewriteRule ^ - [E=INNER:none]"],
              ["AcceptPathInfo On"], ["Options -Indexes"], ["RewriteRule ^n/([^/]*)/(.*)$ n/$1-$2 [N=8]", "RewriteRule ^n/(.*)$ show.html?n=$1 [L]"])

GRAND = {"blog/wp-admin": ["RewriteEngine On", "RewriteRule ^x$ index.php [L]"], "shop/products": ["RewriteEngine On", "RewriteBase /shop/products/", "RewriteRule ^(\\d+)$ index.php?id=$1 [L]"],
         "docs/api": ["DirectoryIndex v1.html"], "app/public": None}

def grand_htaccess(d):
    lines = list(GRAND[d]) + rewrite_opts()
    if R.random() < 0.4: lines += [ch("RewriteRule ^ - [E=LEVEL:3]", "RewriteCond %{ENV:REDIRECT_STATUS} !^$", "Require all denied", "DirectorySlash Off",
                                      "RewriteRule ^(.*)$ ../$1 [L]", "Redirect 302 /" + d + "/r /about.html")]
    return lines

def layers_vhost(subs, host):
    """2-5 server-context layers (layers mix): each names paths the requests below ask for."""
    s, t = R.choice(subs), R.choice(subs)
    h = host.replace(".", "\\.")
    server = ["RewriteEngine On"] + maybe(0.3, [ch("RewriteOptions InheritDown", "RewriteOptions InheritDownBefore")])
    blocks = [
        server + R.sample(["RewriteRule ^/old/(.*)$ /$1 [R=301,L]", "RewriteRule ^/legacy/(.*)$ /$1 [PT]", f"RewriteRule ^/{s}$ /{s}/ [R=302,L]",
                           "RewriteRule ^/(.*)$ - [E=VH:$1]", f"RewriteRule ^/vl/(.*)$ /{t}/$1 [L]", "RewriteRule ^/vq/(.*)$ /show.html?q=$1 [L,QSA]",
                           "RewriteCond %{REQUEST_URI} !^/(about|show)\\.html", "RewriteRule ^/vx$ /about.html [L]"], R.randint(1, 3)),
        server + [f"RewriteRule ^/vr(.*)$ /about.html?r=$1 [R={ch(301, 302)},L]", ch("Redirect 302 /vr /show.html", "RedirectMatch 301 ^/vr(.*)$ /show.html?m=$1",
                                                                                     "Redirect 301 /vr2 /about.html")],
        [ch("Redirect 302 /vr /show.html", "RedirectMatch 302 ^/vm/(.*)$ /" + t + "/$1", f"Redirect 301 /{s}/moved /{t}/", "Redirect 410 /vgone",
            f"RedirectMatch 301 ^/{s}/(\\d+)$ /{s}/?p=$1"), ch("RedirectMatch 302 ^/vr(.*)$ /about.html?n=$1", "Redirect 302 /vm /about.html", "")],
        ["<Directory ${DOCROOT}>", "RewriteEngine On"] + maybe(0.4, [ch("RewriteOptions InheritDown", "RewriteOptions Inherit", "RewriteBase /")]) +
        R.sample(["RewriteRule ^dir-root$ about.html [L]", "RewriteRule ^vx$ show.html [L]", "RewriteRule ^dr/(.*)$ /show.html?dr=$1 [R=302,L]",
                  f"RewriteRule ^{s}/dirsub$ /about.html [L]", "RewriteRule ^ - [E=DIRCTX:root]"], R.randint(1, 2)) + ["</Directory>"],
        [f"<Directory ${{DOCROOT}}/{s}>", ch("RewriteEngine On", "RewriteEngine On", "RewriteEngine Off")] +
        maybe(0.5, [ch("RewriteOptions Inherit", "RewriteOptions InheritBefore", "RewriteOptions IgnoreInherit", "RewriteOptions InheritDown")]) +
        maybe(0.4, [ch(f"RewriteBase /{s}/", "RewriteBase /")]) +
        [ch("RewriteRule ^dirsub$ ../about.html [L]", "RewriteRule ^dirsub$ /about.html [R=302,L]", f"RewriteRule ^(.*)$ - [E=DIRSUB:$1]",
            "RewriteRule ^x/(.*)$ $1 [L]")] + maybe(0.3, [ch("DirectorySlash Off", "Options -FollowSymLinks", "AllowOverride None", "AllowOverride FileInfo",
                                                               "DirectoryIndex missing.html", "Options -Indexes")]) + ["</Directory>"],
        [f'<DirectoryMatch "^${{DOCROOT}}/({"|".join(subs)})">', "RewriteEngine On", ch("RewriteRule ^dm$ /about.html [L]", "RewriteRule ^dm$ dm.html [R=302,L]"),
         "Header always set X-DM %{REQUEST_URI}e", "</DirectoryMatch>"],
        [f"<Location /{s}>", ch("Header always set X-Loc loc", "RewriteEngine On\nRewriteRule ^(.*)loc$ /about.html [R=302,L]", "Require all denied",
                               "Redirect 302 /show.html", 'Redirect 302 "/about.html?from=%{REQUEST_URI}"', "DirectoryIndex index.html index.php"),
         "</Location>"],
        [f'<LocationMatch "^/{s}/(?<rest>[a-z]+)">', ch('Header always set X-LM "%{MATCH_REST}e"', "Redirect 301 /about.html", "Header always set X-LM lm"),
         "</LocationMatch>"],
        [ch(f"Alias /al ${{DOCROOT}}/{s}", f"Alias /al/ ${{DOCROOT}}/{s}/", f"AliasMatch ^/al/(.*)$ ${{DOCROOT}}/{s}/$1"),
         f"<Directory ${{DOCROOT}}/{s}>", ch("RewriteEngine On", "DirectorySlash Off", "Options -Indexes"), ch(f"RewriteBase /al/", "RewriteBase /", "AcceptPathInfo On"),
         "</Directory>"],
        [f'<If "%{{HTTP_HOST}} =~ /^www\\./">', ch(f"Redirect 301 / http://{host}/", "RedirectMatch 302 ^/(.*)$ /about.html", f'Redirect 301 "http://{host}%{{REQUEST_URI}}"'),
         "</If>"] if R.random() < 0.5 else ['<If "%{REQUEST_URI} =~ m#^/vi#">', "Redirect 302 /about.html", "</If>"],
        [f"<Files about.html>", ch("Header always set X-F about", "Require all denied", "RewriteEngine On\nRewriteRule ^ /show.html [R=302,L]"), "</Files>"],
    ]
    lines = []
    for b in R.sample(blocks, R.randint(2, 5)):
        for l in b:
            if l: lines += l.split("\n")
    return lines

LAYER_PATHS = ["/old/about.html", "/legacy/show.html", "/vl/x", "/vq/a%20b?x=1", "/vx", "/vr", "/vr/a", "/vr2", "/vm/x", "/vm", "/vgone",
               "/dir-root", "/dr/a", "/al", "/al/", "/al/index.html", "/al/x", "/vi", "/dm", "/about.html", "/show.html"]

def vhost_lines():
    return R.choice(VHOST if DEEP else VHOST[:5])

VHOST = [["LimitInternalRecursion 4"], ["Alias /static ${DOCROOT}/docs"], ["DirectoryIndex index.php index.html"],
              ["RewriteEngine On", "RewriteRule ^/legacy/(.*)$ /$1 [PT]"], ["Redirect 301 /vh /about.html"],
              ["RewriteEngine On", "RewriteCond %{HTTPS} off", "RewriteRule ^/(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"],
              ["RewriteEngine On", "RewriteRule ^/(.*)$ - [E=VH:$1]"], ["RewriteEngine On", "RewriteOptions InheritDown", "RewriteRule ^/?vh2$ /about.html [L]"],
              ["<Directory ${DOCROOT}/blog>", "RewriteEngine On", "RewriteRule ^dir$ /about.html [R=302,L]", "</Directory>"],
              ["<Directory ${DOCROOT}/shop>", "AllowOverride None", "</Directory>"], ["ErrorDocument 404 /show.html"],
              ["Alias /files ${DOCROOT}/app/public", "<Directory ${DOCROOT}/app/public>", "DirectorySlash Off", "</Directory>"]]

FILES = {"blog": ["index.php", "wp-login.php", "wp-admin/index.php", "wp-content/uploads/pic.jpg", "post.html"],
         "shop": ["index.html", "item.html", "cart.html", "products/index.php"],
         "app": ["public/index.php", "public/css/app.css", "public/robots.txt", "README.md"],
         "docs": ["index.html", "guide.html", "api/v1.html", "a b.html"]}
PATHS = {"blog": ["/blog", "/blog/", "/blog/hello-world/", "/blog/wp-login.php", "/blog/wp-admin", "/blog/wp-content/uploads/pic.jpg",
                  "/hello-world/", "/wp-login.php", "/blog/feed", "/blog/42", "/blog/who", "/blog/index.php/x", "/blog/post.html?s=a%26b"],
         "shop": ["/shop", "/shop/", "/shop/item/5", "/shop/item/5?ref=a%20b", "/shop/old-cart", "/shop/old-cart?x=1", "/shop/c/a%2Fb",
                  "/shop/x", "/shop/sale", "/shop/products", "/item/7", "/SHOP/item/3", "/shop/item.html"],
         "app": ["/app", "/app/", "/app/users/7", "/app/users/7/", "/app/css/app.css", "/app/public/", "/app/public/css/app.css",
                 "/app/robots.txt", "/app/index.php?x=%C3%A9"],
         "docs": ["/docs", "/docs/", "/docs/api", "/docs/api/", "/docs/guide", "/docs/guide.htm", "/docs/old", "/docs/v1/v1.html",
                  "/docs/a%20b.html", "/docs/guide.html/extra"]}
COMMON = ["/", "/about.html", "/about", "/about/", "/missing", "/missing/", "/index.php", "/show.html?x=1", "/old-blog", "/gone",
          "/start", "/form", "/whoami", "/mapped", "/secure", "/proto", "/setenv", "/?p=12&x=1", "/post/12", "/2024/05/hello?x=1",
          "/a-b", "/b-c", "/a_b_c", "/a/x", "/q/a%20b%26c", "/q/%C3%A9t%C3%A9", "/r/a%20b?x=1", "/k/v?keep=1", "/z/w?o=1", "/s",
          "/c/1", "/e/1", "/loop/a", "/p/1", "/old/x.html", "/h/about.html", "/item.php?id=9", "/about.html?utm=%2F%3F",
          "/%7Eabout.html", "/about.html/", "/index.php/x/y", "/robots.txt", "/x%20y"]

DEEP_PATHS = ["/blog/wp-admin/x", "/blog/wp-admin/", "/blog/wp-admin/r", "/shop/products/12", "/shop/products", "/docs/api/", "/docs/api/r",
              "/d/x", "/b/a%3Fb%26c%20d", "/ns/x", "/BLOG/x", "/SHOP/item/2", "/t/x?a=1", "/u/a?b=1", "/pt/index.html", "/pt/", "/static/guide.html",
              "/static/", "/legacy/about.html", "/vh", "/vh2", "/blog/dir", "/files/css/app.css", "/files/css", "/a//b", "/about.html?y=2",
              "/n/a/b/c", "/index.php/x", "/show.html/", "/app/users/7?x=%26%3D", "/app/public/nope/"]

def odd(url):
    """A browser-legal but unusual form of url (odd mix only)."""
    scheme, rest = url.split("://", 1)
    host, _, path = rest.partition("/")
    path = "/" + path
    path = ch(path, path.upper(), path.replace("/", "//", 1), "/." + path, "/x/.." + path, path + "/.", path.rstrip("/") + "%2F",
              path + ";v=1", path.replace("a", "%61", 1), path.replace("/", "/%2e%2e/", 1), path + "?", path + "?a=%ZZ", path + "?a=b+c&a=%2B",
              path + ("&" if "?" in path else "?") + "%C3%A9=%E2%82%AC", path + "%00", path.replace(".", "%2E"), path + "%20", path + "?#x",
              path.replace("/", "/..%2F", 1), path + ("&" if "?" in path else "?") + "u=http%3A%2F%2Fx%2Fy")
    return f"{scheme}://{host}{path}"

def make_case(i):
    host = ch("example.org", "shop.example", "blog.example.net")
    subs = R.sample(["blog", "shop", "app", "docs"], R.randint(1, 3))
    files = {"index.html": "root index.html\n", "about.html": "about page\n", "show.html": "show page\n", "robots.txt": "robots\n"}
    if R.random() < 0.5: files["index.php"] = "root index.php\n"
    if R.random() < 0.3: files["archive/old/x.html"] = "archive old x\n"
    for s in subs:
        for f in FILES[s]: files[f"{s}/{f}"] = f"{s}/{f} contents\n"
        if R.random() < 0.85: files[f"{s}/.htaccess"] = "\n".join(sub_htaccess(s)) + "\n"
        if s == "app" and R.random() < 0.85: files["app/public/.htaccess"] = "\n".join(sub_htaccess("app/public")) + "\n"
    kinds = R.sample(["https", "www", "map", "alias", "env", "env", "backref", "flags", "flags", "slash", "front", "opts"] + ["deep"] * 3 * DEEP,
                     R.randint(2, 6 if DEEP else 5))
    lines = ["RewriteEngine On"] if R.random() < 0.95 else []
    for k in kinds:
        if k == "https": lines += https_block(host)
        elif k == "www": lines += www_block(host)
        elif k == "map": lines += map_block(R.choice(subs))
        elif k == "alias": lines += alias_block(subs)
        elif k == "env": lines += env_block(subs)
        elif k == "backref": lines += backref_block(subs)
        elif k == "flags": lines += flags_block()
        elif k == "slash": lines += slash_block()
        elif k == "front": lines += root_front()
        elif k == "deep": lines += deep_block(subs)
        elif k == "opts": lines += [ch("RewriteOptions InheritDown", "RewriteOptions InheritDownBefore")] + maybe(0.5, ["RewriteBase /"])
    if R.random() < 0.25: lines.append("Header always set X-Env \"%{SITE}e|%{REDIRECT_SITE}e|%{SECTION}e\"")
    if DEEP and R.random() < 0.3: lines.append("Header always set X-Deep \"%{REDIRECT_URL}e|%{REDIRECT_QUERY_STRING}e|%{REDIRECT_REDIRECT_STATUS}e|%{FROM}e|%{INNER}e|%{VH}e\"")
    for d in GRAND if DEEP else ():
        if d.split("/")[0] in subs and GRAND[d] and R.random() < 0.6: files[f"{d}/.htaccess"] = "\n".join(grand_htaccess(d)) + "\n"
    files[".htaccess"] = "\n".join(lines) + "\n"
    hostnames = [host, "www." + host]
    subpaths = [p for s in subs for p in PATHS[s]]
    reqs = []
    for _ in range(R.randint(4, 7)):
        url = f"{ch('http', 'http', 'https')}://{R.choice(hostnames)}{R.choice(subpaths if R.random() < 0.5 else COMMON + DEEP_PATHS * DEEP)}"
        if MIX == "layers" and R.random() < 0.5:
            p = R.choice(LAYER_PATHS + [f"/{x}/{y}" for x in subs for y in ("dirsub", "moved", "dm", "x/about.html", "12", "loc", "page")])
            url = f"{ch('http', 'http', 'https')}://{R.choice(hostnames)}{p}"
        r = R.random()
        if MIX in ("odd", "wire") and R.random() < 0.6: url = odd(url)
        if MIX == "wire" and r < 0.3:
            reqs.append({"url": url, "method": ch("GET", "GET", "HEAD", "PATCH", "FOO", "OPTIONS", "POST"), "headers": ch(
                {"Expect": ch("100-continue", "foo")}, {"Range": ch("bytes=0-3", "bytes=5-1", "bytes=x", "bytes=-2,0-1")},
                {"If-None-Match": "*"}, {"If-Match": "\"x\""}, {"If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"},
                {"If-Modified-Since": ch("Sat, 01 Jan 2050 00:00:00 GMT", "garbage")}, {"Max-Forwards": "0"},
                {"Accept": ch("text/html", "image/*;q=0", "application/json")}, {"Cookie": "a=1; b=%20"},
                {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}, {"Authorization": "Basic Zm9vOmJhcg=="})})
            continue
        if MIX == "odd" and r < 0.25:
            h = url.split("/")[2]
            reqs.append({"url": url, "method": ch("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "POST"),
                         "headers": ch({"Host": ch(h.upper(), h + ":80", h + ".", h + ":8080")}, {"X-Forwarded-Proto": ch("HTTPS", "https, http", "http,https")},
                                       {"CF-Visitor": ch("{\"scheme\":\"http\"}", "{\"scheme\": \"https\"}")}, {"X-Forwarded-Port": "443", "X-Forwarded-Proto": "https"},
                                       {"Content-Length": "0"})})
            continue
        if r < 0.10: reqs.append({"url": url, "method": ch("HEAD", "POST")})
        elif r < 0.16: reqs.append({"url": url, "headers": {"X-Forwarded-Proto": ch("https", "http")}})
        elif r < 0.20: reqs.append({"url": url, "headers": {"CF-Visitor": "{\"scheme\":\"https\"}"}})
        elif r < 0.23: reqs.append({"url": url, "headers": {"Authorization": "Bearer t0k"}})
        else: reqs.append(url)
    edge = ch("none", "none", "flexible", "flexible+always-https", "full", "full+always-https")
    case = {"description": f"story-gen {SEED}-{i}: {' '.join(kinds)} over {' '.join(subs)}", "host": host, "aliases": ["www." + host],
            "edge": edge, "requests": reqs}
    if "X-Env" in "".join(files.values()) or "X-Deep" in files[".htaccess"]: case["record_headers"] = ["X-Env", "X-Docs", "X-Deep"]
    if MIX == "layers": case["vhost"], case["record_headers"] = layers_vhost(subs, host), ["X-Env", "X-Docs", "X-Deep", "X-Loc", "X-LM", "X-DM", "X-F"]
    elif R.random() < (0.4 if DEEP else 0.15): case["vhost"] = vhost_lines()
    d = os.path.join(OUT, f"story-gen-{SEED}-{i:04d}")
    write_case(d, case, files)

for i in range(N): make_case(i)
