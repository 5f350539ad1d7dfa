import IAPCatalog
import IAPCore

/// One localization list of the catalog: a product's or a group's, with its owner for messages.
struct LocalizationList {
    var localizations: [Localization]
    var ownerPath: CatalogPath
    var productID: String?
    var groupName: String?
    var isGroup: Bool

    init(_ product: Product) {
        (localizations, ownerPath, productID, groupName, isGroup) = (product.localizations, product.path, product.productID, nil, false)
    }

    init(_ group: SubscriptionGroup) {
        (localizations, ownerPath, productID, groupName, isGroup) = (group.localizations, group.path, nil, group.referenceName, true)
    }

    /// Who the list belongs to, for messages (made only when one is reported).
    var owner: String {
        isGroup ? "group `\(groupName ?? ownerPath.description)`" : productID.map { "`\($0)`" } ?? ownerPath.description
    }

    var path: CatalogPath { ownerPath / "localizations" }
}

/// A rule over every localization list: each product's in the shared pass, then each group's.
protocol LocalizationListRule: ProductRule {
    mutating func check(_ list: LocalizationList, in context: CatalogLintContext)
}

extension LocalizationListRule {
    mutating func check(_ product: Product, in context: CatalogLintContext) { check(LocalizationList(product), in: context) }

    mutating func finish(_ context: CatalogLintContext) {
        for group in context.catalog.subscriptionGroups { check(LocalizationList(group), in: context) }
    }
}

struct LocalizationMissingRule: LocalizationListRule {
    static let id = "localization-missing"
    static let severity = RuleSeverity(.error, "warning when there are none")
    static let rationale =
        "App Store Connect shows the primary locale's texts where there is no translation; without any the product stays in Missing Metadata."
    static let summary =
        "A product or group has no localizations (a warning: App Store Connect keeps it in Missing Metadata, and it cannot be submitted), or none for `app.primaryLocale`."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  ↓localizations:\n    - locale: fr-FR\n      name: Un\n      description: Le premier."),
            Example.product("  ↓localizations: []"),
        ],
        nonTriggering: [Example.product("")])

    private var primary: String?

    mutating func start(_ context: CatalogLintContext) { primary = context.catalog.app.primaryLocale }

    func check(_ list: LocalizationList, in context: CatalogLintContext) {
        if list.localizations.isEmpty {
            context.report(
                Self.self, .warning,
                "\(list.owner) has no localizations: App Store Connect keeps it in Missing Metadata "
                    + "and it cannot be submitted; add one for \(primary ?? "the primary locale")",
                at: list.path, productID: list.productID)
        } else if let primary, !list.localizations.contains(where: { $0.locale == primary }) {
            context.report(
                Self.self, "\(list.owner) has no localization for the primary locale \(primary)",
                at: list.path, productID: list.productID)
        }
    }
}

struct LocaleRule: LocalizationListRule {
    static let id = "locale"
    static let severity = RuleSeverity(.error, "warning for 2026 codes")
    static let rationale = "App Store Connect takes only its own list of locales, each once."
    static let summary = "A locale App Store Connect does not accept, or a locale listed twice."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  localizations:\n    - locale: ↓en_US\n      name: One\n      description: The first thing."),
            Example.product(
                "  localizations:\n    - locale: en-US\n      name: One\n      description: First.\n"
                    + "    - locale: ↓en-US\n      name: Uno\n      description: Primero."),
        ],
        nonTriggering: [
            Example.product(
                "  localizations:\n    - locale: en-US\n      name: One\n      description: First.\n"
                    + "    - locale: no\n      name: En\n      description: Den første.")
        ])

    func start(_ context: CatalogLintContext) {
        if let primary = context.catalog.app.primaryLocale, let message = AppStoreTexts.localeProblem(primary) {
            context.report(Self.self, message, at: CatalogPath.root / "app" / "primaryLocale")
        }
    }

    /// Locales already found acceptable, and not provisional: a catalog uses a handful, and comparing with them is
    /// cheaper than looking each one up in the code tables again.
    private var accepted: [String] = []

    mutating func check(_ list: LocalizationList, in context: CatalogLintContext) {
        for index in list.localizations.indices {
            guard let locale = list.localizations[index].locale else { continue }
            // Made only for a finding: most locales are fine.
            var path: CatalogPath { list.localizations[index].path / "locale" }
            if !accepted.contains(locale) {
                if let message = AppStoreTexts.localeProblem(locale) {
                    context.report(Self.self, message, at: path, productID: list.productID)
                } else if ReferenceData.provisionalLocales.contains(locale) {
                    // No problem means App Store Connect's list has the locale.
                    context.report(
                        Self.self, .warning,
                        "`\(locale)` was added to App Store Connect in 2026; check that it is "
                            + "accepted for in-app purchase localizations before you upload", at: path, productID: list.productID)
                } else if accepted.count < Self.acceptedLimit {
                    accepted.append(locale)
                }
            }
            // Lists are short: looking back is cheaper than a set per list.
            if list.localizations[..<index].contains(where: { $0.locale == locale }) {
                context.report(Self.self, "\(list.owner) lists locale \(locale) twice; keep one", at: path, productID: list.productID)
            }
        }
    }

    /// Past this many, a locale not yet seen is looked up as before.
    static let acceptedLimit = 16
}

