import IAPCatalog

struct MultiSeatRule: ProductRule {
    static let id = "multiseat-family-sharing"
    static let severity = RuleSeverity.error
    static let rationale =
        "Organizations buy seats of a subscription that is not shared with a family: Apple's documentation of the "
        + "subscription update request (App Store Connect API 4.5, `multiSeatStatus`) says turning on Family Sharing "
        + "sets multiseat to disabled, so App Store Connect cannot hold both."
    static let summary = "`multiSeat: true` on a subscription with `familySharable: true`."
    static let examples = RuleExamples(
        triggering: [Example.subscription("  familySharable: true\n  multiSeat: ↓true")],
        nonTriggering: [
            Example.subscription("  familySharable: true\n  multiSeat: false"),
            Example.subscription("  multiSeat: true\n  markets: [appStore, appleBusiness]"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.multiSeat == true, product.familySharable == true else { return }
        context.report(
            Self.self,
            "a family-shared subscription cannot be sold in seats to organizations (turning Family Sharing on turns "
                + "multiseat off); remove `multiSeat: true` or `familySharable: true`",
            at: product.path / "multiSeat", product: product)
    }
}
