import Foundation
import IAPCatalog
import IAPCore
import Testing

/// A large catalog's products are read on several threads. The model, the shape findings (in file order) and the
/// errors must be what one thread makes.
@Suite struct SharedReadingTests {
    /// Products with shape problems spread through the list: unknown keys, values of the wrong type, missing
    /// required keys, a product that is not a mapping, and territory prices.
    static func catalog(products count: Int) -> String {
        var yaml = "schemaVersion: 1\napp:\n  bundleId: com.example.app\n  primaryLocale: en-US\nproducts:\n"
        for index in 0..<count {
            if index % 97 == 13 { yaml += "  - just text\n"; continue }
            yaml +=
                index % 31 == 5
                ? "  - referenceName: Item \(index)\n" : "  - productId: com.example.app.item\(index)\n    referenceName: Item \(index)\n"
            yaml += "    type: consumable\n    price: \(index % 29 == 3 ? "[1]" : "0.99")\n"
            if index % 37 == 8 { yaml += "    colour: red\n" }
            if index % 41 == 9 { yaml += "    familySharable: yes\n" }
            if index % 43 == 10 { yaml += "    territoryPrices: {FRA: 1.19, DEU: [2]}\n" }
            yaml += "    localizations:\n      - locale: en-US\n        name: Item\n        description: Item \(index).\n"
            if index % 47 == 11 { yaml += "        extra: 1\n" }
        }
        return yaml
    }

    func load(_ yaml: String, threads: Int?) throws(IAPKitError) -> (products: [String], findings: [Finding]) {
        let collector = FindingCollector()
        let catalog = try CatalogLoader.load(data: Data(yaml.utf8), file: "catalog.yaml", threads: threads, findings: collector.consumer)
        let products = catalog.products.map { product in
            [
                product.path.description, product.productID ?? "-", product.referenceName ?? "-", product.price.map { "\($0.cents)" } ?? "-",
                product.localizations.map { "\($0.path) \($0.locale ?? "-") \($0.description ?? "-")" }.joined(separator: ";"),
                "\(product.territoryPrices.count)",
            ].joined(separator: " | ")
        }
        return (products, collector.findings)
    }

    @Test(arguments: [2, 3, 5])
    func anyNumberOfThreadsReadsWhatOneThreadReads(threads: Int) throws {
        let yaml = Self.catalog(products: 1_200)
        let alone = try load(yaml, threads: 1)
        let shared = try load(yaml, threads: threads)
        #expect(alone.products.count > 1_100)
        #expect(Set(alone.findings.map(\.message).map { $0.prefix(12) }).count >= 5, "\(Set(alone.findings.map(\.message)))")
        #expect(shared.products == alone.products)
        #expect(shared.findings == alone.findings)
    }

    @Test func theAliasBudgetHoldsAcrossThreads() throws {
        // Every product names the same long list of localizations: a small file that stands for millions of values.
        var yaml = "schemaVersion: 1\napp: {bundleId: com.example.app, primaryLocale: en-US}\nproducts:\n"
        yaml += "  - productId: com.example.app.first\n    referenceName: First\n    type: consumable\n    price: 0.99\n    localizations: &many\n"
        for index in 0..<1_000 { yaml += "      - {locale: en-US, name: Name \(index)}\n" }
        for index in 0..<2_100 {
            yaml +=
                "  - {productId: com.example.app.item\(index), referenceName: Item \(index), type: consumable, price: 0.99, localizations: *many}\n"
        }
        var errors: [String] = []
        for threads in [1, 3] {
            do {
                _ = try load(yaml, threads: threads)
                Issue.record("\(threads) threads read an expanding catalog")
            } catch {
                errors.append(error.description)
            }
        }
        #expect(errors.count == 2)
        #expect(Set(errors).count == 1, "\(errors)")
        #expect(errors.first?.contains("expands to more than 2000000 values") == true, "\(errors)")
    }
}
