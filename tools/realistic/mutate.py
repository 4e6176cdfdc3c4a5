#!/usr/bin/env python3
"""Mutated copies of existing oracle cases: each output case is one source case's site/ and
case.json (never its expected.json: outputs are recorded fresh by the oracle) with 1-4 random
mutations that keep it plausible:

* rules: a RewriteRule flag changed, added or removed (L, END, R=301/302, NC, QSA, QSD, NE, B, PT,
  DPI, N, C, S=1, E=, F, G); ^/$ anchors, a leading slash or a trailing `/?` in a pattern; a
  target made relative or absolute;
* conditions: negated, -f/-d/-s/-l swapped, =/</>/regex swapped, [OR] and [NC] toggled;
* RewriteBase changed, added or removed; RewriteEngine flipped; RewriteOptions Inherit /
  InheritBefore added; a rule (with its conditions) moved into a subdirectory .htaccess;
* a DirectoryIndex, DirectorySlash, ErrorDocument, Redirect or RedirectMatch line in an
  .htaccess, an Alias line in the vhost;
* site files or directories added or removed;
* a request's path (trailing slash, query, %-escapes, dot segments, doubled slashes, case), Host
  (www or not, a port in the Host header), method (HEAD, POST), scheme, the case's edge, or an
  X-Forwarded-Proto / CF-Visitor header.

Names are <source>-m<SEED>-<index>; the same seed always gives the same cases.

Usage: mutate.py OUT N SEED [SRC ...] (default SRC: /work/shared/conformance/cases and
fixtures/apache next to this repository)."""
import json, os, random, re, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SRC = ["/work/shared/conformance/cases", os.path.join(HERE, "..", "..", "fixtures", "apache")]
EDGES = ["none", "flexible", "flexible+always-https", "full", "full+always-https"]
RULE = re.compile(r"^(\s*)(RewriteRule)(\s+)(\S+)(\s+)(\S+)(?:(\s+)\[([^\]\s]*)\])?\s*$", re.I)
COND = re.compile(r"^(\s*)(RewriteCond)(\s+)(\S+)(\s+)(\S+)(?:(\s+)\[([^\]\s]*)\])?\s*$", re.I)
RMATCH = re.compile(r"^(\s*)(RedirectMatch)(\s+\S+)?(\s+)(\S+)(\s+)(\S+)\s*$", re.I)
FLAGS = ["L", "END", "R=301", "R=302", "R", "NC", "QSA", "QSD", "NE", "B", "PT", "DPI", "N", "C", "S=1",
         "E=MUT:1", "F", "G", "R=303", "NS"]
FILETESTS = ["-f", "-d", "-s", "-l", "-F", "-U"]


