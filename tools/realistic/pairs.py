#!/usr/bin/env python3
"""Small sites in the shape of the shared conformance corpus, each CROSSING two of its categories
(story, https, www, slash, base, lend, recursion, cond, flags, backref, alias, nested, deny, env,
real, tricky) in one site: a root .htaccess and often one subdirectory .htaccess, a few site files,
3-8 requests, every edge, occasional vhost lines and modules.

Unlike stories.py (big multi-section sites) and snippets.py / cms.py (one pasted block or whole CMS
file), every case here is as small as a corpus case and its two ingredients are chosen to interact:
an alias Redirect next to a RewriteBase in the child, [END] above child rules, DirectorySlash with
-d conditions and slash rules, [E=] read in a later pass, %N with [QSA]/[QSD]/[NE]/[B], deny with
ErrorDocument and redirects, canonicalisation written the many ways people write it.

Usage: pairs.py OUT N SEED — writes N oracle cases to OUT."""
import os, random, sys
from casefile import write_case

OUT, N, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
R = random.Random(SEED)
RICH = SEED >= 702
RICHER = SEED >= 703
MIXY = SEED >= 705
def ch(*xs): return R.choice(xs)
def maybe(p, xs): return list(xs) if R.random() < p else []
def flag(*fs): return "[" + ",".join(fs) + "]"

CATS = ["story", "https", "www", "slash", "base", "lend", "recursion", "cond", "flags", "backref", "alias",
        "nested", "deny", "env", "real", "tricky"]


class Site:
    def __init__(self, host, sub):
        self.host, self.sub = host, sub
        self.root, self.child, self.grand, self.vhost, self.modules = [], [], [], [], set()
        self.files = {"index.html", "about.html", f"{sub}/index.html", f"{sub}/page.html"}
        self.paths = ["/", "/about.html", f"/{sub}/", f"/{sub}", f"/{sub}/page.html"]
        self.headers = []
        self.record = set()

    def hre(self): return self.host.replace(".", "\\.")


def https_cond(s):
    return ch(["RewriteCond %{HTTPS} off"], ["RewriteCond %{HTTPS} !=on"], ["RewriteCond %{HTTPS} !on [NC]"],
              ["RewriteCond %{SERVER_PORT} 80"], ["RewriteCond %{SERVER_PORT} !^443$"], ["RewriteCond %{SERVER_PORT} =80"],
              ["RewriteCond %{REQUEST_SCHEME} =http"], ["RewriteCond %{REQUEST_SCHEME} !https"],
              ["RewriteCond %{HTTP:X-Forwarded-Proto} !https"], ["RewriteCond %{HTTP:X-Forwarded-Proto} =http"],
              ["RewriteCond %{HTTP:X-Forwarded-Proto} !=https [NC]"],
              ["RewriteCond %{HTTPS} off", "RewriteCond %{HTTP:X-Forwarded-Proto} !https"],
              ["RewriteCond %{HTTP:X-Forwarded-Proto} =http [OR]", "RewriteCond %{HTTPS} =off"],
              ["RewriteCond %{HTTP:CF-Visitor} '\"scheme\":\"http\"'"], ["RewriteCond %{HTTP:CF-Visitor} !https"],
              ["RewriteCond %{HTTP:CF-Visitor} \"scheme\":\"http\""],
              ["RewriteCond %{ENV:HTTPS} !=on"], ["RewriteCond %{HTTPS}:%{HTTP:X-Forwarded-Proto} ^off:(http)?$"],
              ["RewriteCond %{HTTPS} !=on", "RewriteCond %{HTTP:X-Forwarded-Proto} !=https", "RewriteCond %{HTTP:CF-Visitor} !https"])


def https_target(s):
    return ch("https://%{HTTP_HOST}%{REQUEST_URI}", "https://%{HTTP_HOST}/$1", "https://%{SERVER_NAME}%{REQUEST_URI}",
              f"https://{s.host}/$1", f"https://{s.host}%{{REQUEST_URI}}", "https://%{HTTP_HOST}$1")


def frag_https(s, where):
    pat = ch("^(.*)$", "(.*)", "^/?(.*)", "^", ".*", "^(.*)")
    t = https_target(s)
    if t.endswith("$1") and "(" not in pat: pat = "^(.*)$"
    if t.endswith("}$1"): pat = "^(/.*)$" if where == "vhost" else "(.*)"
    lines = https_cond(s) + [f"RewriteRule {pat} {t} {ch(flag('R=301', 'L'), flag('L', 'R=301'), flag('R', 'L'), flag('R=308', 'L'), flag('R=301', 'L', 'NE'), flag('R=301', 'END'), flag('R=302'))}"]
    if where == "vhost" and any('"scheme"' in l for l in lines): where = "root"
    if where == "child":
        s.child += lines
        s.paths += [f"/{s.sub}/page.html?x=1", f"/{s.sub}/deep/a"]
    elif where == "vhost":
        lines = [l.replace("RewriteRule ^/?(.*)", "RewriteRule ^/(.*)").replace("RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1", "RewriteRule ^/(.*)$ https://%{HTTP_HOST}/$1") for l in lines]
        s.vhost += ["RewriteEngine On"] + lines
    else:
        s.root += lines
    if RICH and R.random() < 0.25:
        s.root += ch(["<If \"%{HTTPS} != 'on'\">", f"Redirect 301 /about.html https://{s.host}/about.html", "</If>"],
                     ["<If \"%{REQUEST_SCHEME} == 'http' && %{HTTP:X-Forwarded-Proto} != 'https'\">", f"RedirectMatch 301 ^/{s.sub}/(.*)$ https://{s.host}/{s.sub}/$1", "</If>"],
                     ["<If \"%{HTTP_HOST} =~ /^www\\./\">", "Header always set X-Www yes", "</If>"],
                     ["SetEnvIf X-Forwarded-Proto ^https$ HTTPS=on", "Header always set X-Scheme \"%{HTTPS}e\""])
        s.record.add("X-Www")
    if R.random() < 0.2: s.root.append(ch("Header always set Strict-Transport-Security \"max-age=300\" env=HTTPS",
                                         "Header always set X-Scheme \"%{REQUEST_SCHEME}e|%{HTTPS}e\""))
    s.record.update(["Strict-Transport-Security", "X-Scheme"])
    s.paths += ["/about.html?x=1&y=2", f"/{s.sub}/page.html", "/missing"]
    s.headers += [{"X-Forwarded-Proto": ch("https", "http")}, {"CF-Visitor": ch('{"scheme":"https"}', '{"scheme":"http"}')}]


