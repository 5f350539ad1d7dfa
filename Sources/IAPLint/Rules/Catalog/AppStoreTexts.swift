import IAPCatalog

/// App Store Connect's limits on the texts of a localization and its list of locales, as lint checks them, for the
/// commands that take texts from elsewhere (`localizations import`) and must hold them to the same rules.
public enum AppStoreTexts {
    /// The localized texts App Store Connect limits.
    public enum Field: String, Sendable, CaseIterable {
        case name, description, customAppName
    }

    public static let displayNameLimit = 35
    public static let descriptionLimit = 55
    public static let groupNameLimit = 75
    public static let customAppNameLimit = 30

    /// The most characters App Store Connect takes in `field` of a product's (or, with `group`, a group's) localization.
    public static func limit(of field: Field, group: Bool) -> Int {
        switch field {
        case .name: return group ? groupNameLimit : displayNameLimit
        case .description: return descriptionLimit
        case .customAppName: return customAppNameLimit
        }
    }

    /// The length App Store Connect counts: characters as a reader sees them (an accented letter or an emoji is one),
    /// never bytes.
    public static func length(of text: String) -> Int { text.count }

    /// Whether `text` is over `limit`; the byte count settles most texts without counting characters.
    public static func exceeds(_ text: String, limit: Int) -> Bool {
        text.utf8.count > limit && text.count > limit
    }

    /// Why App Store Connect refuses `locale`, with the nearest codes it takes, or nil when it takes it.
    public static func localeProblem(_ locale: String) -> String? {
        guard !LocaleCodes.isValid(locale) else { return nil }
        let suggestions = LocaleCodes.suggestions(for: locale)
        var message = "`\(locale)` is not an App Store Connect locale"
        switch suggestions.count {
        case 0: message += "; see the list of 50 codes in docs/catalog.md, Locales"
        case 1: message += "; use `\(suggestions[0])`"
        default: message += "; use one of " + suggestions.map { "`\($0)`" }.joined(separator: ", ")
        }
        return message
    }
}
