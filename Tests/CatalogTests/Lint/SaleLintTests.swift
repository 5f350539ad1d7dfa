import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// What lint says about sales: a subscription's prices have no end (its discounts are offers), and a sale of the
/// base price alone leaves the territories priced by hand at full price.
@Suite struct SaleLintTests {
    let messages = TerritoryPriceMessageTests()

    @Test func aSaleOnASubscriptionIsRefusedPointingAtOffers() throws {
        let found = try messages.lint(Example.subscription("  sales:\n    - startDate: 2099-01-15\n      endDate: 2099-01-17\n      price: 0.99"))
        let sale = found.filter { $0.ruleID == "sale" }
        #expect(sale.count == 1 && sale[0].severity == .error, "\(found.map(\.message))")
        #expect(sale.first?.message.contains("a temporary discount is an offer") == true, "\(sale.map(\.message))")
        #expect(!found.contains { $0.ruleID == "schema" }, "not an unknown key: \(found.map(\.message))")
    }

    @Test func aSaleOfTheBasePriceAloneWarnsOfTheTerritoriesPricedByHand() throws {
        let found = try messages.messages(
            Example.product(
                "  price: 1.99\n  territoryPrices: {GBR: 1.99, JPN: 300}\n  sales:\n    - startDate: 2099-01-15\n      endDate: 2099-01-17\n      price: 0.99\n      territoryPrices: {JPN: 150}"
            ), rule: "sale")
        #expect(
            found == [
                "the sale from 2099-01-15 until 2099-01-17 prices the base territory but not GBR, which is priced by hand and "
                    + "stays at full price during it; give it a sale price in the sale's `territoryPrices`"
            ], "\(found)")
    }

    @Test(arguments: [
        ("      endDate: 2099-01-10\n      price: 0.99", "the sale ends on 2099-01-10, not after it starts (2099-01-15)"),
        ("      endDate: 2099-01-17\n      price: 0.98", "$0.98 is not a USD price point; the nearest are $0.95 and $0.99"),
        ("      endDate: 2099-01-17", "the sale from 2099-01-15 until 2099-01-17 names no price"),
        ("      endDate: 2099-02-30\n      price: 0.99", "`2099-02-30` is not a date"),
    ])
    func aSaleThatCannotBeIsAnError(body: String, message: String) throws {
        let found = try messages.lint(Example.product("  price: 1.99\n  sales:\n    - startDate: 2099-01-15\n" + body, type: "consumable"))
            .filter { $0.ruleID == "sale" }
        #expect(found.contains { $0.severity == .error && $0.message.hasPrefix(message) }, "\(found.map(\.message))")
    }

    @Test func overlappingSalesAreAnErrorAndAnEndedOneAWarning() throws {
        let found = try messages.lint(
            Example.product(
                "  price: 1.99\n  sales:\n    - {startDate: 2099-01-15, endDate: 2099-01-20, price: 0.99}\n    - {startDate: 2099-01-18, endDate: 2099-01-25, price: 0.99}\n    - {startDate: 2020-01-01, endDate: 2020-01-05, price: 0.99}"
            )
        ).filter { $0.ruleID == "sale" }
        #expect(
            found.contains { $0.severity == .error && $0.message.contains("overlaps the sale from 2099-01-15 until 2099-01-20") },
            "\(found.map(\.message))")
        #expect(
            found.contains { $0.severity == .warning && $0.message.hasPrefix("the sale from 2020-01-01 until 2020-01-05 has ended") },
            "\(found.map(\.message))")
    }
}
