import Foundation
import IAPCatalog
import IAPCore
import TestSupport
import Testing

/// JSON read by yajl into the document arena (what `import storekit` reads): the tree must be the one the text
/// says, and the one libyaml reads from the same text (JSON is YAML), strings quoted and everything else plain.
@Suite struct JSONDocumentTests {
    func parse(_ json: String) throws -> YAMLDocument {
        try Data(json.utf8).withUnsafeBytes { try YAMLDocument.parseJSON($0, maximumDepth: JSONValue.maximumDepth) }
    }

    func failure(_ json: String) -> YAMLDocument.ParseError? {
        do { _ = try parse(json); return nil } catch { return error as? YAMLDocument.ParseError }
    }

    /// What a node holds, the same for either parser: kind, whether a scalar was quoted, text, children in order.
    indirect enum Tree: Equatable, CustomStringConvertible {
        case text(String, quoted: Bool)
        case list([Tree])
        case object([(String, Tree)])

        static func == (a: Tree, b: Tree) -> Bool {
            switch (a, b) {
            case let (.text(x, p), .text(y, q)): return x == y && p == q
            case let (.list(x), .list(y)): return x == y
            case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: return false
            }
        }

        var description: String {
            switch self {
            case let .text(text, quoted): return quoted ? text.debugDescription : text
            case let .list(items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
            case let .object(pairs): return "{" + pairs.map { "\($0.0.debugDescription): \($0.1)" }.joined(separator: ", ") + "}"
            }
        }

        init(_ document: YAMLDocument, _ node: YAMLDocument.NodeID) {
            switch document.kind(node) {
            case .scalar: self = .text(document.string(node), quoted: !document.isPlain(node))
            case .sequence: self = .list(document.items(node).map { Tree(document, $0) })
            case .mapping:
                let items = Array(document.items(node))
                self = .object(stride(from: 0, to: items.count, by: 2).map { (document.string(items[$0]), Tree(document, items[$0 + 1])) })
            }
        }
    }

    /// A random value and its JSON text. `surrogates` adds escapes of characters outside the BMP, which libyaml
    /// does not read.
    static func value(depth: Int, surrogates: Bool, using random: inout some RandomNumberGenerator) -> (Tree, String) {
        let pick = depth >= 6 ? Int.random(in: 0..<3, using: &random) : Int.random(in: 0..<5, using: &random)
        switch pick {
        case 0:
            let word = ["true", "false", "null", "0", "-12", "3.25", "1e5", "-0.5E-3", "12345678901234567890"].randomElement(using: &random)!
            return (.text(word, quoted: false), word)
        case 1, 2:
            var text = "", json = "\""
            for _ in 0..<Int.random(in: 0..<12, using: &random) {
                let pieces: [(String, String)] =
                    [
                        ("a", "a"), ("Z", "Z"), (" ", " "), ("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\t", "\\t"),
                        ("é", "é"), ("é", "\\u00e9"), ("日本", "日本"), ("/", "/"), (":", ":"), ("#", "#"), ("-", "-"),
                    ] + (surrogates ? [("😀", "\\ud83d\\ude00"), ("😀", "😀")] : [])
                let (plain, escaped) = pieces.randomElement(using: &random)!
                text += plain
                json += escaped
            }
            return (.text(text, quoted: true), json + "\"")
        case 3:
            var items: [Tree] = [], texts: [String] = []
            for _ in 0..<Int.random(in: 0..<5, using: &random) {
                let (tree, text) = value(depth: depth + 1, surrogates: surrogates, using: &random)
                items.append(tree)
                texts.append(text)
            }
            return (.list(items), "[" + texts.joined(separator: ", ") + "]")
        default:
            var pairs: [(String, Tree)] = [], texts: [String] = []
            for index in 0..<Int.random(in: 0..<5, using: &random) {
                let key = "key\(index)" + (Bool.random(using: &random) ? " é" : "")
                let (tree, text) = value(depth: depth + 1, surrogates: surrogates, using: &random)
                pairs.append((key, tree))
                texts.append("\"\(key)\": \(text)")
            }
            return (.object(pairs), "{" + texts.joined(separator: ",\n  ") + "}")
        }
    }

    @Test func readsWhatTheTextSaysAndWhatLibyamlReads() throws {
        var random = SeededGenerator(seed: 20_261_125)
        for round in 0..<400 {
            let (expected, json) = Self.value(depth: 0, surrogates: round % 2 == 1, using: &random)
            let document = try parse(json)
            #expect(Tree(document, document.root) == expected, "\(json)")
            if round % 2 == 0 {
                let yaml = try #require(try Data(json.utf8).withUnsafeBytes { try YAMLDocument.parse($0) })
                #expect(Tree(yaml, yaml.root) == expected, "libyaml read \(json) differently")
            }
        }
    }

    @Test func aLargeDocumentOutgrowsTheFirstGuess() throws {
        // One byte a value, so the arena (a node per eight bytes) must grow several times over.
        let values = (0..<50_000).map { String($0 % 10) }
        let document = try parse("{\"values\": [" + values.joined(separator: ",") + "], \"end\": \"yes\"}")
        let list = try #require(document.pair(document.root, key: "values")).value
        #expect(document.items(list).map(document.string) == values)
        #expect(document.string(try #require(document.pair(document.root, key: "end")).value) == "yes")
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let document = try Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).withUnsafeBytes {
            try YAMLDocument.parseJSON($0, maximumDepth: 100)
        }
        #expect(Tree(document, document.root) == .list([.text("1", quoted: false)]))
    }