def frag_www(s, where):
    h, host = s.hre(), s.host
    v = R.randint(0, 9)
    if v == 0: lines = [f"RewriteCond %{{HTTP_HOST}} ^{h}$ [NC]", f"RewriteRule ^(.*)$ http://www.{host}/$1 [R=301,L]"]
    elif v == 1: lines = [f"RewriteCond %{{HTTP_HOST}} ^{h}(:80)?$", f"RewriteRule ^(.*)$ https://www.{host}/$1 [R=301,L]"]
    elif v == 2: lines = ["RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]", "RewriteRule ^(.*)$ https://%1/$1 [R=301,L]"]
    elif v == 3: lines = ["RewriteCond %{HTTP_HOST} !^www\\. [NC]", "RewriteRule ^ %{REQUEST_SCHEME}://www.%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"]
    elif v == 4: lines = ["RewriteCond %{HTTPS}s ^on(s)|", "RewriteCond %{HTTP_HOST} ^www\\.(.*)$ [NC]", "RewriteRule ^ http%1://%2%{REQUEST_URI} [R=301,L]"]
    elif v == 5: lines = ["RewriteCond %{HTTPS} off [OR]", "RewriteCond %{HTTP_HOST} !^www\\. [NC]",
                          "RewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$ [NC]", "RewriteRule ^ https://www.%1%{REQUEST_URI} [L,NE,R=301]"]
    elif v == 6: lines = [f"RewriteCond %{{HTTP_HOST}} !^{h}$", f"RewriteRule ^(.*)$ http://{host}/$1 [R=301,L]"]
    elif v == 7: lines = [f"RewriteCond %{{HTTP_HOST}} ^www\\.{h}$ [NC,OR]", f"RewriteCond %{{HTTP_HOST}} ^{h.upper()}$",
                          f"RewriteRule ^/?(.*)$ https://{host}/$1 [R=302,L]"]
    elif v == 8: lines = ["RewriteCond %{HTTP_HOST} ^([^.:]+\\.[^.:]+)(:\\d+)?$", "RewriteRule ^ https://www.%1%{REQUEST_URI} [R=301,L]"]
    else: lines = ["RewriteCond %{SERVER_NAME} !^www\\.", "RewriteRule (.*) http://www.%{SERVER_NAME}/$1 [R=301,L]"]
    if where == "vhost":
        lines = [l.replace("RewriteRule ^(.*)$", "RewriteRule ^/(.*)$").replace("RewriteRule (.*) http://www.%{SERVER_NAME}/$1", "RewriteRule ^/(.*) http://www.%{SERVER_NAME}/$1").replace("RewriteRule ^/?(.*)$", "RewriteRule ^/(.*)$") for l in lines]
        s.vhost += ["RewriteEngine On"] + lines
    elif where == "child":
        s.child += lines
    else:
        s.root += lines
    s.paths += ["/about.html?q=a%20b", f"/{s.sub}/page.html?x=1"]
    s.headers += [{"Host": ch(host.upper(), host + ":80", "WWW." + host.upper(), "www." + host + ":80", host + ".")}]


def frag_story(s, where):
    frag_https(s, ch("root", "root", "vhost", "child") if RICH else "root")
    sub = s.sub
    s.root += ch([f"RewriteCond %{{REQUEST_URI}} !^/{sub}/", f"RewriteRule ^(.*)$ {sub}/$1 [L]"],
                 [f"RewriteRule ^(.*)$ {sub}/$1 [L]"], [f"RewriteRule ^$ {sub}/ [L]"],
                 ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d", f"RewriteRule ^(.*)$ /{sub}/$1 [L]"],
                 [f"RewriteCond %{{REQUEST_URI}} !^/{sub}", f"RewriteRule ^(.*)$ /{sub}/$1 [END]"])
    s.paths += ["/", "/hello", f"/{sub}/hello"]


def frag_slash(s, where):
    sub = s.sub
    s.files |= {f"{sub}/noindex/x.html", f"{sub}/deep/index.html"}
    s.paths += [f"/{sub}/noindex", f"/{sub}/deep", f"/{sub}/deep/", f"/{sub}/page.html/", "/about.html/", f"/{sub}/noindex/"]
    v = R.randint(0, 6)
    if v == 0: lines = ["RewriteCond %{REQUEST_FILENAME} -d", "RewriteRule ^(.*[^/])$ /$1/ [R=301,L]"]
    elif v == 1: lines = ["RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule ^(.*)/$ /$1 [R=301,L]"]
    elif v == 2: lines = ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_URI} !(.*)/$", "RewriteRule ^(.*)$ %{REQUEST_URI}/ [R=301,L]"]
    elif v == 3: lines = ["DirectorySlash Off"] + maybe(0.6, ["RewriteCond %{REQUEST_FILENAME} -d", "RewriteRule ^(.+[^/])$ $1/ [L]"])
    elif v == 4: lines = ["DirectorySlash Off", "RewriteCond %{REQUEST_FILENAME} -d", "RewriteCond %{REQUEST_FILENAME}/index.html -f",
                          "RewriteRule ^(.*[^/])$ $1/index.html [L]"]
    elif v == 5: lines = ["RewriteCond %{REQUEST_FILENAME} -d", "RewriteCond %{REQUEST_URI} !/$", "RewriteRule ^ %{REQUEST_URI}/ [R=302,L]"]
    else: lines = ["RewriteCond %{REQUEST_FILENAME}.html -f", "RewriteRule ^(.+?)/?$ $1.html [L]"]
    if where == "child" and v in (0, 1, 6):
        lines = [l.replace("/$1", "$1") for l in lines]
        if R.random() < 0.5: lines = [f"RewriteBase /{sub}/"] + lines
    (s.child if where == "child" else s.root).extend(lines)
    s.paths += ["/about/", "/about", f"/{sub}/page", f"/{sub}/page/"]


