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

/// Where a product is sold: explicit territories (ISO 3166-1 alpha-3), and whether new territories are added.
public struct AvailabilityRecord: Sendable, Equatable {
    public var territories: [String]
    public var availableInNewTerritories: Bool

    public init(territories: [String], availableInNewTerritories: Bool) {
        self.territories = territories.sorted()
        self.availableInNewTerritories = availableInNewTerritories
    }

    /// Sold nowhere: what App Store Connect holds for a product whose availability was never set, and for one
    /// removed from sale. The two are one state to the catalog (`availability: {territories: []}`).
    public static let nowhere = AvailabilityRecord(territories: [], availableInNewTerritories: false)
}

/// The App Review screenshot: compared by content (MD5, as App Store Connect's `sourceFileChecksum`).
public struct ScreenshotRecord: Sendable, Equatable {
    public var fileName: String
    public var checksum: String
    /// The file on disk (catalog side only).
    public var path: String?
    public var size: Int

    public init(fileName: String, checksum: String, path: String? = nil, size: Int = 0) {
        self.fileName = fileName
        self.checksum = checksum
        self.path = path
        self.size = size
    }

    public static func == (lhs: ScreenshotRecord, rhs: ScreenshotRecord) -> Bool { lhs.checksum == rhs.checksum }
}

/// An offer on an auto-renewable subscription, in App Store Connect's terms.
public struct OfferRecord: Sendable, Equatable {
    /// `inAppPurchaseOfferCode`: an in-app purchase's offer code, whose only terms are its prices and customers.
    public enum Kind: String, Sendable { case introductory, promotional, offerCode, winBack, inAppPurchaseOfferCode }
    public var kind: Kind
    /// Promotional: `offerCode`; win-back: `offerId`; offer code: its reference name. Nil for introductory offers.
    public var identifier: String?
    public var referenceName: String?
    /// App Store Connect answered its prices without their territories or points: the price is unknown.
    public var pricesUnanswered = false
    /// FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT.
    public var mode: String
    /// THREE_DAYS … ONE_YEAR.
    public var duration: String
    public var periods: Int
    /// USD price in cents; nil for free trials.
    public var priceCents: Int?
    /// Offer codes: NEW, EXISTING, EXPIRED; an in-app purchase's: NON_SPENDER, ACTIVE_SPENDER, CHURNED_SPENDER.
    public var eligibilities: [String]?
    /// Offer codes: STACK_WITH_INTRO_OFFERS or REPLACE_INTRO_OFFERS.
    public var offerEligibility: String?
    /// The billing plan the offer is for (`UPFRONT`, `MONTHLY`) when the subscription lists billing plans.
    public var planType: String?
    /// Paid offers: territory → canonical local price, where the offer does not take the equalized price (`0`:
    /// free there).
    public var territoryPrices: [String: String] = [:]
    /// Promotional, offer-code and win-back offers: the territories the offer is set in, sorted; nil where the
    /// catalog names none (every territory the product is sold or priced in, as `plan` fills it in).
    public var territories: [String]?
    /// Win-back offers: what can change after the offer exists.
    public var winBack: WinBackRecord?
    /// Offer codes: whether active, and their one-time batches and custom codes.
    public var codes: OfferCodesRecord?

    public init(
        kind: Kind, identifier: String? = nil, referenceName: String? = nil, mode: String, duration: String,
        periods: Int, priceCents: Int? = nil, eligibilities: [String]? = nil, offerEligibility: String? = nil,
        planType: String? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.referenceName = referenceName
        self.mode = mode
        self.duration = duration
        self.periods = periods
        self.priceCents = priceCents
        self.eligibilities = eligibilities.map { $0.sorted() }
        self.offerEligibility = offerEligibility
        self.planType = planType
    }

    /// The offer without what App Store Connect lets its owner change later.
    /// The offer without its prices and territories, for kinds whose update request carries them (a promotional
    /// offer's).
    public var withoutPrices: OfferRecord {
        var offer = self
        (offer.priceCents, offer.territoryPrices, offer.territories) = (nil, [:], nil)
        return offer
    }

    /// A paid offer free in `territory`: its own price there is 0, or it takes a USD price of 0.
    public func isFree(in territory: String) -> Bool {
        if let own = territoryPrices[territory] { return own == "0" }
        return priceCents == 0
    }

    public var fixedPart: OfferRecord {
        var fixed = self
        fixed.winBack = nil
        fixed.codes = nil
        return fixed
    }

    /// The terms App Store Connect cannot change once the offer exists.
    public var terms: [String: String] {
        var fields = ["price": priceCents.map(Price.format(cents:)) ?? "free"]
        if kind != .inAppPurchaseOfferCode {
            fields["mode"] = mode
            fields["duration"] = duration
            fields["periods"] = String(periods)
        }
        if let eligibilities { fields["eligibility"] = eligibilities.joined(separator: ",") }
        if let offerEligibility { fields["offerEligibility"] = offerEligibility }
        if !territoryPrices.isEmpty {
            fields["territoryPrices"] = territoryPrices.sorted { $0.key < $1.key }
                .map { "\($0.key) \(LocalPrice.display($0.value, territory: $0.key))" }.joined(separator: ", ")
        }
        if let territories { fields["territories"] = Territories.summary(territories) }
        return fields
    }
}

