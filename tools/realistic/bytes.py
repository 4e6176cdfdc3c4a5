#!/usr/bin/env python3
"""Small sites whose BYTES matter: percent-encoded UTF-8 and invalid UTF-8 in paths and query
strings (%C3%A9, %E2%82%AC, %FF, a lone %C3, overlong %C0%AF, %00, %25, + and %20), a combining
mark against the precomposed letter (e + U+0301 against é) in file names and in patterns,
upper/lower-case non-ASCII (É/é) under [NC] and RewriteCond string compares (=, <, >), encoded
slashes with AllowEncodedSlashes, the [B], [BNP], [NE], [QSA], [UnsafeAllow3F] flags, RewriteMap
int:escape/unescape/tolower/toupper (vhost lines), mod_alias with non-ASCII, DirectoryIndex and the
trailing-slash redirect on non-ASCII directories, Options +Indexes listings, MultiViews with
non-ASCII stems, mod_speling, <Files>/<FilesMatch> with non-ASCII names, headers echoing the
request's bytes, and a .htaccess saved in Latin-1.

Each case is as small as a corpus case: a root .htaccess, sometimes one subdirectory .htaccess, a
few files (some with non-ASCII names, a few whose names are not UTF-8; those always have content,
as the oracle only gives empty files a body it can write), 3-8 requests, edge mostly none.

Usage: bytes.py OUT N SEED — writes N oracle cases to OUT."""
import os, random, sys
from casefile import raw, write_case

OUT, N, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
R = random.Random(SEED)
def ch(*xs): return R.choice(xs)
def flag(*fs): return "[" + ",".join(f for f in fs if f) + "]"

# Names as (text, bytes on disk); the text is what a rule or a URL writes.
PRE = "caf\u00e9"            # café, precomposed
DEC = "cafe\u0301"           # café, e + combining acute
NAMES = [PRE, DEC, "\u00e9t\u00e9", "\u00c9t\u00c9", "\u20acuro", "na\u00efve", "\u65e5\u672c", "stra\u00dfe", "\u00c5ngstr\u00f6m",
         "R\u00e9sum\u00e9", "r\u00e9sum\u00e9", "\u0436\u0443\u043a", "\u0416\u0423\u041a", "a b", "a+b", "100%", "x;y", "\u00e9"]
CFG_NAMES = [n for n in NAMES if " " not in n]   # names written unquoted in directive arguments
# Seeds from 2203 also use names saved in Latin-1 in rules and file names (a str holding
# surrogate escapes, written out as the raw bytes; kept out of vhost lines).
L1NAMES = ["caf\udce9", "\udcc9t\udcc9", "na\udcefve", "\udce9t\udce9"]
if SEED >= 2203:
    NAMES[0:0] = L1NAMES
    CFG_NAMES[0:0] = L1NAMES
LATIN1 = [b"caf\xe9", b"\xc9t\xc9", b"na\xefve", b"\xff"]   # names that are not UTF-8


def enc(text, lower=False, safe="/"):
    """Percent-encode like a browser (non-ASCII and specials), hex in either case."""
    raw = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    out = []
    for b in raw:
        c = chr(b)
        if b < 0x80 and (c.isalnum() or c in "-._~" + safe):
            out.append(c)
        else:
            out.append(("%%%02x" if lower else "%%%02X") % b)
    return "".join(out)


def rx(text):
    """A regex literal for a name (escape metacharacters)."""
    return "".join("\\" + c if c in ".+()[]{}^$|?*\\" else c for c in text)


ODD_PATH = ["%C3%A9", "%c3%a9", "%E2%82%AC", "%FF", "%C3", "%C0%AF", "%E9", "%00", "%25", "%2525", "+", "%20", "%2B",
            "%CC%81", "e%CC%81", "%C3%89", "%D0%96", "%F0%9F%98%80", "%ED%A0%80", "%EF%BB%BF", "%7F", "%01", "%0A", "%3F", "%23",
            "%2F", "%2f", "%5C", "%3B", "%26", "%3D", "%E2%80%8B", "%C2%A0"]
ODD_QUERY = ["q=%C3%A9", "q=%FF", "q=%C3", "q=caf%C3%A9&x=1", "q=a+b", "q=a%20b", "q=%25", "q=%00", "q=%2F", "%C3%A9=%E2%82%AC",
             "q=%C0%AF", "q=e%CC%81", "q=%C3%89", "q=%26x%3D1", "q=%3F", "q=%23", "q=%E9", "q=%2B", "q=%7E%21", "q=a%0Ab"]


class Site:
    def __init__(self, host):
        self.host = host
        self.root, self.child, self.vhost, self.modules = [], [], [], set()
        self.sub = ch("sub", "d\u00e9p", "Docs", "\u00e9t\u00e9", "na\u00efve")
        self.files = {"index.html": None, "t.html": None, "t.php": None}   # path (str or bytes) -> content or None
        self.paths = ["/", "/t.html"]
        self.record = set()

    def add(self, name, content=None):
        self.files[name] = content

    def p(self, *xs):
        self.paths += list(xs)


def name_urls(n):
    """Ways a browser or a hand-typed link asks for name n."""
    out = [enc(n), enc(n, lower=True)]
    if PRE in n: out.append(enc(n.replace(PRE, DEC)))
    if DEC in n: out.append(enc(n.replace(DEC, PRE)))
    if any(ord(c) > 127 for c in n):
        out.append(enc(n.upper())); out.append(enc(n.lower()))
        try: out.append(enc(n.encode("latin-1")))
        except UnicodeEncodeError: pass
    return out


