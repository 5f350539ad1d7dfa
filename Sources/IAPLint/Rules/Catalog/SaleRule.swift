import IAPCatalog
import IAPCore

/// A sale: an in-app purchase's prices from one day until another, after which its regular prices apply again.
struct SaleRule: ProductRule {
    static let id = "sale"
    static let severity = RuleSeverity(.error, "warning for a sale that leaves territories priced by hand at full price, or has ended")
    static let rationale =
        "App Store Connect holds a sale as manual prices with a start and an end date; a subscription's prices have no end there, so its temporary discounts are offers. A sale of the base price alone leaves every territory priced by hand at its full price."
    static let summary =
        "A sale on a subscription (use an offer), without a valid `endDate` after its `startDate`, with no price, off the USD grid, overlapping another sale, or (warnings) ended, or pricing the base territory but not the product's hand-set territories."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  price: 1.99\n  sales:\n    - startDate: 2099-01-15\n      endDate: ↓2099-01-10\n      price: 0.99"),
            Example.product("  price: 1.99\n  sales:\n    - startDate: 2099-01-15\n      endDate: 2099-01-17\n      price: ↓0.98"),
            Example.product(
                "  price: 1.99\n  territoryPrices: {GBR: 1.99}\n  sales:\n    - ↓startDate: 2099-01-15\n      endDate: 2099-01-17\n      price: 0.99"),
            Example.subscription("  sales:\n    - ↓startDate: 2099-01-15\n      endDate: 2099-01-17\n      price: 0.99"),
        ],
        nonTriggering: [
            Example.product(
                "  price: 1.99\n  territoryPrices: {GBR: 1.99}\n  sales:\n    - startDate: 2099-01-15\n      endDate: 2099-01-17\n      price: 0.99\n      territoryPrices: {GBR: 0.99}"
            )
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let first = product.sales.first else { return }
        guard !product.isSubscription else {
            context.report(
                Self.self,
                "a subscription's prices have no end in App Store Connect: a temporary discount is an offer "
                    + "(`promotionalOffers`, `offerCodes` or `winBackOffers`), not a sale", at: first.path, product: product)
            return
        }
        let today = CalendarDay.today
        let pricedByHand = Set(product.territoryPrices.map(\.territory) + product.priceChanges.flatMap { $0.territoryPrices.map(\.territory) })
            .subtracting([product.baseTerritory ?? Storefronts.base])
        var periods: [(start: Int, end: Int, text: String)] = []
        for sale in product.sales {
            guard let period = dates(of: sale, product: product, in: context) else { continue }
            if sale.price == nil && sale.territoryPrices.isEmpty {
                context.report(
                    Self.self, "the sale \(period.text) names no price; give `price` and/or `territoryPrices`", at: sale.path, product: product)
            }
            if let price = sale.price, let message = PriceRule.gridProblem(price, free: product.mayBeFree) {
                context.report(Self.self, message, at: sale.path / "price", product: product)
            }
            if let other = periods.first(where: { $0.start < period.end && period.start < $0.end }) {
                context.report(
                    Self.self, "the sale \(period.text) overlaps the sale \(other.text); a territory has one sale at a time", at: sale.path,
                    product: product)
            }
            periods.append(period)
            if period.end <= today {
                context.report(
                    Self.self, .warning, "the sale \(period.text) has ended; remove it (App Store Connect keeps it as history)",
                    at: sale.path / "endDate", productID: product.productID)
                continue
            }
            let handSet = pricedByHand.subtracting(sale.territoryPrices.map(\.territory))
            if sale.price != nil, !handSet.isEmpty {
                context.report(
                    Self.self, .warning,
                    "the sale \(period.text) prices the base territory but not \(handSet.sorted().joined(separator: ", ")), "
                        + "which \(handSet.count == 1 ? "is priced by hand and stays" : "are priced by hand and stay") at full price during it; give "
                        + "\(handSet.count == 1 ? "it a sale price" : "them sale prices") in the sale's `territoryPrices`",
                    at: sale.path, productID: product.productID)
            }
        }
    }

    /// The sale's days, or nil after reporting what is wrong with them. A sale without a start is under way.
    private func dates(of sale: Sale, product: Product, in context: CatalogLintContext) -> (start: Int, end: Int, text: String)? {
        guard let endText = sale.endDate else { return nil }  // the loader reported the missing key
        guard let end = CalendarDay.parse(endText) else {
            context.report(
                Self.self, "`\(endText)` is not a date; write the first day back at the regular price as YYYY-MM-DD", at: sale.path / "endDate",
                product: product)
            return nil
        }
        guard let startText = sale.startDate else { return (0, end, "until \(endText)") }
        guard let start = CalendarDay.parse(startText) else {
            context.report(
                Self.self, "`\(startText)` is not a date; write the sale's first day as YYYY-MM-DD", at: sale.path / "startDate", product: product)
            return nil
        }
        guard start < end else {
            context.report(
                Self.self, "the sale ends on \(endText), not after it starts (\(startText)); `endDate` is the first day back at the regular price",
                at: sale.path / "endDate", product: product)
            return nil
        }
        return (start, end, "from \(startText) until \(endText)")
    }
}
