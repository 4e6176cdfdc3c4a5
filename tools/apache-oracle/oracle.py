#!/usr/bin/env python3
"""htlint-oracle: record what real Apache httpd answers for .htaccess test cases.

    oracle.py record CASE_DIR_OR_ROOT...   write <case>/expected.json from real Apache
    oracle.py check  CASE_DIR_OR_ROOT...   re-record into a temporary directory and
                                           compare with the committed expected.json
    oracle.py serve  CASE_DIR [--edge MODE] [-- COMMAND...]
                                           serve one case in the private namespace and run
                                           COMMAND there (or serve until interrupted)

A case directory holds `case.json`, an optional `site/` tree (the document root) and,
once recorded, `expected.json`. The file formats are described in README.md next to
this script; they are the same as those of the shared conformance corpus.

How a case is recorded (all of it inside a private network, mount and PID namespace
created with `unshare`, so ports 80/443 are free, only loopback exists and every
process we start dies with the namespace):

1. The site is copied to a temporary directory, every empty file (except .htaccess)
   gets the body `oracle-file:/its/path`, and the copy is bind-mounted at
   /var/www/html, so recorded paths never depend on this machine.
2. Apache (and nginx, when the case has a CDN `edge`) is started with a generated
   configuration; Apache logs one access-log line per request with `<`/`>` LogFormat
   modifiers and error-log lines carrying the same request id (`X-Oracle-Id`).
3. Each request is replayed like a browser that follows redirects one hop at a time.
4. Once every hop's access-log line is written the servers are stopped, the logs are
   read, and expected.json is built.

Exit codes: 0 success, 1 `check` found differences (or a case failed at run time),
2 usage or setup problem (not root, apache2 missing, invalid case.json, ...).

Standard library only.
"""

import argparse
import copy
import ctypes
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

# --------------------------------------------------------------------------------------
# Constants shared with the corpus format
# --------------------------------------------------------------------------------------

HARNESS = "htlint-oracle 1"
DOCROOT = "/var/www/html"
MODULE_DIR = "/usr/lib/apache2/modules"
BASE_MODULES = ["mpm_prefork", "authz_core", "authz_host", "mime", "dir", "alias",
                "rewrite", "headers", "setenvif", "ssl"]
EDGES = ["none", "flexible", "flexible+always-https", "full", "full+always-https"]
CASE_KEYS = {"description", "host", "aliases", "edge", "vhost", "vhost_http",
             "vhost_https", "site_conf", "modules", "record_headers", "requests", "notes"}
REQUEST_KEYS = {"url", "method", "headers"}
MAX_HOPS = 20
USER_AGENT = "Mozilla/5.0 (compatible; htlint-oracle/1.0)"
ID_HEADER = "X-Oracle-Id"
EDGE_MARK_HEADER = "X-Oracle-Edge"  # added by nginx to the answers it makes itself
POST_BODY = b"oracle=1"
SERVER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
ERROR_LEVELS = {"emerg", "alert", "crit", "error", "warn"}

# Where the browser connects. Without an edge Apache listens on CLIENT_ADDR itself;
# with an edge nginx does, and Apache listens on ORIGIN_ADDR (ports stay 80/443).
CLIENT_ADDR = "127.0.0.1"
ORIGIN_ADDR = "127.0.0.2"

# Timeouts (seconds). Every wait in this program is bounded by one of these.
START_TIMEOUT = 15      # a server must accept connections within this time
STOP_TIMEOUT = 10       # SIGTERM, then SIGKILL
LOG_TIMEOUT = 5         # an access-log line must appear within this time
REQUEST_TIMEOUT = 10    # one HTTP exchange
WORKER_BASE_TIMEOUT = 60
WORKER_PER_CASE_TIMEOUT = 30

# The access-log fields, in LogFormat order. `<` = first request record of the
# internal-redirect chain, `>` = final one. State the modifier every time.
ACCESS_FIELDS = [
    ("id", "%{" + ID_HEADER + "}i"),
    ("status", "%>s"), ("original_status", "%<s"),
    ("uri", "%>U"), ("original_uri", "%<U"),
    ("query", "%>q"), ("original_query", "%<q"),
    ("filename", "%>f"), ("original_filename", "%<f"),
    ("handler", "%>R"),
    ("request_line", "%<r"),
]


class UsageError(Exception):
    """A problem the user must fix (bad case, missing tool): exit code 2."""


class CaseFailure(Exception):
    """A case could not be recorded (server failed, log line missing, ...)."""


# --------------------------------------------------------------------------------------
# Loading and validating cases
# --------------------------------------------------------------------------------------

def find_case_dirs(paths):
    """Expand arguments: a case directory, or a root holding case directories."""
    found = []
    for arg in paths:
        path = Path(arg).resolve()
        if (path / "case.json").is_file():
            found.append(path)
        elif path.is_dir():
            subdirs = sorted(p for p in path.iterdir() if (p / "case.json").is_file())
            if not subdirs:
                raise UsageError(f"{arg}: no case.json here or in its subdirectories")
            found.extend(subdirs)
        else:
            raise UsageError(f"{arg}: not a directory")
    seen = set()
    return [p for p in found if not (p in seen or seen.add(p))]


def _need(cond, where, message):
    if not cond:
        raise UsageError(f"{where}: {message}")


def _string_list(data, key, where):
    value = data.get(key, [])
    _need(isinstance(value, list) and all(isinstance(v, str) for v in value),
          where, f"'{key}' must be a list of strings")
    return value