/// An offer code's state beyond its terms: whether it is active, its one-time-use batches and its custom codes.
public struct OfferCodesRecord: Sendable, Equatable {
    public struct Batch: Sendable, Equatable, Comparable {
        public var count: Int
        /// `20270331`.
        public var expires: Int
        public var active: Bool
        /// Nil: App Store Connect did not answer it (never taken for production).
        public var environment: CodeEnvironment?
        public init(count: Int, expires: Int, active: Bool = true, environment: CodeEnvironment? = .production) {
            self.count = count
            self.expires = expires
            self.active = active
            self.environment = environment
        }
        public static func < (a: Batch, b: Batch) -> Bool {
            (a.expires, a.count, a.active ? 1 : 0, a.environment?.rawValue ?? "") < (
                b.expires, b.count, b.active ? 1 : 0, b.environment?.rawValue ?? ""
            )
        }
        /// The same codes, whether or not active: count, expiration and environment (an unanswered one matches any).
        public func isSameBatch(as other: Batch) -> Bool {
            count == other.count && expires == other.expires
                && (environment == nil || other.environment == nil || environment == other.environment)
        }
        public var text: String {
            "\(count) \(environment == .sandbox ? "sandbox " : "")codes until \(CalendarDay.format(expires))\(active ? "" : ", inactive")"
        }
    }

    public struct Custom: Sendable, Equatable {
        public var code: String
        public var count: Int
        public var expires: Int?
        public var active: Bool
        public init(code: String, count: Int, expires: Int? = nil, active: Bool = true) {
            self.code = code
            self.count = count
            self.expires = expires
            self.active = active
        }
        public var text: String { "\(count) redemptions\(expires.map { " until \(CalendarDay.format($0))" } ?? "")\(active ? "" : ", inactive")" }
    }

    public var active: Bool
    /// Sorted, so two records with the same batches are equal whatever order they were listed in. Nil: not managed
    /// (the catalog does not list them).
    public var batches: [Batch]?
    /// Sorted by code; nil: not managed.
    public var custom: [Custom]?

    /// An inactive offer code's batches and custom codes are inactive too: App Store Connect turns them off with it.
    public init(active: Bool = true, batches: [Batch]? = nil, custom: [Custom]? = nil) {
        self.active = active
        self.batches = batches?.map { batch in
            var batch = batch
            batch.active = batch.active && active
            return batch
        }.sorted()
        self.custom = custom?.map { code in
            var code = code
            code.active = code.active && active
            return code
        }.sorted { $0.code < $1.code }
    }

    /// The live record as far as the catalog's `wanted` manages it: lists the catalog leaves out are not compared.
    public func managed(like wanted: OfferCodesRecord?) -> OfferCodesRecord {
        var record = self
        if wanted?.batches == nil { record.batches = nil }
        if wanted?.custom == nil { record.custom = nil }
        return record
    }
}

/// A win-back offer's eligibility, priority, promotion and dates, in App Store Connect's terms.
public struct WinBackRecord: Sendable, Equatable {
    public var paidMonths: Int
    public var lapsedMinimum: Int
    public var lapsedMaximum: Int
    public var monthsBetweenOffers: Int?
    /// HIGH or NORMAL.
    public var priority: String
    /// NOT_PROMOTED or USE_AUTO_GENERATED_ASSETS.
    public var promotionIntent: String
    /// The first day (`20310501`); nil once the offer has started, or when the catalog starts it on push.
    public var startDate: Int?
    public var endDate: Int?

    /// What App Store Connect's web form starts from, and what an offer the catalog says nothing more of gets:
    /// customers who paid at least a month and lapsed 1 to 24 months ago, normal priority, not promoted.
    public init(
        paidMonths: Int = 1, lapsedMinimum: Int = 1, lapsedMaximum: Int = 24, monthsBetweenOffers: Int? = nil,
        priority: String = "NORMAL", promotionIntent: String = "NOT_PROMOTED", startDate: Int? = nil, endDate: Int? = nil
    ) {
        self.paidMonths = paidMonths
        self.lapsedMinimum = lapsedMinimum
        self.lapsedMaximum = lapsedMaximum
        self.monthsBetweenOffers = monthsBetweenOffers
        self.priority = priority
        self.promotionIntent = promotionIntent
        self.startDate = startDate
        self.endDate = endDate
    }

    /// The same record with a start on or before `today` read as started.
    public func started(by today: Int) -> WinBackRecord {
        var record = self
        if let start = startDate, start <= today { record.startDate = nil }
        return record
    }

