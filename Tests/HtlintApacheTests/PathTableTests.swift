import HtlintBytes
import Testing
@testable import HtlintApache

/// The site tree's table: keys by bytes, in insertion order, through its growth.
@Suite struct PathTableTests {
    @Test func storesFindsAndReplacesByBytes() {
        var table = PathTable<Int>()
        #expect(table.updateValue(1, forKey: "/var/www/html/caf\u{E9}.html") == nil)
        #expect(table.updateValue(2, forKey: "/var/www/html/cafe\u{301}.html") == nil)
        #expect(table.updateValue(3, forKey: "/var/www/html/caf\u{E9}.html") == 1)
        #expect(table["/var/www/html/caf\u{E9}.html"] == 3)
        #expect(table["/var/www/html/cafe\u{301}.html"] == 2)
        #expect(table["/var/www/html/cafe.html"] == nil)
        #expect(table.count == 2)
    }

    @Test func keepsEveryKeyThroughGrowthInInsertionOrder() {
        var table = PathTable<Int>()
        let names = (0..<1_000).map { "/d/\($0)" + String(repeating: "x", count: $0 % 13) }
        for (i, name) in names.enumerated() { table.updateValue(i, forKey: name) }
        #expect(names.enumerated().allSatisfy { table[$0.element] == $0.offset })
        #expect(table.entries.map(\.key) == names)
        #expect(table["/d/1000"] == nil)
    }

    /// Every length of tail (the last one to seven bytes) takes part in the hash.
    @Test func hashReadsEveryByte() {
        for length in 1...24 {
            let base = String(repeating: "a", count: length)
            let changedLast = String(base.dropLast()) + "b"
            #expect(ByteKey.hash(base) != ByteKey.hash(changedLast))
            #expect(ByteKey.hash(base) == ByteKey.hash(String(repeating: "a", count: length)))
        }
        #expect(ByteKey("caf\u{E9}") != ByteKey("cafe\u{301}"))
    }
}