def parse_url(url):
    """Split a URL into (scheme, host, port, target, fragment) without normalising.

    `target` is the path plus `?query` exactly as written (an empty query keeps its
    `?`); the fragment is returned separately because browsers never send it.
    """
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)$", url)
    if not match:
        return None
    scheme, authority, rest = match.group(1).lower(), match.group(2), match.group(3)
    rest, _, fragment = rest.partition("#")
    if "@" in authority:
        authority = authority.rsplit("@", 1)[1]
    host, port = authority, None
    port_match = re.match(r"^(.*):(\d*)$", authority)
    if port_match and not authority.endswith("]"):
        host, port_text = port_match.groups()
        port = int(port_text) if port_text else None
    default = {"http": 80, "https": 443}.get(scheme)
    if port is None:
        port = default
    target = rest if rest.startswith("/") else "/" + rest
    return scheme, host, port, target, fragment


def load_case(case_dir):
    """Read and validate case.json; return a normalised dict."""
    where = str(case_dir / "case.json")
    try:
        data = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{where}: cannot read JSON: {exc}")
    _need(isinstance(data, dict), where, "top level must be an object")
    unknown = set(data) - CASE_KEYS
    _need(not unknown, where, f"unknown keys {sorted(unknown)}")
    host = data.get("host")
    _need(isinstance(host, str) and re.match(r"^[A-Za-z0-9.-]+$", host or ""),
          where, "'host' must be a host name")
    edge = data.get("edge", "none")
    _need(edge in EDGES, where, f"'edge' must be one of {EDGES}")
    modules = _string_list(data, "modules", where)
    for name in modules:
        _need(re.match(r"^[a-z0-9_]+$", name), where, f"bad module name {name!r}")
        _need(Path(MODULE_DIR, f"mod_{name}.so").is_file() or not Path(MODULE_DIR).is_dir(),
              where, f"module {name!r}: {MODULE_DIR}/mod_{name}.so not found")
    requests = data.get("requests")
    _need(isinstance(requests, list) and requests, where, "'requests' must be a non-empty list")
    case = {
        "name": case_dir.name,
        "dir": case_dir,
        "description": data.get("description", ""),
        "host": host,
        "aliases": _string_list(data, "aliases", where),
        "edge": edge,
        "vhost": _string_list(data, "vhost", where),
        "vhost_http": _string_list(data, "vhost_http", where),
        "vhost_https": _string_list(data, "vhost_https", where),
        "site_conf": _site_conf(data, where),
        "modules": modules,
        "record_headers": _string_list(data, "record_headers", where),
        "requests": [_load_request(r, f"{where}: requests[{i}]") for i, r in enumerate(requests)],
    }
    site = case_dir / "site"
    _need(not site.exists() or site.is_dir(), where, "'site' must be a directory")
    return case


def _site_conf(data, where):
    """`site_conf`: a whole site configuration (main-server lines and <VirtualHost> sections)
    in place of the generated sections; None when the case has none."""
    if "site_conf" not in data:
        return None
    lines = _string_list(data, "site_conf", where)
    _need(lines, where, "'site_conf' must not be empty")
    _need(not {"vhost", "vhost_http", "vhost_https"} & set(data), where,
          "'site_conf' replaces 'vhost', 'vhost_http' and 'vhost_https'")
    return lines


def _load_request(raw, where):
    """A request is a URL string or {"url", "method", "headers"}."""
    if isinstance(raw, str):
        raw = {"url": raw}
    _need(isinstance(raw, dict) and isinstance(raw.get("url"), str), where, "needs a 'url'")
    unknown = set(raw) - REQUEST_KEYS
    _need(not unknown, where, f"unknown keys {sorted(unknown)}")
    url = raw["url"]
    parts = parse_url(url)
    _need(parts and parts[0] in ("http", "https"), where, f"{url!r} is not an http(s) URL")
    _need(parts[2] == {"http": 80, "https": 443}[parts[0]], where,
          f"{url!r}: only default ports (test other ports with a Host header)")
    _need(re.match(r"^[\x21-\x7e]+$", url), where,
          f"{url!r}: write spaces and non-ASCII characters percent-encoded")
    method = raw.get("method", "GET")
    _need(isinstance(method, str) and re.match(r"^[A-Z]+$", method), where, "bad 'method'")
    headers = raw.get("headers", {})
    _need(isinstance(headers, dict) and all(isinstance(k, str) and isinstance(v, str)
                                            for k, v in headers.items()),
          where, "'headers' must map names to strings")
    return {"url": url, "method": method, "headers": headers,
            "show_method": "method" in raw, "show_headers": "headers" in raw}


# --------------------------------------------------------------------------------------
# Preflight checks (outside the namespace)
# --------------------------------------------------------------------------------------

def preflight(cases):
    """Fail early, with exit code 2, when the machine cannot record."""
    problems = []
    if os.geteuid() != 0:
        problems.append("must run as root (it starts Apache on ports 80/443 inside a "
                        "private network namespace created with unshare)")
    tools = ["apache2", "unshare", "ip", "mount", "umount", "openssl"]
    if any(c["edge"] != "none" for c in cases):
        tools.append("nginx")
    for tool in tools:
        if not shutil.which(tool):
            hint = {"apache2": "apt-get install -y apache2", "nginx": "apt-get install -y nginx",
                    "openssl": "apt-get install -y openssl",
                    "ip": "apt-get install -y iproute2"}.get(tool, "apt-get install -y util-linux")
            problems.append(f"'{tool}' not found ({hint})")
    if not Path(MODULE_DIR).is_dir():
        problems.append(f"{MODULE_DIR} missing (is apache2 installed?)")
    if problems:
        raise UsageError("cannot record:\n  " + "\n  ".join(problems))


def tool_versions():
    """Versions written to expected.json's recorded_with."""
    def run(cmd):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
            return out.stdout + out.stderr
        except (OSError, subprocess.TimeoutExpired):
            return ""
    apache = re.search(r"Server version:\s*(\S+(?: \([^)]*\))?)", run(["apache2", "-v"]))
    nginx = re.search(r"nginx version:\s*(\S+)", run(["nginx", "-v"]))
    return {"apache": apache.group(1) if apache else None,
            "nginx": nginx.group(1) if nginx else None,
            "harness": HARNESS}


