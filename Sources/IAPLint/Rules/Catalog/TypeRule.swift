import IAPCatalog

struct TypeRule: ProductRule {
    static let id = "type"
    static let severity = RuleSeverity.error
    static let rationale = "The type cannot be changed once the product exists, and decides which other keys apply."
    static let summary = "A product's `type` is not consumable, non-consumable or non-renewing-subscription."
    static let examples = RuleExamples(
        triggering: [Example.product("  type: ↓nonconsumable"), Example.product("  type: ↓auto-renewable-subscription")],
        nonTriggering: [Example.product("  type: consumable", type: "consumable")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let text = product.typeText else { return }
        let valid = ProductType.productTypes.map { "`\($0.rawValue)`" }.joined(separator: ", ")
        var message = "`\(text)` is not a product type; use one of \(valid)"
        if text.lowercased().contains("auto") || text.lowercased().contains("renewable-sub") && !text.contains("non") {
            message += " (auto-renewable subscriptions go in `subscriptionGroups`)"
        } else if let suggestion = Suggestions.nearest(to: text, in: ProductType.productTypes.map(\.rawValue)) {
            message += "; did you mean `\(suggestion)`?"
        }
        context.report(Self.self, message, at: product.path / "type", product: product)
    }
}
