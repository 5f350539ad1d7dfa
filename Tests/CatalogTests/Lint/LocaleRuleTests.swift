import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// The locale rule remembers the locales it has accepted, so that a large catalog's thousands of `en-US` are not
/// looked up again and again. What it reports must not depend on what it has seen before.
@Suite struct LocaleRuleTests {
    @Test func findingsDoNotDependOnLocalesSeenBefore() throws {
        // More accepted locales than the rule remembers, a provisional one and a wrong one in every product, and one
        // product that lists a remembered locale twice.
        let accepted = Array(LocaleCodes.all.filter { !ReferenceData.provisionalLocales.contains($0) }.prefix(24))
        #expect(accepted.count == 24)
        var yaml = "schemaVersion: 1\napp:\n  bundleId: com.example.app\n  primaryLocale: en-US\nproducts:\n"
        for index in 0..<6 {
            yaml += "  - productId: com.example.app.item\(index)\n    referenceName: Item \(index)\n    type: consumable\n"
            yaml += "    price: 0.99\n    localizations:\n"
            for locale in accepted + ["bn", "en_US"] + (index == 3 ? ["en-US"] : []) {
                yaml += "      - locale: \(locale)\n        name: Item\n        description: Item \(index).\n"
            }
        }
        let dir = TemporaryDirectory()
        let path = dir.write("catalog.yaml", yaml)
        let collector = FindingCollector()
        try CatalogLinter(threads: 1).lint(catalogAt: path, consumer: collector.consumer)
        let locale = collector.findings.filter { $0.ruleID == "locale" }
        let provisional = locale.filter { $0.severity == .warning && $0.message.hasPrefix("`bn` was added") }
        let wrong = locale.filter { $0.severity == .error && $0.message.hasPrefix("`en_US` is not an App Store Connect locale") }
        let twice = locale.filter { $0.message.contains("lists locale en-US twice") }
        #expect(provisional.map(\.productID) == (0..<6).map { "com.example.app.item\($0)" })
        #expect(wrong.map(\.productID) == (0..<6).map { "com.example.app.item\($0)" })
        #expect(twice.map(\.productID) == ["com.example.app.item3"])
        #expect(locale.count == 13)
    }
}