def frag_base(s, where):
    sub = s.sub
    s.files |= {f"{sub}/new.html", f"{sub}/item.php"}
    b = ch(f"RewriteBase /{sub}/", f"RewriteBase /{sub}", "RewriteBase /", "", f"RewriteBase /other/")
    rules = R.sample([f"RewriteRule ^old$ new.html {ch('[L]', '[R=302,L]', '[R=301]', '[END]')}",
                      f"RewriteRule ^item/(\\d+)$ item.php?id=$1 {ch('[L]', '[L,QSA]', '[R,L]')}",
                      "RewriteCond %{REQUEST_FILENAME} !-f", f"RewriteRule ^(.*)$ index.html {ch('[L]', '[R=302,L]')}",
                      f"RewriteRule ^go/(.*)$ /{sub}/$1 {ch('[R=302,L]', '[L]')}",
                      "RewriteRule ^up$ ../about.html [R=302,L]", "RewriteRule ^rel$ page.html?from=rel [R=302,L]"], R.randint(2, 4))
    s.child += [x for x in [b] if x] + rules
    s.paths += [f"/{sub}/old", f"/{sub}/item/7", f"/{sub}/item/7?x=1", f"/{sub}/nope", f"/{sub}/go/page.html", f"/{sub}/up", f"/{sub}/rel"]


def frag_lend(s, where):
    sub = s.sub
    s.files |= {f"{sub}/target.html", f"{sub}/other.html", "front.php"}
    f1 = ch("[L]", "[END]")
    s.root += ch([f"RewriteRule ^go$ {sub}/target.html {f1}", f"RewriteRule ^{sub}/target\\.html$ about.html [L]"],
                 ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d", f"RewriteRule ^ front.php {f1}"],
                 [f"RewriteRule ^a$ b {f1}", f"RewriteRule ^b$ {sub}/target.html {ch('[L]', '[END]', '')}".rstrip()],
                 [f"RewriteRule ^(.*)\\.htm$ $1.html {f1}", f"RewriteRule ^(.*)\\.html$ {sub}/target.html [L]"],
                 [f"RewriteRule ^x/(.*)$ {sub}/$1 {f1}"])
    s.child += ch([f"RewriteRule ^target\\.html$ other.html {ch('[L]', '[END]')}"], ["RewriteRule ^(.*)$ other.html [L]"],
                  ["RewriteCond %{ENV:REDIRECT_STATUS} ^$", "RewriteRule ^target\\.html$ - [F]"],
                  ["RewriteRule ^other\\.html$ target.html [L]"])
    s.paths += ["/go", "/a", "/b", "/about.htm", "/x/target.html", "/x/other.html", f"/{sub}/target.html", "/nothing-here", "/front.php"]


def frag_recursion(s, where):
    sub = s.sub
    s.files |= {f"{sub}/app/page.html", "app/page.html"}
    if R.random() < 0.6: s.vhost.append(f"LimitInternalRecursion {ch(1, 2, 3, 4, 5, 12, '3 5', '5 3')}")
    s.root += ch(["RewriteRule ^(.*)$ app/$1 [L]"], ["RewriteCond %{REQUEST_URI} !^/app/", "RewriteRule ^(.*)$ app/$1 [L]"],
                 ["RewriteRule ^(.*)$ app/$1 [END]"], ["RewriteRule ^ping$ pong [L]", "RewriteRule ^pong$ ping [L]"],
                 ["RewriteRule ^(.*)$ $1?x=1 [L]"], ["RewriteRule ^(.*)$ /about.html [L]"],
                 ["RewriteCond %{ENV:REDIRECT_STATUS} !=200", "RewriteRule ^(.*)$ app/$1 [L]"],
                 ["RewriteRule ^(.+)$ /index.html [L]"], ["RewriteRule ^p(.*)$ $1 [N]"])
    s.paths += ["/page.html", "/ping", "/about.html", f"/{sub}/page.html", "/pp.html", "/app/page.html", "/ppage.html"]


def frag_cond(s, where):
    sub = s.sub
    s.files |= {f"{sub}/mobile.html", "q.html"}
    c = ch(["RewriteCond %{QUERY_STRING} (^|&)id=(\\d+)(&|$)", f"RewriteRule ^item$ {sub}/page.html?n=%2 [R=302,L]"],
           ["RewriteCond %{REQUEST_METHOD} ^(POST|PUT)$", "RewriteRule ^ - [R=405,L]"],
           ["RewriteCond %{REQUEST_METHOD} =OPTIONS", "RewriteRule ^ - [R=204,L]"] if RICH else ["RewriteCond %{REQUEST_METHOD} =HEAD", "RewriteRule ^about\\.html$ q.html [L]"],
           ["RewriteCond %{HTTP_USER_AGENT} mobile [NC,OR]", "RewriteCond %{HTTP:X-Mobile} =1", f"RewriteRule ^$ {sub}/mobile.html [L]"],
           ["RewriteCond %{REQUEST_FILENAME} -s", "RewriteRule ^(.*)\\.txt$ q.html [L]"],
           ["RewriteCond %{THE_REQUEST} \\s/+index\\.html[\\s?] [NC]", "RewriteRule ^index\\.html$ / [R=301,L]"],
           ["RewriteCond %{QUERY_STRING} !^$", "RewriteRule ^q$ q.html? [L]"],
           ["RewriteCond %{QUERY_STRING} =a=1", "RewriteRule ^q$ /about.html? [R=302,L]"],
           ["RewriteCond %{DOCUMENT_ROOT}/" + sub + "/%{REQUEST_URI} -f", f"RewriteRule ^(.*)$ {sub}/$1 [L]"],
           ["RewriteCond %{REQUEST_URI} ^/(.+)/$", "RewriteCond %{DOCUMENT_ROOT}/%1 !-d", "RewriteRule ^(.*)/$ /$1 [R=301,L]"],
           ["RewriteCond %{TIME_YEAR} >2000", "RewriteCond %{REQUEST_URI} <m", "RewriteRule ^([a-l].*)$ q.html [L]"],
           ["RewriteCond %{HTTP_REFERER} !^$", "RewriteCond %{HTTP_REFERER} !example [NC]", "RewriteRule \\.html$ - [F]"],
           ["RewriteCond expr \"%{QUERY_STRING} =~ /v=(\\d)/\"", "RewriteRule ^q$ q.html [L]"] if RICH else
           ["RewriteCond %{QUERY_STRING} ^v=(\\d)$", "RewriteRule ^q$ q.html?v=%1 [L]"])
    (s.child if where == "child" else s.root).extend(c)
    pre = f"/{sub}" if where == "child" else ""
    s.paths += [f"{pre}/item?id=5&b=2", f"{pre}/item?x=1&id=12", f"{pre}/q?a=1", f"{pre}/q", f"{pre}/q?v=3", f"{pre}/index.html",
                f"{pre}/page.html", f"{pre}/robots.txt", f"{pre}/", f"{pre}/page.html/", f"{pre}/about.html"]
    s.files.add("robots.txt")
    s.headers += [{"User-Agent": "Foo Mobile"}, {"X-Mobile": "1"}, {"Referer": "http://other.test/"}]


