import Foundation
import IAPCatalog
import Testing

@testable import CatalogSync

/// The pure parts of `asc reprice`: rounding onto a territory's grid and the edit of the catalog's text, with the
/// grids given as App Store Connect would answer them.
@Suite
struct RepriceTests {
    static let india = ["0", "29", "39", "49", "59"]

    static func scaled(_ current: String, _ percent: Double, free: Bool = false, grid: [String] = india) -> RepricedPrice {
        RepriceGrid.scaled(current, by: 1 + percent / 100, on: RepriceGrid.points(grid, mayBeFree: free), territory: "IND", what: "\(percent)%")
    }

    @Test func aPercentageRoundsToTheNearestPointWithTiesInItsDirection() {
        // 0.99 USD + 10% is 1.089: the nearest point is 1.09.
        #expect(RepriceGrid.scaled("0.99", by: 1.1, on: RepriceGrid.usd, territory: "USA", what: "+10%") == .moved("1.09", note: nil))
        // 40 + 10% = 44, as far from 39 as from 49: an increase goes up, a decrease (55 - 20% = 44) down.
        #expect(Self.scaled("40", 10) == .moved("49", note: nil))
        #expect(Self.scaled("55", -20) == .moved("39", note: nil))
    }

    @Test func aPriceRoundingWouldKeepMovesOnePointAndSaysSo() {
        guard case let .moved(price, note) = Self.scaled("39", 10) else {
            Issue.record("not moved")
            return
        }
        #expect(price == "49")
        #expect(note == "IND: 10.0% of 39 INR rounds to 39 INR on its grid; moved one point, to 49 INR")
        // Rounding never moves a price the other way: off the grid at 40, +1% rounds to 39, so it moves up to 49.
        #expect(Self.scaled("40", 1).price == "49")
    }

    /// Only a product that may be free (a non-consumable) is ever made free; a consumable at its territory's lowest
    /// price cannot go lower.
    @Test func freeOnlyForAProductThatMayBeFree() {
        // 29 - 50% = 14.5, as far from 0 as from 29: down, to free, for a non-consumable.
        #expect(Self.scaled("29", -50, free: true) == .moved("0", note: nil))
        #expect(Self.scaled("29", -50) == .refused("IND: a move down from 29 INR passes the lowest price point there (29 INR)"))
        #expect(RepriceGrid.stepped("29", by: -1, on: RepriceGrid.points(Self.india, mayBeFree: false), territory: "IND").price == nil)
        #expect(RepriceGrid.stepped("29", by: -1, on: RepriceGrid.points(Self.india, mayBeFree: true), territory: "IND").price == "0")
    }

