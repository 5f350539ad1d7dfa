import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// What lint says about prices, word for word where the words are the point: a territory's price is in its own
/// currency, and the message says which.
@Suite struct TerritoryPriceMessageTests {
    func lint(_ yaml: String) throws -> [Finding] {
        let dir = TemporaryDirectory()
        dir.write("shot.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]))
        let path = dir.write("catalog.yaml", yaml)
        let collector = FindingCollector()
        try CatalogLinter(threads: 1).lint(catalogAt: path, consumer: collector.consumer)
        return collector.findings
    }

    func messages(_ yaml: String, rule: String) throws -> [String] {
        try lint(yaml).filter { $0.ruleID == rule }.map(\.message)
    }

    @Test func aTerritoryPriceThatIsNoAmountNamesTheTerritorysCurrency() throws {
        let found = try messages(Example.product("  territoryPrices:\n    GBR: \"£1.99\"\n    JPN: 150円"), rule: "schema")
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("`GBR` must be an amount in GBP") && $0.contains("without its currency") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("`JPN` must be an amount in JPY") && $0.contains("a whole number") }, "\(found)")
        #expect(!found.contains { $0.contains("USD") }, "\(found)")
        // The USD price is still a USD amount.
        let usd = try messages(Example.product("  price: $0.99"), rule: "schema")
        #expect(usd.first?.hasPrefix("`price` must be a USD amount such as 0.99") == true, "\(usd)")
    }

    @Test func anOfferPricedAsTheSubscriptionNamesTheTerritorysCurrency() throws {
        let found = try messages(
            Example.subscription(
                "  price: 4.99\n  territoryPrices: {IND: 399}\n  introductoryOffer:\n    mode: pay-as-you-go\n    periods: 3\n    price: 2.99\n    territoryPrices: {IND: 399}"
            ), rule: "offer-price-change")
        #expect(found.first?.hasPrefix("the introductory offer costs 399 INR in IND") == true, "\(found)")
    }

    @Test func anIncreaseThatMovesSubscribersNamesEachTerritorysCurrency() throws {
        let found = try messages(
            Example.subscription(
                "  territoryPrices: {IND: 399}\n  priceChanges:\n    - startDate: 2099-01-15\n      territoryPrices: {IND: 499}\n      existingSubscribers: move"
            ), rule: "price-change-subscribers")
        #expect(found.first?.hasPrefix("this increase (IND INR 399 → 499) moves existing subscribers") == true, "\(found)")
    }

    @Test func decimalsAreCountedAsWritten() throws {
        let found = try messages(Example.product("  territoryPrices:\n    KOR: 13.50\n    BRA: 14.905"), rule: "territory-price-decimals")
        #expect(found.contains("KOR prices in KRW, which the App Store writes in whole numbers; `13.50` has 2"), "\(found)")
        #expect(found.contains("BRA prices in BRL, which the App Store writes in at most 2 decimals; `14.905` has 3"), "\(found)")
    }

    @Test func aPriceBelowTheLowestPointNamesItAndNeverOffersFreeToAProductThatCannotBeFree() throws {
        let consumable = try messages(Example.product("  price: 0.10", type: "consumable"), rule: "price")
        #expect(consumable == ["$0.10 is below $0.29, the lowest USD price point"], "\(consumable)")
        let subscription = try messages(
            Example.subscription("  priceChanges:\n    - startDate: 2099-01-15\n      price: 0.05\n      existingSubscribers: keep"),
            rule: "price")
        #expect(subscription == ["$0.05 is below $0.29, the lowest USD price point"], "\(subscription)")
        // A non-consumable may be free: free is named, beside the lowest, never as the nearest price.
        let nonConsumable = try messages(Example.product("  price: 0.10"), rule: "price")
        #expect(nonConsumable == ["$0.10 is below $0.29, the lowest USD price point (0 is free)"], "\(nonConsumable)")
        let between = try messages(Example.product("  price: 0.98", type: "consumable"), rule: "price")
        #expect(between == ["$0.98 is not a USD price point; the nearest are $0.95 and $0.99"], "\(between)")
    }

    @Test func aPriceFarFromItsEqualizationIsAWarningWhereTheOfflineDataKnowsIt() throws {
        let findings = try lint(Example.product("  price: 2.99\n  territoryPrices:\n    ARG: 999\n    ISL: 0.49\n    KEN: 3.49\n    IND: 9999"))
            .filter { $0.ruleID == "territory-price-equalization" }
        #expect(findings.allSatisfy { $0.severity == .warning })
        #expect(
            findings.map(\.message) == [
                "ARG's price, 999 USD, is over three times what App Store Connect's equalization of the base price gives there "
                    + "(about 2.99 USD: ARG is priced in USD, as the base price is); check the amount, or remove it to take the equalized price",
                "ISL's price, 0.49 USD, is under a third of what App Store Connect's equalization of the base price gives there "
                    + "(about 2.99 USD: ISL is priced in USD, as the base price is); check the amount, or remove it to take the equalized price",
            ], "KEN is close to 2.99; IND prices in rupees, which the offline data cannot equalize: \(findings.map(\.message))")
        // A scheduled change is checked against the base price in force from its day.
        let changed = try messages(
            Example.product(
                "  price: 2.99\n  territoryPrices: {ARG: 3.49}\n  priceChanges:\n    - startDate: 2099-01-15\n      price: 19.99\n      territoryPrices: {ARG: 3.99}"
            ), rule: "territory-price-equalization")
        #expect(changed.count == 1 && changed[0].hasPrefix("ARG's price from 2099-01-15, 3.99 USD, is under a third"), "\(changed)")
        #expect(changed.first?.contains("about 19.99 USD") == true, "\(changed)")
        // From another base territory, in the base territory's currency.
        let euro = try messages(
            Example.product("  price: ~\n  baseTerritory: FRA\n  territoryPrices: {FRA: 1.99, DEU: 19.99, ARG: 99}"),
            rule: "territory-price-equalization")
        #expect(euro.count == 1 && euro[0].hasPrefix("DEU's price, 19.99 EUR, is over three times") && euro[0].contains("about 1.99 EUR"), "\(euro)")
    }
}