def frag_flags(s, where):
    sub = s.sub
    s.files |= {"t.html", f"{sub}/t.html", "file.txt"}
    opts = [
        ["RewriteRule ^k/(.*)$ /t.html?k=$1 [QSA,R=302,L]"], ["RewriteRule ^k/(.*)$ /t.html?k=$1 [QSD,R=302,L]"],
        ["RewriteRule ^k/(.*)$ /t.html [QSD,R=302,L]"], ["RewriteRule ^k/(.*)$ /t.html?k=$1 [R=302,L]"],
        ["RewriteRule ^e/(.*)$ /t.html#$1 [NE,R=302,L]"], ["RewriteRule ^e/(.*)$ /t.html#$1 [R=302,L]"],
        ["RewriteRule ^b/(.*)$ t.html?v=$1 [B,L]"], ["RewriteRule ^b/(.*)$ /t.html?v=$1 [B,R=302,L]"],
        ["RewriteRule ^b/(.*)$ /t.html?v=$1 [R=302,L]"],
        ["RewriteRule ^c/(.*)$ - [C]", "RewriteRule ^(.*)$ t.html [L]"],
        ["RewriteRule ^s/ - [S=1]", "RewriteRule ^s/(.*)$ about.html [L]", "RewriteRule ^s/(.*)$ t.html [L]"],
        ["RewriteRule ^T(.*)$ t.html [NC,L]"], ["RewriteRule ^t$ file.txt [T=text/html,L]"],
        ["RewriteRule ^g$ - [G]"], ["RewriteRule ^f$ - [F,L]"], ["RewriteRule ^o$ /t.html [CO=seen:1:.%{HTTP_HOST},R=302,L]"],
        ["RewriteRule ^r$ /t.html [R=303,L]"], ["RewriteRule ^r$ /t.html [R=307]"], ["RewriteRule ^r$ t.html [R=399,L]"],
        ["RewriteRule ^n/(.*)-(.*)$ n/$1_$2 [N]", "RewriteRule ^n/(.*)$ t.html?s=$1 [L]"],
        ["RewriteRule ^k/(.*)$ /t.html?%{QUERY_STRING}&k=$1 [R=302,L]"],
        ["RewriteRule ^b/(.*)$ /t.html?v=$1 [BNP,R=302,L]"] if RICH else ["RewriteRule ^b/(.*)$ /t.html [R=302,L]"],
        ["RewriteRule ^b/(.*)$ /t.html?v=$1 \"[B= ?,R=302,L]\""] if RICH else ["RewriteRule ^(.*)\\.HTML$ $1.html [NC,L]"],
    ]
    lines = sum(R.sample(opts, R.randint(1, 3)), [])
    # [R=399] in a virtual host stops Apache at start-up (nothing to record): it stays in the .htaccess (a 500).
    if where == "vhost" and not any("R=399" in l for l in lines):
        s.vhost += ["RewriteEngine On"] + [l.replace("RewriteRule ^", "RewriteRule ^/").replace(" t.html", " /t.html") for l in lines]
        lines = []
    (s.child if where == "child" else s.root).extend(lines)
    pre = f"/{sub}" if where == "child" else ""
    s.paths += [f"{pre}/k/a%20b?x=1&y=2", f"{pre}/k/z", f"{pre}/e/x%20y", f"{pre}/e/frag", f"{pre}/b/a%26b%3Dc", f"{pre}/b/x y".replace(" ", "%20"),
                f"{pre}/b/a%2Fb", f"{pre}/b/a+b", f"{pre}/c/x", f"{pre}/s/x", f"{pre}/TFOO", f"{pre}/t", f"{pre}/g", f"{pre}/f", f"{pre}/o",
                f"{pre}/r", f"{pre}/n/a-b-c", f"{pre}/k/q?", f"{pre}/T.HTML"]


def frag_backref(s, where):
    sub = s.sub
    s.files |= {f"{sub}/post.html", "cat.html"}
    opts = [["RewriteCond %{QUERY_STRING} ^p=(\\d+)$", f"RewriteRule ^$ /{sub}/post.html?id=%1 {ch('[R=301,L]', '[R=301,L,QSD]', '[R=302,QSA,L]')}"],
            ["RewriteCond %{HTTP_HOST} ^(?:www\\.)?([^.]+)\\.", "RewriteRule ^who$ /cat.html?site=%1 [R=302,L]"],
            ["RewriteRule ^(\\d{4})/(\\d{2})/(.*)$ /" + sub + "/$3?y=$1&m=$2 [R=302,L]"],
            ["RewriteRule ^(([a-z]+)-([a-z]+))$ cat.html?all=$1&a=$2&b=$3 [L]"],
            ["RewriteCond $1 ^(a|b)", "RewriteRule ^(.*)/x$ cat.html?w=$1&c=%1 [L]"],
            ["RewriteCond %{REQUEST_URI} ^/(.*)/(.*)$", "RewriteRule ^ /cat.html?first=%1&second=%2 [R=302,L,NE]"],
            ["RewriteRule ^z/(.*)$ /cat.html?zz=$0 [R=302,L]"],
            ["RewriteCond %{QUERY_STRING} (?:^|&)q=([^&]*)", "RewriteRule ^search$ /cat.html?term=%1 [R=302,L,B]"],
            ["RewriteCond %{QUERY_STRING} (?:^|&)q=([^&]*)", "RewriteRule ^search$ /cat.html?term=%1 [R=302,L,QSD,NE]"],
            ["RewriteCond %{QUERY_STRING} ^(.*)$", "RewriteRule ^keep$ /cat.html?%1&k=1 [R=302,L]"],
            ["RewriteRule ^lit$ /cat.html?a=\\$1&b=%25 [R=302,L]"]]
    lines = sum(R.sample(opts, R.randint(1, 2)), [])
    if where == "vhost":
        s.vhost += ["RewriteEngine On"] + [l.replace("RewriteRule ^", "RewriteRule ^/").replace(" cat.html", " /cat.html") for l in lines]
        lines = []
    (s.child if where == "child" else s.root).extend(lines)
    pre = f"/{sub}" if where == "child" else ""
    s.paths += [f"{pre}/?p=12", f"{pre}/?p=12&x=1", f"{pre}/who", f"{pre}/2024/05/hello", f"{pre}/ab-cd", f"{pre}/a1/x", f"{pre}/bb/x",
                f"{pre}/z/q", f"{pre}/search?q=a%20b%26c", f"{pre}/search?x=1&q=caf%C3%A9", f"{pre}/keep?x=1&y=%2F", f"{pre}/lit", f"{pre}/search?q=a+b"]