class Case:
    """One output case being mutated: its directory, case.json and the configuration units
    (each .htaccess file and the vhost / site_conf line lists)."""

    def __init__(self, R, src, out):
        self.R, self.src, self.dir = R, src, out
        shutil.copytree(os.path.join(src, "site"), os.path.join(out, "site"), symlinks=True) \
            if os.path.isdir(os.path.join(src, "site")) else os.makedirs(os.path.join(out, "site"))
        with open(os.path.join(src, "case.json"), encoding="utf-8") as f:
            self.case = json.load(f)
        self.site = os.path.join(out, "site")
        self.done = []

    # --- site tree -------------------------------------------------------------------
    def walk(self):
        files, dirs = [], [""]
        for top, ds, fs in os.walk(self.site):
            ds.sort()
            rel = os.path.relpath(top, self.site)
            rel = "" if rel == "." else rel
            for d in ds:
                p = os.path.join(rel, d)
                if not os.path.islink(os.path.join(self.site, p)): dirs.append(p)
            for n in sorted(fs): files.append(os.path.join(rel, n))
        return files, dirs

    def htaccess(self):
        # a linked or unreadable access file (a symlink loop, a fixture's point) is left as it is
        return [f for f in self.walk()[0] if os.path.basename(f) == ".htaccess"
                and not os.path.islink(os.path.join(self.site, f)) and os.access(os.path.join(self.site, f), os.R_OK)]

    def read(self, rel):
        with open(os.path.join(self.site, rel), encoding="latin-1", newline="") as f:
            return f.read().split("\n")

    def write(self, rel, lines):
        p = os.path.join(self.site, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="latin-1", newline="") as f: f.write("\n".join(lines))

    # --- configuration units ---------------------------------------------------------
    def units(self):
        us = [("file", f) for f in self.htaccess()]
        for key in ("vhost", "vhost_http", "vhost_https", "site_conf"):
            if self.case.get(key): us.append(("case", key))
        return us

    def lines(self, unit):
        return self.read(unit[1]) if unit[0] == "file" else list(self.case[unit[1]])

    def set_lines(self, unit, lines):
        if unit[0] == "file": self.write(unit[1], lines)
        else: self.case[unit[1]] = lines

    def matching(self, regex):
        """(unit, index) of every line the regex matches, over all units."""
        return [(u, i) for u in self.units() for i, l in enumerate(self.lines(u)) if regex.match(l.rstrip("\r"))]

    def edit_line(self, regex, fn, what):
        hits = self.matching(regex)
        if not hits: return False
        u, i = self.R.choice(hits)
        ls = self.lines(u)
        cr = "\r" if ls[i].endswith("\r") else ""
        new = fn(regex.match(ls[i].rstrip("\r")))
        if new is None or new == ls[i].rstrip("\r"): return False
        ls[i] = new + cr
        self.set_lines(u, ls)
        self.done.append(f"{what} in {u[1]}: {new.strip()}")
        return True

    # --- requests --------------------------------------------------------------------
    def hosts(self):
        return [self.case["host"]] + list(self.case.get("aliases", []))

    def paths(self):
        out = []
        for r in self.case["requests"]:
            url = r if isinstance(r, str) else r["url"]
            m = re.match(r"^https?://[^/]*(/[^?#]*)", url)
            if m: out.append(m.group(1))
        return out or ["/"]


def ch(R, *xs): return R.choice(xs)


# ---------------------------------------------------------------------------------------
# Mutations: each returns True when it changed something.
# ---------------------------------------------------------------------------------------

def m_rule_flag(c):
    R = c.R
    def fn(m):
        flags = [f for f in (m.group(8) or "").split(",") if f]
        op = R.random()
        if flags and op < 0.3: flags.pop(R.randrange(len(flags)))
        elif flags and op < 0.6: flags[R.randrange(len(flags))] = R.choice(FLAGS)
        else: flags.insert(R.randrange(len(flags) + 1), R.choice(FLAGS))
        flags = list(dict.fromkeys(flags))
        tail = f" [{','.join(flags)}]" if flags else ""
        return f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}{m.group(5)}{m.group(6)}{tail}"
    return c.edit_line(RULE, fn, "rule flags")


def m_cond(c):
    R = c.R
    def fn(m):
        pat, flags = m.group(6), [f for f in (m.group(8) or "").split(",") if f]
        neg = pat.startswith("!")
        body = pat[1:] if neg else pat
        op = R.random()
        if op < 0.25:
            neg = not neg
        elif op < 0.55 and body in FILETESTS:
            body = R.choice([t for t in FILETESTS if t != body])
        elif op < 0.55 and body[:1] in "=<>" and body[:2] not in ("=~",):
            lit = body[1:]
            body = R.choice(["=" + lit, "<" + lit, ">" + lit, "^" + re.escape(lit) + "$", lit]) if lit else R.choice(["=", "^$"])
        elif op < 0.55:
            body = R.choice(["=" + body.strip("^$").replace("\\", ""), "-f", "-d", "^" + body.lstrip("^"), body.rstrip("$") + "$"])
        elif op < 0.8:
            flags = [f for f in flags if f.upper() != "OR"] if any(f.upper() == "OR" for f in flags) else flags + ["OR"]
        else:
            flags = [f for f in flags if f.upper() != "NC"] if any(f.upper() == "NC" for f in flags) else flags + ["NC"]
        tail = f" [{','.join(flags)}]" if flags else ""
        return f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}{m.group(5)}{'!' if neg else ''}{body}{tail}"
    return c.edit_line(COND, fn, "condition")


