import Foundation
import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// The document root as the engine sees it: which paths are files, directories or symbolic
/// links, and the `.htaccess` sources. Paths are absolute filesystem paths under the simulated
/// document root (e.g. `/var/www/html/sub/index.html`), without a trailing slash.
public struct SiteFileSystem: Sendable {
    public enum Node: Sendable, Hashable {
        case file(size: Int)
        case directory
        case symlink(target: String)
    }

    /// The tree is read through `Site` on every file test, and a struct of dictionaries read
    /// from a class property is copied field by field each time: the fields live in one box
    /// that a copy only retains, duplicated before a shared copy changes (copy on write).
    private final class Storage: @unchecked Sendable {
        // Only ever changed through a uniquely referenced box (`changing`).
        var nodes = PathTable<Node>()
        var children: [PathKey: [String]] = [:]
        var hasSymlinks = false
        var accessFiles: [PathKey: SourceFile] = [:]
        var texts: [PathKey: SourceFile] = [:]
        var loadedFrom: (directory: String, display: String?)? = nil

        init() {}

        init(copying other: Storage) {
            nodes = other.nodes
            children = other.children
            hasSymlinks = other.hasSymlinks
            accessFiles = other.accessFiles
            texts = other.texts
            loadedFrom = other.loadedFrom
        }
    }
    private var storage = Storage()

