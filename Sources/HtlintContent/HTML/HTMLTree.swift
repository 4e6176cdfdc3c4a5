import CLibXML2

/// One attribute of an element as libxml2's HTML parser kept it: the name lower-cased, the value
/// with character references decoded, `nil` for an attribute written without `=`.
struct HTMLAttribute: Sendable {
    var name: String
    var value: String?
}

/// An element of the parsed page, in document order. This is the only shape the rest of the
/// module sees of libxml2's tree, so every C pointer stays in this file.
struct HTMLElement: Sendable {
    var name: String
    var attributes: [HTMLAttribute]
    /// Index of the parent element in `HTMLTree.elements` (`nil` at the root).
    var parent: Int?
    /// UTF-8 byte offset at which libxml2 finished reading the start tag's attributes: the
    /// `>` or the `/` of `/>`, or the end of the input. `nil` for elements libxml2 implied
    /// (an `<html>` or `<body>` it added), which have no start tag of their own.
    var anchor: Int?
    /// Inside `<svg>`, where `<image>`, `<a>` and `<script>` take `href`/`xlink:href`.
    var inSVG: Bool
    /// Inside an element whose content browsers parse as text (`<textarea>`, `<title>`,
    /// `<iframe>`…), where libxml2 still builds elements that no browser would load.
    var inText: Bool
    /// For `<source>`, `<img>` and `<track>`: index of the enclosing `picture`, `video` or
    /// `audio` element, looking through `<source>` elements (libxml2 does not know `<source>`
    /// is void, so a second `<source>` becomes the child of the first).
    var mediaParent: Int?

    func has(_ attribute: String) -> Bool { attributes.contains { $0.name == attribute } }
    func value(_ attribute: String) -> String? {
        attributes.first { $0.name == attribute }.flatMap(\.value)
    }
}

/// A page parsed by libxml2's HTML parser (`htmlParseDocument` with `HTML_PARSE_RECOVER`),
/// flattened into `HTMLElement` values.
///
/// libxml2 gives nodes a line number only, and that is the line where the start tag *ends*
/// (it is recorded when the attributes have been read) and it saturates at 65535. So the
/// parser's `startElement` callback is wrapped: after libxml2's own SAX2 handler has built the
/// node, it stores `xmlByteConsumed` — the exact byte offset in the input — in the node's
/// `_private` field. `StartTagLocator` finds the tag's `<` and attribute values from there.
struct HTMLTree: Sendable {
    var elements: [HTMLElement]
    /// The bytes libxml2 read: the file with invalid UTF-8, NUL and a leading BOM replaced
    /// byte for byte (see `sanitized(_:)`), so every offset is also an offset into the file.
    var parsedBytes: [UInt8]

    /// Elements whose content browsers treat as text, not markup (the HTML parser's RAWTEXT and
    /// RCDATA elements, plus `<iframe>`); libxml2 builds elements inside them.
    private static let textContainers: Set<String> = [
        "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext",
    ]

    init(parsing bytes: [UInt8]) {
        _ = libxml2Initialized
        let input = HTMLTree.sanitized(bytes)
        parsedBytes = input
        elements = []
        guard !input.isEmpty else { return }
        guard let doc = HTMLTree.parse(input) else { return }
        defer { xmlFreeDoc(doc) }
        elements = HTMLTree.flatten(doc)
    }

