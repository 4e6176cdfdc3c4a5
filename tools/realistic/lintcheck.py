#!/usr/bin/env python3
"""Measures htlint lint's loop findings against recorded Apache answers.

  lintcheck.py recall DIR...        every site whose recorded requests loop (or exceed the internal
                                    recursion limit) must get HT301/HT308 (HT302/HT308); prints misses
                                    (BEYOND: only a request with a method or headers of its own looped)
  lintcheck.py witnesses OUT DIR... writes one oracle case per HT301/HT302/HT308 finding, requesting its
                                    witness URL; record OUT with the oracle, then
  lintcheck.py precision OUT        checks each witness looped, recursed or outgrew the redirect limit
                                    (an HT308 internal rewrite loop must recurse, its redirect loop loop)

HTLINT names the binary (default .build/debug/htlint). Cases with their own site configuration
or per-port vhost lines are skipped: lint reads a document root and one --vhost file."""
import collections, json, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HTLINT = os.environ.get("HTLINT", ".build/debug/htlint")
MODULES = ["mpm_prefork", "authz_core", "authz_host", "mime", "dir", "alias", "rewrite", "headers", "setenvif", "ssl"]
EDGE = {"none": ["--edge", "none"], "flexible": ["--edge", "cloudflare-flexible"],
        "flexible+always-https": ["--edge", "cloudflare-flexible", "--always-https"],
        "full": ["--edge", "cloudflare-full"], "full+always-https": ["--edge", "cloudflare-full", "--always-https"]}

def lint(d):
    """The case and lint's JSON diagnostics for it, or None when lint cannot model the case."""
    case = json.load(open(os.path.join(d, "case.json")))
    if {"site_conf", "vhost_http", "vhost_https"} & set(case) or case.get("edge") not in EDGE:
        return case, None
    args = [HTLINT, "lint", "--format", "json", "--docroot", os.path.join(d, "site"), "--host", case["host"]]
    for a in case.get("aliases", []): args += ["--alias", a]
    args += EDGE[case["edge"]] + ["--only-modules", ",".join(MODULES + case.get("modules", []))]
    with tempfile.NamedTemporaryFile("w", suffix=".conf") as vhost:
        if "vhost" in case:
            vhost.write("\n".join(l.replace("${DOCROOT}", "/var/www/html") for l in case["vhost"]) + "\n")
            vhost.flush()
            args += ["--vhost", vhost.name]
        p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{d}: htlint exited {p.returncode}: {p.stderr[:300]}")
    return case, json.loads(p.stdout)["diagnostics"]

def recursed(result):
    return any((h.get("apache") or {}).get("recursion_limit_exceeded") for h in result["hops"])

def cases(dirs):
    return sorted(os.path.join(a, x) for a in dirs for x in os.listdir(a))

def url_of(request):
    return request if isinstance(request, str) else request["url"]

def probe_like(request, reads_method=False):
    """Whether lint's probes send a request like this: no headers of its own, and GET unless the
    configuration reads the method (lint then probes other methods too)."""
    return isinstance(request, str) or (not request.get("headers") and (reads_method or request.get("method", "GET") == "GET"))

def reads_method(d, case):
    """Whether a configuration file of the case mentions REQUEST_METHOD."""
    texts = ["\n".join(case.get("vhost", []))]
    for root, _, files in os.walk(os.path.join(d, "site")):
        texts += [open(os.path.join(root, f), errors="replace").read() for f in files if f == ".htaccess"]
    return any("REQUEST_METHOD" in t.upper() for t in texts)

def recall(dirs):
    def one(d):
        case, found = lint(d)
        if found is None: return d, "skipped", None
        results = json.load(open(os.path.join(d, "expected.json")))["results"]
        codes = collections.Counter(f["code"] for f in found)
        missed, beyond = [], []
        method_read = reads_method(d, case)
        for what, hit, codes_ok in (("loop", lambda r: r["outcome"] == "loop", ("HT301", "HT308")),
                                    ("recursion", recursed, ("HT302", "HT308"))):
            reqs = [q for q, r in zip(case["requests"], results) if hit(r)]
            if not reqs or any(codes[c] for c in codes_ok): continue
            # Lint's probes send no headers, and other methods than GET only where the
            # configuration reads the method: a loop only a method or a client
            # header reaches (X-Forwarded-Proto sent past no edge, a Host with a trailing dot on
            # the first hop alone) is counted apart.
            plain = [q for q in reqs if probe_like(q, method_read)]
            (missed if plain else beyond).append((what, url_of((plain or reqs)[0])))
        return d, "missed" if missed else "beyond probes" if beyond else "ok", missed or beyond
    tally = collections.Counter()
    with ThreadPoolExecutor(2) as ex:
        for d, verdict, missed in ex.map(one, cases(dirs)):
            tally[verdict] += 1
            if missed: print("MISS" if verdict == "missed" else "BEYOND", d, missed)
    print(dict(tally))

def witnesses(out, dirs):
    os.makedirs(out, exist_ok=True)
    n = 0
    with ThreadPoolExecutor(2) as ex:
        for d, (case, found) in zip(cases(dirs), ex.map(lint, cases(dirs))):
            seen = collections.Counter()
            for f in (f for f in (found or []) if f["code"] in ("HT301", "HT302", "HT308")):
                k = seen[f["code"]]
                seen[f["code"]] += 1
                # HT308 says "… e.g. URL: lines …": the colon ends the sentence, not the URL.
                # A method probe's witness is "HEAD http://…".
                url = re.search(r"(?:\b([A-Z]+) )?(https?://[^\s,)]+)", f["message"])
                if not url or k >= 2: continue
                dst = os.path.join(out, f"{os.path.basename(d)}-{f['code']}-{k}")
                shutil.copytree(os.path.join(d, "site"), os.path.join(dst, "site"), symlinks=True, dirs_exist_ok=True)
                request = url.group(2).rstrip(".:")
                if url.group(1) and url.group(1) != "GET": request = {"url": request, "method": url.group(1)}
                json.dump(dict(case, requests=[request], description=f"{f['code']} witness: {f['message'][:160]}"),
                          open(os.path.join(dst, "case.json"), "w"), indent=2)
                n += 1
    print(n, "witness cases written to", out)

def precision(out):
    tally = collections.Counter()
    for d in cases([out]):
        r = json.load(open(os.path.join(d, "expected.json")))["results"][0]
        # A chain that grows (/a/ → /a/.html/ → …) never repeats a URL: it ends at the browser's
        # limit, or at an edge refusing the long URL, after 20 hops.
        internal = "-HT302-" in d or ("-HT308-" in d and "internal rewrite loop" in json.load(open(os.path.join(d, "case.json")))["description"])
        confirmed = recursed(r) if internal else (r["outcome"] in ("loop", "too-many-hops") or len(r["hops"]) >= 20)
        tally["confirmed" if confirmed else "not confirmed"] += 1
        if not confirmed: print("NOT CONFIRMED", d, r["outcome"], [(h.get("status"), h.get("location")) for h in r["hops"][:3]])
    print(dict(tally))

if __name__ == "__main__":
    mode, rest = sys.argv[1], sys.argv[2:]
    {"recall": lambda: recall(rest), "witnesses": lambda: witnesses(rest[0], rest[1:]), "precision": lambda: precision(rest[0])}[mode]()