    /// The box, made unique first: every change goes through here.
    private var changing: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
            return storage
        }
    }

    /// Every node with its path (in no particular order). Not a `[String: Node]`: two names
    /// Swift holds equal (`é` precomposed or not) are two files.
    public var nodes: [(key: String, value: Node)] { storage.nodes.entries }
    /// The node at exactly `path` (no walk: links are not followed).
    private func node(_ path: String) -> Node? { storage.nodes[path] }
    /// Names in each directory (a path without trailing slash), for listing one.
    private var children: [PathKey: [String]] { storage.children }
    /// Whether any node is a symbolic link: without one, a plain path is found by a lookup alone.
    public var hasSymlinks: Bool { storage.hasSymlinks }
    /// Every `.htaccess` with its directory path (with trailing slash), in no particular order:
    /// a list, not a `String`-keyed table, as two directories whose names Swift holds equal
    /// (`café` precomposed or not) are two entries; `accessFile(in:named:)` finds one by bytes.
    public var accessFileEntries: [(key: String, value: SourceFile)] { storage.accessFiles.map { ($0.key.path, $0.value) } }
    /// Texts of other files added in memory (`addTextFile`), by absolute path.
    private var texts: [PathKey: SourceFile] { storage.texts }
    /// The real directory `load` read, and the display prefix: files that were not read then
    /// (another `AccessFileName`) are read from there on demand.
    private var loadedFrom: (directory: String, display: String?)? { storage.loadedFrom }
    public let root: String

    public init(root: String) {
        self.root = SiteFileSystem.normalize(root)
        setNode(self.root, .directory)
        addParents(of: self.root)
    }

    /// Records a node, and its name in its parent's listing when it is new.
    private mutating func setNode(_ path: String, _ node: Node) {
        guard changing.nodes.updateValue(node, forKey: path) == nil, let slash = path.lastIndex(ofByte: UInt8(ascii: "/")), path != "/" else { return }
        let parent = slash == path.startIndex ? "/" : String(path[..<slash])
        changing.children[PathKey(parent), default: []].append(String(path[path.utf8.index(after: slash)...]))
    }

    /// The path without its trailing slashes (`/` stays `/`).
    public static func normalize(_ path: String) -> String {
        guard path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") else { return path }
        var p = path
        while p.utf8.count > 1, p.utf8.last == UInt8(ascii: "/") { p.removeLast() }
        return p
    }

    /// Adds a file (and its parent directories). `relative` starts with `/`.
    public mutating func addFile(_ relative: String, size: Int = 1) {
        let path = root + SiteFileSystem.normalize(relative)
        addParents(of: path)
        setNode(path, .file(size: size))
    }

    public mutating func addDirectory(_ relative: String) {
        let path = root + SiteFileSystem.normalize(relative)
        addParents(of: path)
        setNode(path, .directory)
    }

    public mutating func addSymlink(_ relative: String, target: String) {
        let path = root + SiteFileSystem.normalize(relative)
        addParents(of: path)
        setNode(path, .symlink(target: target))
        changing.hasSymlinks = true
    }

    /// Registers a `.htaccess` for the directory `relativeDirectory` (`/` or `/sub`).
    public mutating func addAccessFile(_ relativeDirectory: String, displayPath: String, text: String) {
        addAccessFile(relativeDirectory, file: SourceFile(path: displayPath, text: text))
    }

    public mutating func addAccessFile(_ relativeDirectory: String, file: SourceFile) {
        // "/" names the root itself: no node for "/var/www/html/" (with its slash) may appear.
        let key = SiteFileSystem.normalize(root + SiteFileSystem.normalize(relativeDirectory)) + "/"
        addParents(of: key + ".htaccess")
        setNode(key + ".htaccess", .file(size: file.bytes.count))
        changing.accessFiles[PathKey(key == "//" ? "/" : key)] = file
    }

    /// Adds a file with its text (for `AccessFileName` other than `.htaccess`).
    public mutating func addTextFile(_ relative: String, displayPath: String, text: String) {
        addFile(relative, size: text.utf8.count)
        changing.texts[PathKey(root + SiteFileSystem.normalize(relative))] = SourceFile(path: displayPath, text: text)
    }

    /// The configuration file `name` in `directory` (absolute, trailing slash), if it is a file:
    /// `.htaccess` was read at load time, another name (or a `.htaccess` that is a link: Apache
    /// opens it through the link whatever `Options` say) is read now.
    public func accessFile(in directory: String, named name: String) -> SourceFile? {
        if name == ".htaccess", let file = storage.accessFiles[PathKey(directory)] { return file }
        let path = directory + name
        if name == ".htaccess" { guard case .symlink? = node(path) else { return nil } }
        // Bounded work: an oversized file is never read (its size is known from the listing).
        guard case .file(let size)? = stat(path), size <= SourceFile.sizeLimit else { return nil }
        if let text = texts[PathKey(path)] { return text }
        guard let resolved = resolve(path), resolved.hasBytePrefix(root + "/") else { return nil }
        if let text = texts[PathKey(resolved)] { return text }
        if resolved.hasByteSuffix("/.htaccess"), let file = storage.accessFiles[PathKey(dropTrailingBytes(resolved, ".htaccess".utf8.count))] { return file }
        guard let (base, display) = loadedFrom else { return nil }
        let relative = dropLeadingBytes(resolved, root.utf8.count)
        guard let data = readWholeFile(base + relative), data.count <= SourceFile.sizeLimit else { return nil }
        // Named by the path Apache opened, a link's own (its errors name that path).
        let shown = dropLeadingBytes(path, root.utf8.count)
        return SourceFile(path: (display.map { $0 + shown }) ?? base + shown, bytes: [UInt8](data))
    }

    private mutating func addParents(of path: String) {
        var p = path
        while let slash = p.lastIndex(ofByte: UInt8(ascii: "/")), slash != p.startIndex {
            p = String(p[..<slash])
            // A directory already there has its parents too (every node is added after them):
            // loading a tree of n files costs O(n), not O(n × depth).
            if node(p) == .directory { return }
            // A symbolic link stays one (the path walk follows it).
            if case .symlink? = node(p) { continue }
            setNode(p, .directory)
        }
    }

    /// Names in `directory` (no trailing slash), in the order they were added.
    public func entryNames(in directory: String) -> [String] { children[PathKey(directory)] ?? [] }

    /// The node at `path` without following a final symbolic link (lstat).
    public func lstat(_ path: String) -> Node? {
        if case .some(let known) = plainLookup(path, followFinal: false) { return known }
        return walk(path, followFinal: false).flatMap(nodeOrSystem)
    }

    /// The node at `path`, following symbolic links (stat), bounded against cycles.
    public func stat(_ path: String) -> Node? {
        if case .some(let known) = plainLookup(path, followFinal: true) { return known }
        return resolve(path).flatMap(nodeOrSystem)
    }

    /// A node of the site, or of the system outside it where a link led (`walk` answers
    /// such a path only through a link): a directory, or a file whose size is not known
    /// (taken as not empty; its contents are never read).
    private func nodeOrSystem(_ path: String) -> Node? {
        if let n = node(path) { return n }
        guard !path.hasBytePrefix(root + "/"), let system = Site.systemNode(path) else { return nil }
        return system == .directory ? .directory : .file(size: 1)
    }

    /// `walk`'s fast path answered with the node itself (one hash look-up where `walk` and
    /// the node's look-up took two; every request stats several paths): `.some(nil)` is
    /// "nothing there", `nil` means the walk must run.
    private func plainLookup(_ path: String, followFinal: Bool) -> Node?? {
        guard let (name, directoryOnly, hash) = SiteFileSystem.plainForm(path) else { return nil }
        if let n = storage.nodes.value(forKey: name, hash: hash) {
            switch n {
            case .symlink: if followFinal || directoryOnly { return nil }
            case .file: if directoryOnly { return .some(nil) }
            case .directory: break
            }
            return .some(n)
        }
        return hasSymlinks ? nil : .some(nil)
    }

    /// The name the fast paths look up, with its `ByteKey.hash` from the same pass over the
    /// bytes: a plain `path` itself, or a plain name with one trailing slash (`directoryOnly`:
    /// the walk demands a directory there, and follows a final link). Every request stats its
    /// directory with the slash, so this one form skips the slow walk's string building.
    private static func plainForm(_ path: String) -> (name: String, directoryOnly: Bool, hash: UInt64)? {
        let found: (directoryOnly: Bool, hash: UInt64)? = ByteKey.withBytes(path) { b in
            let directoryOnly = b.count > 1 && b[b.count - 1] == UInt8(ascii: "/")
            let name = directoryOnly ? UnsafeBufferPointer(rebasing: b[..<(b.count - 1)]) : b
            return isPlain(name) ? (directoryOnly, ByteKey.hash(name)) : nil
        }
        guard let found else { return nil }
        return (found.directoryOnly ? dropTrailingBytes(path, 1) : path, found.directoryOnly, found.hash)
    }

    /// The path `path` leads to after following symbolic links: nil when nothing is there, a
    /// link dangles, or more than 40 links are met (a cycle).
    public func resolve(_ path: String) -> String? { walk(path, followFinal: true) }

    /// Whether following the links of `path` meets more than 40 of them (ELOOP), where
    /// `resolve` answers nil for a cycle and a dangling link alike.
    public func linkLoops(_ path: String) -> Bool {
        var looped = false
        _ = walk(path, followFinal: true, looped: &looped)
        return looped
    }

    /// What the kernel's path walk does: `//` and `.` are skipped, `..` climbs the path resolved
    /// so far, a link met on the way (or at the end, when `followFinal`) is replaced by its
    /// target, a regular file followed by anything (`a.html/`, `a.html/.`) is ENOTDIR, and a
    /// trailing slash demands a directory. At most 40 links are followed, Linux's MAXSYMLINKS:
    /// the 41st is ELOOP (recorded: access-symlink-chain-of-forty).
    private func walk(_ path: String, followFinal: Bool) -> String? {
        var looped = false
        return walk(path, followFinal: followFinal, looped: &looped)
    }

    private func walk(_ path: String, followFinal: Bool, looped: inout Bool) -> String? {
        // Fast path (every request tests several paths): absolute, no `//`, no `/.` segment start,
        // at most a trailing slash (`plainForm`). Found, it is the answer unless it is a link to
        // follow; missing, it is missing when no link on the way could lead elsewhere.
        if let (name, directoryOnly, hash) = SiteFileSystem.plainForm(path) {
            switch storage.nodes.value(forKey: name, hash: hash) {
            case .symlink?: if !followFinal && !directoryOnly { return name }
            case .file?: return directoryOnly ? nil : name
            case .directory?: return name
            case nil: if !hasSymlinks { return nil }
            }
        }
        var resolved: [Substring] = []
        var pending = Array(slashSplit(path).reversed())
        var follows = 0
        var mustBeDirectory = false
        while let c = pending.popLast() {
            if c.isEmpty || c == "." {
                if !resolved.isEmpty { mustBeDirectory = true }
                continue
            }
            if c == ".." {
                if !resolved.isEmpty { resolved.removeLast() }
                mustBeDirectory = true
                continue
            }
            mustBeDirectory = false
            let candidate = "/" + (resolved + [c]).joined(separator: "/")
            guard let found = node(candidate) else {
                // A link led out of the site: the rest of the name is the system's (a stock
                // Debian one, `Site.systemNode`), which has no links of its own (recorded:
                // access-symlink-to-system-path).
                guard follows > 0, !sameBytes(candidate, root), !candidate.hasBytePrefix(root + "/") else { return nil }
                let rest = pending.isEmpty ? candidate : candidate + "/" + pending.reversed().joined(separator: "/")
                return Site.systemPath(rest)?.path
            }
            switch found {
            case .symlink(let target):
                if pending.isEmpty && !followFinal { resolved.append(c); continue }
                follows += 1
                guard follows <= 40 else { looped = true; return nil }
                if target.hasBytePrefix("/") { resolved = [] }
                pending.append(contentsOf: slashSplit(target).reversed())
            case .directory:
                resolved.append(c)
            case .file:
                guard pending.isEmpty else { return nil }
                resolved.append(c)
            }
        }
        let result = "/" + resolved.joined(separator: "/")
        if mustBeDirectory, !resolved.isEmpty, node(result) != .directory { return nil }
        return result
    }

    /// Absolute, without `//`, `.` or `..` segments, without a trailing slash (the root `/`
    /// itself is plain): the kernel's walk would find exactly this string.
    static func isPlain(_ path: String) -> Bool {
        ByteKey.withBytes(path) { isPlain($0) }
    }

    private static func isPlain(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        guard b.first == slash else { return false }
        if b.count > 1, b[b.count - 1] == slash { return false }
        func segmentEnds(_ j: Int) -> Bool { j == b.count || b[j] == slash }
        for i in 0..<(b.count - 1) where b[i] == slash {
            if b[i + 1] == slash { return false }
            if b[i + 1] == dot, segmentEnds(i + 2) || (b[i + 2] == dot && segmentEnds(i + 3)) { return false }
        }
        return true
    }

    /// The contents of the site file at `path` (links followed within the site), read from
    /// the loaded directory (or given with `addTextFile`); nil when it is not a regular file there
    /// or exceeds the 16 MiB limit.
    public func contents(_ path: String) -> [UInt8]? {
        guard let real = resolve(path), case .file(let size)? = node(real), size <= SourceFile.sizeLimit,
              real.hasBytePrefix(root + "/") else { return nil }
        if let text = texts[PathKey(real)] { return text.bytes }
        guard let disk = loadedFrom?.directory,
              let data = readWholeFile(disk + dropLeadingBytes(real, root.utf8.count)),
              data.count <= SourceFile.sizeLimit else { return nil }
        return [UInt8](data)
    }

    public func isDirectory(_ path: String) -> Bool { stat(path) == .directory }
    public func isFile(_ path: String) -> Bool { if case .file = stat(path) { true } else { false } }

    /// Why a document root could not be loaded, worded like the command line's other read errors.
    public struct LoadError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var reason: String
        public var description: String { "cannot read '\(path)': \(reason)" }
    }

    /// Loads a real directory: every file, directory and symbolic link, and every `.htaccess`.
    /// Symbolic links are recorded with their target and never followed here (lstat semantics;
    /// the directory walk does not descend into linked directories), so nothing outside
    /// `directory` is read; `stat` resolves them in memory, bounded against loops.
    /// `emptyFileSize` gives the size reported for an empty file from its path under `directory`
    /// (the conformance harness serves `oracle-file:/its/path` from them, so `-s` is true for them
    /// and MultiViews compares those sizes).
    public static func load(directory: String, mountedAt root: String, emptyFileSize: (String) -> Int = { _ in 0 },
                            displayPrefix: String? = nil) throws -> SiteFileSystem {
        var fs = SiteFileSystem(root: root)
        let base = URL(fileURLWithPath: directory).standardizedFileURL.path
        fs.changing.loadedFrom = (base, displayPrefix)
        func shown(_ relative: String) -> String { (displayPrefix.map { $0 + relative }) ?? base + relative }
        // POSIX directory reads and lstat: FileManager's enumerator and attribute dictionaries
        // cost some 200,000 instructions per file (a 2,000-file docroot took 90 ms to load).
        guard linkStatus(base + "/.").map({ $0.mode & S_IFMT == S_IFDIR }) == true else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory]) }
        var pending = [""]   // directories still to list, relative to `base`
        while let relativeDir = pending.popLast() {
            guard let stream = onDisk(base + relativeDir, { opendir($0) }) else {
                throw LoadError(path: shown(relativeDir), reason: "cannot list the directory")
            }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                // A name's bytes as the engine's strings keep them: one that is not UTF-8
                // (`caf\xE9.html`, saved by a Latin-1 tool) keeps each such byte as its reserved
                // scalar, so `/caf%E9.html` decodes to the same string and finds it (recorded:
                // rewrite-escape-non-utf8-file-names).
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(preservingBytes: raw.prefix(while: { $0 != 0 }))
                }
                if name == "." || name == ".." || name.hasByteSuffix(".oracle-keep") { continue }
                let relative = relativeDir + "/" + name
                let full = base + relative
                // lstat, not stat: a link is recorded as a link. A file that vanishes or cannot be
                // examined mid-walk is named in a readable error.
                guard let info = linkStatus(full) else {
                    throw LoadError(path: shown(relative), reason: errno == ENOENT ? "no such file or directory" : "cannot examine it")
                }
                switch info.mode & S_IFMT {
                case S_IFDIR:
                    fs.addDirectory(relative)
                    pending.append(relative)
                case S_IFLNK:
                    fs.addSymlink(relative, target: try linkTarget(full, shown: shown(relative)))
                default:
                    let size = info.size
                    if name == ".htaccess" {
                        // Bounded work: an oversized .htaccess is refused by its size, unread (issue 9).
                        if size > SourceFile.sizeLimit { throw LoadError(path: shown(relative), reason: SourceFile.tooLargeReason(size)) }
                        guard let data = readWholeFile(full) else {
                            throw LoadError(path: shown(relative), reason: "permission denied")
                        }
                        let dir = String(relative.dropLast(".htaccess".count))
                        fs.addAccessFile(dir.isEmpty ? "/" : dir, file: SourceFile(path: shown(relative), bytes: [UInt8](data)))
                    } else {
                        fs.addFile(relative, size: size == 0 ? emptyFileSize(relative) : size)
                    }
                }
            }
        }
        return fs
    }

    private static func linkTarget(_ path: String, shown: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = onDisk(path) { readlink($0, &buffer, buffer.count - 1) }
        guard n >= 0 else { throw LoadError(path: shown, reason: "cannot read the symbolic link") }
        return String(preservingBytes: buffer[..<n].map { UInt8(bitPattern: $0) })
    }
}

/// `lstat`'s file type and size (outside the type, whose `stat` method hides the C function).
private func linkStatus(_ path: String) -> (mode: mode_t, size: Int)? {
    var info = stat()
    guard onDisk(path, { lstat($0, &info) }) == 0 else { return nil }
    return (info.st_mode, Int(info.st_size))
}

/// Calls `body` with the path's bytes as a C string: a name that is not UTF-8 is kept in the
/// engine's strings as reserved scalars (`RawBytes`), which the filesystem must get back as the bytes.
private func onDisk<T>(_ path: String, _ body: (UnsafePointer<CChar>) -> T) -> T {
    let bytes = path.rawBytes.map { CChar(bitPattern: $0) } + [0]
    return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// A file's bytes (nil when it cannot be opened), read by its raw path.
private func readWholeFile(_ path: String) -> Data? {
    let fd = onDisk(path) { open($0, O_RDONLY) }
    guard fd >= 0 else { return nil }
    return FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
}