def frag_alias(s, where):
    sub = s.sub
    s.files |= {f"{sub}/new.html", "new.html", "static/app.css"}
    opts = [f"Redirect 301 /{sub}/old /{sub}/new.html", f"Redirect /old /new.html", f"Redirect permanent /{sub}/legacy https://{s.host}/new.html",
            f"RedirectMatch 301 ^/{sub}/(\\d+)/(.*)$ /{sub}/$2", f"RedirectMatch ^/(.*)\\.htm$ /$1.html", "Redirect 410 /gone",
            f"Redirect gone /{sub}/gone", "Redirect seeother /form /new.html", f"RedirectMatch 302 (?i)^/{sub.upper()}/(.*)$ /{sub}/$1",
            f"Redirect 301 /{sub} /new.html", f"RedirectMatch 301 ^/q$ /new.html?from=q", "Redirect 302 /dir/ /new.html?",
            f"RedirectMatch temp ^/{sub}/x(.*) http://www.{s.host}/{sub}/$1", "RedirectMatch 301 /about\\.html$ /new.html"]
    lines = R.sample(opts, R.randint(1, 3))
    tgt = s.vhost if where == "vhost" else s.child if where == "child" else s.root
    tgt.extend(lines)
    if RICH and R.random() < 0.3:
        s.root += ch(["RewriteRule ^old$ /about.html [R=302,L]"], ["RewriteRule ^(.*)\\.htm$ $1.html [L]"], [f"RewriteRule ^{sub}/old$ {sub}/page.html [L]"],
                     ["RewriteRule ^gone$ - [G]"], ["RewriteRule ^form$ about.html [L]"])
    if R.random() < 0.3: s.vhost += [ch("Alias /static ${DOCROOT}/" + sub, "Alias /s/ ${DOCROOT}/static/", f"Redirect 301 /vh /{sub}/"), ]
    s.paths += [f"/{sub}/old", "/old", "/old/x", f"/{sub}/legacy?x=1", f"/{sub}/2019/page.html", "/about.htm", "/gone", f"/{sub}/gone",
                "/form", f"/{sub.upper()}/page.html", "/q?a=1", "/dir/x?z=1", f"/{sub}/xpage.html", "/static/page.html", "/s/app.css", "/vh",
                f"/{sub}/new.html", "/about.html"]
    s.headers += [{"method": "POST"}]


def frag_nested(s, where):
    sub = s.sub
    s.files |= {f"{sub}/child.html", f"{sub}/inner/index.html", f"{sub}/inner/leaf.html"}
    s.child += ch(["RewriteEngine On", "RewriteRule ^c$ child.html [L]"], ["RewriteRule ^c$ child.html [L]"],
                  ["RewriteEngine On", ch("RewriteOptions Inherit", "RewriteOptions InheritBefore"), "RewriteRule ^c$ child.html [L]"],
                  ["RewriteEngine Off"], ["RewriteEngine On"], ["ErrorDocument 404 /" + sub + "/child.html"],
                  ["Options -FollowSymLinks", "RewriteEngine On", "RewriteRule ^c$ child.html [L]"],
                  ["RewriteEngine On", "RewriteRule ^(.*)$ inner/$1 [L]"])
    if R.random() < 0.4:
        s.grand += ch(["RewriteEngine On", "RewriteRule ^(.*)$ leaf.html [L]"], ["Require all denied"], ["RewriteEngine On", "RewriteRule ^x$ ../child.html [L]"],
                      ["RewriteEngine On", "RewriteOptions Inherit"])
    s.paths += [f"/{sub}/c", f"/{sub}/inner/", f"/{sub}/inner/x", f"/{sub}/inner/leaf.html", f"/{sub}/child.html", f"/{sub}/nope", f"/{sub}/inner"]


def frag_deny(s, where):
    sub = s.sub
    s.files |= {f"{sub}/secret.txt", "err.html", f"{sub}/err404.html", "private/p.html"}
    tgt = s.child if where == "child" else s.root
    tgt += ch(["<Files \"secret.txt\">", "Require all denied", "</Files>"], ["RewriteRule secret - [F]"],
              ["RewriteCond %{REQUEST_URI} secret", "RewriteRule ^ - [F,L]"],
              ["<FilesMatch \"\\.txt$\">", "Require all denied", "</FilesMatch>"], ["Require all denied"],
              ["Require ip 10.9.8.7"], ["RewriteRule ^(.*)secret(.*)$ /about.html [R=302,L]"])
    s.root += maybe(0.7, [ch("ErrorDocument 403 /err.html", "ErrorDocument 404 /err.html", "ErrorDocument 403 \"Nope\"",
                             f"ErrorDocument 404 /{sub}/err404.html", "ErrorDocument 403 http://" + s.host + "/err.html",
                             "ErrorDocument 404 /missing-err.html")])
    s.root += maybe(0.5, [f"RewriteRule ^hidden$ /{sub}/secret.txt [R=302,L]", f"RewriteRule ^hidden$ {sub}/secret.txt [L]"])
    if R.random() < 0.3: s.files.add("private/.htaccess"); s.extra = {"private/.htaccess": ch("Require all denied\n", "Deny from all\n", "Order deny,allow\nDeny from all\n")}
    if "Deny from" in getattr(s, "extra", {}).get("private/.htaccess", "") or R.random() < 0.1: s.modules.add("access_compat")
    s.paths += [f"/{sub}/secret.txt", "/hidden", "/private/p.html", "/private/", "/nope", f"/{sub}/nope", f"/{sub}/.htaccess", "/err.html"]


