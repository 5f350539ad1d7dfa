import Foundation
import IAPCatalog
import IAPCore
import TestSupport
import Testing

/// The change between two canonical catalogs made in a kept text: only the changed values move, in the kept
/// text's layout, and what the canonical forms do not hold stays.
@Suite struct CatalogMergeTests {
    func tree(_ yaml: String) throws -> YAMLTree { try #require(try YAMLTree(yaml: Array(yaml.utf8), file: "t.yaml")) }

    func merged(_ kept: String, before: String, after: String, removes: Bool = false) throws -> (String, CatalogMerge.Summary) {
        var merge = CatalogMerge(editor: try CatalogTextEditor(data: Data(kept.utf8), file: "catalog.yaml"))
        merge.allowsRemovals = removes
        merge.apply(before: try tree(before), after: try tree(after))
        let text = String(decoding: merge.editor.text(), as: UTF8.self)
        // Whatever the edit, the result is YAML a catalog reader takes.
        _ = try CatalogLoader.load(data: Data(text.utf8), file: "catalog.yaml", findings: { _ in })
        return (text, merge.summary)
    }

    static let kept = """
        # kept by hand
        schemaVersion: 1
        app:
            bundleId: com.example.app
        retiredProductIds: [com.example.app.old]
        products:
            - productId: com.example.app.a   # first
              type: consumable
              referenceName: A
              tier: 1
              localizations:
                  - {locale: en-US, name: A, description: The A.}
                  - locale: fr-FR
                    name: A fr
                    description: Le A.

        """

    static let canonical = """
        schemaVersion: 1
        app:
          bundleId: com.example.app
          primaryLocale: en-US
        products:
        - productId: com.example.app.a
          referenceName: A
          type: consumable
          price: 0.99
          localizations:
          - locale: en-US
            name: A
            description: The A.
          - locale: fr-FR
            name: A fr
            description: Le A.

        """

    @Test func nothingChangedLeavesTheTextByteForByte() throws {
        let (text, summary) = try merged(Self.kept, before: Self.canonical, after: Self.canonical)
        #expect(text == Self.kept)
        #expect(summary.isEmpty)
    }

    @Test func aChangedValueMovesAloneInItsOwnStyle() throws {
        let after = Self.canonical.replacingOccurrences(of: "name: A fr", with: "name: \"A, en français\"")
            .replacingOccurrences(of: "description: The A.", with: "description: The A, renamed.")
        let (text, summary) = try merged(Self.kept, before: Self.canonical, after: after)
        #expect(summary.changedValues == 2)
        #expect(text.contains("- {locale: en-US, name: A, description: \"The A, renamed.\"}"), "\(text)")
        #expect(text.contains("\n            name: \"A, en français\"\n"), "\(text)")
        #expect(text.contains("tier: 1") && text.contains("# kept by hand") && text.contains("# first"))
    }

    @Test func aPriceWrittenAsATierIsRewrittenWhereItStandsOnlyWhenItChanged() throws {
        let after = Self.canonical.replacingOccurrences(of: "price: 0.99", with: "price: 1.99")
        let (text, _) = try merged(Self.kept, before: Self.canonical, after: after)
        #expect(text.contains("\n      price: 1.99\n") && !text.contains("tier"), "\(text)")
    }

    @Test func addedItemsFollowTheListsLayoutAndRemovedOnesGoWithTheirLines() throws {
        let after =
            Self.canonical.replacingOccurrences(
                of: "  - locale: fr-FR\n    name: A fr\n    description: Le A.\n",
                with: "  - locale: de-DE\n    name: A de\n    description: Das A.\n")
            + "- productId: com.example.app.b\n  referenceName: B\n  type: non-consumable\n  price: 1.99\n  localizations:\n  - locale: en-US\n    name: B\n    description: The B.\n"
        let (text, summary) = try merged(Self.kept, before: Self.canonical, after: after, removes: true)
        #expect(summary.added == ["localization": 1, "product": 1], "\(summary)")
        #expect(summary.removed == ["localization": 1], "\(summary)")
        #expect(!text.contains("fr-FR"))
        // Without removals allowed, what the other side lacks (never pushed, say) stays, and is named.
        let (keptText, keptSummary) = try merged(Self.kept, before: Self.canonical, after: after)
        #expect(keptText.contains("- locale: fr-FR") && keptSummary.removed.isEmpty, "\(keptText)")
        #expect(keptSummary.keptEntries == ["com.example.app.a: localization fr-FR"], "\(keptSummary)")
        #expect(text.contains("\n          - locale: de-DE\n            name: A de\n"), "\(text)")
        #expect(text.contains("\n    - productId: com.example.app.b\n      referenceName: B\n"), "\(text)")
        #expect(text.contains("\n      localizations:\n          - locale: en-US\n            name: B\n"), "\(text)")
    }

    @Test func itemsStandAsFarFromTheirDashAsTheFileWritesThem() throws {
        // Four-space indentation with items four columns right of their dash, as some formatters write YAML.
        let kept = """
            schemaVersion: 1
            app:
                bundleId: com.example.app
            products:
                -   productId: com.example.app.a
                    type: consumable
                    referenceName: A
                    price: 0.99
                    localizations:
                        -   locale: en-US
                            name: A
                            description: The A.

            """
        let before = Self.canonical.replacingOccurrences(of: "  - locale: fr-FR\n    name: A fr\n    description: Le A.\n", with: "")
        let after =
            before + "  - locale: de-DE\n    name: A de\n    description: Das A.\n"
            + "- productId: com.example.app.b\n  referenceName: B\n  type: consumable\n  price: 0.99\n  localizations:\n  - locale: en-US\n    name: B\n    description: The B.\n"
        let (text, summary) = try merged(kept, before: before, after: after)
        #expect(summary.added == ["localization": 1, "product": 1], "\(summary)")
        #expect(text.contains("\n            -   locale: de-DE\n                name: A de\n"), "\(text)")
        #expect(text.contains("\n    -   productId: com.example.app.b\n        referenceName: B\n"), "\(text)")
        #expect(text.contains("\n        localizations:\n            -   locale: en-US\n                name: B\n"), "\(text)")
    }

    @Test func aProductTheOtherSideLacksIsKeptUnlessRemovalsAreAllowed() throws {
        let empty = "schemaVersion: 1\napp:\n  bundleId: com.example.app\n"
        let (kept, summary) = try merged(Self.kept, before: Self.canonical, after: empty)
        #expect(kept == Self.kept)
        #expect(summary.kept == ["com.example.app.a"])
        let (removed, _) = try merged(Self.kept, before: Self.canonical, after: empty, removes: true)
        #expect(!removed.contains("com.example.app.a") && removed.contains("retiredProductIds"), "\(removed)")
        // Two products, both gone: the list is left empty, once.
        let two = Self.kept + "    - productId: com.example.app.b\n      type: consumable\n      referenceName: B\n      price: 0.99\n"
        let twoCanonical = Self.canonical + "- productId: com.example.app.b\n  referenceName: B\n  type: consumable\n  price: 0.99\n"
        let (none, summary2) = try merged(two, before: twoCanonical, after: empty, removes: true)
        #expect(summary2.removed == ["product": 2] && !none.contains("productId"), "\(none)")
    }

    @Test func aListTheOtherSideLacksStaysUnlessRemovalsAreAllowedButAValueGoes() throws {
        let kept = Self.kept.replacingOccurrences(
            of: "      tier: 1\n",
            with: "      tier: 1\n      reviewNote: Tap A.\n      winBackOffers:\n          - {offerId: back, referenceName: Back}\n")
        let before = Self.canonical.replacingOccurrences(
            of: "  price: 0.99\n", with: "  price: 0.99\n  reviewNote: Tap A.\n  winBackOffers:\n  - offerId: back\n    referenceName: Back\n")
        let (text, summary) = try merged(kept, before: before, after: Self.canonical)
        #expect(text.contains("winBackOffers:") && !text.contains("reviewNote"), "\(text)")
        #expect(summary.keptEntries == ["com.example.app.a: 1 win-back offer"], "\(summary)")
        let (removed, _) = try merged(kept, before: before, after: Self.canonical, removes: true)
        #expect(!removed.contains("winBackOffers"), "\(removed)")
    }

    @Test func aJSONCatalogStaysJSON() throws {
        let json = """
            {"schemaVersion": 1, "app": {"bundleId": "com.example.app"}, "products": [{"productId": "com.example.app.a", "type": "consumable", "referenceName": "A", "price": 0.99, "localizations": [{"locale": "en-US", "name": "A", "description": "The A."}]}]}

            """
        let before = Self.canonical.replacingOccurrences(of: "  - locale: fr-FR\n    name: A fr\n    description: Le A.\n", with: "")
        let after = before.replacingOccurrences(of: "name: A\n", with: "name: A+\n")
        let (text, _) = try merged(json, before: before, after: after)
        #expect(text.contains("\"name\": \"A+\""), "\(text)")
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(text)")
    }

    @Test func aUnifiedDiffAsDiffWritesIt() throws {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 2\n", with: "line two\n").replacingOccurrences(of: "line 18\n", with: "")
        let diff = UnifiedDiff.text(old: old, new: new, oldName: "a/f", newName: "b/f")
        let dir = TemporaryDirectory()
        let patch = dir.write("p.diff", diff)
        let target = dir.write("f", old)
        let applied = try run("/usr/bin/env", ["patch", "-s", target, patch])
        #expect(applied.status == 0, "\(diff)\(applied.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == new)
        #expect(diff.contains("@@ -1,5 +1,5 @@"), "\(diff)")
        #expect(UnifiedDiff.text(old: old, new: old, oldName: "a", newName: "b").isEmpty)
        // Nothing in common: every line goes and comes.
        let replaced = UnifiedDiff.text(old: "a\nb\n", new: "c\n", oldName: "a", newName: "b")
        #expect(replaced == "--- a\n+++ b\n@@ -1,2 +1 @@\n-a\n-b\n+c\n", "\(replaced)")
    }
}
