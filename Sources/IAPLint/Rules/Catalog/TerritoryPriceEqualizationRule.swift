import IAPCatalog
import IAPCore

/// A hand-set territory price a long way from what App Store Connect's equalization of the base price gives in that
/// territory, checked only where iapkit's offline data knows that price.
///
/// The offline data is the storefronts' currencies and the USD grid; it has no exchange rates and no other
/// territory's grid. What it does tell: a storefront priced in the base price's own currency (Argentina, Iceland,
/// Kenya and the other storefronts App Store Connect prices in US dollars, for a USD base price) is equalized to
/// about the base price itself, adjusted for its taxes by far less than the factor of three checked here. Every
/// other territory is skipped.
struct TerritoryPriceEqualizationRule: ProductRule {
    static let id = "territory-price-equalization"
    static let severity = RuleSeverity.warning
    static let rationale =
        "App Store Connect takes a hand-set price as written: one a long way from what the base price equalizes to in that territory is usually typed in another currency (a local price in a storefront that prices in US dollars) or with a digit too many."
    static let summary =
        "A hand-set territory price under a third or over three times the price App Store Connect equalizes the base price to there, where iapkit's offline data knows that price: in a storefront priced in the base price's own currency (US dollars in Argentina, Iceland, Kenya and others, for a USD base price). Other currencies are not checked: the offline data has no exchange rates."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  price: 2.99\n  territoryPrices:\n    ARG: ↓999"),
            Example.subscription(
                "  priceChanges:\n    - startDate: 2099-01-15\n      price: 5.99\n      territoryPrices: {ISL: ↓0.99}\n      existingSubscribers: keep"
            ),
            Example.subscription(
                "  introductoryOffer:\n    mode: pay-as-you-go\n    periods: 3\n    price: 2.99\n    territoryPrices: {KEN: ↓29.99}"),
        ],
        nonTriggering: [
            Example.product("  price: 2.99\n  territoryPrices:\n    ARG: 3.49\n    IND: 999\n    JPN: 450"),
            Example.product("  price: ~\n  baseTerritory: FRA\n  territoryPrices: {FRA: 1.99, DEU: 2.49, ARG: 0.99}"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.hasPricingDetail else { return }
        for schedule in product.priceSchedules {
            // A product priced from another base territory has its base price among its territory prices.
            let territory = schedule.name == nil ? product.baseTerritory ?? Storefronts.base : Storefronts.base
            func base(_ prices: [TerritoryPrice], usd: Price?) -> Price? {
                territory == Storefronts.base ? usd : prices.first { $0.territory == territory }?.price
            }
            var current = base(schedule.territoryPrices, usd: schedule.price)
            check(schedule.territoryPrices, base: current, from: territory, when: "", of: product, in: context)
            for change in schedule.changes {
                current = base(change.territoryPrices, usd: change.price) ?? current
                check(change.territoryPrices, base: current, from: territory, when: " from \(change.startDate ?? "?")", of: product, in: context)
            }
        }
        for offer in product.allOffers + product.billingPlans.flatMap(\.allOffers) {
            check(offer.territoryPrices, base: offer.price, from: Storefronts.base, when: " in the \(offer.kind.rawValue)", of: product, in: context)
        }
    }

    private func check(
        _ prices: [TerritoryPrice], base: Price?, from baseTerritory: String, when: String, of product: Product,
        in context: CatalogLintContext
    ) {
        guard let base, base.approximateCents > 0, let currency = Storefronts.currencies[baseTerritory] else { return }
        for entry in prices where entry.territory != baseTerritory && Storefronts.currencies[entry.territory] == currency {
            // A free price is chosen, not mistyped.
            guard let price = entry.price, price.approximateCents > 0 else { continue }
            let ratio = price.approximateCents / base.approximateCents
            guard ratio < 1.0 / 3 || ratio > 3 else { continue }
            context.report(
                Self.self, .warning,
                "\(entry.territory)'s price\(when), \(price.text) \(currency), is \(ratio > 3 ? "over three times" : "under a third of") "
                    + "what App Store Connect's equalization of the base price gives there (about \(base) \(currency): "
                    + "\(entry.territory) is priced in \(currency), as the base price is); check the amount, or remove it to take "
                    + "the equalized price",
                at: entry.path, productID: product.productID)
        }
    }
}