    @Test func stepsWalkTheGridAndStopAtItsEnds() {
        let points = RepriceGrid.points(Self.india, mayBeFree: false)
        #expect(RepriceGrid.stepped("39", by: 2, on: points, territory: "IND").price == "59")
        #expect(RepriceGrid.stepped("39", by: -1, on: points, territory: "IND").price == "29")
        // Off the grid, the first step is to the point next to the price.
        #expect(RepriceGrid.stepped("45", by: 1, on: points, territory: "IND").price == "49")
        #expect(RepriceGrid.stepped("45", by: -1, on: points, territory: "IND").price == "39")
        #expect(
            RepriceGrid.stepped("49", by: 3, on: points, territory: "IND")
                == .refused("IND: 3 points up from 49 INR passes the highest price point there (59 INR)"))
        #expect(RepriceGrid.stepped("999.99", by: 2, on: RepriceGrid.usd, territory: "USA").price == nil)
        #expect(RepriceGrid.stepped("999.99", by: 1, on: RepriceGrid.usd, territory: "USA").price == "1000")
    }

    // MARK: The edit

    static let header = "schemaVersion: 1\napp:\n  bundleId: com.example.studio\n  primaryLocale: en-US\n"
    static let grids = ["inAppPurchase|IND": india, "inAppPurchase|BRA": ["0", "4.9", "5.9", "6.9", "7.9"], "subscription|IND": india]

    static func apply(_ text: String, _ reprice: Reprice, today: Int = 20261201) throws -> Reprice.Outcome {
        try reprice.apply(to: try CatalogTextEditor(data: Data(text.utf8), file: "catalog.yaml"), grids: grids, today: today)
    }

    static func text(_ outcome: Reprice.Outcome) -> String { outcome.text.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @Test func todaysPricesChangeInPlaceAndNothingElse() throws {
        let catalog =
            Self.header + """
                products:
                  # the gem packs
                  - productId: com.example.studio.gems1
                    type: consumable
                    price: 0.99   # launch price
                    territoryPrices: {IND: 39, BRA: 4.90}
                  - productId: com.example.studio.coins
                    type: consumable
                    price: 0.99
                    territoryPrices:
                      IND: 39

                """
        let outcome = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.gems*"], move: .steps(1)))
        #expect(outcome.products == ["com.example.studio.gems1"] && outcome.values == 3 && outcome.refusals.isEmpty)
        let expected = catalog.replacingOccurrences(of: "price: 0.99   # launch", with: "price: 1.00   # launch")
            .replacingOccurrences(of: "{IND: 39, BRA: 4.90}", with: "{IND: 49, BRA: 5.90}")
        #expect(Self.text(outcome) == expected)
    }

    @Test func aLineEndingInCRLFKeepsItsLineEndings() throws {
        let catalog = (Self.header + "products:\n  - productId: com.example.studio.gems1\n    type: consumable\n    price: 0.99\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
        let outcome = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.gems1"], move: .to(cents: 199)))
        #expect(Self.text(outcome) == catalog.replacingOccurrences(of: "price: 0.99", with: "price: 1.99"))
    }

    /// `--from`: a new entry holding the base price and every hand-set territory in force that day, computed from
    /// the prices in force then; an entry of that day is updated instead.
    @Test func aDatedChangeIsAddedOrUpdatedFromThePricesInForceThatDay() throws {
        let catalog =
            Self.header + """
                products:
                  - productId: com.example.studio.gems1
                    type: consumable
                    price: 0.99
                    territoryPrices:
                      IND: 29
                      BRA: 4.90
                    priceChanges:
                      - startDate: 2027-01-15
                        territoryPrices: {IND: 39}

                """
        let added = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.gems1"], move: .steps(1), from: 20270301))
        #expect(
            Self.text(added)
                == catalog + """
                          - startDate: 2027-03-01
                            price: 1.00
                            territoryPrices:
                              BRA: 5.90
                              IND: 49

                    """)
        let updated = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.gems1"], move: .steps(1), from: 20270115))
        #expect(
            Self.text(updated)
                == catalog.replacingOccurrences(of: "{IND: 39}\n", with: "{IND: 49, BRA: 5.90}\n        price: 1.00\n"))
    }

    @Test func aSubscriptionsDatedChangeNeedsWhatExistingSubscribersPay() throws {
        let catalog =
            Self.header + """
                subscriptionGroups:
                  - referenceName: Club
                    subscriptions:
                      - productId: com.example.studio.club
                        period: P1M
                        price: 4.99

                """
        let refused = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.club"], move: .percent(10), from: 20270301))
        #expect(refused.text == nil && refused.refusals.first?.message.contains("--existing-subscribers keep") == true)
        let kept = try Self.apply(
            catalog, Reprice(patterns: ["com.example.studio.club"], move: .percent(10), from: 20270301, existingSubscribers: .keep))
        #expect(
            Self.text(kept).hasSuffix(
                "        priceChanges:\n          - startDate: 2027-03-01\n            price: 5.49\n            existingSubscribers: keep\n"))
    }

    /// A legacy `tier` is its USD price: the new price is written as `price` where the tier stood.
    @Test func aLegacyTierBecomesItsNewPriceWhereItStood() throws {
        let catalog =
            Self.header + """
                products:
                  - {productId: com.example.studio.gems2, tier: 1, type: consumable}
                  - productId: com.example.studio.gems1
                    tier: 1  # the first tier
                    type: consumable

                """
        let outcome = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.*"], move: .steps(1)))
        let next = try #require(IAPCatalog.PriceGrid.pointsCents.first { $0 > ReferenceData.legacyTierCents[1] })
        let price = "price: \(Price.format(cents: next))"
        #expect(
            Self.text(outcome)
                == catalog.replacingOccurrences(of: "tier: 1  #", with: price + "  #").replacingOccurrences(of: "tier: 1,", with: price + ","))
    }

    @Test func whatRepriceCannotEditIsRefusedAndAPatternMatchingNothingIsBadInput() throws {
        let catalog =
            Self.header + """
                products:
                  - {productId: com.example.studio.old, type: consumable, tier: 3}
                  - {productId: com.example.studio.started, type: consumable, price: 0.99, priceChanges: [{startDate: 2026-11-01, price: 1.99}]}

                """
        let outcome = try Self.apply(catalog, Reprice(patterns: ["com.example.studio.*"], move: .percent(10)))
        #expect(outcome.text == nil)
        #expect(outcome.refusals.count == 1, "a legacy tier is repriced: \(outcome.refusals)")
        #expect(outcome.refusals.map(\.message).contains { $0.hasPrefix("com.example.studio.started: its price change of 2026-11-01 has started") })
        #expect(outcome.refusals.allSatisfy { $0.location.line != nil })
        #expect(throws: (any Error).self) { try Self.apply(catalog, Reprice(patterns: ["com.example.gems.*"], move: .percent(10))) }
    }
}

extension RepricedPrice {
    var price: String? {
        if case let .moved(price, _) = self { return price }
        return nil
    }
}
