import Foundation
import HtlintSimulation

/// `htlint conformance DIR...`: runs recorded real-Apache cases and reports agreement.
struct ConformanceCommand {
    static let usage = """
    usage: htlint conformance [-v] [--strict] DIR...

    Runs recorded real-Apache cases (a directory holding case.json and expected.json, as
    tools/apache-oracle records them) through the simulator and reports every field that
    differs. DIR is a case or a directory with cases anywhere below it (fixtures/apache,
    the shared corpus's cases/).

      -v, --verbose   print each difference in full
      --strict        compare the original request, status, handler and error codes too
    """

    static func run(_ args: [String], _ out: inout CommandOutput) -> ExitStatus {
        var verbose = false
        var strict = false
        var paths: [String] = []
        for a in args {
            switch a {
            case "-h", "--help": out.out(usage); return .clean
            case "-v", "--verbose": verbose = true
            case "--strict": strict = true
            case _ where a.hasPrefix("-") && a.count > 1:
                out.err("htlint: conformance: unknown option '\(a)'\n\n" + usage)
                return .failure
            default: paths.append(a)
            }
        }
        guard !paths.isEmpty else {
            out.err("htlint: conformance needs a directory of cases (e.g. fixtures/apache)")
            return .failure
        }
        var dirs: [String] = []
        for p in paths {
            guard FileManager.default.fileExists(atPath: p) else {
                out.err("htlint: cannot read '\(p)'")
                return .failure
            }
            let found = caseDirectories(p)
            guard !found.isEmpty else {
                out.err("htlint: no cases in '\(p)' (a case is a directory with case.json)")
                return .failure
            }
            dirs += found
        }
        var requests = 0, agreeing = 0, casesAgreeing = 0
        for dir in dirs {
            do {
                let c = try ConformanceCase.load(dir)
                let sim = try c.simulator()
                let r = ConformanceComparison.compare(c, simulator: sim, strict: strict)
                requests += r.requests
                agreeing += r.agreeing
                if r.disagreements.isEmpty { casesAgreeing += 1 }
                for d in r.disagreements { out.out(verbose ? d.description : "  " + d.description) }
            } catch {
                out.out("  \(dir): \(error)")
            }
        }
        out.out("\(casesAgreeing)/\(dirs.count) cases agree; \(agreeing)/\(requests) requests agree")
        return casesAgreeing == dirs.count ? .clean : .findings
    }

    /// `path` itself when it is a case, else the cases below it in name order (a case's own
    /// directories are not searched; four levels at most).
    static func caseDirectories(_ path: String, depth: Int = 0) -> [String] {
        let fm = FileManager.default
        if fm.fileExists(atPath: path + "/case.json") { return [path] }
        guard depth < 4, let items = try? fm.contentsOfDirectory(atPath: path) else { return [] }
        return items.sorted().flatMap { item -> [String] in
            var isDirectory: ObjCBool = false
            let child = path + "/" + item
            guard !item.hasPrefix("."), fm.fileExists(atPath: child, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
            return caseDirectories(child, depth: depth + 1)
        }
    }
}