def f_nc(s, where):
    """[NC] and the case of non-ASCII letters in patterns."""
    n = ch(*NAMES)
    pat = ch(f"^{rx(n)}$", f"^{rx(n.upper())}$", f"^{rx(n.lower())}/?$", f"^({rx(n)})\\.html$", f"{rx(n)}", f"^(.*){rx(n[-1])}$",
             f"^[{n[0]}{n[0].upper()}](.*)$", "^(\\w+)$", "^([^.]+)\\.HTML$", "^[a-z\u00e9]+$", "^.{4}$", "^.{5,6}$")
    t = ch("t.html", "/t.html", "t.php?n=$0", "/t.html?c=$1", "t.html?x=%{REQUEST_URI}", "/t.php?m=$0&n=$1")
    if "$1" in t and "(" not in pat: t = t.replace("$1", "$0")
    fl = flag(ch("NC", "nocase", ""), ch("L", "R=302,L", "END", "R=301,L", "R,L,NC"))
    lines = [f"RewriteRule {pat} {t} {fl}".replace(" []", "")]
    (s.child if where == "child" else s.root).extend(lines)
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    for u in R.sample(name_urls(n), min(3, len(name_urls(n)))): s.p(base + u, base + u + ".html", base + u.upper() + ".HTML")
    s.p(base + "caf%C3%89", base + "CAF%C3%A9", base + "%C3%A9t%C3%A9", base + "%C3%89T%C3%89")


def f_cond(s, where):
    """RewriteCond string compares on non-ASCII bytes, with and without [NC]."""
    n = ch(*NAMES)
    var = ch("%{REQUEST_URI}", "%{QUERY_STRING}", "%{THE_REQUEST}", "%{HTTP:X-Name}", "%{PATH_INFO}", "%{REQUEST_FILENAME}", "$1")
    op = ch("=", "<", ">", "<=", ">=", "", "!=", "!")
    val = ch(f"/{n}", n, n.upper(), f"q={enc(n)}", "/caf\u00e9", "/CAF\u00c9", "\u00e9", "\u00c9", "/~", "/\x7e", "/z", "/\u00ff",
             f"^/{rx(n)}", f"{rx(n.upper())}$", "^q=caf%C3%A9$", "%C3%A9", "/cafe\u0301")
    if op == "!": op = ""; val = "!" + val
    fl = ch("", "[NC]", "[nocase]", "[NC,OR]", "[OR]")
    lines = [f"RewriteCond {var} {op}{val} {fl}".rstrip()]
    if fl.endswith("OR]"): lines.append(f"RewriteCond %{{REQUEST_URI}} ^/{ch('T', 't')}\\.html$")
    rule_pat = "^(.*)$" if var == "$1" else ch("^", "^(.*)$", "^(?!t\\.)(.*)$")
    lines.append(f"RewriteRule {rule_pat} {ch('/t.html?hit=1', 't.php', '/t.html?v=$1')} {ch('[R=302,L]', '[L]', '[END]', '[R=302,L,NE]')}")
    if rule_pat == "^" : lines[-1] = lines[-1].replace("$1", "x")
    (s.child if where == "child" else s.root).extend(lines)
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    for u in name_urls(n)[:3]: s.p(base + u, base + "x?q=" + u)
    s.p(base + "caf%C3%A9", base + "CAF%C3%89", base + "%C3%BF", base + "~", base + "z", base + "?q=caf%C3%A9", base + "a?q=CAF%C3%A9")
    # Header values travel as UTF-8 bytes; the oracle sends a value's characters as Latin-1.
    s.headers = getattr(s, "headers", []) + [{"X-Name": raw(ch(n, n.upper(), "caf\u00e9", "CAF\u00c9")).decode("latin-1")}]


def f_flags(s, where):
    """[B], [BNP], [B=chars], [NE], [QSA], [QSD], [UnsafeAllow3F], [UnsafePrefixStat] with odd bytes."""
    v = R.randint(0, 9)
    pre = ch("go/", "s/", "")
    if v == 0: lines = [f"RewriteRule ^{pre}(.*)$ /t.php?q=$1 {flag(ch('B', 'BNP', 'B= ?', 'B=/', 'B,BNP', 'B=&'), ch('L', 'R=302,L', 'QSA,L', 'R=302,NE,L'))}"]
    elif v == 1: lines = [f"RewriteRule ^{pre}(.*)$ /t.html?q=$1 {flag(ch('', 'NE', 'QSA', 'QSD'), ch('R=302,L', 'R=301,L'))}"]
    elif v == 2: lines = [f"RewriteRule ^{pre}(.*)$ /t.php/$1 {flag(ch('', 'UnsafeAllow3F', 'B'), ch('L', 'END', 'PT'))}"]
    elif v == 3: lines = [f"RewriteRule ^{pre}(.*)$ /t.php?x=1&q=$1 {flag(ch('', 'UnsafeAllow3F', 'B', 'NE', 'QSA', 'B,NE'), 'L')}"]
    elif v == 4: lines = [f"RewriteRule ^{pre}(.*)$ /$1 {flag(ch('R=302', 'R=302,NE', 'R=302,B', 'R=302,QSA'), 'L')}"]
    elif v == 5: lines = ["RewriteCond %{QUERY_STRING} (?:^|&)q=([^&]*)", f"RewriteRule ^{pre}x$ /t.html?v=%1 {flag(ch('R=302', 'R=302,NE', 'R=302,B', 'R=302,QSD', 'R=302,B,NE'), 'L')}"]
    elif v == 6: lines = [f"RewriteRule ^{pre}(.*)$ /t.html#$1 {flag(ch('R=302', 'R=302,NE'), 'L')}"]
    elif v == 7: lines = ["RewriteCond %{THE_REQUEST} \\s/+" + pre + "(\\S*)\\s", f"RewriteRule ^ /t.php?raw=%1 {flag(ch('', 'B', 'NE'), ch('L', 'R=302,L'))}"]
    elif v == 8: lines = [f"RewriteRule ^{pre}([^/]+)/([^/]+)$ /t.php?a=$1&b=$2 {flag(ch('B', 'BNP', 'B=+', ''), ch('L', 'R=302,L', 'QSA,L'))}"]
    else: lines = [f"RewriteRule ^{pre}(.*)$ /t.html?e=%{{ENV:X}} {flag('E=X:$1', ch('R=302,L', 'L', 'R=302,NE,L'))}"]
    lines = [l.replace("[]", "").rstrip() for l in lines]
    (s.child if where == "child" else s.root).extend(lines)
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    for _ in range(4):
        s.p(base + pre + R.choice(ODD_PATH) + ch("", "x", "/y", "%C3%A9", "?" + R.choice(ODD_QUERY)))
    s.p(base + pre + "a%2Fb/c", base + pre + "caf%C3%A9/%E2%82%AC", base + pre + "a%3Fb=c", base + pre + "a%26b%3Dc", base + pre + "a b".replace(" ", "%20"))