# --------------------------------------------------------------------------------------
# Orchestration: run workers inside private namespaces
# --------------------------------------------------------------------------------------

def record_cases(cases, jobs, verbose):
    """Record every case; return {case_dir: expected-dict or CaseFailure}."""
    versions = tool_versions()
    jobs = max(1, min(jobs, len(cases)))
    chunks = [cases[i::jobs] for i in range(jobs)]
    root = Path(tempfile.mkdtemp(prefix="htlint-oracle-"))
    os.chmod(root, 0o755)
    procs = []
    try:
        for index, chunk in enumerate(chunks):
            out = root / f"out{index}"
            out.mkdir()
            (root / f"work{index}").mkdir()
            cmd = ["unshare", "--net", "--mount", "--pid", "--fork", "--mount-proc",
                   "--kill-child", sys.executable, os.path.abspath(__file__), "_worker",
                   str(root / f"work{index}"), str(out), json.dumps(versions)]
            cmd += [str(c["dir"]) for c in chunk]
            stderr = None if verbose else subprocess.PIPE
            procs.append((subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr,
                                           start_new_session=True, preexec_fn=_die_with_parent),
                          chunk, out))
        deadline = time.monotonic() + WORKER_BASE_TIMEOUT + WORKER_PER_CASE_TIMEOUT * max(map(len, chunks))
        results = {}
        for proc, chunk, out in procs:
            _, err = _wait_worker(proc, deadline)
            for position, case in enumerate(chunk):
                results[case["dir"]] = _read_worker_result(out / f"{position}.json", err)
        return results
    finally:
        for proc, _, _ in procs:
            if proc.poll() is None:
                _kill_group(proc.pid)
                proc.wait(timeout=STOP_TIMEOUT)
        shutil.rmtree(root, ignore_errors=True)


def _die_with_parent():
    """In the child before exec: get SIGKILL if this program dies, even by SIGKILL.

    unshare --kill-child then takes the worker, and with it the whole PID namespace
    (Apache, nginx), down too. Best effort: needs Linux prctl(PR_SET_PDEATHSIG).
    """
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _raise_interrupt(signum, _frame):
    """SIGTERM/SIGHUP behave like Ctrl-C, so `finally` blocks stop the workers."""
    raise KeyboardInterrupt(f"signal {signum}")


def _wait_worker(proc, deadline):
    """Wait for a worker until the shared deadline; kill it (and its namespace) after."""
    try:
        _, err = proc.communicate(timeout=max(1, deadline - time.monotonic()))
        return proc.returncode, (err or b"").decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)  # unshare --kill-child takes the namespace down with it
        _, err = proc.communicate(timeout=STOP_TIMEOUT)
        return -1, (err or b"").decode("utf-8", "replace") + "\nworker timed out"


def _read_worker_result(path, worker_stderr):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = "\n".join(worker_stderr.strip().splitlines()[-15:])
        return CaseFailure("no result from the recording worker" + (f":\n{tail}" if tail else ""))
    if data.get("ok"):
        return data["expected"]
    failure = CaseFailure(data.get("error", "unknown error"))
    failure.usage = data.get("usage", False)
    return failure


def _kill_group(pid, sig=signal.SIGKILL):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


# --------------------------------------------------------------------------------------
# Worker (runs as PID 1 of a fresh PID/network/mount namespace)
# --------------------------------------------------------------------------------------

def worker_main(workdir, outdir, versions_json, case_dirs):
    versions = json.loads(versions_json)
    workdir, outdir = Path(workdir), Path(outdir)
    setup_namespace()
    cert = make_certificate(workdir)
    for position, case_dir in enumerate(case_dirs):
        started = time.monotonic()
        try:
            case = load_case(Path(case_dir))
            expected = record_case(case, workdir / f"case{position}", cert, versions)
            result = {"ok": True, "expected": expected}
        except UsageError as exc:  # the case itself is wrong
            result = {"ok": False, "usage": True, "error": str(exc)}
        except Exception as exc:  # report and go on with the next case
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        (outdir / f"{position}.json").write_text(json.dumps(result), encoding="utf-8")
        print(f"  {Path(case_dir).name}: {time.monotonic() - started:.2f}s", file=sys.stderr)
    return 0


def setup_namespace():
    """Loopback up; our mounts must not propagate to the host."""
    run(["ip", "link", "set", "lo", "up"])
    run(["mount", "--make-rprivate", "/"])
    Path(DOCROOT).mkdir(parents=True, exist_ok=True)


def make_certificate(workdir):
    """A throw-away self-signed certificate for Apache's and nginx's TLS listeners."""
    key, crt = workdir / "tls.key", workdir / "tls.crt"
    run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=htlint-oracle", "-keyout", str(key), "-out", str(crt)])
    return {"key": str(key), "crt": str(crt)}


