import IAPCatalog

struct FamilySharingRule: ProductRule {
    static let id = "family-sharing"
    static let severity = RuleSeverity.error
    static let rationale =
        "Family Sharing can only be turned on for non-consumables and auto-renewable subscriptions, and once on it cannot be turned off."
    static let summary = "`familySharable: true` on a consumable or a non-renewing subscription."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  familySharable: ↓true", type: "consumable"),
            Example.product("  familySharable: ↓true", type: "non-renewing-subscription"),
        ],
        nonTriggering: [Example.product("  familySharable: true"), Example.subscription("  familySharable: true")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.familySharable == true, product.type == .consumable || product.type == .nonRenewingSubscription else { return }
        context.report(
            Self.self,
            "family sharing is only for non-consumables and auto-renewable subscriptions; "
                + "remove `familySharable` from this \(product.type!.rawValue)",
            at: product.path / "familySharable", product: product)
    }
}