def f_map(s, where):
    """RewriteMap int: functions (vhost) used from .htaccess."""
    fn = ch("escape", "unescape", "tolower", "toupper")
    name = ch("m", "esc", "LC")
    s.vhost += [f"RewriteMap {name} int:{fn}"]
    src = ch("$1", "%{QUERY_STRING}", "%{REQUEST_URI}", "%{HTTP:X-Name}")
    tgt = ch(f"/t.html?v=${{{name}:{src}}}", f"/t.php?v=${{{name}:{src}|dflt}}", f"/${{{name}:{src}}}")
    if tgt.startswith("/$") and src != "$1": src = "$1"; tgt = f"/${{{name}:$1}}"
    pat = ch("^m/(.*)$", "^(m.*)$")
    fl = ch("[R=302,L]", "[L]", "[R=302,NE,L]", "[B,L]", "[R=302,L,QSA]")
    if tgt.startswith("/$") and "R=" not in fl: fl = "[R=302,L]"
    lines = [f"RewriteRule {pat} {tgt} {fl}"]
    (s.child if where == "child" else s.root).extend(lines)
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    for _ in range(4): s.p(base + "m/" + R.choice(ODD_PATH) + ch("", "A", "%C3%89", "?" + R.choice(ODD_QUERY)))
    s.p(base + "m/CAF%C3%89", base + "m/T.HTML", base + "m/t.html", base + "m/%74.html")
    s.headers = getattr(s, "headers", []) + [{"X-Name": ch("CAF\u00c9 x", "a%20b", "%C3%A9", "A&B").encode("utf-8").decode("latin-1")}]


def f_slash(s, where):
    """Encoded slashes and AllowEncodedSlashes (vhost)."""
    s.vhost += [ch("AllowEncodedSlashes On", "AllowEncodedSlashes NoDecode", "AllowEncodedSlashes Off", "AllowEncodedSlashes NoDecode", "AllowEncodedSlashes On")]
    s.add(f"{s.sub}/a.html")
    lines = ch([f"RewriteRule ^e/(.*)$ /t.html?p=$1 {ch('[R=302,L]', '[R=302,NE,L]', '[B,R=302,L]', '[L]')}"],
               ["RewriteRule ^e/([^/]+)/([^/]+)$ /t.php?a=$1&b=$2 [L]"], [], ["RewriteCond %{REQUEST_URI} %2F [NC]", "RewriteRule ^ /t.html?enc=1 [R=302,L]"],
               ["RewriteCond %{THE_REQUEST} %2F [NC]", "RewriteRule ^ /t.html?raw=1 [R=302,L]"])
    (s.child if where == "child" else s.root).extend(lines)
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    sub = enc(s.sub)
    s.p(f"/{sub}%2Fa.html", f"/{sub}%2fa.html", base + "e/a%2Fb", base + "e/a%2fb", base + "e/a%252Fb", "/t.html%2F", f"/{sub}/a.html%2F",
        base + "e/x?q=%2F", base + "e/%2F%2F", "/%2F", f"/{sub}/%2E%2E%2Ft.html")


def f_alias(s, where):
    """mod_alias with non-ASCII paths (Alias only in vhost lines)."""
    n = ch(*[x for x in CFG_NAMES[:13] if x not in L1NAMES])
    s.add(f"{s.sub}/{n}.html"); s.add(f"{n}/index.html"); s.add(f"{n}/p.html")
    v = R.randint(0, 6)
    if v == 0: lines = [f"Redirect {ch('', '301 ', '302 ', 'permanent ')}/{n} {ch('/t.html', 'http://' + s.host + '/t.html', '/' + n + '-new')}".replace("  ", " ")]
    elif v == 1: lines = [f"Redirect 302 /{enc(n)} /t.html"]
    elif v == 2: lines = [f"RedirectMatch 302 ^/({rx(n)})(.*)$ /t.html?n=$1&r=$2"]
    elif v == 3: lines = [f"RedirectMatch {ch('302', '301')} (?i)^/{rx(n)}(.*) /{ch(PRE, DEC, 'x')}$1"]
    elif v == 4: lines = [f"RedirectMatch 302 ^/go/(.*)$ http://{s.host}/$1"]
    elif v == 5:
        s.vhost += [f"Alias /{ch(n, 'al', 'al/' + n)} ${{DOCROOT}}/{ch(n, s.sub)}"]
        lines = []
    else:
        s.vhost += [f"AliasMatch (?i)^/am/({ch(rx(n), '.*')})$ ${{DOCROOT}}/{s.sub}/$1"]
        lines = []
    s.root.extend(lines)
    for u in name_urls(n)[:4]: s.p("/" + u, "/" + u + "/", "/" + u + "/p.html", "/al/" + u, "/al/" + u + ".html", "/am/" + u + ".html", "/go/" + u, "/" + u + "x?q=%C3%A9")
    s.p("/al", "/al/", "/al/p.html", f"/{enc(s.sub)}/{enc(n)}.html")


def f_dir(s, where):
    """DirectoryIndex and the trailing-slash redirect on non-ASCII directory names."""
    d = ch(*CFG_NAMES[:13])
    idx = ch("index.html", "\u00edndice.html", "Index.HTML", "caf\u00e9.html")
    s.add(f"{d}/{idx}"); s.add(f"{d}/deep/index.html"); s.add(f"{s.sub}/index.html")
    lines = []
    if idx != "index.html" or R.random() < 0.3:
        lines.append(f"DirectoryIndex {ch(idx, idx + ' index.html', 'index.html ' + idx, '/' + d + '/' + idx)}")
    if R.random() < 0.3: lines.append(ch("DirectorySlash Off", "DirectoryIndexRedirect on", "DirectoryIndexRedirect 302"))
    if R.random() < 0.3: lines += ["RewriteCond %{REQUEST_FILENAME} -d", "RewriteRule ^(.*[^/])$ /$1/ [R=302,L]"]
    s.root.extend(lines)
    for u in name_urls(d)[:4]: s.p("/" + u, "/" + u + "/", "/" + u + "/deep", "/" + u + "/deep/", "/" + u + "?q=%C3%A9", "/" + u + "%2F")
    s.p("/" + enc(s.sub), f"/{enc(s.sub, lower=True)}")