def run(cmd, timeout=30):
    """Run a helper command; raise with its output when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise CaseFailure(f"{' '.join(cmd)} failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout


def record_case(case, casedir, cert, versions):
    """Record one case: serve its site, replay its requests, read the logs."""
    casedir.mkdir(parents=True)
    site = casedir / "site"
    contents = prepare_site(case["dir"] / "site", site)
    run(["mount", "--bind", str(site), DOCROOT])
    servers = []
    try:
        apache = Server("apache", ["apache2", "-f", str(casedir / "apache.conf"), "-DFOREGROUND"],
                        casedir)
        (casedir / "apache.conf").write_text(apache_config(case, casedir, cert))
        servers.append(apache.start(apache_addresses(case)))
        if case["edge"] != "none":
            (casedir / "nginx.conf").write_text(nginx_config(case, casedir, cert))
            nginx = Server("nginx", ["nginx", "-c", str(casedir / "nginx.conf"), "-p", str(casedir)],
                           casedir)
            servers.append(nginx.start([(CLIENT_ADDR, 80), (CLIENT_ADDR, 443)]))
        chains = [follow_chain(case, request, index, contents)
                  for index, request in enumerate(case["requests"])]
        # Apache writes the access-log line just after the response; wait for it before
        # stopping the servers (a graceful stop would do the same but costs a second).
        origin_ids = [hop["id"] for chain in chains for hop in chain["hops"] if not hop["edge_made"]]
        wait_for_log_lines(casedir / "access.log", origin_ids)
    finally:
        for server in reversed(servers):
            server.stop()
        reap_orphans()
        subprocess.run(["umount", "-l", DOCROOT], capture_output=True, timeout=30)
    access = read_access_log(casedir / "access.log")
    errors = read_error_log(casedir / "error.log")
    results = [finish_result(case, request, chain, access, errors)
               for request, chain in zip(case["requests"], chains)]
    return {
        "description": case["description"],
        "edge": case["edge"],
        "document_root": DOCROOT,
        "recorded_with": versions,
        "results": results,
    }


# --------------------------------------------------------------------------------------
# The site copy
# --------------------------------------------------------------------------------------

def prepare_site(source, dest):
    """Copy the case's site, giving each empty file the body `oracle-file:/path`.

    Returns {body bytes: site path} for recognising which file a response served.
    `.oracle-keep` files only mark empty directories and are not copied.
    """
    dest.mkdir()
    contents = {}
    if source.is_dir():
        for src in sorted(source.rglob("*")):
            rel = src.relative_to(source)
            target = dest / rel
            raw_path = b"/" + os.fsencode(rel.as_posix())
            site_path = _site_path_text(raw_path)
            if src.is_symlink():
                os.symlink(os.readlink(src), target)
            elif src.is_dir():
                target.mkdir()
            elif src.name != ".oracle-keep":
                data = src.read_bytes()
                if not data and src.name != ".htaccess":
                    data = b"oracle-file:" + raw_path + b"\n"
                target.write_bytes(data)
                if data and src.name != ".htaccess":
                    contents.setdefault(data, site_path)
    for path in [dest, *dest.rglob("*")]:  # Apache's children run as www-data
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return contents


def _site_path_text(raw_path):
    """A site path for `served`: its UTF-8, or, for a name that is not UTF-8, its bytes read
    as Latin-1 (as the recorded log fields are)."""
    try:
        return raw_path.decode("utf-8")
    except UnicodeDecodeError:
        return raw_path.decode("latin-1")


# --------------------------------------------------------------------------------------
# Server configuration
# --------------------------------------------------------------------------------------

def apache_addresses(case):
    addr = CLIENT_ADDR if case["edge"] == "none" else ORIGIN_ADDR
    return [(addr, 80), (addr, 443)]


def apache_config(case, casedir, cert):
    """The complete Apache configuration for one case (see README.md)."""
    (addr, _), _ = apache_addresses(case)
    modules = BASE_MODULES + [m for m in case["modules"] if m not in BASE_MODULES]
    log_format = "\\t".join(item for _, item in ACCESS_FIELDS)
    lines = [
        f"ServerRoot {casedir}",
        f"DefaultRuntimeDir {casedir}",
        f"PidFile {casedir}/apache.pid",
        "User www-data",
        "Group www-data",
        "ServerName oracle.invalid",
        f"Listen {addr}:80",
        f"Listen {addr}:443 https",
        *(f"LoadModule {m}_module {MODULE_DIR}/mod_{m}.so" for m in modules),
        "StartServers 2", "MinSpareServers 1", "MaxSpareServers 4", "MaxRequestWorkers 8",
        "Timeout 20",
        "KeepAlive Off",
        "TypesConfig /etc/mime.types",
        f"ErrorLog {casedir}/error.log",
        "LogLevel warn",
        f'ErrorLogFormat "%{{{ID_HEADER}}}i\\t%l\\t%M"',
        f'LogFormat "{log_format}" oracle',
        f"CustomLog {casedir}/access.log oracle",
        f"DocumentRoot {DOCROOT}",
        "AccessFileName .htaccess",
        "<Directory />",
        "    Options FollowSymLinks",
        "    AllowOverride None",
        "    Require all denied",
        "</Directory>",
        f"<Directory {DOCROOT}>",
        "    Options FollowSymLinks",
        "    AllowOverride All",
        "    Require all granted",
        "</Directory>",
        '<FilesMatch "^\\.ht">',
        "    Require all denied",
        "</FilesMatch>",
        "DirectoryIndex index.html index.php",
        "SSLProtocol all",
        "SSLCompression off",
    ]
    tls = ["SSLEngine on", f"SSLCertificateFile {cert['crt']}", f"SSLCertificateKeyFile {cert['key']}"]
    if case["site_conf"] is not None:
        lines += site_conf_lines(case["site_conf"], tls)
    else:
        lines += vhost_block(case, 80, [])
        lines += vhost_block(case, 443, tls)
    return "\n".join(lines) + "\n"


def site_conf_lines(conf, tls):
    """The case's own site configuration, `${DOCROOT}` filled in; every section for port 443
    gets the TLS lines first (Apache listens there with `https`)."""
    out = []
    for line in conf:
        out.append(line.replace("${DOCROOT}", DOCROOT))
        if re.match(r"^\s*<VirtualHost\s[^>]*:443\b", line, re.IGNORECASE):
            out += ["    " + item for item in tls]
    return out


def vhost_block(case, port, extra):
    """One <VirtualHost> per listening port: ServerName, aliases, then the case's lines."""
    own = case["vhost_http"] if port == 80 else case["vhost_https"]
    body = [f"ServerName {case['host']}"]
    if case["aliases"]:
        body.append("ServerAlias " + " ".join(case["aliases"]))
    body += extra
    body += [line.replace("${DOCROOT}", DOCROOT) for line in case["vhost"] + own]
    return [f"<VirtualHost *:{port}>", *("    " + line for line in body), "</VirtualHost>"]


