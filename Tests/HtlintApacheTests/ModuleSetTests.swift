import Testing
@testable import HtlintApache

/// The modules the engine asks about on every request are answered from bits, the rest from
/// the set of names: both must give the set's answer, whatever spelling is asked.
struct ModuleSetTests {
    static let askedEveryRequest = ["actions", "autoindex", "cgi", "cgid", "deflate", "expires", "info", "status"]

    @Test(arguments: askedEveryRequest)
    func eachAskedModuleIsItsOwnBit(_ module: String) {
        let set = ModuleSet([module])
        for other in Self.askedEveryRequest {
            #expect(set.contains(other) == (other == module), "\(module) loaded, asked \(other)")
        }
    }

    @Test func insertingAModuleUpdatesTheBits() {
        var set = ModuleSet(["rewrite"])
        #expect(!set.contains("expires"))
        set.insert("mod_expires.c")
        #expect(set.contains("expires"))
        #expect(set.contains("expires_module"))
        #expect(set.contains("rewrite"))
    }

    @Test func theStandardSetAnswersAsItsNames() {
        for module in Self.askedEveryRequest + ["rewrite", "headers", "negotiation", "proxy"] {
            #expect(ModuleSet.standard.contains(module) == ModuleSet.standard.names.contains(module), "\(module)")
        }
        #expect(ModuleSet.standard.contains("deflate"))
        #expect(!ModuleSet.standard.contains("expires"))
    }
}