def f_index(s, where):
    """Options +Indexes listings with non-ASCII and mixed-case names."""
    d = ch("list", s.sub, "L\u00efst")
    for n in R.sample(NAMES, 4): s.add(f"{d}/{n}.html")
    if R.random() < 0.3: s.add(d.encode("utf-8") + b"/" + R.choice(LATIN1) + b".txt", b"latin-1 name\n")
    s.add(f"{d}/Zeta.txt"); s.add(f"{d}/alpha.txt"); s.add(f"{d}/\u00e9/x.html")
    lines = [f"Options +Indexes"] + ([ch("IndexOptions +FancyIndexing", "IndexOptions Charset=UTF-8", "IndexIgnore *.txt", "IndexOptions +IgnoreCase", "DirectoryIndex none")] if R.random() < 0.4 else [])
    s.extra = getattr(s, "extra", {}); s.extra[f"{d}/.htaccess"] = "\n".join(lines) + "\n"
    s.modules.add("autoindex")
    s.record.add("Content-Type")
    s.p(f"/{enc(d)}/", f"/{enc(d)}", f"/{enc(d)}/?C=N;O=D", f"/{enc(d)}/%C3%A9/", f"/{enc(d)}/%C3%A9", f"/{enc(d)}/?C=M;O=A")


def f_mv(s, where):
    """MultiViews with non-ASCII stems."""
    n = ch(*NAMES[:12])
    for ext in R.sample([".html", ".en.html", ".fr.html", ".txt", ".php", ".html.gz"], 3): s.add(f"{n}{ext}")
    s.add(f"{n.upper()}.html")
    s.root.insert(0, "Options +MultiViews")
    if R.random() < 0.3: s.root.insert(1, ch("AddLanguage en .en", "AddLanguage fr .fr", "LanguagePriority fr en", "MultiviewsMatch Any"))
    s.modules.add("negotiation")
    s.record.update(["Content-Location", "Vary"])
    for u in name_urls(n)[:5]: s.p("/" + u, "/" + u + "/x", "/" + u + ".en")
    s.headers = getattr(s, "headers", []) + [{"Accept-Language": ch("fr", "en", "fr;q=0.5, en")}]


def f_speling(s, where):
    """mod_speling against non-ASCII names (CheckCaseOnly and misspellings)."""
    n = ch(*CFG_NAMES[:13])
    s.add(f"{n}.html"); s.add(f"{s.sub}/{n.upper()}.txt")
    s.root.insert(0, "CheckSpelling On")
    if R.random() < 0.5: s.root.insert(1, ch("CheckCaseOnly On", "CheckBasenameMatch Off"))
    s.modules.add("speling")
    for u in name_urls(n)[:5]: s.p("/" + u + ".html", "/" + u + ".htm", "/" + u.upper() + ".html", f"/{enc(s.sub)}/" + u + ".txt")


def f_files(s, where):
    """<Files>/<FilesMatch> with non-ASCII names."""
    n = ch(*CFG_NAMES[:13])
    s.add(f"{n}.html"); s.add(f"{n.upper()}.html"); s.add(f"{s.sub}/{n}.html")
    body = ch(["Require all denied"], ["Header set X-F hit"], ["ForceType text/plain", "Header set X-F typed"], ["ErrorDocument 403 /t.html", "Require all denied"])
    head = ch(f'<Files "{n}.html">', f"<Files {n}.*>", f'<FilesMatch "^{rx(n)}">', f'<FilesMatch "(?i)^{rx(n)}\\.html$">', f'<FilesMatch "[\\x80-\\xff]">',
              '<FilesMatch "[^\\x00-\\x7f]">', f'<Files "{n.upper()}.html">', f'<FilesMatch "\\.(?i:HTML)$">', f"<Files ~ \"{rx(n[:2])}\">")
    close = "</FilesMatch>" if head.startswith("<FilesMatch") else "</Files>"
    (s.child if where == "child" else s.root).extend([head] + body + [close])
    s.record.update(["X-F", "Content-Type"])
    for u in name_urls(n)[:5]: s.p("/" + u + ".html", f"/{enc(s.sub)}/" + u + ".html")


def f_header(s, where):
    """Headers echoing the request's bytes (env from SetEnvIf and [E=], expressions)."""
    v = R.randint(0, 7)
    if v == 0: lines = ['SetEnvIf Request_URI "^/(.*)$" U=$1', 'Header always set X-U "%{U}e"']
    elif v == 1: lines = ['Header always set X-U "expr=%{REQUEST_URI}"']
    elif v == 2: lines = ['Header always set X-U "expr=%{QUERY_STRING}|%{unescape:%{QUERY_STRING}}"']
    elif v == 3: lines = ['Header always set X-U "expr=%{escape:%{REQUEST_URI}}"']
    elif v == 4: lines = ["RewriteRule ^(.*)$ - [E=U:$1]", 'Header always set X-U "%{U}e"']
    elif v == 5: lines = ['SetEnvIfNoCase Request_URI "caf\u00e9|\u00e9t\u00e9" U=nc', 'Header always set X-U "%{U}e"']
    elif v == 6: lines = ['<If "%{REQUEST_URI} =~ m#\u00e9#">', "Header always set X-U yes", "</If>", '<ElseIf "tolower(%{REQUEST_URI}) =~ /caf\u00c9/">', "Header always set X-U lower", "</ElseIf>"]
    else: lines = ['Header always set X-U "expr=%{tolower:%{REQUEST_URI}}|%{toupper:%{QUERY_STRING}}"']
    (s.child if where == "child" and v == 4 else s.root).extend(lines)
    s.record.add("X-U")
    for _ in range(4): s.p("/" + R.choice(ODD_PATH) + ch("", ".html", "?" + R.choice(ODD_QUERY)))
    s.p("/caf%C3%A9", "/CAF%C3%89?Q=%C3%A9", "/t.html?" + R.choice(ODD_QUERY), f"/{enc(s.sub)}/caf%C3%A9")


