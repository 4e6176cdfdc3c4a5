// htlint-bench: throughput figures on the workloads of ../shared/bench (W1 migration map,
// W2 typical site, W3 big file to lint), side by side with the PCRE2 limit program.
// Usage: htlint-bench DATA_DIR [--limit PATH_TO_pcre_limit] [--sample N]
// The indexed engine's answers are compared with the unindexed engine's for every distinct URL
// of each workload (W1: some two minutes on two cores), or for the first N with --sample N.
import Dispatch
import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintRules
import HtlintSimulation

/// Prints and flushes, so figures appear as they are measured.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Peak resident memory of this process so far (VmHWM), in MB.
func peakMB() -> Double {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

func loadURLs(_ path: String, limit: Int?) -> [String] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").map(String.init)
    return limit.map { Array(lines.prefix($0)) } ?? lines
}

func simulator(_ dir: String, indexed: Bool = true) throws -> ChainSimulator {
    let files = try SiteFileSystem.load(directory: dir + "/docroot", mountedAt: "/var/www/html", displayPrefix: "docroot")
    let site = Site(serverName: "www.example.com", aliases: ["example.com"], files: files)
    // The workloads' https URLs stand for requests a TLS-terminating edge forwards with
    // X-Forwarded-Proto: https (bench README).
    return ChainSimulator(origin: Origin(site: site, tracing: false, indexed: indexed), edge: Edge(mode: .cloudflareFlexible))
}

/// Simulates every URL on `threads` threads; returns seconds and a digest of the answers.
final class Answers: @unchecked Sendable {
    var values: [String]
    init(_ n: Int) { values = [String](repeating: "", count: n) }
}

func replay(_ sim: ChainSimulator, _ urls: [String], threads: Int) -> (Double, [String]) {
    // Each thread writes its own indices (i ≡ t mod threads), so no two writes share a slot.
    let answers = Answers(urls.count)
    let start = now()
    answers.values.withUnsafeMutableBufferPointer { out in
        nonisolated(unsafe) let buffer = out
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            var i = t
            while i < urls.count {
                let r = sim.run(urls[i], method: "GET", headers: [])
                buffer[i] = "\(r.outcome.rawValue) " + r.hops.map { "\($0.status) \($0.location ?? "") \($0.served ?? "")" }.joined(separator: " | ")
                i += threads
            }
        }
    }
    return (now() - start, answers.values)
}

func fmt(_ v: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", v) }

let args = CommandLine.arguments
guard args.count >= 2 else {
    say("usage: htlint-bench DATA_DIR [--limit pcre_limit] [--sample N]")
    exit(2)
}
let data = args[1]
var limitProgram: String? = nil
var sample: Int? = nil
if let i = args.firstIndex(of: "--limit"), i + 1 < args.count { limitProgram = args[i + 1] }
if let i = args.firstIndex(of: "--sample"), i + 1 < args.count { sample = Int(args[i + 1]) }

say("htlint-bench — \(ProcessInfo.processInfo.activeProcessorCount) cores")
// End to end: the htlint binary next to this one, each command in its own process, with its
// wall time and peak resident memory (wait4's rusage), as a user would run it. Measured first:
// Linux counts the spawning process's memory into the child's peak (the child shares it until
// exec), so this process must still be small.
/// Runs `arguments` with standard output and error discarded; seconds, peak RSS in MB, status.
func measure(_ arguments: [String]) -> (seconds: Double, megabytes: Double, status: Int32)? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let start = now()
    guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { return nil }
    return (now() - start, Double(usage.ru_maxrss) / 1024, (status >> 8) & 0xFF)
}

let htlint = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("htlint").path
if FileManager.default.isExecutableFile(atPath: htlint) {
    say("End to end (\(htlint), one process per command; wall time, peak resident memory):")
    let site = ["--host", "www.example.com", "--alias", "example.com", "--edge", "cloudflare-flexible"]
    var runs: [(String, [String], Int?)] = []
    for w in ["w1", "w2"] where FileManager.default.fileExists(atPath: "\(data)/\(w)/urls.txt") {
        let replay = [htlint, "replay", "--docroot", "\(data)/\(w)/docroot"] + site + ["--urls", "\(data)/\(w)/urls.txt"]
        runs.append(("\(w.uppercased()) replay (cache, both cores)", replay, 100_000))
        runs.append(("\(w.uppercased()) replay --jobs 1 (cache, one core)", replay + ["--jobs", "1"], 100_000))
        runs.append(("\(w.uppercased()) replay --no-cache --jobs 1", replay + ["--no-cache", "--jobs", "1"], 100_000))
    }
    let w3 = data + "/w3/docroot/.htaccess"
    if FileManager.default.fileExists(atPath: w3) {
        runs.append(("W3 check", [htlint, "check", w3], nil))
        runs.append(("W3 lint --no-simulation", [htlint, "lint", "--no-simulation", w3], nil))
        runs.append(("W3 lint (with simulation)", [htlint, "lint", "--docroot", data + "/w3/docroot"], nil))
    }
    for (name, arguments, requests) in runs {
        guard let m = measure(arguments) else {
            say("  \(name): cannot run")
            continue
        }
        let rate = requests.map { ", \(fmt(Double($0) / m.seconds)) requests/s" } ?? ""
        say("  \(name): \(fmt(m.seconds, 2)) s\(rate), \(fmt(m.megabytes)) MB peak (exit \(m.status))")
    }
}

