import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// The lint gate: each strictness refuses what it covers and lets the rest through.
@Suite struct LintGateTests {
    /// A copy of the example project with a price that is no App Store price point (a catalog rule, not the
    /// catalog's shape) and, when asked, a content folder whose ContentVersion is not a version (content lint only).
    func withProject(badPrice: Bool = false, badContentVersion: Bool = false, _ body: (String) throws -> Void) throws {
        let dir = TemporaryDirectory()
        try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        let catalog = dir.file("project/catalog.yaml")
        if badPrice {
            let text = try String(contentsOfFile: catalog, encoding: .utf8)
            try text.replacingOccurrences(of: "price: 0.99\n", with: "price: 0.98\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        }
        if badContentVersion {
            let info = dir.file("project/content/com.example.fruitstand.kiwi/ContentInfo.plist")
            let text = try String(contentsOfFile: info, encoding: .utf8)
            try text.replacingOccurrences(of: "<string>1.0</string>", with: "<string>one</string>").write(
                toFile: info, atomically: true, encoding: .utf8)
        }
        try withExtendedLifetime(dir) { try body(catalog) }
    }

    func refusal(_ result: Result<Catalog, LintGate.Refusal>) -> LintGate.Refusal? {
        if case let .failure(refusal) = result { return refusal }
        return nil
    }

    @Test func aCleanCatalogPassesEveryStrictness() throws {
        try withProject { catalog in
            for strictness in LintGate.Strictness.allCases {
                let result = try LintGate.open(catalog, strictness: strictness)
                #expect(refusal(result) == nil, "\(strictness)")
            }
        }
    }

    @Test func theShapeLetsCatalogRulesThrough() throws {
        try withProject(badPrice: true) { catalog in
            var seen: [Finding] = []
            #expect(refusal(try LintGate.open(catalog, strictness: .shape) { seen.append($0) }) == nil)
            #expect(seen.isEmpty)
            let refused = try #require(refusal(try LintGate.open(catalog, strictness: .catalog) { seen.append($0) }))
            #expect(refused.errors.map(\.ruleID) == ["price"] && refused.summary == "1 error in \(catalog)")
            #expect(refused.products == 6)
            #expect(seen.contains { $0.ruleID == "price" && $0.severity == .error })
        }
    }

    /// For the simulator, App Store Connect's errors are warnings; lint's own warnings are not handed on.
    @Test func theSimulatorTakesWhatAppStoreConnectRefuses() throws {
        try withProject(badPrice: true) { catalog in
            var seen: [Finding] = []
            let opened = try LintGate.open(catalog, strictness: .simulator) { seen.append($0) }
            #expect(refusal(opened) == nil)
            #expect(seen.map(\.ruleID) == ["price"] && seen.allSatisfy { $0.severity == .warning }, "\(seen)")
            #expect(seen.first?.message.contains("$0.98 is not a USD price point") == true)
        }
    }

    /// What the simulator cannot take stays an error: a product ID twice or empty, a type it lacks, a wrong shape.
    @Test(arguments: [
        ("  - {productId: com.example.app.a, referenceName: A, type: consumable, price: 0.99}\n", "product-id-duplicate"),
        ("  - {productId: \"\", referenceName: C, type: consumable, price: 0.99}\n", "product-id-format"),
        ("  - {productId: com.example.app.c, referenceName: C, type: subscription, price: 0.99}\n", "type"),
        ("  - {productId: com.example.app.c, referenceName: C, type: consumable, colour: red}\n", "schema"),
    ])
    func theSimulatorRefusesWhatItCannotTake(product: String, rule: String) throws {
        let dir = TemporaryDirectory()
        let catalog = dir.write(
            "catalog.yaml",
            "schemaVersion: 1\napp: {bundleId: com.example.app, primaryLocale: en-US}\nproducts:\n"
                + "  - {productId: com.example.app.a, referenceName: A, type: consumable, price: 0.98}\n" + product)
        let refused = try #require(refusal(try LintGate.open(catalog, strictness: .simulator)))
        #expect(refused.errors.map(\.ruleID).contains(rule), "\(refused.errors)")
        #expect(!refused.errors.contains { $0.ruleID == "price" }, "the price off the grid stays a warning")
        // A product ID App Store Connect refuses but the simulator takes is a warning.
        let spaced = dir.write(
            "spaced.yaml",
            "schemaVersion: 1\napp: {bundleId: com.example.app, primaryLocale: en-US}\nproducts:\n"
                + "  - {productId: com.example.app.gems pack, referenceName: A, type: consumable, price: 0.99}\n")
        var seen: [Finding] = []
        let opened = try LintGate.open(spaced, strictness: .simulator) { seen.append($0) }
        #expect(refusal(opened) == nil)
        #expect(seen.contains { $0.ruleID == "product-id-format" && $0.severity == .warning }, "\(seen)")
        let shape = try LintGate.open(spaced, strictness: .shape)
        #expect(refusal(shape) != nil, "the other exports still refuse it")
    }

    /// Pay-as-you-go's number of periods, said as English.
    @Test func offerPeriodsReadAsEnglish() throws {
        let dir = TemporaryDirectory()
        func periods(_ period: String, _ count: Int) throws -> [String] {
            let catalog = dir.write(
                "catalog.yaml",
                Example.subscription(
                    "  period: \(period)\n  introductoryOffer: {mode: pay-as-you-go, periods: \(count), price: 0.99}"
                ).replacingOccurrences(of: "  price: 4.99\n", with: "  price: 49.99\n"))
            var seen: [String] = []
            _ = try LintGate.open(catalog, strictness: .catalog) { seen.append($0.message) }
            return seen.filter { $0.contains("pay-as-you-go") }
        }
        #expect(try periods("P1Y", 3) == ["pay-as-you-go on a P1Y subscription allows only 1 period, not 3"])
        #expect(try periods("P1M", 13) == ["pay-as-you-go on a P1M subscription allows 1 to 12 periods, not 13"])
        #expect(try periods("P1Y", 1) == [])
    }

    @Test func onlyFullLintsTheContentFolders() throws {
        try withProject(badContentVersion: true) { catalog in
            #expect(refusal(try LintGate.open(catalog, strictness: .catalog)) == nil)
            let refused = try #require(refusal(try LintGate.open(catalog, strictness: .full)))
            #expect(refused.errors.map(\.ruleID) == ["content-version"])
        }
    }

    @Test func theBrokenFixtureIsRefusedForItsShape() throws {
        let refused = try #require(refusal(try LintGate.open(Paths.fixtures + "/" + "catalogs/broken/catalog.yaml", strictness: .shape)))
        #expect(!refused.errors.isEmpty && refused.errors == refused.errors.sortedForReport())
    }

    @Test func anUnreadableCatalogIsAnErrorOfTheTool() {
        #expect(throws: IAPKitError.self) { try LintGate.open("/nonexistent/catalog.yaml", strictness: .shape) }
    }
}