def reanchor(R, pat):
    neg = pat.startswith("!")
    p = pat[1:] if neg else pat
    op = R.random()
    if op < 0.2: p = p[1:] if p.startswith("^") else "^" + p
    elif op < 0.4: p = p[:-1] if p.endswith("$") and not p.endswith("\\$") else p + "$"
    elif op < 0.65:
        if p.startswith("^/?"): p = "^" + p[3:]
        elif p.startswith("^/"): p = "^" + p[2:]
        elif p.startswith("^"): p = "^/" + p[1:]
        else: p = "/" + p
    else:
        end = p.endswith("$") and not p.endswith("\\$")
        core = p[:-1] if end else p
        core = core[:-2] if core.endswith("/?") else core.rstrip("/") + "/?"
        p = core + ("$" if end else "")
    return ("!" if neg else "") + p


def m_anchor(c):
    R = c.R
    if R.random() < 0.75 or not c.matching(RMATCH):
        def fn(m):
            pat, target = m.group(4), m.group(6)
            if R.random() < 0.25 and target != "-" and "://" not in target:
                target = target[1:] if target.startswith("/") else "/" + target
            else:
                pat = reanchor(R, pat)
            tail = f"{m.group(7)}[{m.group(8)}]" if m.group(8) is not None else ""
            return f"{m.group(1)}{m.group(2)}{m.group(3)}{pat}{m.group(5)}{target}{tail}"
        return c.edit_line(RULE, fn, "rule pattern")
    def fn(m):
        return f"{m.group(1)}{m.group(2)}{m.group(3) or ''}{m.group(4)}{reanchor(R, m.group(5))}{m.group(6)}{m.group(7)}"
    return c.edit_line(RMATCH, fn, "RedirectMatch pattern")


def file_dir(rel):
    d = os.path.dirname(rel)
    return "/" + d + "/" if d else "/"


def m_base(c):
    R = c.R
    files = c.htaccess()
    if not files: return False
    f = R.choice(files)
    ls = c.read(f)
    idx = [i for i, l in enumerate(ls) if re.match(r"^\s*RewriteBase\b", l, re.I)]
    _, dirs = c.walk()
    choices = ["/", file_dir(f), file_dir(f).rstrip("/") or "/", "/" + R.choice(dirs) + ("/" if R.random() < 0.7 else "")]
    choices = [os.fsencode(x).decode("latin-1") for x in choices]  # a name's bytes, as the file holds them
    if idx and R.random() < 0.3:
        del ls[idx[0]]
        c.done.append(f"RewriteBase removed from {f}")
    elif idx:
        ls[idx[0]] = f"RewriteBase {R.choice(choices).replace('//', '/')}"
        c.done.append(f"{f}: {ls[idx[0]]}")
    else:
        eng = [i for i, l in enumerate(ls) if re.match(r"^\s*RewriteEngine\b", l, re.I)]
        at = eng[0] + 1 if eng else 0
        ls.insert(at, f"RewriteBase {R.choice(choices).replace('//', '/')}")
        c.done.append(f"{f}: {ls[at]}")
    c.write(f, ls)
    return True


def m_engine(c):
    R = c.R
    units = c.units()
    if not units: return False
    u = R.choice(units)
    ls = c.lines(u)
    eng = [i for i, l in enumerate(ls) if re.match(r"^\s*RewriteEngine\b", l, re.I)]
    opts = [i for i, l in enumerate(ls) if re.match(r"^\s*RewriteOptions\b", l, re.I)]
    op = R.random()
    if eng and op < 0.4:
        i = R.choice(eng)
        ls[i] = "RewriteEngine Off" if re.search(r"\bon\b", ls[i], re.I) else "RewriteEngine On"
        c.done.append(f"{u[1]}: {ls[i]}")
    elif opts and op < 0.6:
        c.done.append(f"{u[1]}: removed {ls[opts[0]].strip()}")
        del ls[opts[0]]
    else:
        line = "RewriteOptions " + ch(R, "Inherit", "InheritBefore", "Inherit", "InheritDown", "IgnoreInherit")
        if u[0] == "case" and u[1] == "site_conf": return False
        at = eng[0] + 1 if eng else 0
        ls.insert(at, line)
        c.done.append(f"{u[1]}: {line}")
    c.set_lines(u, ls)
    return True


