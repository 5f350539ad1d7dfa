import IAPCatalog

/// An in-app purchase's offer codes (consumable, non-consumable, non-renewing subscription), checked as App Store
/// Connect checks them when it creates one: a name, customers, and a price in every territory the product is sold in.
struct InAppPurchaseOfferCodeRule: ProductRule {
    static let id = "iap-offer-code"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect refuses an in-app purchase offer code without these, and a code for a product sold nowhere can never be redeemed."
    static let summary =
        "An in-app purchase offer code App Store Connect would refuse: no reference name or one used twice on the product, "
        + "no eligible customers, no price, a price off the grid or not below the product's, or a product sold nowhere."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  offerCodes:\n    - ↓{price: 0.49}", type: "consumable"),
            Example.product(
                "  offerCodes:\n    - {referenceName: Launch, price: 0.49}\n    - {referenceName: ↓Launch, price: 0}", type: "consumable"),
            Example.product("  offerCodes:\n    - {referenceName: Launch, price: 0.49, ↓eligibility: []}", type: "consumable"),
            Example.product("  offerCodes:\n    - ↓{referenceName: Launch}", type: "consumable"),
            Example.product("  offerCodes:\n    - {referenceName: Launch, price: ↓0.50}", type: "consumable"),
            Example.product("  offerCodes:\n    - {referenceName: Launch, price: ↓1.99}", type: "consumable"),
            Example.product("  availability: {territories: []}\n  ↓offerCodes:\n    - {referenceName: Launch, price: 0}", type: "consumable"),
        ],
        nonTriggering: [
            Example.product(
                "  offerCodes:\n    - {referenceName: Launch, price: 0.49, eligibility: [non-spender, churned-spender]}\n"
                    + "    - {referenceName: Gift, price: 0, active: false, oneTimeCodes: [{count: 100, expires: 2031-03-31}]}", type: "consumable")
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard !product.isSubscription, !product.offerCodes.isEmpty else { return }
        if let sold = product.availability?.territories, sold.isEmpty {
            context.report(
                Self.self, "an offer code is priced in the territories the product is sold in, and this product is sold in none",
                at: product.path / "offerCodes", product: product)
        }
        var names: Set<String> = []
        for offer in product.offerCodes {
            func report(_ message: String, _ key: String? = nil) {
                context.report(Self.self, message, at: key.map { offer.path / $0 } ?? offer.path, product: product)
            }
            if let name = offer.referenceName {
                if !names.insert(name).inserted { report("offer code `\(name)` is listed twice on this product; names are unique", "referenceName") }
            } else {
                report("an offer code needs a `referenceName`: App Store Connect and iapkit know it by that name")
            }
            if let eligibility = offer.eligibility, eligibility.isEmpty {
                report(
                    "this offer code is for no one; list at least one of non-spender, active-spender, churned-spender, "
                        + "or leave `eligibility` out for every customer", "eligibility")
            }
            guard let price = offer.price else {
                if offer.territoryPrices.isEmpty {
                    report(
                        "an offer code needs a `price` (USD, 0 for free), or `territoryPrices` for every territory when the product is not sold in the USA"
                    )
                }
                continue
            }
            if let problem = PriceRule.gridProblem(price, free: true) {
                report(problem, "price")
            } else if let cents = price.cents, cents > 0, let regular = product.resolvedPriceCents, cents >= regular {
                report(
                    "offer code price $\(price) is not below the product's $\(Price(cents: regular)); an offer code is a discount, or 0 for free",
                    "price")
            }
        }
    }
}
