import Foundation
import IAPCatalog
import Testing

/// The document's arena is sized from the file before reading (a node per eight bytes, the text's length) and grows
/// when a file holds more: what is read back must not depend on where the arena had to grow.
@Suite struct YAMLDocumentTests {
    func parse(_ yaml: String) throws -> YAMLDocument? {
        try Data(yaml.utf8).withUnsafeBytes { try YAMLDocument.parse($0) }
    }

    @Test func manySmallNodesOutgrowTheFirstGuess() throws {
        // Two bytes a value, four times the first guess, in a list and in a mapping of lists.
        let count = 40_000
        let values = (0..<count).map { String($0 % 10) }
        let list = "[" + values.joined(separator: ",") + "]"
        let document = try #require(try parse("{first: \(list), second: \(list), last: end}"))
        for key in ["first", "second"] {
            let items = try #require(document.pair(document.root, key: key)).value
            #expect(document.kind(items) == .sequence)
            #expect(document.items(items).map(document.string) == values)
        }
        let last = try #require(document.pair(document.root, key: "last"))
        #expect(document.string(last.key) == "last" && document.string(last.value) == "end")
        #expect(document.scalar(last.value, equals: "end") && !document.scalar(last.value, equals: "en"))
    }

    @Test func aRepeatedKeyInALargeMappingIsRefused() throws {
        // Over 32 keys the builder looks repeats up by their bytes instead of comparing every pair.
        let keys = (0..<40).map { "key\($0)" } + ["key7"]
        let yaml = String(repeating: "- 1\n", count: 5_000) + "- {" + keys.map { "\($0): 1" }.joined(separator: ", ") + "}\n"
        #expect {
            try parse(yaml)
        } throws: { error in
            guard let error = error as? YAMLDocument.ParseError else { return false }
            return error.reason == "repeats the key key7" && error.line == 5_001
        }
    }

    @Test func aSyntaxErrorAfterManyNodesIsAnError() throws {
        let yaml = String(repeating: "- [a, b, c]\n", count: 20_000) + "- [unclosed\n"
        #expect {
            try parse(yaml)
        } throws: { error in
            (error as? YAMLDocument.ParseError)?.reason.hasPrefix("is not valid YAML") == true
        }
    }
}
