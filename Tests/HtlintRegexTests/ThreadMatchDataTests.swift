import Dispatch
import Synchronization
import Testing
@testable import HtlintRegex

/// The per-thread match data (ThreadMatchData): grows for patterns with many groups, is dropped
/// after a search that hit a limit, and keeps concurrent searches on one pattern apart.
struct ThreadMatchDataTests {
    @Test func growsForAPatternWithMoreGroupsOnTheSameThread() throws {
        let small = try Regex("^(a)$")
        #expect(small.firstMatch(in: "a")?[1] == "a")
        let groups = (1...20).map { "(\(Character(UnicodeScalar(UInt8(96 + $0)))))" }.joined()
        let large = try Regex("^" + groups + "$")
        let subject = (1...20).map { String(Character(UnicodeScalar(UInt8(96 + $0)))) }.joined()
        let m = try #require(large.firstMatch(in: subject))
        #expect(m[20] == "t")
        #expect(m[1] == "a")
        #expect(small.firstMatch(in: "a")?[1] == "a")
    }

    @Test func aSearchAfterALimitStartsAfresh() throws {
        let catastrophic = try Regex("^(a+)+$")
        #expect(catastrophic.test(String(repeating: "a", count: 40) + "b") == .failure(.matchLimit))
        let plain = try Regex("^(\\w+)-(\\d+)$")
        let m = try #require(plain.firstMatch(in: "item-42"))
        #expect(m[1] == "item")
        #expect(m[2] == "42")
    }

    @Test func concurrentSearchesOnOnePatternKeepTheirOwnCaptures() throws {
        let regex = try Regex("^/item-(\\d+)/(\\w+)$")
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<2_000 {
                let n = worker * 10_000 + i
                if regex.firstMatch(in: "/item-\(n)/w\(worker)")?[1] != String(n) { wrong.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }
}
