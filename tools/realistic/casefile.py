"""Writes one oracle case, as every generator here does: DIR/case.json and the site's files
under DIR/site. Names and contents are text, or bytes where a name or a file is not UTF-8."""
import json, os


def raw(x):
    return x if isinstance(x, bytes) else x.encode("utf-8", "surrogateescape")


def write_case(directory, case, files):
    os.makedirs(os.path.join(directory, "site"), exist_ok=True)
    with open(os.path.join(directory, "case.json"), "w") as f:
        json.dump(case, f, indent=2)
    for path, content in files.items():
        target = os.path.join(os.fsencode(directory), b"site", raw(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(raw(content))