    @Test func nestingIsLimited() throws {
        let deepest = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = "{\"a\":\n" + String(repeating: "[", count: 101) + String(repeating: "]", count: 101) + "}"
        let error = try #require(failure(tooDeep))
        #expect(error.reason == "nested more than 100 levels deep; refusing to read it")
        #expect(error.line == 2)
    }

    @Test func aRepeatedKeyIsRefused() throws {
        let error = try #require(failure("{\"products\": [],\n \"b\": 1,\n \"products\": {}}"))
        #expect(error.reason == "repeats the key products")
        #expect(error.line == 3)
    }

    @Test(arguments: [
        ("{\"products\": [", 1, "premature EOF"),
        ("", 1, "premature EOF"),
        ("{\n  \"a\": 1,\n  \"b\": tru\n}", 3, "invalid string in json text."),
        ("{\n  \"a\": 1,\n}", 3, "invalid object key (must be a string)"),
        ("[1]\n[2]", 2, "trailing garbage"),
        ("{\"a\": 1 /* a comment */}", 1, "probable comment found in input text, comments are not enabled."),
        ("{a: 1}", 1, "invalid char in json text."),
        ("[\"caf\u{FFFD}\"", 1, "premature EOF"),
    ])
    func malformedJSONIsAnErrorWithItsLine(json: String, line: Int, reason: String) throws {
        let error = try #require(failure(json), "\(json.debugDescription) was read")
        #expect(error.reason == reason)
        #expect(error.line == line)
    }

    @Test func invalidUTF8IsRefused() throws {
        let bytes = Array("[\"caf".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect(throws: YAMLDocument.ParseError.self) {
            try bytes.withUnsafeBytes { try YAMLDocument.parseJSON($0, maximumDepth: 100) }
        }
    }

    /// Each container knows its bytes in the input, bracket to bracket, whitespace and a byte-order mark around it or
    /// not: the update of a StoreKit file copies an item the export would write the same from there.
    @Test func containersKnowTheirBytesInTheInput() throws {
        let json = "\u{FEFF}{ \"a\" : [ 1, {\"b\":\"}\"} ],\n  \"c\" : {}\n}\n"
        let document = try parse(json)
        let bytes = Array(json.utf8)  // spans count from the bytes given, the mark's among them
        func text(_ node: YAMLDocument.NodeID) -> String? { document.sourceSpan(node).map { String(decoding: bytes[$0], as: UTF8.self) } }
        #expect(text(document.root) == "{ \"a\" : [ 1, {\"b\":\"}\"} ],\n  \"c\" : {}\n}")
        let list = try #require(document.pair(document.root, key: "a")?.value)
        #expect(text(list) == "[ 1, {\"b\":\"}\"} ]")
        #expect(text(document.items(list)[1]) == "{\"b\":\"}\"}")
        #expect(document.sourceSpan(document.items(list)[0]) == nil)
        #expect(text(try #require(document.pair(document.root, key: "c")?.value)) == "{}")
        let yaml = try #require(try Data("a: [1]\n".utf8).withUnsafeBytes { try YAMLDocument.parse($0) })
        #expect(yaml.sourceSpan(yaml.root) == nil)
    }
}
