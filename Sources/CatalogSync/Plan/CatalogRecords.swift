import IAPCatalog
import IAPCore

/// The catalog as App Store Connect sees it, one record per resource, in App Store Connect's vocabulary.
///
/// Both sides of a sync are records: `CatalogRecords(catalog:)` is what the reviewed file asks for, and
/// `StoreSnapshot` reads the same records (with their ids) from App Store Connect. The planner compares the two;
/// `pull` turns store records back into a catalog. One shape for both keeps "pull, push, plan shows no change" true.
public struct CatalogRecords: Sendable, Equatable {
    public var inAppPurchases: [ProductRecord]
    public var groups: [GroupRecord]
    /// The catalog's asset packs, with their content digests (see `AssetPackRecord.desired`).
    public var assetPacks: [AssetPackRecord] = []
    /// The app's Billing Grace Period; nil when the catalog leaves it alone.
    public var gracePeriod: GracePeriodRecord?
    /// The products the App Store shows on the app's page, in order; nil when the catalog leaves them alone.
    public var promotedPurchases: [PromotedRecord]?

    public init(inAppPurchases: [ProductRecord] = [], groups: [GroupRecord] = []) {
        self.inAppPurchases = inAppPurchases
        self.groups = groups
    }

    /// Every product, in-app purchases first, then each group's subscriptions.
    public var allProducts: [ProductRecord] { inAppPurchases + groups.flatMap(\.subscriptions) }
}

/// An in-app purchase (consumable, non-consumable, non-renewing subscription) or an auto-renewable subscription.
public struct ProductRecord: Sendable, Equatable {
    public var productID: String
    public var referenceName: String
    public var type: ProductType
    public var familySharable: Bool
    public var reviewNote: String?
    public var localizations: [LocalizationRecord]
    public var availability: AvailabilityRecord?
    /// False when the catalog names no `availability` (it then means everywhere): where App Store Connect did not
    /// answer one, plan shows `?` rather than write the default. Not compared.
    @Uncompared public var availabilityDeclared = true
    /// USD customer price in cents in the base territory (USA).
    public var priceCents: Int?
    /// In-app purchases priced from another territory than the USA: that territory (its price is a territory price).
    public var baseTerritory: String?
    /// Today's prices in territories' own currencies that differ from equalization: territory → canonical price.
    public var territoryPrices: [String: String] = [:]
    /// Scheduled changes, by date.
    public var priceChanges: [PriceChangeRecord] = []
    /// In-app purchases: sales that have not ended, by start.
    public var sales: [SaleRecord] = []
    /// Read from App Store Connect: what each territory pays today, equalized or not.
    @Uncompared public var currentPrices: [String: String] = [:]
    public var screenshot: ScreenshotRecord?
    /// The promotional image, compared by content like the screenshot.
    public var image: ScreenshotRecord?
    // Auto-renewable subscriptions only.
    /// The subscription's own attributes (period, level, …), which the subscription kind reads, compares and sends.
    public var subscription = SubscriptionAttributes()
    /// Territories that have a price (subscriptions are priced in every available territory).
    public var pricedTerritories: [String]?
    public var introductoryOffer: OfferRecord?
    /// Territories the introductory offer is set for.
    public var introductoryOfferTerritories: [String]?
    public var promotionalOffers: [OfferRecord]
    public var offerCodes: [OfferRecord]
    public var winBackOffers: [OfferRecord]
    /// Subscriptions that list billing plans: prices and offers name the plan (`UPFRONT`) they belong to.
    @Uncompared public var namesPlans = false
    /// The monthly plan (monthly payments for a 12-month commitment), when the catalog enables one.
    public var monthlyPlan: MonthlyPlanRecord?
    /// Where the product sits in the catalog (catalog side only), for messages.
    @Uncompared public var path: CatalogPath? = nil

    public init(
        productID: String, referenceName: String, type: ProductType, familySharable: Bool = false,
        reviewNote: String? = nil, localizations: [LocalizationRecord] = [], availability: AvailabilityRecord? = nil,
        priceCents: Int? = nil, screenshot: ScreenshotRecord? = nil, period: String? = nil, groupLevel: Int? = nil,
        pricedTerritories: [String]? = nil, introductoryOffer: OfferRecord? = nil,
        introductoryOfferTerritories: [String]? = nil, promotionalOffers: [OfferRecord] = [],
        offerCodes: [OfferRecord] = [], winBackOffers: [OfferRecord] = [], path: CatalogPath? = nil
    ) {
        self.productID = productID
        self.referenceName = referenceName
        self.type = type
        self.familySharable = familySharable
        self.reviewNote = reviewNote
        self.localizations = localizations
        self.availability = availability
        self.priceCents = priceCents
        self.screenshot = screenshot
        self.subscription = SubscriptionAttributes(period: period, groupLevel: groupLevel)
        self.pricedTerritories = pricedTerritories
        self.introductoryOffer = introductoryOffer
        self.introductoryOfferTerritories = introductoryOfferTerritories
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
        self.path = path
    }

    public var isSubscription: Bool { type == .autoRenewableSubscription }
}

/// A subscription's monthly billing plan: its own availability, price of each payment and offers.
public struct MonthlyPlanRecord: Sendable, Equatable {
    public var availability: AvailabilityRecord?
    /// USD price of each monthly payment.
    public var priceCents: Int?
    public var pricedTerritories: [String]?
    public var introductoryOffer: OfferRecord?
    public var introductoryOfferTerritories: [String]?
    public var promotionalOffers: [OfferRecord]
    public var territoryPrices: [String: String] = [:]
    public var priceChanges: [PriceChangeRecord] = []
    /// Read from App Store Connect: what each territory pays today.
    @Uncompared public var currentPrices: [String: String] = [:]

    public init(
        availability: AvailabilityRecord? = nil, priceCents: Int? = nil, pricedTerritories: [String]? = nil,
        introductoryOffer: OfferRecord? = nil, introductoryOfferTerritories: [String]? = nil,
        promotionalOffers: [OfferRecord] = []
    ) {
        self.availability = availability
        self.priceCents = priceCents
        self.pricedTerritories = pricedTerritories
        self.introductoryOffer = introductoryOffer
        self.introductoryOfferTerritories = introductoryOfferTerritories
        self.promotionalOffers = promotionalOffers
    }

}

/// A subscription group with its localizations and subscriptions.
public struct GroupRecord: Sendable, Equatable {
    public var referenceName: String
    public var localizations: [LocalizationRecord]
    public var subscriptions: [ProductRecord]
    @Uncompared public var path: CatalogPath? = nil

    public init(
        referenceName: String, localizations: [LocalizationRecord] = [], subscriptions: [ProductRecord] = [],
        path: CatalogPath? = nil
    ) {
        self.referenceName = referenceName
        self.localizations = localizations
        self.subscriptions = subscriptions
        self.path = path
    }

}
