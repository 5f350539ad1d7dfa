import IAPCatalog

/// Billing plans (App Store Connect's subscription plans): how a subscription's price is collected, and the offers
/// that belong to one plan.
struct BillingPlanRule: ProductRule {
    static let id = "billing-plan"
    static let severity = RuleSeverity.error
    static let rationale =
        "Monthly billing of a yearly subscription has App Store Connect's own rules: twelve payments, a price on the grid, no offers on the upfront plan."
    static let summary =
        "A billing plan App Store Connect would refuse: an unknown or repeated plan type, a monthly plan on anything but a yearly subscription, a missing or off-grid monthly price, a commitment that is not twelve payments, offers on the upfront plan, or a plan offer that fails the offer checks."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  billingPlans:\n    - planType: ↓quarterly"),
            Example.subscription("  billingPlans:\n    - planType: ↓monthly\n      price: 0.99"),
            Example.subscription(
                "  period: P1Y\n  price: 49.99\n  billingPlans:\n    - planType: monthly\n      price: 4.99\n      commitmentPrice: ↓49.99"),
            Example.subscription("  period: P1Y\n  price: 49.99\n  billingPlans:\n    - planType: monthly\n      price: ↓4.5"),
            Example.subscription("  billingPlans:\n    - planType: upfront\n    - planType: ↓upfront"),
            Example.subscription("  billingPlans:\n    - planType: upfront\n      ↓introductoryOffer: {mode: free-trial, duration: P1W}"),
            Example.subscription(
                "  period: P1Y\n  price: 49.99\n  billingPlans:\n    - planType: monthly\n      price: 4.99\n      introductoryOffer: {mode: free-trial, duration: ↓P5D}"
            ),
            Example.product("  ↓billingPlans:\n    - planType: upfront"),
        ],
        nonTriggering: [
            Example.subscription(
                "  period: P1Y\n  price: 49.99\n  billingPlans:\n    - planType: upfront\n    - planType: monthly\n      price: 4.99\n      commitmentPrice: 59.88\n      introductoryOffer: {mode: free-trial, duration: P1M}\n      promotionalOffers:\n        - {offerId: monthly.back, mode: pay-as-you-go, periods: 3, price: 2.99}"
            ),
            Example.subscription("  billingPlans:\n    - planType: upfront\n      enabled: false"),
        ])

    /// A monthly plan spreads a one-year commitment over twelve payments.
    static let monthlyPlanPeriod = "P1Y"

    func check(_ product: Product, in context: CatalogLintContext) {
        if !product.isSubscription, product.misplacedOfferKeys.contains("billingPlans") {
            context.report(
                Self.self,
                "billing plans exist only for auto-renewable subscriptions; "
                    + "move this product into `subscriptionGroups` or remove `billingPlans`",
                at: product.path / "billingPlans", product: product)
        }
        guard product.isSubscription, !product.billingPlans.isEmpty else { return }
        var seen = Set<BillingPlanType>()
        for plan in product.billingPlans {
            check(plan, of: product, in: context)
            if let type = plan.type, !seen.insert(type).inserted {
                context.report(
                    Self.self, "the \(type.rawValue) billing plan is listed twice; a subscription has one of each",
                    at: plan.path / "planType", product: product)
            }
        }
    }

    private func check(_ plan: BillingPlan, of product: Product, in context: CatalogLintContext) {
        func report(_ message: String, _ key: String) { context.report(Self.self, message, at: plan.path / key, product: product) }
        if let text = plan.typeText {
            report(
                Suggestions.unknownChoice(text, what: "a billing plan type", choices: BillingPlanType.allCases.map(\.rawValue)),
                "planType")
            return
        }
        guard let type = plan.type else { return }
        if type == .upfront {
            let offerKeys = [
                ("introductoryOffer", plan.introductoryOffer.map { [$0] } ?? []), ("promotionalOffers", plan.promotionalOffers),
                ("offerCodes", plan.offerCodes), ("winBackOffers", plan.winBackOffers),
            ]
            if let key = offerKeys.first(where: { !$0.1.isEmpty })?.0 {
                report("offers of the upfront plan are the subscription's own; move them out of `billingPlans`", key)
            }
        } else {
            if let period = product.period, period != Self.monthlyPlanPeriod {
                report(
                    "a monthly plan spreads a 12-month commitment over monthly payments; it needs a \(Self.monthlyPlanPeriod) "
                        + "subscription, not \(period)", "planType")
            }
            guard let payment = plan.price else {
                report("a monthly plan needs a `price`: the USD amount of each monthly payment", "planType")
                return
            }
            if payment.cents == 0 {
                report("a monthly plan cannot be free; free periods go through offers", "price")
            } else if let problem = PriceRule.gridProblem(payment, free: false) {
                report(problem, "price")
            }
        }
        if let commitment = plan.commitmentPrice, let expected = plan.defaultCommitmentPrice(of: product),
            commitment.cents != expected.cents
        {
            let payments =
                type == .monthly
                ? "\(BillingPlan.commitmentMonths) payments of $\(plan.resolvedPrice(of: product).map(\.description) ?? "")"
                : "one payment"
            report("commitment $\(commitment) is not \(payments) ($\(expected)); remove `commitmentPrice` or correct it", "commitmentPrice")
        }
        guard type == .monthly else { return }
        // Plan offers discount the monthly payment, so they are checked against a monthly subscription at that price.
        var monthly = product
        monthly.period = "P1M"
        monthly.price = plan.price
        monthly.tier = nil
        OfferIdentifiers.checkUnique(plan.promotionalOffers, of: product, rule: Self.self, in: context)
        OfferIdentifiers.checkUnique(plan.winBackOffers, of: product, rule: Self.self, in: context)
        for offer in plan.allOffers { OfferChecks.check(offer, of: monthly, rule: Self.self, in: context) }
    }
}
