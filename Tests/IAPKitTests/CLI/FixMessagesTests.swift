import Foundation
import TestSupport
import Testing

/// Messages for a release engineer's usual slips: each names the place and ends with what to do.
@Suite struct FixMessagesTests {
    static func examples(in dir: TemporaryDirectory, edit: (String) -> String = { $0 }) throws -> String {
        let text = try String(contentsOfFile: Paths.examples + "/catalog.yaml", encoding: .utf8)
        return dir.write("catalog.yaml", edit(text))
    }

    @Test func aMistypedCatalogPathSuggestsTheFileBesideIt() throws {
        let dir = TemporaryDirectory()
        _ = try Self.examples(in: dir)
        let result = try iapkit(["lint", "catalog", "catalgo.yaml"], in: dir.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("catalgo.yaml: does not exist; did you mean catalog.yaml?"), "\(result.stderr)")
        // Nothing near it: the starter catalog is the way forward.
        let none = try iapkit(["lint", "catalog", "products/store.yaml"], in: dir.path)
        #expect(none.status == 2 && none.stderr.contains("run `iapkit init`"), "\(none.stderr)")
    }

    @Test func aTabInTheCatalogSaysUseSpacesAtOneLocation() throws {
        let dir = TemporaryDirectory()
        dir.write("catalog.yaml", "schemaVersion: 1\napp:\n  bundleId: com.example.app\n\tprimaryLocale: en-US\nproducts: []\n")
        let result = try iapkit(["lint", "catalog", "catalog.yaml"], in: dir.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("catalog.yaml:4:1: is not valid YAML: a tab indents this line; YAML indents with spaces: use spaces"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("(line "), "one location, not two: \(result.stderr)")
    }

    @Test func aProductIDTwiceInAGroupIsLocatedAtItsLine() throws {
        let dir = TemporaryDirectory()
        _ = try Self.examples(in: dir) {
            $0.replacingOccurrences(
                of: "      - productId: com.example.fruitstand.club.yearly\n",
                with: "      - productId: com.example.fruitstand.club.monthly\n")
        }
        let result = try iapkit(["lint", "catalog", "catalog.yaml"], in: dir.path)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "catalog.yaml:96:20: error: product ID `com.example.fruitstand.club.monthly` is already used at line 68; "
                    + "every ID must be unique [product-id-duplicate]"), "\(result.stdout)")
    }

    @Test func aSemicolonSeparatedSheetNamesItsSeparator() throws {
        let dir = TemporaryDirectory()
        _ = try Self.examples(in: dir)
        let sheet = dir.write("fr.csv", "id;en-US;fr-FR\ncom.example.fruitstand.banana/name;Banana;Banane\n")
        let result = try iapkit(["localizations", "import", sheet, "catalog.yaml"], in: dir.path)
        #expect(result.status == 1, "a translation file that cannot be read is a finding")
        #expect(
            result.stdout.contains(
                "fr.csv:1:3: error: fr.csv separates its columns with semicolons, not commas; save the sheet as CSV "
                    + "with commas as the separator"), "\(result.stdout)")
    }
}
