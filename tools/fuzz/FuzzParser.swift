// libFuzzer target: the config parser and reader (issue 9, item 1). Any bytes, read as an
// .htaccess and as server configuration, must give a tree and diagnostics, never a crash.
import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = SourceFile(path: "fuzz", bytes: bytes)
    for context in [ConfigContext.htaccess, .server] {
        let read = ConfigReader.read(file, context: context)
        for d in read.diagnostics { _ = file.lines.position(of: d.range.start) }
    }
    return 0
}