def f_latin1(s, where):
    """A .htaccess saved in Latin-1, and files whose names are not UTF-8."""
    b = R.choice(LATIN1)
    s.add(b + b".html", b"latin-1 file " + b + b"\n")
    s.latin1 = True
    pat = ch(b"^" + b + b"\\.html$", b"^(" + b + b")$", b + b"", b"^\xe9", b"^[\xc0-\xff]")
    s.root.append(b"RewriteRule " + pat + b" " + ch(b"/t.html [R=302,L]", b"t.php [L]", b"/t.html?n=$0 [R=302,L]", b"t.html [NC,L]"))
    u = enc(b)
    s.p("/" + u + ".html", "/" + u, "/" + enc(b.decode("latin-1")) + ".html", "/" + u.lower() + ".html", "/%E9", "/%C3%A9", "/%C9t%C9")


def f_class(s, where):
    """Byte semantics of patterns: a non-ASCII letter in a class is its bytes, . is one byte,
    hex escapes name bytes, (?i) folds ASCII only."""
    n = ch(PRE, "\u00e9t\u00e9", "na\u00efve", "\u20acuro", "\u00c9t\u00c9")
    pat = ch(f"^caf[\u00e9]$", "^caf.$", "^caf..$", "^caf.{2}$", "^caf\\xc3\\xa9$", "^caf\\x{e9}$", "^caf\\xe9$", "^[^/]{4}$", "^[^/]{5}$",
             f"^(?i){rx(n.upper())}$", f"^(?i:{rx(n)})$", "^\\W+$", "^[\\x80-\\xff]+", "^[\u00e0-\u00ff]", "^.\\x{a9}", "^\u20ac(.*)$",
             "^([^\\x00-\\x7f]+)\\.html$", "(\u00e9+)", "^cafe\u0301$", f"^{rx(DEC)}|{rx(PRE)}$", "^\\p{L}+$" if False else "^\\w+$")
    t = ch("/t.html?m=$0", "/t.php?m=$0", "t.html", "/t.html?m=$1" if "(" in pat else "/t.html?x=1")
    (s.child if where == "child" else s.root).append(f"RewriteRule {pat} {t} {ch('[R=302,L]', '[L]', '[R=302,NE,L]', '[NC,R=302,L]', '[B,R=302,L]')}")
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    s.p(base + "caf%C3%A9", base + "caf%E9", base + "caf%C3", base + "cafe%CC%81", base + "CAF%C3%A9", base + "caf%C3%89", base + "%E2%82%ACuro",
        base + "%C3%A9t%C3%A9", base + "%C3%89T%C3%89", base + "na%C3%AFve.html", base + "%E2%82%AC%E2%82%AC", base + "cafe", base + "%C3%A9%C3%A9%C3%A9")


def f_expr(s, where):
    """ap_expr and SetEnvIf on non-ASCII: tolower/toupper, =~ with /i, string compares, -strmatch."""
    v = R.randint(0, 6)
    if v == 0: lines = ['<If "%{REQUEST_URI} =~ /caf\u00c9/i">', "Header always set X-X ci", "</If>", "<Else>", "Header always set X-X no", "</Else>"]
    elif v == 1: lines = ['<If "toupper(%{REQUEST_URI}) == \'/CAF\u00e9\'">', "Header always set X-X up", "</If>"]
    elif v == 2: lines = ['<If "%{REQUEST_URI} -strmatch \'/caf?\'">', "Header always set X-X one", "</If>", '<ElseIf "%{REQUEST_URI} -strmatch \'/caf??\'">', "Header always set X-X two", "</ElseIf>"]
    elif v == 3: lines = ['SetEnvIfNoCase Request_URI "^/CAF\u00c9" X=nc', 'SetEnvIf Request_URI "^/caf\\xc3\\xa9" Y=hex', 'Header always set X-X "%{X}e|%{Y}e"']
    elif v == 4: lines = ['<If "%{QUERY_STRING} < \'q=\u00e9\' && %{QUERY_STRING} > \'q=z\'">', "Header always set X-X between", "</If>"]
    elif v == 5: lines = ["RewriteCond expr \"unescape(%{QUERY_STRING}) =~ /\u00e9/\"", "RewriteRule ^ /t.html?ex=1 [R=302,L]"]
    else: lines = ['<If "%{REQUEST_URI} in {\'/caf\u00e9\', \'/cafe\u0301\'}">', "Header always set X-X listed", "</If>",
                   '<If "-f \'%{DOCUMENT_ROOT}%{REQUEST_URI}.html\'">', "Header always set X-Y file", "</If>"]
    s.root.extend(lines)
    s.record.update(["X-X", "X-Y"])
    s.p("/caf%C3%A9", "/CAF%C3%89", "/caf%C3%89", "/CAF%C3%A9", "/cafe%CC%81", "/caf%E9", "/cafx", "/t.html?q=%C3%A9", "/t.html?q=%FF",
        "/t.html?q=%C3%A9%C3%A9", "/t.html?q=zz", "/t.html?q=%C3%89")


def f_errdoc(s, where):
    """ErrorDocument, FallbackResource and DirectoryIndex naming non-ASCII files."""
    n = ch(*CFG_NAMES[:13])
    s.add(f"{n}.html"); s.add(f"{s.sub}/{n}.html")
    lines = ch([f"ErrorDocument 404 /{n}.html"], [f"ErrorDocument 404 /{enc(n)}.html"], [f"FallbackResource /{n}.html"],
               [f"FallbackResource /{enc(n)}.html"], [f'ErrorDocument 403 "/{n}.html"', "RewriteRule ^deny - [F]"],
               [f"ErrorDocument 404 http://{s.host}/{n}.html"], [f'ErrorDocument 404 "Pas trouv\u00e9 {n}"'])
    (s.child if where == "child" else s.root).extend(lines)
    base = f"/{enc(s.sub)}/" if where == "child" else "/"
    s.p(base + "missing", base + "caf%C3%A9x", base + "deny", base + "%FF", base, base + enc(n) + ".html", base + "x/%C3%A9")


