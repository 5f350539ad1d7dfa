import IAPCatalog

struct ReferenceNameRule: ProductRule {
    static let id = "reference-name"
    static let severity = RuleSeverity.error
    static let rationale = "The reference name is how App Store Connect lists and finds a product; it must be set, short and unique."
    static let summary = "A reference name is missing, over 64 characters, or used twice."
    static let maximumLength = 64
    static let examples = RuleExamples(
        triggering: [
            Example.product("  referenceName: ↓\(String(repeating: "n", count: 65))"),
            Example.catalog(
                """
                products:
                  - {productId: com.example.app.one, referenceName: Same, type: consumable, price: 0.99}
                  - {productId: com.example.app.two, referenceName: ↓Same, type: consumable, price: 0.99}
                """),
        ],
        nonTriggering: [Example.product("  referenceName: \(String(repeating: "n", count: 64))")])

    /// The first product with each reference name, as its ID (or path when it has none).
    private var seen: [String: String] = [:]

    mutating func start(_ context: CatalogLintContext) { seen.reserveCapacity(context.allProducts.count) }

    mutating func check(_ product: Product, in context: CatalogLintContext) {
        guard let name = product.referenceName?.trimmingWhitespace, !name.isEmpty else {
            context.report(
                Self.self,
                "\(product.productID.map { "`\($0)`" } ?? "this product") has no `referenceName`; "
                    + "App Store Connect requires an internal name", at: product.path, product: product)
            return
        }
        if AppStoreTexts.exceeds(name, limit: Self.maximumLength) {
            context.report(
                Self.self,
                "reference name has \(name.count) characters; App Store Connect allows at most "
                    + "\(Self.maximumLength)", at: product.path / "referenceName", product: product)
        }
        if let first = seen[name] {
            context.report(
                Self.self,
                "reference name `\(name)` is already used by \(first); "
                    + "reference names must be unique in the app", at: product.path / "referenceName", product: product)
        } else {
            seen[name] = product.productID ?? product.path.description
        }
    }
}
