import Testing
@testable import HtlintApache

// File names are compared as the kernel compares them: byte for byte, whatever their normal form.

@Test func pathKeysCompareAndHashByBytes() {
    let precomposed = "/var/www/html/caf\u{E9}.html", combining = "/var/www/html/cafe\u{301}.html"
    #expect(precomposed == combining)                    // Swift: canonically equivalent
    #expect(PathKey(precomposed) != PathKey(combining))  // the kernel: different names
    var table: [PathKey: Int] = [PathKey(precomposed): 1]
    #expect(table[PathKey(combining)] == nil)
    table[PathKey(combining)] = 2
    #expect(table[PathKey(precomposed)] == 1 && table[PathKey(combining)] == 2)
    // Equal bytes built apart are one key.
    let built = "/var/www/html/" + "caf\u{E9}" + ".html"
    #expect(PathKey(built) == PathKey(precomposed) && PathKey(built).hashValue == PathKey(precomposed).hashValue)
}
