import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// A large catalog's product rules are shared out among threads. Whatever the number of threads, lint must report
/// the same findings in the same order as one thread does, including those of rules that remember earlier
/// products (duplicate IDs and names) and those reported after the pass (subscription groups).
@Suite struct SharedPassTests {
    /// Products with a spread of problems: repeated IDs (exactly and by case), repeated and missing reference
    /// names, wrong locales, long names, missing screenshots and descriptions, and a group of subscriptions.
    static func catalog(products count: Int) -> String {
        var yaml = "schemaVersion: 1\napp:\n  bundleId: com.example.app\n  primaryLocale: en-US\nproducts:\n"
        for index in 0..<count {
            let id =
                switch index % 11 {
                case 3: "com.example.app.item\(index - 1)"
                case 5: "com.example.app.ITEM\(index - 2)"
                case 7: "other.item\(index)"
                default: "com.example.app.item\(index)"
                }
            yaml += "  - productId: \(id)\n"
            if index % 13 != 4 { yaml += "    referenceName: Item \(index % 17 == 2 ? 0 : index)\n" }
            yaml += "    type: \(index % 2 == 0 ? "consumable" : "non-consumable")\n    price: \(index % 19 == 6 ? "0.98" : "0.99")\n"
            yaml += "    localizations:\n"
            yaml +=
                "      - locale: \(index % 9 == 1 ? "en_US" : "en-US")\n        name: \(index % 23 == 8 ? String(repeating: "n", count: 36) : "Item")\n"
            if index % 10 != 6 { yaml += "        description: Item \(index).\n" }
            if index % 14 == 3 { yaml += "      - locale: en-US\n        name: Again\n        description: Twice.\n" }
            if index % 4 != 0 { yaml += "    review:\n      note: Tap it.\n      screenshot: missing.png\n" }
        }
        yaml += "subscriptionGroups:\n  - referenceName: Plans\n    localizations:\n      - locale: xx-YY\n        name: Plans\n"
        yaml += "    subscriptions:\n"
        for index in 0..<40 {
            yaml += "      - productId: com.example.app.plan\(index % 3 == 0 ? 0 : index)\n        referenceName: Plan \(index)\n"
            yaml += "        period: \(index % 5 == 0 ? "P2M" : "P1M")\n        groupLevel: \(index + 1)\n        price: 2.99\n"
        }
        return yaml
    }

    func lint(_ path: String, threads: Int?) throws -> [Finding] {
        let collector = FindingCollector()
        try CatalogLinter(threads: threads).lint(catalogAt: path, consumer: collector.consumer)
        return collector.findings
    }

    @Test(arguments: [2, 3, 4, 7])
    func anyNumberOfThreadsReportsWhatOneThreadReports(threads: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.write("catalog.yaml", Self.catalog(products: 900))
        let alone = try lint(path, threads: 1)
        let shared = try lint(path, threads: threads)
        // The catalog must exercise many rules, or the comparison proves little.
        let rules = Set(alone.map(\.ruleID))
        #expect(
            rules.isSuperset(of: [
                "product-id-duplicate", "product-id-prefix", "reference-name", "locale", "display-name",
                "description", "review-screenshot", "price",
            ]))
        #expect(alone.count > 1_000)
        #expect(shared.count == alone.count)
        #expect(shared == alone)
    }

    @Test func automaticThreadsReportWhatOneThreadReports() throws {
        // Above the size where the linter shares its rules by itself.
        let dir = TemporaryDirectory()
        let path = dir.write("catalog.yaml", Self.catalog(products: 4_500))
        let alone = try lint(path, threads: 1)
        #expect(alone.count > 5_000)
        #expect(try lint(path, threads: nil) == alone)
    }
}
