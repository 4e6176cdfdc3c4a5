import Foundation
import HtlintDiagnostics

/// File access for commands, replaceable in tests.
public struct CLIEnvironment: Sendable {
    public var readFile: @Sendable (String) throws -> [UInt8]
    public var readStdin: @Sendable () -> [UInt8]
    public var listDirectory: @Sendable (String) -> [String]?
    public var isDirectory: @Sendable (String) -> Bool
    public var writeFileText: @Sendable (String, String) throws -> Void = { path, text in
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CLIError.unwritable(path, CLIEnvironment.reason(error))
        }
    }
    /// Whether standard output is a terminal (colour decisions).
    public var isTerminal = false
    /// Where commands that stream (replay's JSON lines) write standard output as they go; nil
    /// (tests) collects it in `CommandOutput` like every other command.
    public var streamStdout: (@Sendable (String) -> Void)? = nil
    /// A progress line for long runs, when standard error is a terminal; nil otherwise.
    public var progress: (@Sendable (String) -> Void)? = nil
    /// Takes what a command built and no longer needs so that the process's exit, not the
    /// command, lets it go: freeing a replay's compiled rules and cached answers object by object
    /// costs more than the exit's unmapping (compilers skip their frees at exit likewise). nil
    /// (tests, in-process callers): everything is freed as usual.
    public var keepUntilExit: (@Sendable (Any) -> Void)? = nil

    public init(readFile: @escaping @Sendable (String) throws -> [UInt8], readStdin: @escaping @Sendable () -> [UInt8],
                listDirectory: @escaping @Sendable (String) -> [String]?, isDirectory: @escaping @Sendable (String) -> Bool) {
        self.readFile = readFile
        self.readStdin = readStdin
        self.listDirectory = listDirectory
        self.isDirectory = isDirectory
    }

    /// The real file system.
    public static let live = CLIEnvironment(
        readFile: { path in
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw CLIError.unreadable(path, "no such file or directory")
            }
            if isDir.boolValue { throw CLIError.unreadable(path, "is a directory") }
            // Refuse an oversized file before reading it (issue 9: bounded work on hostile input).
            if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue,
               size > SourceFile.sizeLimit {
                throw CLIError.unreadable(path, SourceFile.tooLargeReason(size))
            }
            // FileHandle, not FileManager.contents: a pipe or device (`<(curl …)`, /dev/stdin)
            // has no size to check first and FileManager reads nothing from it.
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CLIError.unreadable(path, "permission denied")
            }
            defer { try? handle.close() }
            let bytes = CLIEnvironment.readBounded(handle)
            if bytes.count > SourceFile.sizeLimit { throw CLIError.unreadable(path, CLIEnvironment.streamTooLarge) }
            return bytes
        },
        readStdin: { CLIEnvironment.readBounded(FileHandle.standardInput) },
        listDirectory: { path in
            guard let e = FileManager.default.enumerator(atPath: path) else { return nil }
            var out: [String] = []
            while let item = e.nextObject() as? String { out.append(item) }
            return out.sorted()
        },
        isDirectory: { path in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
        })

    /// Reads a file or standard input (`-`), refusing anything over `SourceFile.sizeLimit` (the
    /// live reader checks the size before reading; this also covers stdin and injected readers).
    func read(_ path: String) throws -> [UInt8] {
        let bytes = path == "-" ? readStdin() : try readFile(path)
        if bytes.count > SourceFile.sizeLimit {
            throw CLIError.unreadable(path == "-" ? "<stdin>" : path,
                                      path == "-" ? CLIEnvironment.streamTooLarge : SourceFile.tooLargeReason(bytes.count))
        }
        return bytes
    }

    /// Reads at most one byte more than `SourceFile.sizeLimit` (bounded work: `/dev/zero` or an
    /// endless pipe must not be read to the end); more than the limit means too large.
    static func readBounded(_ handle: FileHandle) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count <= SourceFile.sizeLimit,
              let chunk = try? handle.read(upToCount: SourceFile.sizeLimit + 1 - bytes.count), !chunk.isEmpty {
            bytes += chunk
        }
        return bytes
    }

    /// Why a stream over the limit is refused (its full size is never known).
    static let streamTooLarge = "input goes on past \(SourceFile.sizeLimit) bytes; htlint reads at most \(SourceFile.sizeLimit) bytes (16 MiB)"

    func writeFile(_ path: String, _ text: String) throws { try writeFileText(path, text) }

    /// A file, `-`, or every `.htaccess` under a directory.
    func expand(_ path: String) throws -> [String] {
        if path == "-" || !isDirectory(path) { return [path] }
        guard let items = listDirectory(path) else { throw CLIError.unreadable(path, "cannot list directory") }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        return items.filter { ($0 as NSString).lastPathComponent == ".htaccess" }.map { base + "/" + $0 }
    }
}

/// Failures of the tool itself (not findings about the configuration).
public enum CLIError: Error, CustomStringConvertible, Equatable {
    case unreadable(String, String)
    case unwritable(String, String)
    case usage(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        case .unwritable(let path, let reason): "cannot write '\(path)': \(reason)"
        case .usage(let message): message
        }
    }
}

extension CLIEnvironment {
    /// A file-system error in the words of the read errors (`no such file or directory`): the
    /// system's message for the errno behind Foundation's file error, else Foundation's own.
    static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError {
            let code: Int32? = switch cocoa.code {
            case .fileNoSuchFile: ENOENT
            case .fileWriteNoPermission: EACCES
            case .fileWriteVolumeReadOnly: EROFS
            case .fileWriteOutOfSpace: ENOSPC
            default: nil
            }
            if let code { return String(cString: strerror(code)).lowercased() }
        }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))).lowercased() }
        return ns.localizedDescription
    }
}