def f_base(s, where):
    """RewriteBase and per-directory prefixes in a non-ASCII directory."""
    d = s.sub
    s.add(f"{d}/new.html"); s.add(f"{d}/caf\u00e9.html")
    lines = [ch(f"RewriteBase /{d}/", f"RewriteBase /{enc(d)}/", f"RewriteBase /{d}", ""),
             f"RewriteRule ^old$ new.html {ch('[R=302,L]', '[L]')}",
             f"RewriteRule ^(caf.+)$ caf\u00e9.html {ch('[R=302,L]', '[L]', '[R=302,NE,L]')}"]
    s.child.extend([l for l in lines if l])
    b = f"/{enc(d)}/"
    s.p(b + "old", b + "caf%C3%A9x", b + "cafe", b + "new.html", f"/{enc(d, lower=True)}/old", f"/{enc(d)}%2Fold", b + "caf%FF")


def f_section(s, where):
    """<Directory>, <Location>, <LocationMatch> naming non-ASCII paths (vhost lines)."""
    d = s.sub
    s.add(f"{d}/caf\u00e9.html")
    s.vhost += ch([f'<Directory "${{DOCROOT}}/{d}">', "Header always set X-S dir", "</Directory>"],
                  [f"<Location /{d}>", "Header always set X-S loc", "</Location>"],
                  [f"<Location /{enc(d)}>", "Header always set X-S enc", "</Location>"],
                  [f'<LocationMatch "^/{rx(d)}/caf(.)">', "Header always set X-S lm", "</LocationMatch>"],
                  [f'<LocationMatch "(?i)^/{rx(d.upper())}">', "Header always set X-S lmi", "</LocationMatch>"],
                  [f'<DirectoryMatch "/{rx(d)}$">', "Header always set X-S dm", "</DirectoryMatch>"],
                  [f'<Location "/{d}/caf\u00e9.html">', "Require all denied", "</Location>"])
    s.record.add("X-S")
    b = f"/{enc(d)}/"
    s.p(b, b + "caf%C3%A9.html", b + "cafe%CC%81.html", f"/{enc(d, lower=True)}/p.html", f"/{enc(d.upper())}/p.html", b + "p.html")


def f_long(s, where):
    """Names near NAME_MAX (255 bytes) counted in bytes, not characters."""
    k = R.randint(115, 125)   # 2k + 5 bytes: at most NAME_MAX
    n = "\u00e9" * k
    s.add(f"{n}.html")
    s.p("/" + enc(n) + ".html", "/" + enc("\u00e9" * (k + 3)) + ".html", "/" + enc("\u00e9" * 130), "/" + "a" * 250 + ".html", "/" + "a" * 256,
        "/x/" + enc("\u00e9" * 128) + "/y")
    if R.random() < 0.5: s.root.append(ch("RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} -f") + "\nRewriteRule ^(.+)$ /t.html?len=1 [R=302,L]")


def f_qs(s, where):
    """Query strings: [QSA] merges, [B] of + and spaces, int:unescape of the query."""
    v = R.randint(0, 4)
    if v == 0: lines = [f"RewriteRule ^q/(.*)$ /t.php?p=$1 {ch('[QSA,L]', '[QSA,B,L]', '[QSA,R=302,L]', '[QSA,B,R=302,L]', '[QSA,NE,R=302,L]')}"]
    elif v == 1:
        s.vhost += ["RewriteMap un int:unescape"]
        lines = ["RewriteCond ${un:%{QUERY_STRING}} ^p=(.*)$", f"RewriteRule ^q$ /t.html?v=%1 {ch('[R=302,L]', '[R=302,NE,L]', '[B,R=302,L]')}"]
    elif v == 2: lines = ["RewriteCond %{QUERY_STRING} ^(.*)$", f"RewriteRule ^q$ /t.html?%1 {ch('[R=302,L]', '[R=302,NE,L]', '[L]')}"]
    elif v == 3: lines = ["RewriteCond %{QUERY_STRING} p=caf\u00e9 [NC]", "RewriteRule ^ /t.html?utf=1 [R=302,L]"]
    else: lines = [f"RewriteRule ^q/(.*)$ /t.php?a=$1&b=%{{QUERY_STRING}} {ch('[L]', '[B,L]', '[R=302,L]', '[BNP,R=302,L]')}"]
    s.root.extend(lines)
    for _ in range(4): s.p("/q/" + R.choice(ODD_PATH) + "?" + R.choice(ODD_QUERY), "/q?" + R.choice(ODD_QUERY).replace("q=", "p="))
    s.p("/q?p=caf\u00e9".replace("\u00e9", "%C3%A9"), "/q?p=CAF%C3%A9", "/q/a+b%20c?x=a+b", "/q?p=a%2Bb+c")


