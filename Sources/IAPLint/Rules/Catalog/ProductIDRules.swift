import IAPCatalog
import IAPCore

struct ProductIDFormatRule: ProductRule {
    static let id = "product-id-format"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect refuses the ID when the product is created, and StoreKit looks products up by exactly this string."
    static let summary = "A product ID is empty, over 100 characters, starts with a period, or has a character outside A-Z a-z 0-9 . _ -."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  productId: ↓com.example.app.one pack"), Example.product("  productId: ↓\"\""),
            Example.product("  productId: ↓../../evil"),
            Example.product("  productId: ↓com.example.app.\(String(repeating: "x", count: 90))"),
        ],
        nonTriggering: [Example.product("  productId: com.example.app.one_pack-2")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let id = product.productID, let problem = ProductIdentifier.problem(with: id) else { return }
        context.report(Self.self, problem, at: product.path / "productId", product: product)
    }
}

struct ProductIDDuplicateRule: ProductRule {
    static let id = "product-id-duplicate"
    static let severity = RuleSeverity.error
    static let rationale = "A product ID is unique per app, case aside; the second product could never be created."
    static let summary = "Two products or subscriptions share an ID (also when they differ only in case)."
    static let examples = RuleExamples(
        triggering: [
            Example.catalog(
                """
                products:
                  - {productId: com.example.app.one, referenceName: One, type: consumable, price: 0.99}
                  - {productId: ↓com.example.app.one, referenceName: Two, type: consumable, price: 0.99}
                """),
            Example.catalog(
                """
                products:
                  - {productId: com.example.app.one, referenceName: One, type: consumable, price: 0.99}
                  - {productId: ↓com.example.app.ONE, referenceName: Two, type: consumable, price: 0.99}
                """),
        ],
        nonTriggering: [
            Example.catalog(
                """
                products:
                  - {productId: com.example.app.one, referenceName: One, type: consumable, price: 0.99}
                  - {productId: com.example.app.two, referenceName: Two, type: consumable, price: 0.99}
                """)
        ])

    /// The first product with each ID as lowercased: its path and its ID as written, and any later spellings that
    /// differ from it only in case, with their own first path. One look-up per product: most IDs have one spelling.
    private var seen: [String: Spellings] = [:]

    private struct Spellings {
        var first: (path: CatalogPath, id: String)
        var others: [(path: CatalogPath, id: String)] = []
    }

    mutating func start(_ context: CatalogLintContext) { seen.reserveCapacity(context.allProducts.count) }

    mutating func check(_ product: Product, in context: CatalogLintContext) {
        guard let id = product.productID, !id.isEmpty else { return }
        let folded = Self.folded(id)
        guard var spellings = seen[folded] else {
            seen[folded] = Spellings(first: (product.path, id))
            return
        }
        if let earlier = spellings.first.id == id ? spellings.first : spellings.others.first(where: { $0.id == id }) {
            context.report(
                Self.self, "product ID `\(id)` is already used \(Self.place(earlier.path, in: context)); every ID must be unique",
                at: product.path / "productId", product: product)
            return
        }
        context.report(
            Self.self,
            "product ID `\(id)` differs only in case from `\(spellings.first.id)` \(Self.place(spellings.first.path, in: context)); "
                + "App Store Connect treats them as the same ID", at: product.path / "productId", product: product)
        spellings.others.append((product.path, id))
        seen[folded] = spellings
    }

    /// Where the first product with the ID is: its line in the catalog (`at line 12`), else its path.
    private static func place(_ path: CatalogPath, in context: CatalogLintContext) -> String {
        context.catalog.location(of: path / "productId").line.map { "at line \($0)" } ?? "by \(path)"
    }

    /// The ID lowercased; an ASCII ID without capitals (the usual kind) is its own.
    private static func folded(_ id: String) -> String {
        let plain = id.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        return plain ? id : id.lowercased()
    }
}

struct ProductIDRetiredRule: ProductRule {
    static let id = "product-id-retired"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect never lets an app reuse a product ID, even one of a deleted product; the create fails on push."
    static let summary = "A product uses an ID listed in `retiredProductIds`; App Store Connect never allows reuse."
    static let examples = RuleExamples(
        triggering: [
            Example.catalog(
                """
                retiredProductIds: [com.example.app.old]
                products:
                  - {productId: ↓com.example.app.old, referenceName: Old, type: consumable, price: 0.99}
                """)
        ],
        nonTriggering: [
            Example.catalog(
                """
                retiredProductIds: [com.example.app.old]
                products:
                  - {productId: com.example.app.new, referenceName: New, type: consumable, price: 0.99}
                """)
        ])

    private var retired: Set<String> = []

    mutating func start(_ context: CatalogLintContext) {
        retired = Set(context.catalog.retiredProductIDs.map(\.value))
    }

    func check(_ product: Product, in context: CatalogLintContext) {
        guard !retired.isEmpty, let id = product.productID, retired.contains(id) else { return }
        context.report(
            Self.self,
            "product ID `\(id)` was used before (it is in `retiredProductIds`); "
                + "App Store Connect never allows an ID again, even after deletion: choose a new one",
            at: product.path / "productId", product: product)
    }
}

struct ProductIDPrefixRule: ProductRule {
    static let id = "product-id-prefix"
    static let severity = RuleSeverity.warning
    static let rationale =
        "Reverse-DNS IDs under the bundle ID are Apple's convention and keep the IDs of several apps of one team apart; older IDs may differ on purpose."
    static let summary =
        "A product ID does not start with the app's bundle ID and a period, or the bundle ID is still the placeholder `import storekit` writes (a warning, once)."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  productId: ↓coins.small"),
            Example.catalog(
                """
                products:
                  - {productId: gems, referenceName: Gems, type: consumable, price: 0.99}
                  - {productId: coins, referenceName: Coins, type: consumable, price: 1.99}
                """
            ).replacingAll("bundleId: com.example.app", with: "bundleId: ↓\(App.placeholderBundleID)"),
        ],
        nonTriggering: [Example.product("  productId: com.example.app.coins.small")])

    private var bundleID: String?

    mutating func start(_ context: CatalogLintContext) {
        bundleID = context.catalog.app.bundleID.flatMap { $0.isEmpty ? nil : $0 }
    }

    mutating func check(_ product: Product, in context: CatalogLintContext) {
        guard let bundleID, let id = product.productID, !id.isEmpty, !(id.hasPrefix(bundleID) && id.dropFirst(bundleID.count).first == ".")
        else { return }
        if bundleID == App.placeholderBundleID {
            // One warning for the placeholder, not one per product: the IDs are checked once the app's own ID is set.
            self.bundleID = nil
            context.report(
                Self.self, .warning,
                "the bundle ID is the placeholder `\(bundleID)` (`import storekit` writes it when the product IDs share no "
                    + "prefix), so no product ID is checked against it; set `app.bundleId` to the app's bundle ID",
                at: .root / "app" / "bundleId")
            return
        }
        context.report(
            Self.self, .warning,
            "product ID `\(id)` does not start with the bundle ID `\(bundleID).`; "
                + "prefixing IDs keeps them unique across your apps",
            at: product.path / "productId", product: product)
    }
}