struct DisplayNameRule: LocalizationListRule {
    static let id = "display-name"
    static let severity = RuleSeverity.error
    static let rationale =
        "The display name is what customers see in the App Store and in your app's purchase sheet; App Store Connect limits it to 35 characters."
    static let summary = "A localized display name is empty or over 35 characters (counted as characters, not bytes)."
    static let maximumLength = AppStoreTexts.displayNameLimit
    static let examples = RuleExamples(
        triggering: [
            Example.product("  localizations:\n    - locale: en-US\n      name: ↓\(String(repeating: "é", count: 36))\n      description: First."),
            Example.product("  localizations:\n    - locale: en-US\n      name: ↓\"\"\n      description: First."),
        ],
        nonTriggering: [
            Example.product("  localizations:\n    - locale: en-US\n      name: \(String(repeating: "é", count: 35))\n      description: First.")
        ])

    func check(_ list: LocalizationList, in context: CatalogLintContext) {
        guard !list.isGroup else { return }
        for localization in list.localizations {
            guard let name = localization.name else { continue }
            if name.isBlank {
                context.report(
                    Self.self, "the \(localization.locale ?? "") display name of \(list.owner) is empty",
                    at: localization.path / "name", productID: list.productID)
            } else if AppStoreTexts.exceeds(name, limit: Self.maximumLength) {
                context.report(
                    Self.self,
                    "display name \"\(name)\" has \(name.count) characters; App Store Connect allows "
                        + "at most \(Self.maximumLength)", at: localization.path / "name", productID: list.productID)
            }
        }
    }
}

struct DescriptionRule: LocalizationListRule {
    static let id = "description"
    static let severity = RuleSeverity(.error, "warning when missing")
    static let rationale = "App Store Connect limits the description to 55 characters and requires one before submission."
    static let summary =
        "A localized description is empty or missing (a warning: App Store Connect takes the text without one but requires one before submission), or over 55 characters."
    static let maximumLength = AppStoreTexts.descriptionLimit
    static let examples = RuleExamples(
        triggering: [
            Example.product("  localizations:\n    - ↓locale: en-US\n      name: One"),
            Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: ↓\(String(repeating: "d", count: 56))"),
        ],
        nonTriggering: [
            Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: \(String(repeating: "d", count: 55))")
        ])

    func check(_ list: LocalizationList, in context: CatalogLintContext) {
        guard !list.isGroup else { return }
        for localization in list.localizations {
            guard let description = localization.description, !description.isBlank else {
                context.report(
                    Self.self, .warning,
                    "the \(localization.locale ?? "") localization of \(list.owner) has no description; "
                        + "App Store Connect requires one before submission", at: localization.path, productID: list.productID)
                continue
            }
            if AppStoreTexts.exceeds(description, limit: Self.maximumLength) {
                context.report(
                    Self.self,
                    "description has \(description.count) characters; App Store Connect allows at most "
                        + "\(Self.maximumLength)", at: localization.path / "description", productID: list.productID)
            }
        }
    }
}