def m_move_rule(c):
    """Move a rule and the conditions above it into another directory's .htaccess."""
    R = c.R
    files, dirs = c.walk()
    hts = c.htaccess()
    cands = []
    for f in hts:
        ls = c.read(f)
        for i, l in enumerate(ls):
            if RULE.match(l.rstrip("\r")): cands.append((f, i))
    if not cands: return False
    f, i = R.choice(cands)
    here = os.path.dirname(f)
    targets = [d for d in dirs if d != here and not os.path.islink(os.path.join(c.site, d, ".htaccess"))
               and not os.path.isdir(os.path.join(c.site, d, ".htaccess"))]
    if not targets: return False
    d = R.choice(targets)
    ls = c.read(f)
    start = i
    while start > 0 and COND.match(ls[start - 1].rstrip("\r")): start -= 1
    block = ls[start:i + 1]
    del ls[start:i + 1]
    c.write(f, ls)
    dest = os.path.join(d, ".htaccess")
    dl = c.read(dest) if os.path.exists(os.path.join(c.site, dest)) else []
    if not any(re.match(r"^\s*RewriteEngine\b", l, re.I) for l in dl): dl = ["RewriteEngine On"] + dl
    while dl and dl[-1] == "": dl.pop()
    at = len(dl) if R.random() < 0.5 else 1
    dl[at:at] = [l.rstrip("\r") for l in block]
    c.write(dest, dl + [""])
    c.done.append(f"moved `{block[-1].strip()}` from {f} to {dest}")
    return True


def m_directive(c):
    R = c.R
    files, dirs = c.walk()
    paths = c.paths()
    p = R.choice(paths)
    seg = "/" + p.strip("/").split("/")[0] if p.strip("/") else "/old"
    if R.random() < 0.2 and not c.case.get("site_conf"):
        d = R.choice(dirs)
        # (A vhost line names it in case.json, which is UTF-8; a blank would split the argument.)
        if not d.isascii() or any(ch.isspace() or ch in "\"'" for ch in d): return False
        line = ch(R, f"Alias /al ${{DOCROOT}}/{d}".rstrip("/"), f"Alias {seg}x ${{DOCROOT}}/{d}".rstrip("/"),
                  f"AliasMatch ^/am/(.*)$ ${{DOCROOT}}/{d + '/' if d else ''}$1")
        c.case["vhost"] = list(c.case.get("vhost", [])) + [line]
        c.done.append(f"vhost: {line}")
        return True
    hts = c.htaccess() or [".htaccess"]
    f = R.choice(hts)
    line = ch(R, "DirectoryIndex " + ch(R, "index.php index.html", "disabled", "missing.html", "/index.html", "index.html"),
              "DirectorySlash " + ch(R, "Off", "Off", "On"),
              "ErrorDocument " + ch(R, "404 /index.html", "404 /missing.html", "403 /index.html", '404 "nope"', "404 " + p),
              f"Redirect {ch(R, '301 ', '302 ', 'permanent ', '', 'gone ', '410 ')}{seg}" + ch(R, " /", " /new", f" http://{c.case['host']}/", ""),
              f"RedirectMatch {ch(R, '301 ', '302 ', '')}^{seg}(.*)$ " + ch(R, "/new$1", "/", f"https://{c.case['host']}{seg}$1"))
    if line.startswith("Redirect ") and ("gone" in line or "410" in line):
        line = " ".join(line.split()[:3])
    elif line.startswith("Redirect ") and len(line.split()) < 3 + (line.split()[1][:1].isdigit() or line.split()[1] in ("permanent",)):
        line += " /"
    ls = c.read(f) if os.path.exists(os.path.join(c.site, f)) else [""]
    at = R.randrange(len(ls) + 1) if R.random() < 0.5 else 0
    ls.insert(at, line)
    c.write(f, ls)
    c.done.append(f"{f}: {line}")
    return True


