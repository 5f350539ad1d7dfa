import Foundation
import TestSupport
import Testing

/// A sale of an in-app purchase, as App Store Connect holds it (manual prices with a start and an end date): pushed
/// from the catalog, pulled back unchanged, made on the web and pulled, with nothing restated after its end.
@Suite(.showsFakeLog)
struct SaleSyncTests {
    static let bundleID = LargeChangeTests.bundleID
    static let start = "2031-01-15", end = "2031-01-17"

    static func catalog() throws -> String {
        let full = try LargeChangeTests.territoryPrices(usd: "1.99"), sale = try LargeChangeTests.territoryPrices(usd: "0.99")
        func map(_ prices: [String: String]) -> String { prices.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") }
        return """
            schemaVersion: 1
            app:
              bundleId: \(bundleID)
              primaryLocale: en-US
            products:
              - productId: \(bundleID).gems
                referenceName: Gems
                type: consumable
                price: 1.99
                territoryPrices: {\(map(full))}
                sales:
                  - startDate: \(start)
                    endDate: \(end)
                    price: 0.99
                    territoryPrices: {\(map(sale))}
                localizations:
                  - {locale: en-US, name: Gems, description: A pack of gems.}

            """
    }

    /// Each of the product's manual prices as `territory start..end price` (in the territory's currency), from the
    /// fake's own state.
    static func held(_ fake: FakeAppStoreConnect) throws -> [String] {
        try LargeChangeTests.manualPrices(fake).map { "\($0.territory) \($0.start)..\($0.end) \($0.local)" }.sorted()
    }

    @Test func aSaleWithAnEndIsPushedAsAppStoreConnectHoldsItAndPulledBackUnchanged() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", try Self.catalog())
        let lint = try iapkit(["lint", "catalog", catalog])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.stdout.contains("[sale from \(Self.start) until \(Self.end)]: price (none) -> \"0.99\""), "\(plan.stdout)")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")

        // Each territory: its regular price without dates, and the sale with both; nothing restated after the end.
        let held = try Self.held(fake)
        let full = try LargeChangeTests.territoryPrices(usd: "1.99"), sale = try LargeChangeTests.territoryPrices(usd: "0.99")
        let expected =
            ["USA .. 1.99", "USA \(Self.start)..\(Self.end) 0.99"]
            + LargeChangeTests.territories.flatMap { ["\($0) .. \(full[$0]!)", "\($0) \(Self.start)..\(Self.end) \(sale[$0]!)"] }
        #expect(held == expected.sorted(), "\(held)")

        let written = try String(contentsOfFile: catalog, encoding: .utf8)
        let again = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == written, "pull after push changes nothing")
        let fresh = dir.file("pulled.yaml")
        #expect(try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", fresh], environment: fake.environment).status == 0)
        let pulled = try String(contentsOfFile: fresh, encoding: .utf8)
        #expect(pulled.contains("sales:") && pulled.contains("endDate: \(Self.end)") && !pulled.contains("priceChanges"), "\(pulled)")
        for file in [catalog, fresh] {
            let check = try iapkit(["asc", "plan", file, "--check"], environment: fake.environment)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }

        // The price sheet: the sale with its end, by hand in the USA and equalized where nothing is set by hand.
        let sheet = try iapkit(["asc", "prices", catalog, "--format", "csv"], environment: fake.environment)
        let rows = sheet.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.contains { $0[2] == "USA" && $0[4] == Self.start && $0[5] == Self.end && $0[6] == "0.99" }, "\(sheet.stdout)")
        #expect(rows.contains { $0[2] == "FRA" && $0[4] == Self.start && $0[5] == Self.end && $0[8] == "equalized" }, "\(sheet.stdout)")
    }

    /// Made on App Store Connect's web pages: a sale in the USA alone, over a product priced by hand in GBR.
    @Test func aSaleMadeInAppStoreConnectIsPulledAndPlansClean() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: Self.bundleID)
        let prices: [[String: Any]] = [
            ["territory": "USA", "usd": "1.99"], ["territory": "GBR", "usd": "2.49"],
            ["territory": "USA", "usd": "0.99", "startDate": Self.start, "endDate": Self.end],
        ]
        _ = try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": "\(Self.bundleID).gems", "name": "Gems", "inAppPurchaseType": "CONSUMABLE", "prices": prices,
                        "localizations": [["locale": "en-US", "name": "Gems", "description": "A pack of gems."]],
                    ]
                ],
            ])
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(text.contains("sales:\n  - startDate: \(Self.start)\n    endDate: \(Self.end)\n    price: 0.99\n"), "\(text)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Lint says what the web form did not: GBR stays at full price during the sale.
        let lint = try iapkit(["lint", "catalog", catalog])
        #expect(lint.stdout.contains("prices the base territory but not GBR"), "\(lint.stdout)")
    }
}
