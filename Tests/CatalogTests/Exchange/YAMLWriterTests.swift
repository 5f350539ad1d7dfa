import Foundation
@testable import IAPCatalog
import Testing

/// The catalog writer's text values, read back by libyaml's parser: what a YAML reader could take for something
/// else (a boolean, null, a number, structure, a comment) is double-quoted, the rest written plain, and every byte
/// (accents, emoji, a line break, a tab) comes back as it went out.
@Suite struct YAMLWriterTests {
    static let ambiguous = [
        "yes", "No", "ON", "~", "null", "1.0", "1_000", "12:30", "1e3", "-dash", "a: b", "a #b", "trailing:", " lead",
        "tail ", "line\nbreak", "tab\there", "", "#hash", "[list]", "'quote", "\"double\"",
    ]
    static let plain = ["plain words", "Café ☕️ 日本語", "com.example.app.coins", "Gold Pack (x10)", "a-b_c", "Yesterday"]

    /// The YAML the writer makes of `values` as a list, and the list libyaml reads from it.
    func written(_ values: [String]) throws -> (text: String, read: [String]) {
        let out = YAMLWriter()
        out.list(values) { out.text($0) }
        let bytes = try out.finish()
        let document = try #require(try bytes.withUnsafeBytes { try YAMLDocument.parse($0) })
        return (String(decoding: bytes, as: UTF8.self), document.items(document.root).map { document.string($0) })
    }

    @Test func everyValueReadsBackAsWritten() throws {
        let values = Self.ambiguous + Self.plain
        #expect(try written(values).read == values)
    }

    @Test func ambiguousTextIsQuotedAndTheRestIsPlain() throws {
        for value in Self.ambiguous {
            let text = try written([value]).text
            #expect(text.hasPrefix("- \""), "\(value.debugDescription) was written as \(text.debugDescription)")
        }
        for value in Self.plain {
            #expect(try written([value]).text == "- \(value)\n")
        }
    }
}
