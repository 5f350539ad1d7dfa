import IAPCatalog
import IAPCore

/// A localization of a product, a subscription or a group.
public struct LocalizationRecord: Sendable, Equatable {
    public var locale: String
    public var name: String
    /// Products and subscriptions.
    public var description: String?
    /// Subscription groups.
    public var customAppName: String?
    /// Where the catalog lists it among its owner's localizations (records are sorted by locale), for plan lines.
    public var position: Int?

    public init(locale: String, name: String, description: String? = nil, customAppName: String? = nil, position: Int? = nil) {
        self.locale = locale
        self.name = name
        self.description = description
        self.customAppName = customAppName
        self.position = position
    }

    /// The texts alone: where the catalog lists a localization is no difference.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.locale == rhs.locale && lhs.name == rhs.name && lhs.description == rhs.description && lhs.customAppName == rhs.customAppName
    }
}
