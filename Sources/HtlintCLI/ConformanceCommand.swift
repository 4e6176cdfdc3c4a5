import Foundation
import HtlintSimulation

/// `htlint conformance DIR...`: runs recorded real-Apache cases and reports agreement.
struct ConformanceCommand {
    static func run(_ args: [String], _ out: inout CommandOutput) -> ExitStatus {
        var verbose = false
        var strict = false
        var paths: [String] = []
        for a in args {
            if a == "-v" || a == "--verbose" { verbose = true } else if a == "--strict" { strict = true } else { paths.append(a) }
        }
        guard !paths.isEmpty else {
            out.err("htlint: conformance needs a directory of cases (e.g. fixtures/apache)")
            return .failure
        }
        var dirs: [String] = []
        let fm = FileManager.default
        for p in paths {
            if fm.fileExists(atPath: p + "/case.json") { dirs.append(p); continue }
            guard let items = try? fm.contentsOfDirectory(atPath: p) else {
                out.err("htlint: cannot read '\(p)'")
                return .failure
            }
            dirs += items.sorted().map { p + "/" + $0 }.filter { fm.fileExists(atPath: $0 + "/case.json") }
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
}
