/// The four kinds of in-app purchase. Products list the first three; subscriptions in groups are auto-renewable.
public enum ProductType: String, Sendable, Hashable, CaseIterable {
    case consumable
    case nonConsumable = "non-consumable"
    case nonRenewingSubscription = "non-renewing-subscription"
    case autoRenewableSubscription = "auto-renewable-subscription"

    /// The values a product's `type` key accepts.
    public static let productTypes: [ProductType] = [.consumable, .nonConsumable, .nonRenewingSubscription]
}

/// Where organizations can buy seats of a subscription: the App Store, Apple Business Manager, Apple School Manager.
public enum SubscriptionMarket: String, Sendable, Hashable, CaseIterable {
    case appStore, appleBusiness, appleSchool
}

/// A consumable, non-consumable, non-renewing subscription, or (inside a group) an auto-renewable subscription.
public struct Product: Sendable, Hashable {
    public var path: CatalogPath
    public var productID: String?
    public var referenceName: String?
    public var type: ProductType?
    /// The `type` text as written, kept when it names no product type (the `type` rule reports it).
    public var typeText: String?
    public var price: Price?
    public var tier: Int?
    /// Prices in territories' own currencies, overriding equalization (from `territoryPrices` and the price sheet).
    public var territoryPrices: [TerritoryPrice] = []
    /// A CSV file of territory prices beside the catalog (`territory,price,startDate`), as written.
    public var priceSheet: String?
    /// Scheduled changes, in file order (price-sheet rows with a start date join the change of that date).
    public var priceChanges: [PriceChange] = []
    /// In-app purchases: prices with an end, after which the regular schedule applies again.
    public var sales: [Sale] = []
    public var familySharable: Bool?
    public var localizations: [Localization]
    public var review: Review?
    /// The image the App Store shows with the product (promoted purchases, win-back offers): a 1024×1024 PNG or JPEG
    /// without transparency, relative to the catalog, as written.
    public var promotionalImage: String?
    public var hostedContent: String?
    /// Where the product is sold; every territory (and new ones) when absent.
    public var availability: Availability?
    /// In-app purchases: the territory App Store Connect equalizes from, when it is not the USA. Its price is then
    /// the territory price of that territory, and `price` (USD) is absent.
    public var baseTerritory: String?
    /// Auto-renewable subscriptions: where the subscription has prices, when that is not where it is sold (the web
    /// form prices every territory): a list of codes, or `all`.
    public var pricedTerritories: PricedTerritories?
    // Auto-renewable subscriptions only.
    public var groupIndex: Int?
    public var period: String?
    public var groupLevel: Int?
    /// Whether organizations can buy seats of the subscription (App Store Connect's multiseat status), and the
    /// markets it is offered in for that; absent leaves App Store Connect's setting as it is.
    public var multiSeat: Bool?
    public var markets: [SubscriptionMarket]?
    public var introductoryOffer: Offer?
    public var promotionalOffers: [Offer]
    public var offerCodes: [Offer]
    public var winBackOffers: [Offer]
    public var billingPlans: [BillingPlan] = []
    /// Offer keys written on a product that is not an auto-renewable subscription.
    public var misplacedOfferKeys: [String] = []

    public init(
        path: CatalogPath, productID: String? = nil, referenceName: String? = nil, type: ProductType? = nil,
        price: Price? = nil, tier: Int? = nil, familySharable: Bool? = nil, localizations: [Localization] = [],
        review: Review? = nil, hostedContent: String? = nil, groupIndex: Int? = nil, period: String? = nil,
        groupLevel: Int? = nil, introductoryOffer: Offer? = nil, promotionalOffers: [Offer] = [],
        offerCodes: [Offer] = [], winBackOffers: [Offer] = []
    ) {
        self.path = path
        self.productID = productID
        self.referenceName = referenceName
        self.type = type
        self.price = price
        self.tier = tier
        self.familySharable = familySharable
        self.localizations = localizations
        self.review = review
        self.hostedContent = hostedContent
        self.groupIndex = groupIndex
        self.period = period
        self.groupLevel = groupLevel
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
    }

    public var isSubscription: Bool { type == .autoRenewableSubscription }

    /// The USD price in cents, from `price` or from a legacy `tier`.
    public var resolvedPriceCents: Int? {
        if let cents = price?.cents { return cents }
        if let tier, ReferenceData.legacyTierCents.indices.contains(tier) { return ReferenceData.legacyTierCents[tier] }
        return nil
    }

    /// Every offer of the subscription, introductory first.
    public var allOffers: [Offer] {
        (introductoryOffer.map { [$0] } ?? []) + promotionalOffers + offerCodes + winBackOffers
    }
}

public struct Localization: Sendable, Hashable {
    public var path: CatalogPath
    public var locale: String?
    public var name: String?
    public var description: String?
    /// Subscription-group localizations only.
    public var customAppName: String?

    public init(
        path: CatalogPath, locale: String? = nil, name: String? = nil, description: String? = nil,
        customAppName: String? = nil
    ) {
        self.path = path
        self.locale = locale
        self.name = name
        self.description = description
        self.customAppName = customAppName
    }
}

public struct Review: Sendable, Hashable {
    public var path: CatalogPath
    public var note: String?
    public var screenshot: String?
    public init(path: CatalogPath, note: String? = nil, screenshot: String? = nil) {
        self.path = path
        self.note = note
        self.screenshot = screenshot
    }
}

/// The territories a product is sold in, for `iapkit asc push`.
public struct Availability: Sendable, Hashable {
    public var path: CatalogPath
    /// ISO 3166-1 alpha-3 codes (`USA`, `FRA`); every territory when absent.
    public var territories: [String]?
    /// Whether App Store Connect adds territories it opens later; true when `territories` is absent.
    public var availableInNewTerritories: Bool?
    public init(path: CatalogPath, territories: [String]? = nil, availableInNewTerritories: Bool? = nil) {
        self.path = path
        self.territories = territories
        self.availableInNewTerritories = availableInNewTerritories
    }
}

public struct SubscriptionGroup: Sendable, Hashable {
    public var path: CatalogPath
    public var referenceName: String?
    public var localizations: [Localization]
    public var subscriptions: [Product]
    public init(
        path: CatalogPath, referenceName: String? = nil, localizations: [Localization] = [],
        subscriptions: [Product] = []
    ) {
        self.path = path
        self.referenceName = referenceName
        self.localizations = localizations
        self.subscriptions = subscriptions
    }
}
