import HtlintApache
import Testing
@testable import HtlintSimulation

/// nginx keeps the last Content-Type line of the origin's answer, none when it is empty
/// (fixtures/apache/header-content-type-empty-last-line-behind-edge).
struct EdgeContentTypeTests {
    func passed(_ values: [String]) -> [String] {
        var r = HopResponse(status: 200, headers: values.map { HTTPHeader("Content-Type", $0) } + [HTTPHeader("X-A", "1")],
                            answerer: .origin, producer: "Apache")
        Edge.keepLastContentType(&r)
        return r.headers.filter { $0.name == "Content-Type" }.map(\.value)
    }

    @Test func anEmptyLastLineLeavesNoContentType() {
        #expect(passed(["a%b", ""]) == [])
        #expect(passed([""]) == [])
    }

    @Test func theLastNonEmptyLineIsTheOneKept() {
        #expect(passed(["", "x/y"]) == ["x/y"])
        #expect(passed(["text/html"]) == ["text/html"])
    }
}
