/// One string literal a script passes to a request API.
struct ScriptURL: Sendable {
    /// The literal's content (without quotes) in the scanned bytes.
    var range: Range<Int>
    var url: String
    var kind: ResourceKind
    /// The API, e.g. `fetch()` or `new WebSocket()`.
    var api: String
}

/// Finds URL literals handed to request APIs in inline scripts: `fetch("…")`,
/// `new WebSocket("ws://…")`, `new EventSource`, `new Worker`, `new SharedWorker`,
/// `navigator.sendBeacon`, `importScripts`, `xhr.open("GET", "…")` (spec §14.2: "only when
/// the URL is a literal in the HTML"), and module specifiers (`import … from "…"`,
/// `import("…")`), which fetch scripts. Only the literal that *is* the first URL argument is
/// taken, so a URL in a comment, in another string or built at run time is never reported.
///
/// This is a lexer, not a JavaScript parser: it skips comments, strings, template literals and
/// (by the usual previous-token heuristic) regular expression literals, and matches the call
/// shapes above on the token stream.
struct ScriptLiteralScanner {
    private let b: [UInt8]
    private var i = 0
    private var found: [ScriptURL] = []
    /// Recent significant tokens, newest last: identifiers, single punctuators, or `"` for a string.
    private var tokens: [(text: String, range: Range<Int>, value: String?)] = []

    static func urls(in bytes: [UInt8]) -> [ScriptURL] {
        var scanner = ScriptLiteralScanner(b: bytes)
        scanner.run()
        return scanner.found
    }

    private init(b: [UInt8]) { self.b = b }

    private static let constructors: [String: ResourceKind] = [
        "WebSocket": .websocket, "EventSource": .fetch, "Worker": .script, "SharedWorker": .script,
    ]
    private static let methods: Set<String> = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]

    private mutating func run() {
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
                while i < b.count, b[i] != 0x0A { i += 1 }
            } else if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < b.count, !(b[i] == UInt8(ascii: "*") && b[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = min(b.count, i + 2)
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "`") {
                readString(quote: c)
            } else if c == UInt8(ascii: "/"), regexAllowed() {
                skipRegex()
            } else if isIdentifierChar(c) {
                let start = i
                while i < b.count, isIdentifierChar(b[i]) { i += 1 }
                // Every name that matters is short; long ones are all the same to the matcher.
                push(i - start <= 15 ? String(decoding: b[start..<i], as: UTF8.self) : "identifier", start..<i)
            } else if c <= 0x20 {
                i += 1
            } else {
                push(String(UnicodeScalar(c)), i..<(i + 1))
                i += 1
                if c == UInt8(ascii: ","), let match = xhrOpen() { found.append(match) }
            }
        }
    }

    private mutating func push(_ text: String, _ range: Range<Int>, value: String? = nil) {
        if tokens.count >= 32 { tokens.removeFirst(24) }   // amortised: only the last few matter
        tokens.append((text, range, value))
    }

    /// The text of the `k`-th newest token (1 = newest), "" before the start.
    private func token(_ k: Int) -> String { tokens.count >= k ? tokens[tokens.count - k].text : "" }

    /// After a string literal: is it the first argument of a request API, or a module
    /// specifier (`import "x"`, `import … from "x"`, `export … from "x"`, `import("x")`)?
    private mutating func matchCall(_ literal: Range<Int>, _ value: String) {
        if (token(1) == "import" && token(2) != ".") || (token(1) == "from" && token(2) != ".")
            || (token(1) == "(" && token(2) == "import" && token(3) != ".") {
            found.append(ScriptURL(range: literal, url: value, kind: .script, api: "import"))
            return
        }
        // tokens end with: …, callee, "(", and the literal is being added now.
        guard token(1) == "(" else { return }
        let callee = token(2), before = token(3), object = token(4)
        let globals: Set<String> = ["window", "self", "globalThis"]
        var kind: ResourceKind?
        var api = callee + "()"
        switch callee {
        case "fetch", "importScripts":
            if before != "." || globals.contains(object) { kind = callee == "fetch" ? .fetch : .script }
        case "sendBeacon":
            if before == ".", object == "navigator" { kind = .fetch; api = "navigator.sendBeacon()" }
        default:
            if before == "new", let k = ScriptLiteralScanner.constructors[callee] {
                kind = k
                api = "new \(callee)()"
            }
        }
        if let kind { found.append(ScriptURL(range: literal, url: value, kind: kind, api: api)) }
    }

    /// At a `,`: `… . open ( "GET" ,` followed by a string literal is an XMLHttpRequest URL.
    private mutating func xhrOpen() -> ScriptURL? {
        guard token(5) == ".", token(4) == "open", token(3) == "(",
              token(2) == "\"", let method = tokens[tokens.count - 2].value,
              ScriptLiteralScanner.methods.contains(method.uppercased()) else { return nil }
        var k = i
        while k < b.count, b[k] <= 0x20 { k += 1 }
        guard k < b.count, b[k] == UInt8(ascii: "\"") || b[k] == UInt8(ascii: "'") || b[k] == UInt8(ascii: "`") else { return nil }
        i = k
        guard let (range, value) = readString(quote: b[k], record: false) else { return nil }
        push("\"", range, value: value)
        return ScriptURL(range: range, url: value, kind: .fetch, api: "XMLHttpRequest.open()")
    }

    /// Reads a string or template literal; template literals with `${` are dynamic and yield
    /// no URL. Returns the content range and value.
    @discardableResult
    private mutating func readString(quote: UInt8, record: Bool = true) -> (Range<Int>, String)? {
        i += 1
        let start = i
        var value: [UInt8] = []
        var dynamic = false
        while i < b.count, b[i] != quote {
            if quote != UInt8(ascii: "`"), b[i] == 0x0A { break }   // unterminated string
            if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
                let next = b[i + 1]
                switch next {
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "t"): value.append(0x09)
                case 0x0A: break
                default: value.append(next)
                }
                i += 2
                continue
            }
            if quote == UInt8(ascii: "`"), b[i] == UInt8(ascii: "$"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "{") {
                dynamic = true
            }
            value.append(b[i])
            i += 1
        }
        let range = start..<i
        if i < b.count, b[i] == quote { i += 1 }
        let text = String(decoding: value, as: UTF8.self)
        if record {
            if !dynamic { matchCall(range, text) }
            push("\"", range, value: dynamic ? nil : text)
        }
        return dynamic ? nil : (range, text)
    }

    /// A `/` starts a regular expression literal after an operator, an opening bracket, a
    /// comma or a keyword such as `return` — not after a value (ECMAScript lexical goal symbols).
    private func regexAllowed() -> Bool {
        guard let last = tokens.last?.text else { return true }
        if let first = last.unicodeScalars.first, isIdentifierChar(UInt8(truncatingIfNeeded: first.value)), first.isASCII {
            return ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"].contains(last)
        }
        return ![")", "]", "}", "\""].contains(last)
    }

    private mutating func skipRegex() {
        i += 1
        var inClass = false
        while i < b.count, b[i] != 0x0A {
            let c = b[i]
            if c == UInt8(ascii: "\\") { i += 2; continue }
            if c == UInt8(ascii: "[") { inClass = true }
            else if c == UInt8(ascii: "]") { inClass = false }
            else if c == UInt8(ascii: "/"), !inClass { i += 1; break }
            i += 1
        }
        while i < b.count, isIdentifierChar(b[i]) { i += 1 }   // flags
        push("regex-literal", i..<i)   // a value: a following `/` divides
    }

    private func isIdentifierChar(_ c: UInt8) -> Bool {
        ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || c >= 0x80
    }
}
