import IAPCatalog

/// The catalog's words and App Store Connect's, in one place (reference README section 3).
public enum Vocabulary {
    static let durations: [(iso: String, api: String)] = [
        ("P3D", "THREE_DAYS"), ("P1W", "ONE_WEEK"), ("P2W", "TWO_WEEKS"), ("P1M", "ONE_MONTH"), ("P2M", "TWO_MONTHS"),
        ("P3M", "THREE_MONTHS"), ("P6M", "SIX_MONTHS"), ("P1Y", "ONE_YEAR"),
    ]

    /// `P1M` -> `ONE_MONTH`.
    public static func apiDuration(_ iso: String) -> String? { durations.first { $0.iso == iso }?.api }
    /// `ONE_MONTH` -> `P1M`.
    public static func isoDuration(_ api: String) -> String? { durations.first { $0.api == api }?.iso }

    static let offerModes: [(catalog: OfferMode, api: String)] = [
        (.freeTrial, "FREE_TRIAL"), (.payAsYouGo, "PAY_AS_YOU_GO"), (.payUpFront, "PAY_UP_FRONT"),
    ]
    public static func apiOfferMode(_ mode: OfferMode) -> String { offerModes.first { $0.catalog == mode }!.api }
    public static func offerMode(api: String) -> OfferMode? { offerModes.first { $0.api == api }?.catalog }

    static let productTypes: [(catalog: ProductType, api: String)] = [
        (.consumable, "CONSUMABLE"), (.nonConsumable, "NON_CONSUMABLE"),
        (.nonRenewingSubscription, "NON_RENEWING_SUBSCRIPTION"),
    ]
    public static func apiProductType(_ type: ProductType) -> String? { productTypes.first { $0.catalog == type }?.api }
    public static func productType(api: String) -> ProductType? { productTypes.first { $0.api == api }?.catalog }

    /// The territory whose price the catalog gives; App Store Connect equalizes the rest from it.
    public static let baseTerritory = "USA"

    /// Duration, mode and period count as the API wants them: a trial or up-front offer is one period of its
    /// duration; pay-as-you-go is N periods of the subscription's own length.
    public static func terms(of offer: Offer, subscriptionPeriod: String?) -> (duration: String, mode: String, periods: Int)? {
        switch offer.mode {
        case .freeTrial?: return offer.duration.flatMap(apiDuration).map { ($0, "FREE_TRIAL", 1) }
        case .payUpFront?: return offer.duration.flatMap(apiDuration).map { ($0, "PAY_UP_FRONT", 1) }
        case .payAsYouGo?: return subscriptionPeriod.flatMap(apiDuration).map { ($0, "PAY_AS_YOU_GO", offer.periods ?? 1) }
        case nil: return nil
        }
    }
}
