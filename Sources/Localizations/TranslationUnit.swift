import IAPCatalog
import IAPCore
import IAPLint

/// One text translators translate: a product's or a subscription group's display name, description or custom app
/// name, in the catalog's primary locale, with what the catalog already holds in other locales.
public struct TranslationUnit: Sendable {
    /// Stable across exports: `PRODUCT_ID/name`, `PRODUCT_ID/description`, `subscriptionGroup/REFERENCE_NAME/name`,
    /// `subscriptionGroup/REFERENCE_NAME/customAppName`.
    public var id: String
    public var field: AppStoreTexts.Field
    public var source: String
    /// The most characters App Store Connect takes.
    public var limit: Int
    /// For the translator: what the text belongs to (reference name, type, price, review note) and its limit.
    public var context: String
    /// Locale to text, as the catalog holds them.
    public var translations: [String: String]
    /// The owner's `localizations` list in the catalog, and the index of each locale's entry in it.
    public var localizationsPath: CatalogPath
    public var entries: [String: Int]
    public var isGroup: Bool
}

/// The texts of a catalog that translators work on, in catalog order: products, then each group and its
/// subscriptions.
public struct TranslationSet: Sendable {
    public var primaryLocale: String
    public var units: [TranslationUnit]
    private var positions: [String: Int] = [:]

    public static let groupPrefix = "subscriptionGroup/"

    /// Every text of `catalog` written in its primary locale; texts with no primary-locale source are left out
    /// (lint's `localization-missing` reports them).
    public init(_ catalog: Catalog) throws(IAPKitError) {
        guard let primary = catalog.app.primaryLocale, !primary.isEmpty else {
            throw .invalidArgument("\(catalog.file): `app.primaryLocale` is not set; translations start from the primary locale")
        }
        primaryLocale = primary
        units = []
        func add(
            owner: String, localizations: [Localization], path: CatalogPath, fields: [AppStoreTexts.Field],
            isGroup: Bool, context: String
        ) {
            var entries: [String: Int] = [:]
            for (index, localization) in localizations.enumerated() {
                if let locale = localization.locale, entries[locale] == nil { entries[locale] = index }
            }
            guard let primaryIndex = entries[primary] else { return }
            for field in fields {
                guard let source = Self.text(localizations[primaryIndex], field), !source.isBlank else { continue }
                var translations: [String: String] = [:]
                for (locale, index) in entries where locale != primary {
                    if let text = Self.text(localizations[index], field) { translations[locale] = text }
                }
                let limit = AppStoreTexts.limit(of: field, group: isGroup)
                units.append(
                    TranslationUnit(
                        id: owner + "/" + field.rawValue, field: field, source: source, limit: limit,
                        context: context + " " + Self.describe(field, group: isGroup) + ", at most \(limit) characters.",
                        translations: translations, localizationsPath: path / "localizations", entries: entries, isGroup: isGroup))
            }
        }
        for product in catalog.products {
            guard let id = product.productID else { continue }
            add(
                owner: id, localizations: product.localizations, path: product.path, fields: [.name, .description],
                isGroup: false, context: Self.context(product, group: nil))
        }
        for group in catalog.subscriptionGroups {
            if let name = group.referenceName {
                add(
                    owner: Self.groupPrefix + name, localizations: group.localizations, path: group.path,
                    fields: [.name, .customAppName], isGroup: true, context: "Subscription group \(name).")
            }
            for subscription in group.subscriptions {
                guard let id = subscription.productID else { continue }
                add(
                    owner: id, localizations: subscription.localizations, path: subscription.path, fields: [.name, .description],
                    isGroup: false, context: Self.context(subscription, group: group.referenceName))
            }
        }
        for (position, unit) in units.enumerated() where positions[unit.id] == nil { positions[unit.id] = position }
    }

    /// The locales the catalog already has translations in, sorted.
    public var translatedLocales: [String] {
        Array(Set(units.flatMap(\.translations.keys))).sorted()
    }

    public func unit(id: String) -> TranslationUnit? { positions[id].map { units[$0] } }

    static func text(_ localization: Localization, _ field: AppStoreTexts.Field) -> String? {
        switch field {
        case .name: return localization.name
        case .description: return localization.description
        case .customAppName: return localization.customAppName
        }
    }

    private static func describe(_ field: AppStoreTexts.Field, group: Bool) -> String {
        switch field {
        case .name: return group ? "The group's name as subscribers see it" : "The display name on the App Store"
        case .description: return "The description on the App Store"
        case .customAppName: return "The app name shown with the group's subscriptions"
        }
    }

    private static func context(_ product: Product, group: String?) -> String {
        var parts: [String] = []
        if let type = product.type ?? (group != nil ? .autoRenewableSubscription : nil) { parts.append(type.rawValue) }
        if let period = product.period { parts.append("renews every \(period)") }
        if let group { parts.append("in the group \(group)") }
        if let cents = product.resolvedPriceCents { parts.append(cents == 0 ? "free" : "USD " + Price.format(cents: cents)) }
        var text = (product.referenceName ?? product.productID ?? "") + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")") + "."
        if let note = product.review?.note, !note.isBlank { text += " Review note: " + note }
        return text
    }
}
