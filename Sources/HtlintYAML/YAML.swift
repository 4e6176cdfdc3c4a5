import CYAML

/// A YAML document as plain values. Scalars stay strings (callers decide what a value means),
/// and every value remembers its 1-based line for error messages.
public indirect enum YAMLValue: Sendable, Equatable {
    case scalar(String, line: Int)
    case sequence([YAMLValue], line: Int)
    case mapping([(key: String, value: YAMLValue)], line: Int)
    case null(line: Int)

    public static func == (a: YAMLValue, b: YAMLValue) -> Bool {
        switch (a, b) {
        case let (.scalar(x, _), .scalar(y, _)): return x == y
        case let (.sequence(x, _), .sequence(y, _)): return x == y
        case let (.mapping(x, _), .mapping(y, _)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.null, .null): return true
        default: return false
        }
    }

    public var line: Int {
        switch self {
        case .scalar(_, let l), .sequence(_, let l), .mapping(_, let l), .null(let l): l
        }
    }

    /// The value for `key` in a mapping.
    public subscript(key: String) -> YAMLValue? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.last { $0.key == key }?.value
    }

    public var string: String? { if case .scalar(let s, _) = self { s } else { nil } }
    public var array: [YAMLValue]? { if case .sequence(let a, _) = self { a } else { nil } }
    public var keys: [String] { if case .mapping(let p, _) = self { p.map(\.key) } else { [] } }

    /// YAML 1.1 booleans as sites write them.
    public var bool: Bool? {
        switch string?.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    public var int: Int? { string.flatMap { Int($0) } }

    /// A scalar or a sequence of scalars, as a list of strings.
    public var strings: [String]? {
        if let s = string { return [s] }
        return array?.compactMap(\.string)
    }
}

/// A YAML syntax error with its position.
public struct YAMLError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
    public var description: String { "\(line):\(column): \(message)" }
}

/// Parses the first document of `text` with libyaml.
public func parseYAML(_ text: String) throws(YAMLError) -> YAMLValue {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { throw YAMLError(message: "cannot initialise libyaml", line: 1, column: 1) }
    defer { yaml_parser_delete(&parser) }
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { buffer throws(YAMLError) -> YAMLValue in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var builder = YAMLBuilder()
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let message = parser.problem.map { String(cString: $0) } ?? "syntax error"
                throw YAMLError(message: message, line: Int(parser.problem_mark.line) + 1,
                                column: Int(parser.problem_mark.column) + 1)
            }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return builder.root ?? .null(line: 1)
            case YAML_DOCUMENT_END_EVENT:
                if let root = builder.root { return root }
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let value = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
                let plain = s.style == YAML_PLAIN_SCALAR_STYLE
                builder.add(plain && ["", "~", "null", "Null", "NULL"].contains(value) ? .null(line: line) : .scalar(value, line: line))
            case YAML_SEQUENCE_START_EVENT: builder.open(.sequence([], line: line))
            case YAML_MAPPING_START_EVENT: builder.open(.mapping([], line: line))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: builder.close()
            case YAML_ALIAS_EVENT:
                throw YAMLError(message: "aliases are not supported", line: line, column: Int(event.start_mark.column) + 1)
            default: break
            }
        }
    }
}

/// Assembles events into values with an explicit stack (no recursion on hostile nesting).
private struct YAMLBuilder {
    var stack: [(value: YAMLValue, pendingKey: String?)] = []
    var root: YAMLValue?

    mutating func open(_ v: YAMLValue) { stack.append((v, nil)) }

    mutating func close() {
        guard let top = stack.popLast() else { return }
        add(top.value)
    }

    mutating func add(_ v: YAMLValue) {
        guard var top = stack.popLast() else { root = v; return }
        switch top.value {
        case .sequence(var items, let line):
            items.append(v)
            top.value = .sequence(items, line: line)
        case .mapping(var pairs, let line):
            if let key = top.pendingKey {
                pairs.append((key, v))
                top.value = .mapping(pairs, line: line)
                top.pendingKey = nil
            } else {
                switch v {
                case .scalar(let s, _): top.pendingKey = s
                case .null: top.pendingKey = ""
                default: top.pendingKey = "?"
                }
            }
        default: break
        }
        stack.append(top)
    }
}
