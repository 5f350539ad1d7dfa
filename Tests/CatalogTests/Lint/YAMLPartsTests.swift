import Foundation
@testable import IAPCatalog
import TestSupport
import Testing

/// A large text read in parts makes the document one pass makes, node for node (kind, style, line, column, text,
/// children, in the same order), or is not read in parts at all: whatever runs over a cut sends it through one pass.
@Suite struct YAMLPartsTests {
    /// The document read in parts (nil when the parts refused) and the one a single pass makes.
    /// The document read in parts (nil when the parts refused) and the one a single pass makes (nil when it fails).
    func read(_ text: String, parts: Int) -> (parts: YAMLDocument?, single: YAMLDocument?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            let inParts = YAMLDocumentBuilder.buildInParts(buffer, parts: parts)
            let pass = try? YAMLDocumentBuilder.read(buffer, reserving: buffer.count, depthLimit: YAMLDocumentBuilder.maximumDepth, join: nil)
            return (inParts, pass.flatMap { pass in pass.root.map { pass.arena.document(root: $0) } })
        }
    }

    /// The error one pass reports, and the one `build` reports.
    func errors(_ text: String) -> (single: YAMLDocumentBuilder.Failure?, built: YAMLDocumentBuilder.Failure?) {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var single: YAMLDocumentBuilder.Failure?, built: YAMLDocumentBuilder.Failure?
            do throws(YAMLDocumentBuilder.Failure) {
                _ = try YAMLDocumentBuilder.read(buffer, reserving: buffer.count, depthLimit: YAMLDocumentBuilder.maximumDepth, join: nil)
            } catch { single = error }
            do throws(YAMLDocumentBuilder.Failure) { _ = try YAMLDocumentBuilder.build(buffer) } catch { built = error }
            return (single, built)
        }
    }

    /// Where two documents differ, in words; nil when they hold the same nodes in the same order.
    func difference(_ a: YAMLDocument, _ b: YAMLDocument) -> String? {
        guard a.nodeCount == b.nodeCount else { return "\(a.nodeCount) nodes against \(b.nodeCount)" }
        guard a.root == b.root else { return "root \(a.root) against \(b.root)" }
        for index in 0..<a.nodeCount {
            let (x, y) = (a.nodes.records[index], b.nodes.records[index])
            let node = YAMLDocument.NodeID(index: Int32(index))
            guard x.kind == y.kind, x.style == y.style, x.line == y.line, x.column == y.column else {
                return "node \(index): \(x.kind) \(x.line):\(x.column) against \(y.kind) \(y.line):\(y.column)"
            }
            if x.kind == .scalar {
                if a.string(node) != b.string(node) { return "node \(index): \(a.string(node)) against \(b.string(node))" }
            } else if Array(a.items(node)) != Array(b.items(node)) {
                return "node \(index): other children"
            }
        }
        return nil
    }

    /// A catalog shaped as teams write one: a header, a long product list, a list after it.
    static func catalog(products: Int, dash: String = "  ", extra: (Int) -> String = { _ in "" }) -> String {
        var text = "# the catalog\nschemaVersion: 1\napp:\n  bundleId: com.example.app\nproducts:\n"
        let inner = dash + "  "
        for index in 0..<products {
            text += "\(dash)- productId: com.example.app.p\(index)\n"
            text += "\(inner)referenceName: \"Product \(index)\"\n\(inner)type: consumable\n\(inner)price: 0.99\n"
            text += "\(inner)localizations:\n\(inner)  - {locale: en-US, name: P\(index), description: 'The product.'}\n"
            text += "\(inner)  - locale: ja\n\(inner)    name: プロダクト \(index)\n\(inner)    description: |\n"
            text += "\(inner)      Line one of \(index).\n\(inner)      Line two.\n"
            text += extra(index)
        }
        text += "subscriptionGroups:\n  - referenceName: Group\n    subscriptions: []\n"
        return text
    }

    @Test(arguments: [2, 3, 5])
    func aLargeCatalogReadInPartsIsTheDocumentOnePassMakes(parts: Int) throws {
        for dash in ["", "  ", "    "] {
            let (inParts, single) = read(Self.catalog(products: 300, dash: dash), parts: parts)
            let built = try #require(inParts, "not read in parts (dash \(dash.count))")
            #expect(difference(built, try #require(single)) == nil, "dash \(dash.count): \(difference(built, single!) ?? "")")
        }
    }

    @Test func commentsBlankLinesAndKeptLineBreaksAtTheCutsChangeNothing() throws {
        let text = Self.catalog(products: 200) { index in
            switch index % 4 {
            case 0: return "\n# a comment at the top level\n\n"
            case 1: return "    note: |+\n      kept\n\n\n"
            case 2: return "    folded: >-\n      one\n      two\n   # an indented comment\n"
            default: return "    plain: a value\n      running on\n"
            }
        }
        for parts in 2...6 {
            let (inParts, single) = read(text, parts: parts)
            let built = try #require(inParts, "not read in parts (\(parts))")
            #expect(difference(built, try #require(single)) == nil)
        }
        // Windows line ends: libyaml counts `\r\n` as one break, as the parts do.
        let windows = text.replacingOccurrences(of: "\n", with: "\r\n")
        let (inParts, single) = read(windows, parts: 3)
        #expect(difference(try #require(inParts), try #require(single)) == nil)
    }

    @Test func aListThatEndsTheTextWithoutALineBreak() throws {
        var text = Self.catalog(products: 100)
        text = String(text[..<text.range(of: "subscriptionGroups:")!.lowerBound]) + "  - productId: last"
        let (inParts, single) = read(text, parts: 2)
        #expect(difference(try #require(inParts), try #require(single)) == nil)
    }

    /// Values that run over a line that looks like an item's start: the cut must not hold there.
    @Test func whatRunsOverACutSendsTheTextThroughOnePass() throws {
        let spanning = [
            "    quoted: \"runs on\n  - productId: inside.the.quote\n    \"\n",
            "    flow: [a,\n  - b]\n",
            "    single: 'also\n  - productId: quoted\n  '\n",
        ]
        for sample in spanning {
            let text = Self.catalog(products: 120) { index in index == 60 ? sample : "" }
            for parts in 2...4 {
                let (inParts, single) = read(text, parts: parts)
                if let inParts, let single { #expect(difference(inParts, single) == nil, "\(sample)") }
                if single == nil { #expect(inParts == nil) }
            }
        }
    }

    @Test func anchorsAndAliasesAcrossPartsAreReadInOnePass() throws {
        // An anchor in the first part that a later part names: that part cannot resolve it alone.
        let early = Self.catalog(products: 100) { index in index == 0 ? "    shared: &tag value\n" : index == 90 ? "    again: *tag\n" : "" }
        #expect(read(early, parts: 2).parts == nil)
        // An anchor defined again in a later part and named after the list: one pass takes the later definition.
        let redefined =
            Self.catalog(products: 100) { index in index == 0 ? "    shared: &tag first\n" : index == 90 ? "    shared: &tag second\n" : "" }
            + "after: *tag\n"
        let (inParts, single) = read(redefined, parts: 2)
        #expect(inParts == nil)
        let after = try #require(single.flatMap { $0.pair($0.root, key: "after") })
        #expect(single!.string(after.value) == "second")
        // Anchors and aliases within one item are read in parts.
        let local = Self.catalog(products: 100) { index in "    a: &own \(index)\n    b: *own\n" }
        let (localParts, localSingle) = read(local, parts: 3)
        #expect(difference(try #require(localParts), try #require(localSingle)) == nil)
    }

    @Test func anErrorInAPartIsTheErrorOnePassReports() throws {
        let repeated = Self.catalog(products: 100) { index in index == 80 ? "    price: 1.99\n" : "" }
        let broken = Self.catalog(products: 100) { index in index == 80 ? "    bad: [unclosed\n" : "" }
        for text in [repeated, broken] {
            #expect(read(text, parts: 2).parts == nil)
            let (single, built) = errors(text)
            let expected = try #require(single, "one pass read it")
            #expect(built?.reason == expected.reason && built?.line == expected.line && built?.column == expected.column)
        }
    }

    /// Random damage near the cuts: the parts make the single pass's document or refuse, never another one.
    @Test func damagedTextsNeverReadDifferentlyInParts() throws {
        let base = Array(Self.catalog(products: 60).utf8)
        let damage: [[UInt8]] = ["\"", "'", "[", "]", "{", "}", "\n- x: y\n", "\n  - productId: z\n", "&a ", "*a", "\t", "\r", "#", ":", "\n"]
            .map { Array($0.utf8) }
        var generator = SeededGenerator(seed: 20_261_128)
        var readInParts = 0
        for _ in 0..<400 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.insert(contentsOf: damage.randomElement(using: &generator)!, at: at)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let parts = Int.random(in: 2...4, using: &generator)
            let (inParts, single) = read(text, parts: parts)
            guard let inParts else { continue }
            readInParts += 1
            let one = try #require(single, "read in parts what one pass refuses")
            #expect(difference(inParts, one) == nil, "\(text)")
        }
        #expect(readInParts > 100, "only \(readInParts) of 400 damaged texts were read in parts")
    }
}
