import IAPCatalog

/// The app's Billing Grace Period, checked against App Store Connect's choices.
struct BillingGracePeriodRule: CatalogRule {
    static let id = "billing-grace-period"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect offers only a few durations and renewal choices for the grace period."
    static let summary = "A Billing Grace Period whose duration or renewals is not one App Store Connect offers."
    static let examples = RuleExamples(
        triggering: [
            Example.catalog("billingGracePeriod:\n  enabled: true\n  duration: ↓P7D\n"),
            Example.catalog("billingGracePeriod:\n  enabled: true\n  renewals: ↓some\n"),
        ],
        nonTriggering: [Example.catalog("billingGracePeriod:\n  enabled: true\n  sandbox: true\n  duration: P16D\n  renewals: paid-to-paid\n")])

    func check(_ context: CatalogLintContext) {
        guard let grace = context.catalog.billingGracePeriod else { return }
        if let duration = grace.duration, !BillingGracePeriod.durations.contains(duration) {
            context.report(
                Self.self, "a Billing Grace Period of `\(duration)` is not one App Store Connect offers; use P3D, P16D or P28D",
                at: grace.path / "duration")
        }
        if let renewals = grace.renewals, !BillingGracePeriod.renewalChoices.contains(renewals) {
            context.report(
                Self.self, "`renewals: \(renewals)` is not a choice; use `all` or `paid-to-paid` (not when a free trial ends)",
                at: grace.path / "renewals")
        }
    }
}

/// The products the App Store shows on the app's page: each a product of the catalog, once, at most 20.
struct PromotedPurchaseRule: CatalogRule {
    static let id = "promoted-purchase"
    static let severity = RuleSeverity.error
    static let rationale = "A promoted purchase shows a product on the App Store page; it must exist, once, and App Store Connect shows at most 20."
    static let summary = "A promoted purchase that names no product of the catalog, names one twice, or more than 20 of them."
    static let examples = RuleExamples(
        triggering: [
            Example.product("") + "promotedPurchases:\n  - productId: ↓com.example.app.two\n",
            Example.product("") + "promotedPurchases:\n  - productId: com.example.app.one\n  - productId: ↓com.example.app.one\n",
        ],
        nonTriggering: [Example.product("") + "promotedPurchases:\n  - productId: com.example.app.one\n    visible: false\n"])

    func check(_ context: CatalogLintContext) {
        guard let promoted = context.catalog.promotedPurchases else { return }
        let known = Set(context.catalog.allProducts.compactMap(\.productID))
        var seen = Set<String>()
        for entry in promoted {
            guard let id = entry.productID else { continue }
            if !known.contains(id) {
                context.report(Self.self, "`\(id)` is promoted but is no product of the catalog", at: entry.path / "productId")
            } else if !seen.insert(id).inserted {
                context.report(Self.self, "`\(id)` is promoted twice; App Store Connect promotes a product once", at: entry.path / "productId")
            }
        }
        if promoted.count > PromotedPurchase.maximumCount, let first = promoted.dropFirst(PromotedPurchase.maximumCount).first {
            context.report(
                Self.self, "\(promoted.count) promoted purchases; App Store Connect promotes at most \(PromotedPurchase.maximumCount)",
                at: first.path)
        }
    }
}
