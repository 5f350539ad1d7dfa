import IAPCatalog
import IAPCore

struct PriceRule: ProductRule {
    static let id = "price"
    static let severity = RuleSeverity(.error, "warning when missing")
    static let rationale =
        "App Store Connect takes only prices on its grid; a product without a price stays in Missing Metadata and cannot be submitted."
    static let summary =
        "A price is missing (a warning: App Store Connect keeps the product in Missing Metadata), given both as `price` and `tier`, a tier outside 0..87, or not on the USD grid."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  price: ↓0.98"), Example.product("  tier: ↓88"),
            Example.product("  tier: ↓3"), Example.product("  price: ↓1200.00"),
            Example.subscription("  price: ~\n  territoryPrices: {JPN: 400}"),
        ],
        nonTriggering: [
            Example.product("  price: 0.99"), Example.product("  price: 1.00"),
            Example.product("  tier: 87\n  price: ~"),
            Example.subscription("  price: ~\n  pricedTerritories: [JPN]\n  territoryPrices: {JPN: 400}"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        if !product.priceChanges.isEmpty || !product.billingPlans.isEmpty {
            for change in product.priceChanges + product.billingPlans.flatMap(\.priceChanges) {
                if let price = change.price, let message = Self.gridProblem(price, free: product.mayBeFree) {
                    context.report(Self.self, message, at: change.path / "price", product: product)
                }
            }
        }
        if product.price != nil && product.tier != nil {
            context.report(
                Self.self, "give either `price` or `tier`, not both; `price` (USD) is the current form",
                at: product.path / "tier", product: product)
            return
        }
        if let tier = product.tier {
            if !(0...87).contains(tier) {
                context.report(
                    Self.self, "tier \(tier) does not exist; legacy tiers run from 0 (free) to 87 ($999.99)",
                    at: product.path / "tier", product: product)
            }
            return
        }
        guard let price = product.price else {
            // Priced from another base territory, or a subscription priced only where it lists: no USD price.
            if product.baseTerritory != nil { return }
            if product.isSubscription, !product.territoryPrices.isEmpty,
                product.listedPricedTerritories.map({ Set($0).isSubset(of: product.territoryPrices.map(\.territory)) }) == true
            {
                return
            }
            if let first = product.territoryPrices.first {
                let named = product.territoryPrices.map(\.territory)
                let way =
                    product.isSubscription
                    ? "`pricedTerritories: [\(named.joined(separator: ", "))]` to price it there only"
                    : "`baseTerritory: \(first.territory)` to price it from \(first.territory)"
                context.report(
                    Self.self,
                    "\(product.productID.map { "`\($0)`" } ?? "this product") has territory prices but no USD "
                        + "price: add `price:` (USD, equalized everywhere else), or \(way)", at: product.path, product: product)
                return
            }
            context.report(
                Self.self, .warning,
                "\(product.productID.map { "`\($0)`" } ?? "this product") has no price: App Store "
                    + "Connect keeps it in Missing Metadata and it cannot be submitted; add `price:` with a USD amount on "
                    + "App Store Connect's grid, such as 0.99", at: product.path, product: product)
            return
        }
        if let message = Self.gridProblem(price, free: product.mayBeFree) {
            context.report(Self.self, message, at: product.path / "price", product: product)
        }
    }

    /// Why a USD amount is not on App Store Connect's grid, naming the nearest points, or the lowest when it is below
    /// them; nil when it is. `free`: whether 0 is a price of the product (a non-consumable's, an offer's): free is
    /// never the nearest point, only named beside the lowest.
    static func gridProblem(_ price: Price, free: Bool) -> String? {
        if let cents = price.cents, PriceGrid.isPoint(cents: cents) { return nil }
        if price.approximateCents > Double(PriceGrid.highestCents) {
            return "$\(price) is above $\(Price(cents: PriceGrid.highestCents)), the highest standard USD price point; "
                + "higher prices need Apple's approval"
        }
        if price.approximateCents < Double(PriceGrid.lowestCents) {
            return "$\(price.text) is below $\(Price(cents: PriceGrid.lowestCents)), the lowest USD price point"
                + (free ? " (0 is free)" : "")
        }
        let (below, above) = PriceGrid.neighbours(ofCents: price.approximateCents)
        let nearest = [below, above].compactMap { $0 }.map { "$\(Price(cents: $0))" }
        return "$\(price.text) is not a USD price point; the nearest are \(nearest.joined(separator: " and "))"
    }
}

extension Product {
    /// Whether App Store Connect lets the product cost nothing: a non-consumable (or a product of no known type,
    /// which `type` reports).
    var mayBeFree: Bool { type == nil || type == .nonConsumable }

    /// Where a subscription's prices are set when the catalog lists the territories (`pricedTerritories`, else the
    /// availability's), as push sets them; nil for every territory App Store Connect sells in.
    var listedPricedTerritories: [String]? {
        switch pricedTerritories {
        case .all?: return nil
        case let .only(list)?: return list
        case nil: return availability?.territories
        }
    }
}

struct PriceFreeRule: ProductRule {
    static let id = "price-free"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect offers a free price only to non-consumables."
    static let summary = "A free price on anything but a non-consumable."
    static let examples = RuleExamples(
        triggering: [Example.product("  price: ↓0", type: "consumable"), Example.subscription("  tier: ↓0\n  price: ~")],
        nonTriggering: [Example.product("  price: 0")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.type != .nonConsumable && product.type != nil, product.resolvedPriceCents == 0,
            product.price == nil || product.tier == nil
        else { return }
        let kind = product.type?.rawValue ?? "product"
        context.report(
            Self.self,
            "a \(kind) cannot be free; only non-consumables may cost $0"
                + (product.isSubscription ? " (offer a free trial instead)" : ""),
            at: product.path / (product.tier != nil ? "tier" : "price"), product: product)
    }
}
