import IAPCatalog

/// Every localization list of the catalog: each product's and each group's, with its owner for messages.
struct LocalizationList {
    var owner: String
    var path: CatalogPath
    var localizations: [Localization]
    var product: Product?
    var isGroup: Bool

    static func all(in catalog: Catalog, products: [Product]) -> [LocalizationList] {
        products.map {
            LocalizationList(owner: $0.productID.map { "`\($0)`" } ?? $0.path.description, path: $0.path / "localizations",
                             localizations: $0.localizations, product: $0, isGroup: false)
        } + catalog.subscriptionGroups.map {
            LocalizationList(owner: "group `\($0.referenceName ?? $0.path.description)`", path: $0.path / "localizations",
                             localizations: $0.localizations, product: nil, isGroup: true)
        }
    }
}

struct LocalizationMissingRule: CatalogRule {
    static let id = "localization-missing"
    static let summary = "A product or group has no localizations, or none for `app.primaryLocale`."
    static let examples = RuleExamples(
        triggering: [Example.product("  ↓localizations:\n    - locale: fr-FR\n      name: Un\n      description: Le premier."),
                     Example.product("  ↓localizations: []")],
        nonTriggering: [Example.product("")])

    func check(_ context: CatalogLintContext) {
        let primary = context.catalog.app.primaryLocale
        for list in context.localizationLists {
            if list.localizations.isEmpty {
                context.report(Self.self, "\(list.owner) has no localizations; add one for \(primary ?? "the primary locale")",
                               at: list.path, product: list.product)
            } else if let primary, !list.localizations.contains(where: { $0.locale == primary }) {
                context.report(Self.self, "\(list.owner) has no localization for the primary locale \(primary)",
                               at: list.path, product: list.product)
            }
        }
    }
}

struct LocaleRule: CatalogRule {
    static let id = "locale"
    static let summary = "A locale App Store Connect does not accept, or a locale listed twice."
    static let examples = RuleExamples(
        triggering: [Example.product("  localizations:\n    - locale: ↓en_US\n      name: One\n      description: The first thing."),
                     Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: First.\n"
                                     + "    - locale: ↓en-US\n      name: Uno\n      description: Primero.")],
        nonTriggering: [Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: First.\n"
                                        + "    - locale: no\n      name: En\n      description: Den første.")])

    func check(_ context: CatalogLintContext) {
        if let primary = context.catalog.app.primaryLocale, let message = Self.problem(with: primary) {
            context.report(Self.self, message, at: CatalogPath.root / "app" / "primaryLocale")
        }
        for list in context.localizationLists {
            var seen = Set<String>()
            for localization in list.localizations {
                guard let locale = localization.locale else { continue }
                let path = localization.path / "locale"
                if let message = Self.problem(with: locale) {
                    context.report(Self.self, message, at: path, product: list.product)
                } else if LocaleCodes.isValid(locale), ReferenceData.provisionalLocales.contains(locale) {
                    context.report(Self.self, .warning, "`\(locale)` was added to App Store Connect in 2026; check that it is "
                                       + "accepted for in-app purchase localizations before you upload", at: path, product: list.product)
                }
                if !seen.insert(locale).inserted {
                    context.report(Self.self, "\(list.owner) lists locale \(locale) twice; keep one", at: path, product: list.product)
                }
            }
        }
    }

    static func problem(with locale: String) -> String? {
        guard !LocaleCodes.isValid(locale) else { return nil }
        let suggestions = LocaleCodes.suggestions(for: locale)
        var message = "`\(locale)` is not an App Store Connect locale"
        switch suggestions.count {
        case 0: message += "; see the list of 50 codes in iapkit's README"
        case 1: message += "; use `\(suggestions[0])`"
        default: message += "; use one of " + suggestions.map { "`\($0)`" }.joined(separator: ", ")
        }
        return message
    }
}

struct DisplayNameRule: CatalogRule {
    static let id = "display-name"
    static let summary = "A localized display name is empty or over 35 characters (counted as characters, not bytes)."
    static let maximumLength = 35
    static let examples = RuleExamples(
        triggering: [Example.product("  localizations:\n    - locale: en-US\n      name: ↓\(String(repeating: "é", count: 36))\n      description: First."),
                     Example.product("  localizations:\n    - locale: en-US\n      name: ↓\"\"\n      description: First.")],
        nonTriggering: [Example.product("  localizations:\n    - locale: en-US\n      name: \(String(repeating: "é", count: 35))\n      description: First.")])

    func check(_ context: CatalogLintContext) {
        for list in context.localizationLists where !list.isGroup {
            for localization in list.localizations {
                guard let name = localization.name else { continue }
                let path = localization.path / "name"
                if name.trimmingCharacters(in: .whitespaces).isEmpty {
                    context.report(Self.self, "the \(localization.locale ?? "") display name of \(list.owner) is empty",
                                   at: path, product: list.product)
                } else if name.count > Self.maximumLength {
                    context.report(Self.self, "display name \"\(name)\" has \(name.count) characters; App Store Connect allows "
                                       + "at most \(Self.maximumLength)", at: path, product: list.product)
                }
            }
        }
    }
}

struct DescriptionRule: CatalogRule {
    static let id = "description"
    static let summary = "A localized description is empty, missing, or over 55 characters."
    static let maximumLength = 55
    static let examples = RuleExamples(
        triggering: [Example.product("  localizations:\n    - ↓locale: en-US\n      name: One"),
                     Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: ↓\(String(repeating: "d", count: 56))")],
        nonTriggering: [Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: \(String(repeating: "d", count: 55))")])

    func check(_ context: CatalogLintContext) {
        for list in context.localizationLists where !list.isGroup {
            for localization in list.localizations {
                guard let description = localization.description, !description.trimmingCharacters(in: .whitespaces).isEmpty else {
                    context.report(Self.self, "the \(localization.locale ?? "") localization of \(list.owner) has no description; "
                                       + "App Store Connect requires one before submission", at: localization.path, product: list.product)
                    continue
                }
                if description.count > Self.maximumLength {
                    context.report(Self.self, "description has \(description.count) characters; App Store Connect allows at most "
                                       + "\(Self.maximumLength)", at: localization.path / "description", product: list.product)
                }
            }
        }
    }
}
