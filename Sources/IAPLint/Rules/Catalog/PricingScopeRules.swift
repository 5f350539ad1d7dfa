import IAPCatalog
import IAPCore

struct BaseTerritoryRule: ProductRule {
    static let id = "base-territory"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect computes the other territories' prices from the base territory's; a base territory without its own price leaves nothing to compute from."
    static let summary =
        "An in-app purchase's `baseTerritory` that is no App Store territory, that stands beside a USD `price`, or whose own price is missing from `territoryPrices`."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  price: ~\n  baseTerritory: ↓FR\n  territoryPrices: {FRA: 1.99}"),
            Example.product("  baseTerritory: ↓FRA\n  territoryPrices: {DEU: 1.99}"),
            Example.product("  baseTerritory: ↓FRA\n  territoryPrices: {FRA: 1.99}"),
        ],
        nonTriggering: [Example.product("  price: ~\n  baseTerritory: FRA\n  territoryPrices: {FRA: 1.99, DEU: 2.49}")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let base = product.baseTerritory else { return }
        let at = product.path / "baseTerritory"
        guard Storefronts.isTerritory(base) else {
            var message = "`\(base)` is not an App Store territory; use ISO 3166-1 alpha-3 codes such as FRA, JPN"
            if let suggestion = Suggestions.nearest(to: base.uppercased(), in: Storefronts.codes) { message += "; did you mean `\(suggestion)`?" }
            context.report(Self.self, message, at: at, product: product)
            return
        }
        if base != Storefronts.base, product.price != nil || product.tier != nil {
            context.report(
                Self.self,
                "\(product.productID ?? "the product") is priced from \(base), so it has no USD `price`; its price "
                    + "is `territoryPrices.\(base)`", at: at, product: product)
        }
        if base != Storefronts.base, !product.territoryPrices.contains(where: { $0.territory == base }) {
            context.report(Self.self, "give the price in \(base), the base territory: `territoryPrices: {\(base): …}`", at: at, product: product)
        }
    }
}

struct PricedTerritoriesRule: ProductRule {
    static let id = "priced-territories"
    static let severity = RuleSeverity.error
    static let rationale =
        "A subscription's prices are set territory by territory; a list that leaves out a priced territory would remove the price it sets."
    static let summary =
        "A subscription's `pricedTerritories` naming a code that is no App Store territory, or leaving out a territory it gives a price."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  pricedTerritories: [USA, ↓FR]"),
            Example.subscription("  pricedTerritories: [USA, FRA]\n  territoryPrices: {IND: ↓399}"),
        ],
        nonTriggering: [
            Example.subscription("  pricedTerritories: all\n  availability:\n    territories: [USA]"),
            Example.subscription("  pricedTerritories: [USA, IND]\n  territoryPrices: {IND: 399}"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard case let .only(list)? = product.pricedTerritories else { return }
        for (index, code) in list.enumerated() where !Storefronts.isTerritory(code) {
            context.report(
                Self.self, "`\(code)` is not an App Store territory", at: (product.path / "pricedTerritories").index(index), product: product)
        }
        let listed = Set(list)
        for entry in product.territoryPrices where !listed.contains(entry.territory) && Storefronts.isTerritory(entry.territory) {
            context.report(Self.self, "\(entry.territory) has a price but is not in `pricedTerritories`", at: entry.path, product: product)
        }
    }
}
