/// The App Store Connect resources a plan changes or a note is about, named as App Store Connect names their types
/// (singular): what plan lines, saved plans and `--format json` say. One case each, so a kind names its resource by
/// the compiler's check, not by a string that could be misspelled.
public enum ResourceName: String, Sendable, CaseIterable {
    case inAppPurchase
    case inAppPurchaseLocalization
    case inAppPurchasePriceSchedule
    case inAppPurchaseAvailability
    case inAppPurchaseAppStoreReviewScreenshot
    case inAppPurchaseImage
    case inAppPurchaseOfferCode
    case subscription
    case subscriptionLocalization
    case subscriptionPrices
    case subscriptionPlanAvailability
    case subscriptionIntroductoryOffer
    case subscriptionPromotionalOffer
    case subscriptionOfferCode
    case winBackOffer
    case subscriptionAppStoreReviewScreenshot
    case subscriptionImage
    case subscriptionGroup
    case subscriptionGroupLocalization
    case subscriptionGracePeriod
    case promotedPurchase
    /// The app's order of its promoted purchases (its `promotedPurchases` relationship).
    case promotedPurchases
    case backgroundAsset
    case backgroundAssetVersion

    /// A subscription group's own resources, which plan lines and saved plans list under the groups, not a product.
    public var isGroupResource: Bool { self == .subscriptionGroup || self == .subscriptionGroupLocalization }
}

/// The two price grids App Store Connect has: an in-app purchase's and a subscription's (every product of a kind has
/// the same points), read through a product of that kind.
public enum PriceGrid: String, Sendable, CaseIterable {
    case inAppPurchase, subscription

    /// How a plan line names products of the kind.
    public var noun: String { self == .subscription ? "subscription" : "in-app purchase" }
}