    /// libxml2 2.9 switches the rest of the input to ISO-8859-1 at the first invalid UTF-8 byte,
    /// after which `xmlByteConsumed` re-encodes the remaining buffer on every call; and a NUL
    /// inside an attribute value makes it lose the elements that follow (both checked against
    /// the installed 2.9.14). A copy of the same length with each invalid byte as `_`, NUL as a
    /// space and the BOM as spaces keeps offsets identical and the parse in UTF-8. URL text is
    /// always taken from the original bytes.
    static func sanitized(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            out[0] = 0x20; out[1] = 0x20; out[2] = 0x20
            i = 3
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0 { out[i] = 0x20; i += 1; continue }
            if b < 0x80 { i += 1; continue }
            let length = validUTF8Length(bytes, at: i)
            if length == 0 { out[i] = UInt8(ascii: "_"); i += 1 } else { i += length }
        }
        return out
    }

    /// Length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), 0 if ill-formed.
    private static func validUTF8Length(_ b: [UInt8], at i: Int) -> Int {
        func cont(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            k < b.count && range.contains(b[k])
        }
        switch b[i] {
        case 0xC2...0xDF: return cont(i + 1) ? 2 : 0
        case 0xE0: return cont(i + 1, 0xA0...0xBF) && cont(i + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xED: return cont(i + 1, 0x80...0x9F) && cont(i + 2) ? 3 : 0
        case 0xF0: return cont(i + 1, 0x90...0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3: return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4: return cont(i + 1, 0x80...0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0
        default: return 0
        }
    }

    private static func parse(_ input: [UInt8]) -> htmlDocPtr? {
        input.withUnsafeBufferPointer { buffer -> htmlDocPtr? in
            guard let base = buffer.baseAddress, buffer.count <= Int(Int32.max) else { return nil }
            let chars = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            guard let ctxt = htmlCreateMemoryParserCtxt(chars, Int32(buffer.count)) else { return nil }
            defer { htmlFreeParserCtxt(ctxt) }
            // The SAX handler is the context's own copy, so this does not touch the global one.
            ctxt.pointee.sax.pointee.startElement = recordingStartElement
            // NOERROR already leaves libxml2 no channel to print on; this no-op handler also keeps
            // parse errors from reaching a structured handler someone installed globally
            // (`__xmlRaiseError` prefers the context's `serror` once the handler is marked SAX2).
            ctxt.pointee.sax.pointee.serror = { _, _ in }
            ctxt.pointee.sax.pointee.initialized = UInt32(XML_SAX2_MAGIC)
            // RECOVER: keep going through broken markup as a browser would. NOERROR/NOWARNING:
            // libxml2 must never print to stderr. NONET: never fetch a DTD. IGNORE_ENC: a
            // `<meta charset>` must not switch decoding mid-file (see `sanitized`). HUGE: without
            // it libxml2 2.9 stops at a text node over 10 MB and drops everything after it.
            let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
                | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_HUGE.rawValue)
            _ = htmlCtxtUseOptions(ctxt, options)
            _ = htmlParseDocument(ctxt)
            let doc = ctxt.pointee.myDoc
            ctxt.pointee.myDoc = nil
            return doc
        }
    }

    /// Walks the tree in document order without recursion (broken pages nest thousands deep).
    /// Only elements are entered: text, comments and the DTD have no elements below them.
    private static func flatten(_ doc: htmlDocPtr) -> [HTMLElement] {
        var elements: [HTMLElement] = []
        var open: [(node: xmlNodePtr, index: Int)] = []   // the current node's element ancestors
        var node = doc.pointee.children
        while let current = node {
            if current.pointee.type == XML_ELEMENT_NODE {
                elements.append(element(current, parent: open.last?.index, in: elements))
                if let child = current.pointee.children {
                    open.append((current, elements.count - 1))
                    node = child
                    continue
                }
            }
            var next = current.pointee.next
            while next == nil, let closed = open.popLast() { next = closed.node.pointee.next }
            node = next
        }
        return elements
    }

    private static func element(_ node: xmlNodePtr, parent: Int?, in elements: [HTMLElement]) -> HTMLElement {
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        var attributes: [HTMLAttribute] = []
        var attr = node.pointee.properties
        while let a = attr {
            let attrName = a.pointee.name.map { String(cString: $0) } ?? ""
            var value: String?
            var child = a.pointee.children
            while let c = child {
                if let content = c.pointee.content { value = (value ?? "") + String(cString: content) }
                child = c.pointee.next
            }
            attributes.append(HTMLAttribute(name: attrName, value: value))
            attr = a.pointee.next
        }
        let stored = Int(bitPattern: node.pointee._private)
        let p = parent.map { elements[$0] }
        var mediaParent: Int?
        if let parent, let p {
            mediaParent = ["picture", "video", "audio"].contains(p.name) ? parent
                : (p.name == "source" ? p.mediaParent : nil)
        }
        return HTMLElement(
            name: name, attributes: attributes, parent: parent,
            anchor: stored > 0 ? stored - 1 : nil,
            inSVG: p.map { $0.inSVG || $0.name == "svg" } ?? false,
            inText: p.map { $0.inText || textContainers.contains($0.name) } ?? false,
            mediaParent: mediaParent)
    }
}

/// `xmlInitParser` must run once before libxml2 is used from several threads; a global `let`
/// is initialised exactly once, on first use, by the Swift runtime.
private let libxml2Initialized: Void = xmlInitParser()

/// libxml2's own SAX2 start handler, then the byte offset recorded on the new node.
private let recordingStartElement: startElementSAXFunc = { ctx, name, atts in
    xmlSAX2StartElement(ctx, name, atts)
    guard let ctx, let name else { return }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    // The handler may have declined to create the node; then `node` is still the parent.
    guard let node = ctxt.pointee.node, node.pointee._private == nil,
          let nodeName = node.pointee.name, xmlStrEqual(nodeName, name) != 0 else { return }
    let consumed = xmlByteConsumed(ctxt)
    guard consumed >= 0 else { return }
    node.pointee._private = UnsafeMutableRawPointer(bitPattern: Int(consumed) + 1)
}
