import IAPCatalog
import IAPCore

/// A control character in any value of the catalog: App Store Connect takes none in its texts, and XLIFF and
/// property lists (XML) cannot carry them, so lint stops what `localizations export` or `asc` would refuse later.
public struct ControlCharacterRule: CatalogRule {
    public static let id = "control-character"
    public static let severity = RuleSeverity.error
    public static let rationale =
        "App Store Connect's texts and every XML format iapkit writes (XLIFF, property lists) cannot hold these characters, so export and push would fail later, far from the line."
    public static let summary =
        "A value or key holds a control character other than tab and line breaks (NUL, escape, DEL, U+0080-U+009F) or U+FFFE/U+FFFF, which App Store Connect's texts and XML cannot hold."
    public static let examples = RuleExamples(
        triggering: [
            Example.product("  referenceName: ↓\"One\\0\""),
            Example.product("  localizations:\n    - locale: en-US\n      name: ↓\"One\\e\"\n      description: The first thing."),
        ],
        nonTriggering: [Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: \"The\\tfirst\\nthing.\"")])

    public init() {}

    public func check(_ context: CatalogLintContext) {
        for value in context.catalog.valuesWithControlCharacters() {
            let what = value.path.map { value.isKey ? "a key of `\($0)`" : "`\($0)`" } ?? "a value"
            context.emit(
                Finding(
                    ruleID: Self.id, severity: .error,
                    message: "\(what) holds the control character \(Self.name(value.scalar)); remove it: App Store "
                        + "Connect takes none in its texts, and XLIFF and property lists cannot carry it",
                    location: value.location, path: value.path?.description,
                    productID: value.path.flatMap { Self.productID(at: $0, in: context.catalog) }))
        }
    }

    /// `U+0000`.
    public static func name(_ scalar: Unicode.Scalar) -> String { "U+" + Format.hex(scalar.value, width: 4, uppercase: true) }

    /// The ID of the product or subscription `path` lies in, if any.
    private static func productID(at path: CatalogPath, in catalog: Catalog) -> String? {
        let components = path.components
        switch (components.count > 1 ? components[0] : nil, components.count > 1 ? components[1] : nil) {
        case (.key("products")?, .index(let index)?):
            return catalog.products.indices.contains(index) ? catalog.products[index].productID : nil
        case (.key("subscriptionGroups")?, .index(let group)?):
            guard components.count > 3, case .key("subscriptions") = components[2], case let .index(index) = components[3],
                catalog.subscriptionGroups.indices.contains(group),
                catalog.subscriptionGroups[group].subscriptions.indices.contains(index)
            else { return nil }
            return catalog.subscriptionGroups[group].subscriptions[index].productID
        default:
            return nil
        }
    }
}