var perURL: [String: Double] = [:]
for (name, dir) in [("W1 (20,000 rules)", data + "/w1"), ("W1 n=1,000", data + "/w1_n1000"), ("W2 (typical site)", data + "/w2")] {
    guard FileManager.default.fileExists(atPath: dir) else { continue }
    let t0 = now()
    let sim = try simulator(dir)
    let build = now() - t0
    let urls = loadURLs(dir + "/urls.txt", limit: nil)
    _ = replay(sim, Array(urls.prefix(200)), threads: 1)   // warm the per-directory caches
    let (one, answers) = replay(sim, urls, threads: 1)
    let (two, _) = replay(sim, urls, threads: 2)
    let ns = one / Double(urls.count) * 1e9
    perURL[name] = ns
    say("\(name): load+compile \(fmt(build * 1000)) ms; \(urls.count) URLs, whole chains, no cache")
    say("  1 core: \(fmt(Double(urls.count) / one)) URLs/s (\(fmt(ns)) ns/URL); 2 cores: \(fmt(Double(urls.count) / two)) URLs/s")
    // The index must not change any answer: compare with the unindexed engine on every
    // distinct URL (a repeated URL has the same answer; the engine is deterministic).
    let reference = try simulator(dir, indexed: false)
    var indexed: [String: String] = [:]
    var distinct: [String] = []
    for (url, answer) in zip(urls, answers) where indexed[url] == nil {
        indexed[url] = answer
        distinct.append(url)
    }
    let checked = sample.map { Array(distinct.prefix($0)) } ?? distinct
    let (refTime, refAnswers) = replay(reference, checked, threads: 2)
    let differing = zip(checked, refAnswers).filter { indexed[$0] != $1 }.count
    say("  unindexed reference: \(fmt(refTime / Double(checked.count) * 1e9)) ns/URL; \(checked.count) distinct URLs"
        + "\(sample == nil ? " (all)" : ""), answers differing from the index: \(differing)")
    say("  peak memory so far: \(fmt(peakMB())) MB")
}
if let a = perURL["W1 (20,000 rules)"], let b = perURL["W1 n=1,000"] {
    say("W1 per-URL cost from 1,000 to 20,000 rules: ×\(fmt(a / b, 1))")
}

let w3 = data + "/w3/docroot/.htaccess"
if let bytes = FileManager.default.contents(atPath: w3) {
    let t0 = now()
    let file = LintFile(source: SourceFile(path: ".htaccess", bytes: [UInt8](bytes)))
    let parsed = now() - t0
    let staticRules = builtInRules.filter { !$0.description.usesSimulation }
    let t1 = now()
    let findings = Linter(rules: staticRules).run(LintContext(files: [file]))
    let linted = now() - t1
    say("W3 (\(file.rules.count) rules, \(bytes.count / 1_000_000) MB): parse \(fmt(parsed, 2)) s, static lint \(fmt(linted, 2)) s, \(findings.count) findings, peak \(fmt(peakMB())) MB")
    // Where the lint time goes: each static rule on its own.
    var costs: [(String, Double)] = []
    for rule in staticRules {
        let t = now()
        _ = Linter(rules: [rule]).run(LintContext(files: [file]))
        costs.append((rule.description.id + " " + rule.description.name, now() - t))
    }
    let slowest = costs.sorted { $0.1 > $1.1 }.prefix(5).map { "\($0.0) \(fmt($0.1 * 1000)) ms" }
    say("  slowest static rules: " + slowest.joined(separator: ", "))
}

if let limit = limitProgram, !FileManager.default.isExecutableFile(atPath: limit) {
    say("PCRE2 limit program not found at \(limit): build it with cc -O2 -o \(limit) ../shared/bench/pcre_limit.c -lpcre2-8")
} else if let limit = limitProgram {
    for w in ["w1", "w2"] where FileManager.default.fileExists(atPath: data + "/" + w) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: limit)
        p.arguments = ["\(data)/\(w)/docroot/.htaccess", "\(data)/\(w)/urls.txt", "\(data)/\(w)/files.txt", "7", "\(data)/\(w)/urls.meta.tsv"]
        p.environment = ["LINEAR_REPS": "1"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch {
            say("cannot run \(limit): \(error)")
            break
        }
        p.waitUntilExit()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        say("PCRE2 limit program \(w): " + out.replacingOccurrences(of: "\n", with: " ").prefix(600))
    }
}