def m_files(c):
    R = c.R
    files, dirs = c.walk()
    conf = json.dumps(c.case)  # files a RewriteMap or AuthUserFile names stay (Apache would not start)
    plain = [f for f in files if os.path.basename(f) not in (".htaccess", ".oracle-keep") and f not in conf]
    if plain and R.random() < 0.4:
        f = R.choice(plain)
        p = os.path.join(c.site, f)
        os.remove(p)
        c.done.append(f"removed site file {f}")
        return True
    p = R.choice(c.paths()).strip("/")
    op = R.random()
    if op < 0.35 and p: rel = p                     # the requested path becomes a file
    elif op < 0.55 and p: rel = p + "/.oracle-keep"  # ... or a directory
    elif op < 0.75: rel = os.path.join(R.choice(dirs), ch(R, "index.html", "index.php"))
    else: rel = os.path.join(R.choice(dirs), ch(R, "new", "new.html", "old.html", "page"), ".oracle-keep" if R.random() < 0.3 else "")
    rel = rel.rstrip("/")
    full = os.path.join(c.site, rel)
    try:
        if os.path.lexists(full) or rel.startswith(".ht") or "%" in rel or \
                any(seg in ("", ".", "..") for seg in rel.split("/")) or rel.count("/") > 20: return False
        os.makedirs(os.path.dirname(full), exist_ok=True)
        open(full, "w").close()
    except (OSError, RecursionError):
        return False
    c.done.append(f"added site {'directory ' + os.path.dirname(rel) if rel.endswith('.oracle-keep') else 'file ' + rel}")
    return True


def mutate_path(R, path):
    base, q, query = path.partition("?")
    op = R.randrange(9)
    if op == 0: base = base[:-1] if base.endswith("/") and base != "/" else base + "/"
    elif op == 1: query = ch(R, "x=1", "a=b&c=d", "", "q=%2F%20", "x=%ZZ") if not q else (query + "&y=2" if R.random() < 0.6 else ""); q = "?" if query or R.random() < 0.2 else ""
    elif op == 2:
        # (Never the leading slash: `%2F…` would end the URL's host there.)
        letters = [i for i, x in enumerate(base) if i > 0 and (x.isalpha() or x in "./-_")]
        if letters:
            i = R.choice(letters)
            base = base[:i] + "%%%02X" % ord(base[i]) + base[i + 1:]
    elif op == 3:
        segs = [i for i, x in enumerate(base) if x == "/"]
        i = R.choice(segs)
        base = base[:i] + ch(R, "/x/..", "/.", "/%2e", "/foo/%2E%2E") + base[i:]
    elif op == 4:
        segs = [i for i, x in enumerate(base) if x == "/"]
        i = R.choice(segs)
        base = base[:i] + "/" + base[i:]
    elif op == 5: base = base.upper() if base != base.upper() else base.lower()
    elif op == 6: base = base + ch(R, "index.html", "index.php", "x", ".html", "/x") if base.endswith("/") else base + ch(R, ".bak", "/", "/x", "%20")
    elif op == 7:
        parts = base.split("/")
        base = "/".join(parts[:-1]) or "/" if len(parts) > 2 else ch(R, "/", "/index.html", "/missing")
    else: base = ch(R, "/", "/index.html", "/missing", "/.htaccess", "/index.php/x", "//")
    return base + q + query