def frag_env(s, where):
    sub = s.sub
    s.files |= {"env.html", f"{sub}/env.html"}
    v = R.randint(0, 8)
    if v == 0: lines = ["RewriteRule ^ - [E=STAGE:one]", "RewriteCond %{ENV:STAGE} =one", "RewriteRule ^who$ env.html [L]"]
    elif v == 1: lines = ["RewriteRule ^in$ env.html [E=MARK:1,L]", "RewriteCond %{ENV:REDIRECT_MARK} =1", "RewriteRule ^env\\.html$ about.html [L]"]
    elif v == 2: lines = ["SetEnvIf Request_URI \"^/" + sub + "\" IN_SUB=yes", "RewriteCond %{ENV:IN_SUB} =yes", f"RewriteRule ^{sub}/who$ /env.html [R=302,L]"]
    elif v == 3: lines = ["SetEnvIfNoCase Host ^www\\. IS_WWW", "RewriteCond %{ENV:IS_WWW} !^$", "RewriteRule ^who$ env.html [L]"]
    elif v == 4: lines = ["RewriteRule ^(.*)$ - [E=ORIG:$1]", f"RewriteRule ^x/(.*)$ {sub}/env.html [L]", "Header always set X-Orig \"%{ORIG}e|%{REDIRECT_ORIG}e\""]
    elif v == 5: lines = ["SetEnv GREETING hello", "RewriteCond %{ENV:GREETING} =hello", "RewriteRule ^who$ env.html [L]"]; s.modules.add("env")
    elif v == 6: lines = ["RewriteCond %{HTTP:X-Forwarded-Proto} =https", "RewriteRule ^ - [E=HTTPS:on]", "RewriteCond %{ENV:HTTPS} !=on",
                          "RewriteRule ^who$ https://%{HTTP_HOST}/env.html [R=302,L]"]
    elif v == 7: lines = ["RewriteRule ^who$ env.html [E=A:1,E=B:%{REQUEST_URI},L]", "Header always set X-Env \"%{A}e|%{REDIRECT_A}e|%{REDIRECT_B}e|%{REDIRECT_STATUS}e\""]
    else: lines = ["SetEnvIf X-Test ^(.*)$ TESTV=$1", "RewriteCond %{ENV:TESTV} ^go$", "RewriteRule ^who$ env.html [L]", "Header always set X-Env \"%{TESTV}e\""]
    if where == "child" and v in (0, 1, 3, 5, 7, 8):
        lines = [l.replace("env.html", "env.html") for l in lines]
        s.child += lines
        pre = f"/{sub}"
    else:
        s.root += lines
        pre = ""
    s.record.update(["X-Env", "X-Orig"])
    s.paths += [f"{pre}/who", f"{pre}/in", f"/{sub}/who", "/x/a", f"{pre}/env.html"]
    s.headers += [{"X-Test": "go"}, {"X-Forwarded-Proto": "https"}]


def frag_real(s, where):
    sub = s.sub
    s.files |= {f"{sub}/index.php", "index.php", "assets/site.css"}
    wp = [f"RewriteBase /{sub}/", "RewriteRule ^index\\.php$ - [L]", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d",
          f"RewriteRule . /{sub}/index.php [L]"]
    lara = ["RewriteCond %{HTTP:Authorization} .", "RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]",
            "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_URI} (.+)/$", "RewriteRule ^ %1 [L,R=301]",
            "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^ index.php [L]"]
    spa = ["FallbackResource /index.html"] if R.random() < 0.5 else ["RewriteCond %{REQUEST_FILENAME} !-f", "RewriteRule ^ index.html [QSA,L]"]
    ci = ["RewriteCond $1 !^(index\\.php|assets|robots\\.txt)", "RewriteRule ^(.*)$ index.php/$1 [L]"]
    blk = R.choice([wp, lara, spa, ci])
    if where == "child" or blk is wp: s.child += ["RewriteEngine On"] * (blk is not spa) + blk
    else: s.root += blk
    if blk is ci: s.vhost += maybe(0.5, ["AcceptPathInfo On"])
    s.paths += [f"/{sub}/hello-world/", f"/{sub}/x/", f"/{sub}/index.php", f"/{sub}/assets/site.css", "/assets/site.css", "/route/a",
                "/route/a/", "/index.php/x", f"/{sub}/wp-admin", f"/{sub}/?p=3"]
    s.headers += [{"Authorization": "Bearer abc"}]


def frag_tricky(s, where):
    sub = s.sub
    s.files |= {"a b.html", "pct.html", f"{sub}/a b.html"}
    lines = R.sample([
        "RewriteRule ^a\\ b$ pct.html [L]", "RewriteRule ^sp/(.*)$ /$1 [R=302,L]", "RewriteRule ^enc/(.*)$ pct.html?p=$1 [L]",
        "RewriteRule ^enc/(.*)$ /pct.html?p=$1 [R=302,L]", "RewriteRule ^dbl/(.*)$ /pct.html?d=$1 [R=302,L]",
        "RewriteRule ^/about\\.html$ pct.html [L]", "RewriteRule about pct.html", "RewriteRule ^pct.html$ - [L]",
        "RewriteRule ^(.*)%20(.*)$ $1-$2 [L]", "RewriteRule ^per(.*)$ /pct.html?x=%1$1 [R=302,L]",
        "RewriteCond %{QUERY_STRING} a=([^&]+)&b=([^&]+)", "RewriteRule ^qs$ /pct.html?%2=%1 [R=302,L]",
        "RewriteCond %{THE_REQUEST} ^[A-Z]+\\ /+(\\S*)", "RewriteRule ^raw$ /pct.html?raw=%1 [R=302,L,NE]",
        "RewriteRule ^m$ /pct.html [R=302,L]"], R.randint(2, 4))
    (s.child if where == "child" and R.random() < 0.5 else s.root).extend(lines)
    s.paths += ["/a%20b", "/sp/a%20b.html", "/enc/a%2Fb", "/enc/x%25y", "/enc/%C3%A9", "/dbl//x", "//about.html", "/about.html",
                "/x%20y%20z", "/per%41", "/qs?a=1&b=2", "/qs?b=2&a=1", "/raw?x=1", f"/{sub}/a%20b.html", f"//{sub}//page.html",
                "/m", "/ABOUT.HTML", "/enc/a%3Fb", "/sp/a%252Fb"]
    s.headers += [{"method": ch("HEAD", "POST", "OPTIONS")}, {"Host": s.host.upper()}]