    /// Each field as the plan shows it.
    public var fields: [String: String] {
        var fields = [
            "paidMonths": String(paidMonths), "lapsedMonths": "\(lapsedMinimum)-\(lapsedMaximum)",
            "priority": priority, "promotionIntent": promotionIntent,
            "startDate": startDate.map(CalendarDay.format) ?? "started", "endDate": endDate.map(CalendarDay.format) ?? "none",
        ]
        fields["monthsBetweenOffers"] = monthsBetweenOffers.map(String.init) ?? "none"
        return fields
    }
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
    public var availabilityDeclared = true
    /// USD customer price in cents in the base territory (USA).
    public var priceCents: Int?
    /// In-app purchases priced from another territory than the USA: that territory (its price is a territory price).
    public var baseTerritory: String?
    /// Today's prices in territories' own currencies that differ from equalization: territory → canonical price.
    public var territoryPrices: [String: String] = [:]
    /// Scheduled changes, by date.
    public var priceChanges: [PriceChangeRecord] = []
    /// Read from App Store Connect: what each territory pays today, equalized or not (not compared).
    public var currentPrices: [String: String] = [:]
    public var screenshot: ScreenshotRecord?
    /// The promotional image, compared by content like the screenshot.
    public var image: ScreenshotRecord?
    // Auto-renewable subscriptions only.
    /// ISO 8601 period: P1W P1M P2M P3M P6M P1Y.
    public var period: String?
    public var groupLevel: Int?
    /// Territories that have a price (subscriptions are priced in every available territory).
    public var pricedTerritories: [String]?
    public var introductoryOffer: OfferRecord?
    /// Territories the introductory offer is set for.
    public var introductoryOfferTerritories: [String]?
    public var promotionalOffers: [OfferRecord]
    public var offerCodes: [OfferRecord]
    public var winBackOffers: [OfferRecord]
    /// Subscriptions that list billing plans: prices and offers name the plan (`UPFRONT`) they belong to.
    public var namesPlans = false
    /// The monthly plan (monthly payments for a 12-month commitment), when the catalog enables one.
    public var monthlyPlan: MonthlyPlanRecord?
    /// Where the product sits in the catalog (catalog side only), for messages.
    public var path: CatalogPath?

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
        self.period = period
        self.groupLevel = groupLevel
        self.pricedTerritories = pricedTerritories
        self.introductoryOffer = introductoryOffer
        self.introductoryOfferTerritories = introductoryOfferTerritories
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
        self.path = path
    }

    public var isSubscription: Bool { type == .autoRenewableSubscription }

    public static func == (lhs: ProductRecord, rhs: ProductRecord) -> Bool {
        lhs.productID == rhs.productID && lhs.referenceName == rhs.referenceName && lhs.type == rhs.type
            && lhs.familySharable == rhs.familySharable && lhs.reviewNote == rhs.reviewNote
            && lhs.localizations == rhs.localizations && lhs.availability == rhs.availability
            && lhs.priceCents == rhs.priceCents && lhs.baseTerritory == rhs.baseTerritory && lhs.territoryPrices == rhs.territoryPrices
            && lhs.priceChanges == rhs.priceChanges && lhs.screenshot == rhs.screenshot && lhs.image == rhs.image && lhs.period == rhs.period
            && lhs.groupLevel == rhs.groupLevel && lhs.pricedTerritories == rhs.pricedTerritories
            && lhs.introductoryOffer == rhs.introductoryOffer
            && lhs.introductoryOfferTerritories == rhs.introductoryOfferTerritories
            && lhs.promotionalOffers == rhs.promotionalOffers && lhs.offerCodes == rhs.offerCodes
            && lhs.winBackOffers == rhs.winBackOffers && lhs.monthlyPlan == rhs.monthlyPlan
    }
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
    /// Read from App Store Connect: what each territory pays today (not compared).
    public var currentPrices: [String: String] = [:]

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

    public static func == (lhs: MonthlyPlanRecord, rhs: MonthlyPlanRecord) -> Bool {
        lhs.availability == rhs.availability && lhs.priceCents == rhs.priceCents && lhs.pricedTerritories == rhs.pricedTerritories
            && lhs.introductoryOffer == rhs.introductoryOffer && lhs.introductoryOfferTerritories == rhs.introductoryOfferTerritories
            && lhs.promotionalOffers == rhs.promotionalOffers && lhs.territoryPrices == rhs.territoryPrices
            && lhs.priceChanges == rhs.priceChanges
    }
}

/// A subscription group with its localizations and subscriptions.
public struct GroupRecord: Sendable, Equatable {
    public var referenceName: String
    public var localizations: [LocalizationRecord]
    public var subscriptions: [ProductRecord]
    public var path: CatalogPath?

    public init(
        referenceName: String, localizations: [LocalizationRecord] = [], subscriptions: [ProductRecord] = [],
        path: CatalogPath? = nil
    ) {
        self.referenceName = referenceName
        self.localizations = localizations
        self.subscriptions = subscriptions
        self.path = path
    }

    public static func == (lhs: GroupRecord, rhs: GroupRecord) -> Bool {
        lhs.referenceName == rhs.referenceName && lhs.localizations == rhs.localizations
            && lhs.subscriptions == rhs.subscriptions
    }
}