def m_request(c):
    R = c.R
    reqs = c.case["requests"]
    k = R.randrange(len(reqs))
    r = reqs[k] if isinstance(reqs[k], dict) else {"url": reqs[k]}
    r = json.loads(json.dumps(r))
    m = re.match(r"^(https?)://([^/?#]*)(.*)$", r["url"])
    if not m: return False
    scheme, host, rest = m.groups()
    rest = rest or "/"
    op = R.random()
    if op < 0.45:
        rest = mutate_path(R, rest)
        what = "path"
    elif op < 0.6:
        hosts = c.hosts()
        h = host[4:] if host.startswith("www.") else "www." + host
        host = h if h in hosts or R.random() < 0.3 else R.choice(hosts)
        what = "host"
    elif op < 0.7:
        hdr = dict(r.get("headers", {}))
        hdr["Host"] = ch(R, host + ":80", host + ":443", host + ":8080", host.upper(), host + ".", "www." + c.case["host"] + ":80")
        r["headers"] = hdr
        what = "Host header"
    elif op < 0.8:
        r["method"] = ch(R, "HEAD", "POST", "HEAD", "POST", "OPTIONS")
        what = "method"
    elif op < 0.9:
        scheme = "https" if scheme == "http" else "http"
        what = "scheme"
    else:
        hdr = dict(r.get("headers", {}))
        if R.random() < 0.7: hdr["X-Forwarded-Proto"] = ch(R, "https", "http", "HTTPS")
        else: hdr["CF-Visitor"] = ch(R, '{"scheme":"https"}', '{"scheme":"http"}')
        r["headers"] = hdr
        what = "forwarded header"
    r["url"] = f"{scheme}://{host}{rest}"
    if not re.match(r"^[\x21-\x7e]+$", r["url"]): return False
    new = r if set(r) != {"url"} else r["url"]
    if R.random() < 0.5 and len(reqs) < 10: reqs.append(new)
    else: reqs[k] = new
    c.done.append(f"request {what}: {r.get('method', 'GET')} {r['url']}" + (f" {r['headers']}" if r.get("headers") else ""))
    return True


def refused_at_request_line(r):
    """Apache refuses `CONNECT /path` (its target must be host:port) and a request line past
    LimitRequestLine (8190 bytes) before the recorder's X-Oracle-Id header is read: a case with
    such a request only records behind an edge (which answers them itself)."""
    url = r["url"] if isinstance(r, dict) else r
    method = r.get("method", "GET") if isinstance(r, dict) else "GET"
    return method == "CONNECT" or len(url) > 8000


def m_edge(c):
    old = c.case.get("edge", "none")
    keep = any(refused_at_request_line(r) for r in c.case["requests"])
    c.case["edge"] = c.R.choice([e for e in EDGES if e != old and not (keep and e == "none")])
    c.done.append(f"edge {old} -> {c.case['edge']}")
    return True


MUTATIONS = [(m_rule_flag, 5), (m_cond, 4), (m_anchor, 4), (m_base, 2), (m_engine, 2), (m_move_rule, 2),
             (m_directive, 3), (m_files, 3), (m_request, 6), (m_edge, 1)]


def sources(roots):
    out = []
    for root in roots:
        for name in sorted(os.listdir(root)):
            d = os.path.join(root, name)
            if os.path.isfile(os.path.join(d, "case.json")): out.append(d)
    return out


def main():
    out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    srcs = sources(sys.argv[4:] or DEFAULT_SRC)
    R = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        src = R.choice(srcs)
        name = f"{os.path.basename(src)}-m{seed}-{i:04d}"
        dest = os.path.join(out, name)
        if os.path.exists(dest): shutil.rmtree(dest)
        c = Case(R, src, dest)
        want, tries = R.randint(1, 4), 0
        while len(c.done) < want and tries < 40:
            tries += 1
            fn = R.choices([m for m, _ in MUTATIONS], [w for _, w in MUTATIONS])[0]
            fn(c)
        desc = f"mutate {seed}-{i} of {os.path.basename(src)}: " + "; ".join(c.done)
        c.case["description"] = desc.encode("utf-8", "replace").decode("utf-8")
        c.case.pop("notes", None)
        text = json.dumps(c.case, indent=2, ensure_ascii=False) + "\n"
        with open(os.path.join(dest, "case.json"), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