def f_twins(s, where):
    """Names in both Unicode normal forms side by side (caf\u00e9 precomposed and with a combining
    accent), each with its own .htaccess, rules, sections and variants: Apache keeps them apart."""
    t = ch((PRE, DEC), ("d\u00e9p", "de\u0301p"), ("\u00c5", "A\u030a"), ("na\u00efve", "nai\u0308ve"))
    tags = ("pre", "dec")
    for name, tag in zip(t, tags):
        s.add(f"{name}/index.html"); s.add(f"{name}/x.html"); s.add(f"{name}/{tag}.html"); s.add(f"{name}.html"); s.add(f"x.{name}")
        lines = ch([f"Header always set X-T {tag}"], [f"RewriteEngine On", f"RewriteRule ^go$ {tag}.html [L]"],
                   [f"RewriteEngine On", f"RewriteRule ^go$ /{t[0] if tag == 'dec' else t[1]}/x.html [R=302,L]"],
                   [f"ErrorDocument 404 /{name}/{tag}.html"], [f'<Files "x.html">', f"Header always set X-T files-{tag}", "</Files>"],
                   [f"DirectoryIndex {tag}.html"], ["Options +MultiViews", f"Header always set X-T mv-{tag}"], [])
        s.extra = getattr(s, "extra", {})
        if lines: s.extra[f"{name}/.htaccess"] = "\n".join(lines) + "\n"
    if R.random() < 0.4: s.add(f"{t[0]}/{t[1]}.html"); s.add(f"{t[1]}/{t[0]}.html")
    root = ch([f"RewriteRule ^{rx(t[0])}\\.html$ {t[1]}.html [L]"], [f"RewriteRule ^{rx(t[1])}/(.*)$ {t[0]}/$1 [L]"],
              [f'<FilesMatch "^(?<stem>[^.]+)\\.html$">', 'Header always set X-M "%{MATCH_STEM}e|%{REDIRECT_MATCH_STEM}e"', "</FilesMatch>"],
              [f"Redirect 302 /{t[0]}/old /{t[1]}/x.html"], [f"RewriteCond %{{REQUEST_URI}} ^/{rx(t[1])}", "RewriteRule ^ - [E=WHICH:dec]", 'Header always set X-W "%{WHICH}e"'],
              [f"AddType text/x-{tags[0]} .{t[0]}", f"AddType text/x-{tags[1]} .{t[1]}"], [])
    s.root.extend(root)
    if R.random() < 0.3:
        s.vhost += ch([f'<Directory "${{DOCROOT}}/{t[1]}">', "Header always set X-V dir-dec", "</Directory>"],
                      [f"<Location /{t[0]}>", "Header always set X-V loc-pre", "</Location>"],
                      [f'<DirectoryMatch "/(?<d>{rx(t[0])})$">', 'Header always set X-V "%{MATCH_D}e"', "</DirectoryMatch>"])
    s.record.update(["X-T", "X-M", "X-W", "X-V", "Content-Type"])
    for name in t:
        u = enc(name)
        s.p(f"/{u}/", f"/{u}", f"/{u}/x.html", f"/{u}/go", f"/{u}/missing", f"/{u}.html", f"/{u}/old", f"/{u}/x", f"/{u}/pre.html", f"/{u}/dec.html",
            f"/x.{u}", f"/{u}/{enc(t[0])}.html", f"/{u}/{enc(t[1])}.html")


def f_cookie(s, where):
    """[CO] cookies and Header edit/echo with non-ASCII bytes; RequestHeader then a rewrite condition."""
    v = R.randint(0, 5)
    if v == 0: lines = [f"RewriteRule ^c/(.*)$ - [CO=n:$1:{s.host}:5:/,{ch('L', 'END')}]"]
    elif v == 1: lines = [f"RewriteRule ^c/(.*)$ /t.html [CO=n:caf\u00e9-$1:.{s.host},{ch('R=302,L', 'L')}]"]
    elif v == 2: lines = ['Header always edit X-U "\u00e9" "E"', 'Header always set X-U "expr=%{REQUEST_URI}" early' if False else 'Header always set X-U "x\u00e9y\u00e9"', 'Header always edit* X-U "\u00e9" "[$0]"']
    elif v == 3: lines = ['RequestHeader set X-Name "caf\u00e9"', "RewriteCond %{HTTP:X-Name} ^caf\\xc3\\xa9$", "RewriteRule ^c/ /t.html?rh=1 [R=302,L]"]
    elif v == 4: lines = ["RewriteRule ^c/(.*)$ - [E=V:$1]", 'Header always set Set-Cookie "v=%{V}e; Path=/"', 'Header always edit Set-Cookie "%C3%A9|\u00e9" "E"']
    else: lines = ['SetEnvIf X-Name "(.*)" XN=$1', 'Header always set X-U "%{XN}e"', 'Header always echo ^X-N']
    s.root.extend(lines)
    s.record.update(["Set-Cookie", "X-U", "X-Name", "X-Nb"])
    for _ in range(3): s.p("/c/" + R.choice(ODD_PATH) + ch("", "x", "%C3%A9"))
    s.p("/c/caf%C3%A9", "/c/%FF", "/c/a;b=c", "/t.html", "/c/")
    s.headers = getattr(s, "headers", []) + [{"X-Name": raw(ch("caf\u00e9", "CAF\u00c9", "caf\udce9")).decode("latin-1"), "X-Nb": raw("\u20ac").decode("latin-1")}]


def f_host(s, where):
    """Host, Cookie and Referer headers carrying non-ASCII or odd bytes, read by conditions."""
    v = R.randint(0, 4)
    if v == 0: lines = ["RewriteCond %{HTTP_HOST} [^\\x00-\\x7f]", "RewriteRule ^ /t.html?h=8bit [R=302,L]"]
    elif v == 1: lines = ["RewriteCond %{HTTP_COOKIE} (?:^|;\\s*)n=([^;]*)", "RewriteRule ^k$ /t.html?c=%1 [R=302,L]"]
    elif v == 2: lines = ["SetEnvIfNoCase Referer \"CAF\u00c9\" R=nc", 'SetEnvIf Referer "caf\\xc3\\xa9" R2=hex', 'Header always set X-R "%{R}e|%{R2}e"']
    elif v == 3: lines = ["RewriteCond %{HTTP_REFERER} ^https?://([^/]+)/(.*)$", "RewriteRule ^k$ /t.html?r=%2 [R=302,L,B]"]
    else: lines = ["RewriteCond %{HTTP_HOST} ^(.+)\\.$", "RewriteRule ^ http://%1%{REQUEST_URI} [R=301,L]"]
    s.root.extend(lines)
    s.record.add("X-R")
    s.p("/k", "/t.html", "/x", "/k?q=%C3%A9")
    L = lambda t: raw(t).decode("latin-1")
    s.headers = getattr(s, "headers", []) + [
        {"Host": L(ch("caf\u00e9.test", "CAF\u00c9.test", s.host + ".", "caf\udce9.test", s.host.upper(), "xn--caf-dma.test"))},
        {"Cookie": L(ch("n=caf\u00e9", "n=caf%C3%A9", "a=1; n=\u20ac; b=2", "n=caf\udce9"))},
        {"Referer": L(ch("http://caf\u00e9.test/caf\u00e9", "https://x.test/CAF\u00c9/p?q=1", "http://x.test/caf%C3%A9 x", "http://x.test/caf\udce9"))}]


