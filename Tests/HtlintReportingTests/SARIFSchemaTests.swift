import Foundation
import HtlintDiagnostics
import HtlintReporting
import Testing

/// SARIF output checked against the OASIS schema with Python's `jsonschema`. Skipped, with the
/// reason, when the schema or the validator is missing (a clone without ../shared, a machine
/// without python3-jsonschema).
struct SARIFSchemaTests {
    static let schema = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/schemas/sarif-schema-2.1.0.json").path

    static let schemaIsPresent = FileManager.default.fileExists(atPath: schema)

    static let validatorIsInstalled = (try? python(["-c", "import jsonschema"], input: "").status) == 0

    /// Validates stdin against the schema in argv[1]; prints one line per error.
    static let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        validator = cls(schema, format_checker=getattr(cls, "FORMAT_CHECKER", None))
        errors = list(validator.iter_errors(json.load(sys.stdin)))
        for e in errors:
            print("/".join(map(str, e.absolute_path)) + ": " + e.message)
        sys.exit(1 if errors else 0)
        """

    /// Runs `python3` (as found on PATH) with `arguments` and `input` on stdin.
    static func python(_ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        // Write on another thread so that a document larger than the pipe buffer cannot
        // deadlock against a validator that is writing errors.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static let reports: [String: Report] = [
        "fixture": Fixture.report,
        "bare": Fixture.bareReport,
        "clean": Report(diagnostics: [], sources: [Fixture.assets]),
        "odd paths": Report(diagnostics: [
            Diagnostic(code: "HT101", severity: .error, message: "m", range: .point("<stdin>", 0),
                       fixIts: [FixIt(title: "t", edits: [TextEdit(range: .point("/srv/my site/.htaccess", 0), replacement: "x")],
                                      applicability: .safe)]),
        ], sources: []),
    ]

    @Test("SARIF output validates against the 2.1.0 schema",
          .enabled(if: schemaIsPresent, "no ../shared/schemas/sarif-schema-2.1.0.json next to the package"),
          .enabled(if: validatorIsInstalled, "python3 with jsonschema is not installed (Debian: python3-jsonschema)"),
          arguments: reports.keys.sorted())
    func validates(_ name: String) throws {
        let sarif = SARIFFormatter().format(try #require(Self.reports[name]))
        let result = try Self.python(["-c", Self.script, Self.schema], input: sarif)
        #expect(result.status == 0, "\(name): \(result.output)")
    }

    @Test func oneRunWithCodePointColumnsAndMatchingRuleIndexes() throws {
        let object = try JSONSerialization.jsonObject(with: Data(SARIFFormatter().format(Fixture.report).utf8))
        let json = try #require(object as? [String: Any])
        #expect(json["version"] as? String == "2.1.0")
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs[0]["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 6)
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
        }
    }
}