PATS = ["^(.*)$", "^$", "^([^/]+)/?$", "^(.+)/$", "^([a-z]+)/(\\d+)$", "(.*)\\.html$", "^x/(.*)", "^(.*)/x/(.*)$", ".", "^", "^page",
        "!^about", "^(?i)Ab(.*)", "^([^.]+)$", "^~(.*)$", "^(.*?)/+$", "^a\\ b$", "^q(.*)"]
TGTS = ["/about.html", "about.html", "$1.html", "/$1/", "$1/", "page.html?x=$1", "/page.html?x=$1&y=%{QUERY_STRING}", "-", "/index.php?p=$1",
        "https://%{HTTP_HOST}/$1", "http://%{SERVER_NAME}%{REQUEST_URI}", "%{REQUEST_URI}", "/{sub}/$1", "{sub}/page.html", "/$2?a=$1",
        "about.html?", "/about.html#top", "/$1%20x", "$0", "/%{ENV:REDIRECT_STATUS}$1", "about.html?q=%1", "${DOCROOT}/about.html",
        "x/y.html", "../about.html", "./page.html", "/x/%{REQUEST_URI}", "$1?%{QUERY_STRING}", "%{HTTP:X-Forwarded-Proto}://%{HTTP_HOST}/$1",
        "/{sub}/x/y.html?b=$1", "index.php/$1", "http://www.example.org/$1", "/about.html?r=%{REQUEST_URI}&f=%{REQUEST_FILENAME}"]
FLAGS = ["L", "END", "R", "R=301", "R=302", "R=303", "R=307", "QSA", "QSD", "NE", "B", "NC", "PT", "C", "S=1", "F", "G", "E=V:$1",
         "E=!V", "T=text/plain", "DPI", "NS", "QSL", "R=404", "BCTLS", "UnsafeAllow3F"]
CONDS = ["%{REQUEST_FILENAME} !-f", "%{REQUEST_FILENAME} -d", "%{REQUEST_FILENAME} !-d", "%{QUERY_STRING} ^$", "%{QUERY_STRING} (.+)",
         "%{HTTP_HOST} ^www\\. [NC]", "%{HTTPS} on", "%{ENV:REDIRECT_STATUS} ^$", "%{REQUEST_URI} !\\.html$", "%{THE_REQUEST} \\?",
         "%{REQUEST_METHOD} !=GET", "$1 !-f", "%{ENV:V} .", "%{REQUEST_URI} ^/(.*)$", "%{HTTP:X-Forwarded-Proto} https [OR]",
         "%{IS_SUBREQ} true", "%{REQUEST_FILENAME} -F", "%{SCRIPT_FILENAME} -f", "%{PATH_INFO} .",
         "%{REQUEST_FILENAME} -l", "%{REQUEST_URI} -U", "%{HTTP_REFERER} =\"\"", "%{SERVER_PORT} !=443", "%{HTTP_HOST} =example.org",
         "%{REQUEST_URI} =/about.html [NC]", "%{QUERY_STRING} !(^|&)x= [NC]", "%{REMOTE_ADDR} ^127\\.", "%{HTTP_COOKIE} seen",
         "%{QUERY_STRING} ^(.*)&?r=([^&]*)(.*)$", "%{ENV:REDIRECT_V} !^$", "%{REQUEST_FILENAME}\\.html -f", "%{DOCUMENT_ROOT}%{REQUEST_URI} -f"]


def frag_mix(s, where):
    sub = s.sub
    s.files |= {"page.html", "x/y.html", f"{sub}/x/y.html", "index.php"}
    lines = []
    for _ in range(R.randint(1, 3)):
        lines += [f"RewriteCond {R.choice(CONDS)}" for _ in range(R.choice([0, 0, 1, 2]))]
        fl = R.sample(FLAGS, R.randint(0, 3))
        t = R.choice(TGTS).replace("{sub}", sub)
        lines.append(f"RewriteRule {R.choice(PATS)} {t} {flag(*fl) if fl else ''}".rstrip())
    if lines and lines[-1].startswith("RewriteCond"): lines.append("RewriteRule ^ - [L]")
    if where == "vhost" or (MIXY and R.random() < 0.15):
        s.vhost += ["RewriteEngine On"] + [l.replace("RewriteRule ^", "RewriteRule ^/").replace(" about.html", " /about.html") for l in lines]
        lines = []
    (s.child if where == "child" else s.root).extend(lines)
    if MIXY and R.random() < 0.4: frag_mix(s, "child") if where != "child" else None
    s.paths += ["/x/y.html", "/x/y", "/page", "/page.html", "/Abc", "/q?z=1", "/a%20b", "/~u", f"/{sub}/x/y.html", f"/{sub}/page",
                f"/{sub}/blog/12", "/blog/12", "/about.html?v=1", "/index.php/x", f"/{sub}/x/", "/x/", "/about/", "/abc.html"]


FRAG = {"story": frag_story, "https": frag_https, "www": frag_www, "slash": frag_slash, "base": frag_base, "lend": frag_lend,
        "recursion": frag_recursion, "cond": frag_cond, "flags": frag_flags, "backref": frag_backref, "alias": frag_alias,
        "nested": frag_nested, "deny": frag_deny, "env": frag_env, "real": frag_real, "tricky": frag_tricky, "mix": frag_mix}