FRAG = {"nc": f_nc, "cond": f_cond, "flags": f_flags, "map": f_map, "slash": f_slash, "alias": f_alias, "dir": f_dir,
        "index": f_index, "mv": f_mv, "speling": f_speling, "files": f_files, "header": f_header, "latin1": f_latin1}
if SEED >= 2202:   # seeds from 2202 add byte classes, ap_expr, error documents, RewriteBase, sections, long names, queries
    FRAG.update({"class": f_class, "expr": f_expr, "errdoc": f_errdoc, "base": f_base, "section": f_section, "long": f_long, "qs": f_qs})
if SEED >= 2204:   # seeds from 2204 add names in both normal forms side by side
    FRAG.update({"twins": f_twins, "twins2": f_twins})
if SEED >= 2205:   # seeds from 2205 add cookies and header edits with non-ASCII bytes
    FRAG.update({"cookie": f_cookie})
if SEED >= 2209:   # seeds from 2209 add Host, Cookie and Referer headers with odd bytes, and bad escapes in queries
    FRAG.update({"host": f_host})
    ODD_QUERY += ["q=%", "q=%%41", "q=%G1", "q=%e9%", "q=%C3%A9%", "%=1", "q=%2", "q=%u00e9"]


def make_case(i):
    host = ch("example.org", "shop.example", "caf\u00e9.test".encode("idna").decode() if False else "cafe.test")
    s = Site(host)
    s.add(f"{s.sub}/index.html"); s.add(f"{s.sub}/p.html")
    kinds = R.sample(list(FRAG), ch(1, 2, 2, 3) if SEED < 2206 else ch(3, 4))   # 2206+: busier sites
    for k in kinds:
        FRAG[k](s, ch("root", "root", "child"))
    # A few other odd file names that requests may or may not reach.
    for n in R.sample(NAMES, 2): s.add(f"{n}.html")
    if SEED >= 2207:   # names and a directory that start with a combining mark
        s.add("\u0301x.html"); s.add(f"{s.sub}/\u0301p.html"); s.add("\u0301d/index.html"); s.add("\u0301d/x.txt")
        s.p("/%CC%81x", "/%CC%81x.html", f"/{enc(s.sub)}/%CC%81p", "/%CC%81d", "/%CC%81d/", "/%CC%81d/x", "/x%CC%81")
    if R.random() < 0.15: s.add(R.choice(LATIN1) + b".txt", b"not utf-8 name\n")
    root = ["RewriteEngine On"] + s.root
    if R.random() < 0.1: root = ["<IfModule mod_rewrite.c>"] + root + ["</IfModule>"]
    files = {}
    for f, c in s.files.items():
        files[f] = c if c is not None else (raw(f) + f" {SEED}-{i}\n".encode() if isinstance(f, str) and R.random() < 0.8 else (b"" if isinstance(f, str) else b"bytes " + f + b"\n"))
    text = b"\n".join(raw(l) for l in root) + b"\n"
    if getattr(s, "latin1", False) or R.random() < 0.05:
        try: text = text.decode("utf-8").encode("latin-1")
        except (UnicodeDecodeError, UnicodeEncodeError): pass
    files[".htaccess"] = text
    if s.child:
        child = s.child
        if any(l.startswith("Rewrite") for l in child): child = ["RewriteEngine On"] + child
        files[f"{s.sub}/.htaccess"] = raw("\n".join(child) + "\n")
    for p, c in getattr(s, "extra", {}).items(): files[p] = c
    paths = list(dict.fromkeys(s.paths))
    reqs = []
    headers = getattr(s, "headers", [])
    for _ in range(R.randint(3, 8) if SEED < 2206 else R.randint(6, 10)):
        p = R.choice(paths)
        if R.random() < 0.2: p = p + ("&" if "?" in p else "?") + R.choice(ODD_QUERY)
        if R.random() < 0.1: p = p.replace("/", "/" + R.choice(ODD_PATH), 1)
        if SEED >= 2207 and R.random() < 0.2:   # 2207+: a combining mark right after some slash
            cuts = [k for k, c in enumerate(p.split("?")[0]) if c == "/"]
            k = R.choice(cuts)
            p = p[:k + 1] + ch("%CC%81", "%CC%88", "%E2%83%97") + p[k + 1:]
        p = "".join(c if 0x20 < ord(c) < 0x7f else enc(c) for c in p)
        url = f"{ch('http', 'http', 'http', 'https')}://{ch(host, host, 'www.' + host)}{p}"
        if headers and R.random() < 0.4: reqs.append({"url": url, "headers": dict(R.choice(headers))})
        elif R.random() < 0.06: reqs.append({"url": url, "method": "HEAD"})
        else: reqs.append(url)
    edge = ch("none", "none", "none", "none", "none", "flexible")
    case = {"description": f"bytes-gen {SEED}-{i}: {' x '.join(kinds)} ({s.sub})", "host": host, "aliases": ["www." + host],
            "edge": edge, "requests": reqs}
    allfiles = "".join(raw(c).decode("latin-1") for c in files.values()) + "".join(s.vhost)
    rec = sorted(h for h in s.record if h in allfiles or h in ("Content-Type", "Content-Location", "Vary"))
    if rec: case["record_headers"] = rec
    if s.vhost:   # a repeated one-line directive once; section lines as they are
        case["vhost"] = [l for k, l in enumerate(s.vhost) if l.startswith("<") or l.startswith("</") or " " not in l or l not in s.vhost[:k]]
    if s.modules: case["modules"] = sorted(s.modules)
    d = os.path.join(OUT, f"bytes-gen-{SEED}-{i:04d}")
    write_case(d, case, files)


for i in range(N): make_case(i)
