import IAPCatalog
import IAPCore

struct MultiSeatRule: ProductRule {
    static let id = "multiseat-family-sharing"
    static let severity = RuleSeverity.warning
    static let rationale =
        "Organizations buy seats of a subscription that is not shared with a family: Apple's documentation of the "
        + "subscription update request (App Store Connect API 4.5, `multiSeatStatus`) says turning on Family Sharing "
        + "sets multiseat to disabled, so App Store Connect cannot be made to hold both. It may hold both already (a "
        + "subscription made so before that rule, which a pull writes as it is): lint cannot tell offline, so it warns, "
        + "and `asc plan`, which reads App Store Connect, refuses the combination unless App Store Connect already holds it."
    static let summary =
        "`multiSeat: true` on a subscription with `familySharable: true`. A warning: `asc plan` refuses it as a change, and "
        + "keeps it where App Store Connect already holds both."
    static let examples = RuleExamples(
        triggering: [Example.subscription("  familySharable: true\n  multiSeat: ↓true")],
        nonTriggering: [
            Example.subscription("  familySharable: true\n  multiSeat: false"),
            Example.subscription("  multiSeat: true\n  markets: [appStore, appleBusiness]"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.multiSeat == true, product.familySharable == true else { return }
        context.report(
            Self.self, .warning,
            "a family-shared subscription cannot be sold in seats to organizations (turning Family Sharing on turns "
                + "multiseat off): `asc plan` refuses it unless App Store Connect already holds both; remove `multiSeat: true` "
                + "or `familySharable: true`",
            at: product.path / "multiSeat", product: product)
    }
}