def nginx_config(case, casedir, cert):
    """The CDN edge: TLS termination, forwarding headers, optional Always-HTTPS."""
    edge = case["edge"]
    always_https = edge.endswith("+always-https")
    https_upstream = f"https://{ORIGIN_ADDR}:443" if edge.startswith("full") else f"http://{ORIGIN_ADDR}:80"
    proxy_http = f"proxy_pass http://{ORIGIN_ADDR}:80;"
    http_action = proxy_http
    if always_https:  # the edge answers itself, and marks the answer for wait_for_log_lines
        http_action = f"add_header {EDGE_MARK_HEADER} 1 always; return 301 https://$host$request_uri;"
    temp = casedir / "nginx-tmp"
    temp.mkdir()
    return f"""
daemon off;
master_process on;
worker_processes 1;
pid {casedir}/nginx.pid;
error_log {casedir}/nginx-error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    proxy_http_version 1.1;
    proxy_redirect off;
    proxy_set_header Host $http_host;
    proxy_set_header Connection "";
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header CF-Visitor '{{"scheme":"$scheme"}}';
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header CF-Connecting-IP $remote_addr;
    proxy_ssl_server_name on;
    proxy_ssl_name $host;
    proxy_read_timeout {REQUEST_TIMEOUT}s;
    server {{
        listen {CLIENT_ADDR}:80;
        location / {{ {http_action} }}
    }}
    server {{
        listen {CLIENT_ADDR}:443 ssl;
        ssl_certificate {cert['crt']};
        ssl_certificate_key {cert['key']};
        location / {{ proxy_pass {https_upstream}; }}
    }}
}}
"""


class Server:
    """A server process in its own process group, with bounded start and stop."""

    def __init__(self, name, cmd, casedir):
        self.name, self.cmd, self.casedir = name, cmd, casedir
        self.proc = None
        self.log = casedir / f"{name}.stderr"

    def start(self, addresses):
        env = {"PATH": SERVER_PATH, "LANG": "C"}
        with open(self.log, "wb") as log:
            # cwd /: as under systemd, so a relative name Apache resolves (a relative -F look-up)
            # lands in the same place on every run (recorded: rewrite-cond-lookup-file-relative-names).
            self.proc = subprocess.Popen(self.cmd, cwd="/", env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        for address in addresses:
            while not _can_connect(address):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    output = self._output()
                    if "Syntax error" in output or "emerg" in output:  # the case's vhost lines
                        raise UsageError(f"{self.name} rejects the configuration:\n{output}")
                    raise CaseFailure(f"{self.name} did not start:\n{output}")
                time.sleep(0.02)
        return self

    def stop(self):
        """SIGTERM (both servers stop at once), SIGKILL to the group after a timeout."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        _kill_group(self.proc.pid)  # leftovers, if any
        try:
            self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass

    def _output(self):
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        error_log = self.casedir / ("error.log" if self.name == "apache" else "nginx-error.log")
        if error_log.exists():
            text += error_log.read_text(errors="replace")
        return text.strip()[-3000:]


def _can_connect(address):
    try:
        with socket.create_connection(address, timeout=0.5):
            return True
    except OSError:
        return False


def wait_for_log_lines(path, hop_ids):
    """Wait (bounded) until the access log has a line for each of these hops."""
    deadline = time.monotonic() + LOG_TIMEOUT
    while time.monotonic() < deadline:
        if set(hop_ids) <= set(read_access_log(path)):
            return
        time.sleep(0.01)


def reap_orphans():
    """As PID 1 of the namespace we inherit orphaned processes; collect the dead ones."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


# --------------------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------------------

def follow_chain(case, request, index, contents):
    """Replay one request, following redirects like a browser, one hop at a time."""
    site_hosts = {h.lower() for h in [case["host"], *case["aliases"]]}
    url, method = request["url"], request["method"]
    hops, seen = [], []
    outcome = {"outcome": "final"}
    while True:
        hop_id = f"r{index}h{len(hops)}"
        host_override = request["headers"].get("Host") if not hops else None
        headers = {k: v for k, v in request["headers"].items() if k.lower() != "host"}
        try:
            status, resp_headers, body = send_request(url, method, headers, host_override, hop_id)
        except (OSError, http.client.HTTPException) as exc:
            outcome = {"outcome": "error", "error": f"{type(exc).__name__}: {exc}"}
            break
        hop = {"id": hop_id, "url": url, "method": method, "status": status,
               "location": resp_headers.get("location"), "served": contents.get(body),
               "headers": resp_headers, "edge_made": EDGE_MARK_HEADER.lower() in resp_headers}
        hops.append(hop)
        seen.append(loop_key(url))
        if not (300 <= status < 400) or hop["location"] is None:
            break
        next_url = resolve_location(url, hop["location"])
        if not is_onsite(next_url, site_hosts):
            outcome = {"outcome": "offsite", "offsite_url": next_url}
            break
        if loop_key(next_url) in seen:
            start = seen.index(loop_key(next_url))
            outcome = {"outcome": "loop",
                       "loop": {"start_hop": start, "cycle": [h["url"] for h in hops[start:]]}}
            break
        if len(hops) >= MAX_HOPS:
            outcome = {"outcome": "too-many-hops"}
            break
        if status in (301, 302, 303) and method == "POST" or status == 303 and method != "HEAD":
            method = "GET"
        url = next_url
    return {"hops": hops, **outcome}


def header_text(value):
    """A header value as the bytes Apache sent, read as UTF-8 (http.client reads them as
    Latin-1: a Location with `é` would come back as `Ã©` and be encoded twice); bytes that
    are not UTF-8 stay as Latin-1 read them."""
    raw = value.encode("latin-1", "surrogateescape") if isinstance(value, str) else value
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return value


def send_request(url, method, headers, host_override, hop_id):
    """One HTTP/1.1 exchange over a fresh connection to the local listener."""
    scheme, host, port, target, _ = parse_url(url)
    sock = socket.create_connection((CLIENT_ADDR, port), timeout=REQUEST_TIMEOUT)
    try:
        if scheme == "https":
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            sock = context.wrap_socket(sock, server_hostname=host.lower() or None)
        host_header = host_override or (host.lower() if port == {"http": 80, "https": 443}[scheme]
                                        else f"{host.lower()}:{port}")
        lines = [f"{method} {target} HTTP/1.1", f"Host: {host_header}"]
        if not any(k.lower() == "user-agent" for k in headers):
            lines.append(f"User-Agent: {USER_AGENT}")
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines += [f"{ID_HEADER}: {hop_id}", "Connection: close"]
        body = b""
        if method in ("POST", "PUT"):
            body = POST_BODY
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        response = http.client.HTTPResponse(sock, method=method)
        response.begin()
        data = response.read()
        resp_headers = {}
        for name in set(k.lower() for k in response.msg.keys()):
            resp_headers[name] = ", ".join(header_text(v) for v in response.msg.get_all(name))
        return response.status, resp_headers, data
    finally:
        sock.close()


def resolve_location(current, location):
    """Absolute Locations are taken as they are, relative ones resolved against the URL;
    then characters a browser would not send raw are percent-encoded."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", location):
        resolved = location
    else:
        resolved = urllib.parse.urljoin(current.split("#")[0], location)
    return browser_encode(resolved)


def browser_encode(url):
    """Percent-encode spaces, controls, non-ASCII and "<>`{} like a browser does."""
    def encode(text, extra):
        out = []
        for byte in text.encode("utf-8"):
            char = chr(byte)
            out.append(f"%{byte:02X}" if byte <= 0x20 or byte >= 0x7F or char in extra else char)
        return "".join(out)
    head, sep, fragment = url.partition("#")
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/?]*)(.*)$", head)
    if not match:
        return url
    prefix, rest = match.groups()
    path, qsep, query = rest.partition("?")
    return prefix + encode(path, '"<>`{}') + qsep + encode(query, '"<>`') + sep + fragment