def make_case(i):
    host = ch("example.org", "shop.example", "blog.example.net", "my-site.test")
    sub = ch("blog", "shop", "docs", "app", "news", "en")
    s = Site(host, sub)
    a, b = R.sample(CATS + ["mix"] * (4 * RICHER), 2)
    if MIXY: a = "mix"
    for c in (a, b):
        where = ch("root", "root", "child", "vhost") if c in ("https", "www") or (RICH and c in ("alias", "flags", "backref")) else ch("root", "child")
        FRAG[c](s, "vhost" if MIXY and c == "mix" and R.random() < 0.1 else where)
    if RICH and R.random() < (0.6 if RICHER else 0.3):
        FRAG[R.choice(CATS)](s, ch("root", "child"))
    if RICHER and R.random() < 0.35:
        s.vhost += ch(["<Directory ${DOCROOT}/" + sub + ">", "AllowOverride None", "</Directory>"],
                      ["<Directory ${DOCROOT}/" + sub + ">", "AllowOverride FileInfo", "</Directory>"],
                      ["<Directory ${DOCROOT}/" + sub + ">", "AllowOverride AuthConfig Indexes", "</Directory>"],
                      ["<Directory ${DOCROOT}>", "AllowOverride All", "Options -FollowSymLinks", "</Directory>"],
                      ["<Directory ${DOCROOT}>", "Options +SymLinksIfOwnerMatch -FollowSymLinks", "</Directory>"],
                      ["<Directory ${DOCROOT}/" + sub + ">", "RewriteEngine On", "RewriteRule ^dir$ /about.html [R=302,L]", "</Directory>"],
                      ["RewriteEngine On", "RewriteOptions InheritDown"], ["RewriteEngine On", "RewriteRule ^/vh$ /about.html [PT]"],
                      ["Alias /al ${DOCROOT}/" + sub], ["AliasMatch ^/am/(.*)$ ${DOCROOT}/" + sub + "/$1"],
                      ["RedirectMatch 302 ^/rm$ /about.html"], ["ErrorDocument 404 /about.html"], ["DirectorySlash Off"],
                      ["DirectoryIndex page.html index.html"], ["AcceptPathInfo On"], ["AllowEncodedSlashes On"],
                      ["AllowEncodedSlashes NoDecode"], ["MergeSlashes Off"] , ["UseCanonicalName On"],
                      ["<Location /" + sub + "/page.html>", "Require all denied", "</Location>"],
                      ["<LocationMatch ^/about>", "Header always set X-Www loc", "</LocationMatch>"])
        s.paths += ["/dir", f"/{sub}/dir", "/vh", "/al/page.html", "/al", "/am/page.html", "/rm", f"/{sub}/page.html/x", f"/{sub}%2Fpage.html"]
        s.record.add("X-Www")
    files = {}
    for f in sorted(s.files): files[f] = f"{f} {SEED}-{i}\n" if R.random() < 0.7 else ""
    root = (["RewriteEngine On"] if R.random() < 0.95 else []) + s.root
    if R.random() < 0.2 and RICH: root = maybe(0.5, ["Options -MultiViews"]) + root
    if RICH and R.random() < 0.25:
        root += ch(["DirectoryIndex about.html index.html"], ["DirectoryIndex disabled"], ["DirectoryIndex index.php"],
                   ["DirectoryIndex missing.html /about.html"], ["DirectoryIndexRedirect on"], ["DirectoryIndexRedirect 302"],
                   ["Options -Indexes"], ["ErrorDocument 404 /about.html"], ["AddDefaultCharset utf-8"],
                   ["<Files \"about.html\">", "Header set X-Www about", "</Files>"], ["DirectorySlash Off"])
        s.record.add("X-Www")
    if RICH and R.random() < 0.15 and "<" not in "".join(root):
        root = ["<IfModule mod_rewrite.c>"] + root + ["</IfModule>"]
    text = "\n".join(root) + "\n"
    if RICH and R.random() < 0.1: text = text.replace("\n", "\r\n")
    if RICH and R.random() < 0.1: text = text.replace("RewriteEngine On", "rewriteengine on").replace("RewriteRule ", "rewriterule ", 1)
    if RICH and R.random() < 0.1: text = text.replace("\n", "  \n").replace("RewriteRule ", "  RewriteRule  ")
    files[".htaccess"] = text
    if s.child:
        child = s.child
        if any(l.startswith("Rewrite") and not l.startswith("RewriteEngine") for l in child) and "RewriteEngine Off" not in child and "RewriteEngine On" not in child and R.random() < 0.85:
            child = ["RewriteEngine On"] + child
        files[f"{sub}/.htaccess"] = "\n".join(child) + "\n"
    if s.grand: files[f"{sub}/inner/.htaccess"] = "\n".join(s.grand) + "\n"
    for p, c in getattr(s, "extra", {}).items(): files[p] = c
    hosts = [host, "www." + host]
    paths = list(dict.fromkeys(s.paths))
    reqs = []
    for _ in range(R.randint(3, 8) + 2 * RICHER):
        p = R.choice(paths)
        if SEED >= 708 and R.random() < 0.4:
            p = ch(p.replace("/", "/x/../", 1), p.replace("/", "/%2e/", 1), p + ";v=1", p + "%20", p + "?a=%ZZ", p.replace("/", "/%2e%2e/", 1),
                   p + ("&" if "?" in p else "?") + "u=http%3A%2F%2Fx%2Fy&b=a+b", p.replace("a", "%61", 1), p.replace("/", "/%2F", 1), p + "%3F1",
                   p + ("&" if "?" in p else "?") + "%C3%A9=%E2%82%AC", p.replace("/", "/.//", 1), p + "/.", p + "%23frag")
        if RICH and R.random() < 0.15: p = ch(p + "/", "/" + p, p.replace("/", "/./", 1), p + "?", p.upper(), p.replace("/", "//", 1), p + ("&" if "?" in p else "?") + "a=b&c=d%26e", p + "%2F", p.replace(".", "%2E", 1))
        url = f"{ch('http', 'http', 'https')}://{R.choice(hosts)}{p}"
        if R.random() < 0.35 and s.headers:
            h = dict(R.choice(s.headers))
            m = h.pop("method", None)
            r = {"url": url}
            if m: r["method"] = m
            if h: r["headers"] = h
            reqs.append(r)
        elif RICH and R.random() < 0.1:
            reqs.append({"url": url, "headers": ch({"Host": ch(host.upper(), host + ":80", "www." + host + ":443", host + ":8080", "WWW." + host)},
                                                   {"X-Forwarded-Proto": ch("https", "HTTPS", "http")}, {"Referer": ch("http://" + host + "/", "http://x.test/")})})
        elif R.random() < 0.08:
            reqs.append({"url": url, "method": ch("HEAD", "POST", "OPTIONS")})
        else:
            reqs.append(url)
    edge = ch("none", "none", "flexible", "flexible+always-https", "full", "full+always-https")
    case = {"description": f"pairs-gen {SEED}-{i}: {a} x {b} ({sub})", "host": host, "aliases": ["www." + host], "edge": edge, "requests": reqs}
    allfiles = "".join(files.values()) + "".join(s.vhost)
    rec = sorted(h for h in s.record if h in allfiles)
    if rec: case["record_headers"] = rec
    if s.vhost: case["vhost"] = s.vhost
    if s.modules: case["modules"] = sorted(s.modules)
    d = os.path.join(OUT, f"pairs-gen-{SEED}-{i:04d}")
    write_case(d, case, files)


for i in range(N): make_case(i)
