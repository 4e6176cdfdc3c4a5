import CGraphviz
import Foundation

/// Graphviz through its C library (libgvc/libcgraph): DOT is parsed with Graphviz's own parser
/// and laid out with `dot`, so no external command is needed.
public enum Graphviz {
    /// A DOT text Graphviz rejected, or a layout/render failure, with Graphviz's message.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// Graphviz's own words, when it gave any.
        public var message: String
        public var description: String { message }
    }

    /// Graphviz keeps global parser and error state, so every call is serialised.
    private static let lock = NSLock()
    /// One context for the process: freeing a context unloads the plugins, and the pango text
    /// plugin keeps font caches across contexts that then point into freed memory
    /// (AddressSanitizer: heap-use-after-free in textspan_size during gvLayout).
    nonisolated(unsafe) private static let sharedContext: OpaquePointer? = gvContext()
    nonisolated(unsafe) private static var messages: [String] = []

    /// Routes Graphviz's error output into `messages` instead of stderr.
    private static func capturingErrors<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        messages = []
        let previous = agseterrf { text in
            if let text { Graphviz.messages.append(String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)) }
            return 0
        }
        defer { agseterrf(previous) }
        return try body()
    }

    private static func failure(_ what: String) -> Failure {
        Failure(message: messages.isEmpty ? what : what + ": " + messages.joined(separator: "; "))
    }

    /// Parses `dot` with `agmemread`; the number of nodes and edges of the graph.
    public static func parse(_ dot: String) throws(Failure) -> (nodes: Int, edges: Int) {
        try capturingErrors { () throws(Failure) -> (nodes: Int, edges: Int) in
            guard let g = dot.withCString({ agmemread($0) }) else { throw failure("Graphviz cannot parse the DOT text") }
            defer { agclose(g) }
            return (Int(agnnodes(g)), Int(agnedges(g)))
        }
    }

    /// Lays `dot` out with the `dot` engine and renders it as an SVG document.
    public static func svg(_ dot: String) throws(Failure) -> String {
        try capturingErrors { () throws(Failure) -> String in
            guard let gvc = sharedContext else { throw failure("Graphviz context unavailable") }
            guard let g = dot.withCString({ agmemread($0) }) else { throw failure("Graphviz cannot parse the DOT text") }
            defer { agclose(g) }
            guard gvLayout(gvc, g, "dot") == 0 else { throw failure("Graphviz layout failed") }
            // No gvFreeLayout: in Graphviz 2.42 (Debian 12) the dot layout's cleanup frees a rank
            // array that flat_edges had already reallocated when a labelled edge leads back into
            // a cluster (a redirect the browser follows to its rule set): a double free that
            // aborted `graph --format svg` and `report` (valgrind: invalid free in
            // gvFreeLayout). The layout's few kilobytes stay allocated until the process ends.
            var data: UnsafeMutablePointer<CChar>? = nil
            var length: UInt32 = 0
            guard gvRenderData(gvc, g, "svg", &data, &length) == 0, let data else { throw failure("Graphviz SVG rendering failed") }
            defer { gvFreeRenderData(data) }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
        }
    }

    /// The `<svg>` element of a rendered document, without the XML prolog and DOCTYPE (for
    /// inlining in HTML).
    public static func inlineSVG(_ document: String) -> String {
        guard let start = document.range(of: "<svg") else { return document }
        return String(document[start.lowerBound...])
    }
}
