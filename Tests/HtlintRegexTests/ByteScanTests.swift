import HtlintBytes
import Testing

// The byte scans run over contiguous storage; a substring must see its own bytes only.

@Test func byteScansSeeTheStringsOwnBytes() {
    let host = "www.Example.org"
    #expect(host.containsByte(where: { $0 >= 0x41 && $0 <= 0x5A }))
    #expect(!"www.example.org".containsByte(where: { $0 >= 0x41 && $0 <= 0x5A }))
    #expect("0123".allBytes { $0 >= 0x30 && $0 <= 0x39 })
    #expect(!"01a3".allBytes { $0 >= 0x30 && $0 <= 0x39 })
    #expect("".allBytes { _ in false })
    // A substring starts and ends inside its base: the bytes outside do not count.
    let line = "X-Tab\tvalue: ok"
    let name = line[..<line.firstIndex(of: "\t")!]
    #expect(!name.containsByte(where: { $0 == 0x09 }))
    #expect(line.containsByte(where: { $0 == 0x09 }))
    // Every byte of a multi-byte character is seen (é is C3 A9).
    #expect("café".containsByte(where: { $0 == 0xA9 }))
}

@Test func asciiCaseFoldingLeavesOtherBytes() {
    #expect("ÉXAMPLE.Org".asciiLowercased() == "Éxample.org")
    #expect("straße".asciiUppercased() == "STRAßE")
    #expect("already lower".asciiLowercased() == "already lower")
    // A substring, a heap string longer than the small-string form, and an empty one.
    let line = "RewriteRule ^(.*)$ /index.php [L]"
    #expect(line.prefix(11).asciiLowercased() == "rewriterule")
    #expect(line.asciiUppercased() == "REWRITERULE ^(.*)$ /INDEX.PHP [L]")
    #expect("".asciiLowercased() == "")
}