def loop_key(url):
    """URL identity for loop detection: case-insensitive scheme/host, no default port,
    no fragment."""
    parts = parse_url(url)
    if not parts:
        return url
    scheme, host, port, target, _ = parts
    return (scheme, host.lower(), port, target)


def is_onsite(url, site_hosts):
    """A Location the site serves: http(s), one of the case's hosts, default port."""
    parts = parse_url(url)
    if not parts or parts[0] not in ("http", "https"):
        return False
    scheme, host, port, _, _ = parts
    return host.lower() in site_hosts and port == {"http": 80, "https": 443}[scheme]


# --------------------------------------------------------------------------------------
# Apache's logs
# --------------------------------------------------------------------------------------

_LOG_ESCAPES = {"b": "\b", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", '"': '"'}


def unescape_log_field(text):
    """Undo ap_escape_logitem: \\n, \\t, \\", \\\\ and \\xhh (bytes kept as latin-1)."""
    def replace(match):
        item = match.group(1)
        return chr(int(item[1:], 16)) if item[0] == "x" else _LOG_ESCAPES[item]
    return re.sub(r'\\(x[0-9a-fA-F]{2}|[bnrtv\\"])', replace, text)


def read_access_log(path):
    """{hop id: {field: value}} from the access log (tab-separated ACCESS_FIELDS)."""
    entries = {}
    if not path.exists():
        return entries
    for line in path.read_bytes().decode("latin-1").splitlines():
        fields = line.split("\t")
        if len(fields) != len(ACCESS_FIELDS):
            continue
        values = {name: unescape_log_field(raw) for (name, _), raw in zip(ACCESS_FIELDS, fields)}
        entries.setdefault(values["id"], values)
    return entries


def read_error_log(path):
    """{hop id: [(level, message)]} for log entries of level warn and above."""
    entries = {}
    if not path.exists():
        return entries
    for line in path.read_bytes().decode("latin-1").splitlines():
        fields = line.split("\t", 2)
        if len(fields) == 3 and fields[1] in ERROR_LEVELS and fields[0] != "-":
            entries.setdefault(fields[0], []).append((fields[1], fields[2]))
    return entries


def relative_filename(value):
    """%f relative to the document root when under it; null when unset ("-")."""
    if value == "-":
        return None
    if value == DOCROOT:
        return "/"
    if value.startswith(DOCROOT + "/"):
        return value[len(DOCROOT):]
    return value


def apache_state(entry, errors):
    """The per-hop `apache` object of expected.json."""
    messages = [f"{level}: {message}" for level, message in errors]
    codes = [m.group(1) for _, message in errors for m in [re.match(r"^(AH\d+):", message)] if m]
    return {
        "status": int(entry["status"]),
        "original_status": int(entry["original_status"]),
        "uri": entry["uri"],
        "query": entry["query"],
        "filename": relative_filename(entry["filename"]),
        "original_uri": entry["original_uri"],
        "original_query": entry["original_query"],
        "original_filename": relative_filename(entry["original_filename"]),
        "handler": None if entry["handler"] == "-" else entry["handler"],
        "request_line": entry["request_line"],
        "recursion_limit_exceeded": "AH00124" in codes,
        "error_codes": codes,
        "errors": messages,
    }


# --------------------------------------------------------------------------------------
# Assembling expected.json
# --------------------------------------------------------------------------------------

def finish_result(case, request, chain, access, errors):
    """One entry of `results`, with keys in the corpus order."""
    result = {"request": request["url"]}
    if request["show_method"]:
        result["method"] = request["method"]
    if request["show_headers"]:
        result["headers"] = request["headers"]
    result["outcome"] = chain["outcome"]
    hops = chain["hops"]
    result["final_status"] = hops[-1]["status"] if hops else None
    for key in ("loop", "offsite_url", "error"):
        if key in chain:
            result[key] = chain[key]
    result["hops"] = [finish_hop(case, hop, access, errors) for hop in hops]
    return result


def finish_hop(case, hop, access, errors):
    entry = access.get(hop["id"])
    if entry is None and case["edge"] == "none":
        raise CaseFailure(f"no access-log line for {hop['method']} {hop['url']} ({hop['id']})")
    out = {"url": hop["url"]}
    if hop["method"] != "GET":
        out["method"] = hop["method"]
    out["status"] = hop["status"]
    if hop["location"] is not None:
        out["location"] = hop["location"]
    out["answered_by"] = "apache" if entry else "edge"
    if hop["method"] != "HEAD":
        out["served"] = hop["served"]
    if case["record_headers"]:
        out["headers"] = {name: hop["headers"].get(name.lower()) for name in case["record_headers"]}
    out["apache"] = apache_state(entry, errors.get(hop["id"], [])) if entry else None
    return out


# --------------------------------------------------------------------------------------
# Comparing recordings
# --------------------------------------------------------------------------------------

VOLATILE_KEYS = {"recorded_with"}

# Error lines whose presence depends on timing, not on the configuration: AH02651 ("Error
# writing request body to script") is logged only when mod_cgid writes a POST's body before it
# notices that the script's exec failed (fixture fallback-action-handlers met both orders).
RACY_ERROR_CODES = {"AH02651"}


def without_racy_errors(recording):
    """A copy of a recording without the error lines listed in RACY_ERROR_CODES."""
    data = copy.deepcopy(recording)
    for result in data.get("results", []) if isinstance(data, dict) else []:
        for hop in result.get("hops", []) or []:
            apache = hop.get("apache") if isinstance(hop, dict) else None
            if not isinstance(apache, dict):
                continue
            if isinstance(apache.get("error_codes"), list):
                apache["error_codes"] = [c for c in apache["error_codes"] if c not in RACY_ERROR_CODES]
            if isinstance(apache.get("errors"), list):
                apache["errors"] = [e for e in apache["errors"]
                                    if not any(f" {code}:" in e for code in RACY_ERROR_CODES)]
    return data


def diff_json(expected, actual, path=""):
    """Readable list of differences between two JSON values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        lines = []
        for key in list(expected) + [k for k in actual if k not in expected]:
            if not path and key in VOLATILE_KEYS:
                continue
            sub = f"{path}.{key}" if path else key
            if key not in actual:
                lines.append(f"{sub}: only in committed file: {json.dumps(expected[key])}")
            elif key not in expected:
                lines.append(f"{sub}: only in new recording: {json.dumps(actual[key])}")
            else:
                lines += diff_json(expected[key], actual[key], sub)
        return lines
    if isinstance(expected, list) and isinstance(actual, list):
        lines = []
        for i in range(max(len(expected), len(actual))):
            sub = f"{path}[{i}]"
            if i >= len(actual):
                lines.append(f"{sub}: only in committed file: {_short(expected[i])}")
            elif i >= len(expected):
                lines.append(f"{sub}: only in new recording: {_short(actual[i])}")
            else:
                lines += diff_json(expected[i], actual[i], sub)
        return lines
    if path.lower().endswith(".headers.allow") and isinstance(expected, str) and isinstance(actual, str):
        # Apache lists the methods in APR hash order, which changes with every process: the
        # header is the same answer when it names the same methods.
        def methods(v):
            return sorted(m.strip().upper() for m in v.split(",") if m.strip())
        if methods(expected) == methods(actual):
            return []
    if expected != actual or type(expected) is not type(actual):
        return [f"{path}: committed {json.dumps(expected)}, recorded {json.dumps(actual)}"]
    return []


def _short(value, limit=300):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def describe_path(expected, path):
    """Prefix a diff line with the request URL it belongs to, for readability."""
    match = re.match(r"^results\[(\d+)\]", path)
    if match and isinstance(expected, dict):
        results = expected.get("results", [])
        index = int(match.group(1))
        if index < len(results):
            return f"[{results[index].get('request')}] "
    return ""


def dump_json(data):
    return json.dumps(data, indent=2) + "\n"


# --------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------

def command_record(args):
    cases = [load_case(d) for d in find_case_dirs(args.cases)]
    preflight(cases)
    started = time.monotonic()
    results = record_cases(cases, args.jobs, args.verbose)
    failures = usage = 0
    for case in cases:
        outcome = results[case["dir"]]
        if isinstance(outcome, CaseFailure):
            failures += 1
            usage += getattr(outcome, "usage", False)
            print(f"FAILED {case['name']}: {outcome}", file=sys.stderr)
            continue
        (case["dir"] / "expected.json").write_text(dump_json(outcome), encoding="utf-8")
        if args.verbose:
            print(f"recorded {case['name']}")
    requests = sum(len(c["requests"]) for c in cases)
    print(f"recorded {len(cases) - failures}/{len(cases)} cases ({requests} requests) "
          f"in {time.monotonic() - started:.1f}s")
    return 2 if usage else 1 if failures else 0


def command_check(args):
    cases = [load_case(d) for d in find_case_dirs(args.cases)]
    preflight(cases)
    started = time.monotonic()
    results = record_cases(cases, args.jobs, args.verbose)
    agree = usage = 0
    for case in cases:
        outcome = results[case["dir"]]
        committed_path = case["dir"] / "expected.json"
        if isinstance(outcome, CaseFailure):
            usage += getattr(outcome, "usage", False)
            print(f"--- {case['name']}: could not record: {outcome}")
            continue
        if not committed_path.exists():
            print(f"--- {case['name']}: no committed expected.json (run `oracle.py record`)")
            continue
        committed = json.loads(committed_path.read_text(encoding="utf-8"))
        lines = diff_json(without_racy_errors(committed), without_racy_errors(outcome))
        if not lines:
            agree += 1
            continue
        print(f"--- {case['name']}: {len(lines)} difference(s)")
        for line in lines[:25]:
            print(f"    {describe_path(committed, line)}{line}")
        if len(lines) > 25:
            print(f"    ... {len(lines) - 25} more")
    print(f"{agree}/{len(cases)} cases agree ({time.monotonic() - started:.1f}s)")
    return 0 if agree == len(cases) else 2 if usage else 1


# --------------------------------------------------------------------------------------
# Serving a case for live tools (`htlint probe`)
# --------------------------------------------------------------------------------------

def command_serve(args):
    """Serve one case's site (Apache, plus nginx as the edge) in a private namespace.

    With a command after `--`, run it inside the namespace (only loopback exists there, so
    nothing it sends can leave 127.0.0.1), stop the servers and exit with its status; without
    one, keep serving until interrupted (then only processes inside the namespace can reach it).
    """
    case = load_case(Path(args.case))
    if args.edge:
        case["edge"] = args.edge
    preflight([case])
    command = args.run
    root = Path(tempfile.mkdtemp(prefix="htlint-serve-"))
    os.chmod(root, 0o755)
    cmd = ["unshare", "--net", "--mount", "--pid", "--fork", "--mount-proc", "--kill-child",
           sys.executable, os.path.abspath(__file__), "_serve", str(root), str(case["dir"]), case["edge"], "--", *command]
    proc = subprocess.Popen(cmd, start_new_session=True, preexec_fn=_die_with_parent)
    try:
        return proc.wait()
    finally:
        if proc.poll() is None:
            _kill_group(proc.pid)
            proc.wait(timeout=STOP_TIMEOUT)
        shutil.rmtree(root, ignore_errors=True)


def make_serve_certificate(workdir, case):
    """A self-signed certificate for the case's host names and 127.0.0.1, trusted inside the
    namespace: it is appended to a copy of the system CA bundle mounted over the original."""
    key, crt = workdir / "serve.key", workdir / "serve.crt"
    names = [case["host"], *case["aliases"]]
    san = ",".join([f"DNS:{n}" for n in names] + [f"IP:{CLIENT_ADDR}", f"IP:{ORIGIN_ADDR}"])
    run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", f"/CN={case['host']}", "-addext", f"subjectAltName={san}",
         "-keyout", str(key), "-out", str(crt)])
    system = Path("/etc/ssl/certs/ca-certificates.crt")
    if system.is_file():
        bundle = workdir / "ca-bundle.crt"
        bundle.write_bytes(system.read_bytes() + b"\n" + crt.read_bytes())
        run(["mount", "--bind", str(bundle), str(system)])
    return {"key": str(key), "crt": str(crt)}


def serve_main(workdir, case_dir, edge, command):
    """Runs as PID 1 of the namespace: start the servers, run the command or wait."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _raise_interrupt)
    workdir = Path(workdir)
    case = load_case(Path(case_dir))
    case["edge"] = edge
    setup_namespace()
    cert = make_serve_certificate(workdir, case)
    casedir = workdir / "case"
    casedir.mkdir()
    prepare_site(case["dir"] / "site", casedir / "site")
    run(["mount", "--bind", str(casedir / "site"), DOCROOT])
    servers = []
    try:
        (casedir / "apache.conf").write_text(apache_config(case, casedir, cert))
        apache = Server("apache", ["apache2", "-f", str(casedir / "apache.conf"), "-DFOREGROUND"], casedir)
        servers.append(apache.start(apache_addresses(case)))
        if case["edge"] != "none":
            (casedir / "nginx.conf").write_text(nginx_config(case, casedir, cert))
            nginx = Server("nginx", ["nginx", "-c", str(casedir / "nginx.conf"), "-p", str(casedir)], casedir)
            servers.append(nginx.start([(CLIENT_ADDR, 80), (CLIENT_ADDR, 443)]))
        if command:
            return subprocess.run(command, stdin=subprocess.DEVNULL).returncode
        print(f"serving {case['name']} (edge {case['edge']}) on {CLIENT_ADDR}:80/443 inside the namespace; "
              "interrupt to stop", file=sys.stderr, flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 130
    except (CaseFailure, UsageError) as exc:
        print(f"oracle.py serve: {exc}", file=sys.stderr)
        return 2
    finally:
        for server in reversed(servers):
            server.stop()
        subprocess.run(["umount", "-l", DOCROOT], capture_output=True, timeout=30)


def main(argv):
    # apache2, ip and mount live in sbin directories that non-login PATHs may lack.
    path = os.environ.get("PATH", "").split(":")
    os.environ["PATH"] = ":".join(path + [d for d in ("/usr/sbin", "/sbin") if d not in path])
    if argv[:1] == ["_worker"]:
        return worker_main(argv[1], argv[2], argv[3], argv[4:])
    if argv[:1] == ["_serve"]:
        return serve_main(argv[1], argv[2], argv[3], argv[5:])
    parser = argparse.ArgumentParser(
        prog="oracle.py", description="Record or check real-Apache expectations for htlint cases.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (("record", "write expected.json for each case"),
                           ("check", "re-record and compare with the committed expected.json")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("cases", nargs="+", help="case directories, or directories containing them")
        p.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1),
                       help="parallel recording namespaces (default: 2)")
        p.add_argument("-v", "--verbose", action="store_true", help="show per-case progress")
    p = sub.add_parser("serve", help="serve one case (Apache, nginx edge) in a private namespace; "
                                     "run a command there, or keep serving until interrupted")
    p.add_argument("case", help="a case directory")
    p.add_argument("--edge", choices=EDGES, help="the edge in front of Apache (default: the case's)")
    run_command = []
    if argv[:1] == ["serve"] and "--" in argv:  # everything after `--` is the command
        argv, run_command = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    args = parser.parse_args(argv)
    args.run = run_command
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_interrupt)
    try:
        if args.command == "serve":
            return command_serve(args)
        return command_record(args) if args.command == "record" else command_check(args)
    except UsageError as exc:
        print(f"oracle.py: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("oracle.py: interrupted; recording namespaces stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
