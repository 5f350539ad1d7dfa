import IAPCore

public enum OfferMode: String, Sendable, Hashable, CaseIterable {
    case freeTrial = "free-trial"
    case payAsYouGo = "pay-as-you-go"
    case payUpFront = "pay-up-front"
}

public enum OfferKind: String, Sendable, Hashable {
    case introductory = "introductory offer"
    case promotional = "promotional offer"
    case offerCode = "offer code"
    case winBack = "win-back offer"
}

/// Customers an offer code is for: a subscription's (new, existing, expired subscribers) or an in-app purchase's
/// (customers who never paid in the app, who pay, who stopped paying).
public enum OfferEligibility: String, Sendable, Hashable, CaseIterable {
    case new, existing, expired
    case nonSpender = "non-spender", activeSpender = "active-spender", churnedSpender = "churned-spender"

    public static let subscriptionCustomers: [OfferEligibility] = [.new, .existing, .expired]
    public static let inAppPurchaseCustomers: [OfferEligibility] = [.nonSpender, .activeSpender, .churnedSpender]

    /// App Store Connect's spelling: `NEW`, `NON_SPENDER`.
    public var apiValue: String { rawValue.uppercased().replacingAll("-", with: "_") }

    public init?(apiValue: String) { self.init(rawValue: apiValue.lowercased().replacingAll("_", with: "-")) }
}

/// An introductory, promotional, offer-code or win-back offer on an auto-renewable subscription, or an offer code on
/// an in-app purchase (a price and the customers it is for).
public struct Offer: Sendable, Hashable {
    public var path: CatalogPath
    public var kind: OfferKind
    public var mode: OfferMode?
    /// The `mode` text as written, kept when it names no offer mode.
    public var modeText: String?
    /// ISO 8601 duration of a free trial or a pay-up-front offer: P3D P1W P2W P1M P2M P3M P6M P1Y.
    public var duration: String?
    /// Pay-as-you-go: how many discounted periods of the subscription's own length.
    public var periods: Int?
    public var price: Price?
    /// Paid offers: prices in territories' own currencies instead of the equalized `price`.
    public var territoryPrices: [TerritoryPrice] = []
    /// The territories the offer is set in, when not every territory the product is priced in (introductory offers)
    /// or sold in (the other offers); a territory whose price is `0` in `territoryPrices` has the offer for free.
    public var territories: [String]?
    /// Promotional and win-back offers.
    public var offerID: String?
    public var referenceName: String?
    /// Offer codes only; on an in-app purchase, absent means every customer.
    public var eligibility: [OfferEligibility]?
    public var stackable: Bool?
    /// Win-back offers only: who is eligible, how the App Store shows the offer, and when it runs.
    public var winBack: WinBackSettings {
        get { winBackStorage.first ?? WinBackSettings() }
        set { winBackStorage = newValue.isEmpty ? [] : [newValue] }
    }
    /// Out of line (an array is one pointer): every product carries an introductory offer's worth of `Offer`, and
    /// most offers are not win-back offers.
    private var winBackStorage: [WinBackSettings] = []
    /// Offer codes only: false deactivates the offer code (App Store Connect cannot turn it back on).
    public var active: Bool?
    /// Offer codes only: batches of one-time-use codes, and custom codes customers type in. Nil (the key absent)
    /// leaves App Store Connect's as they are; a list, even empty, is the whole of them.
    public var oneTimeCodes: [OneTimeCodeBatch]?
    public var customCodes: [CustomOfferCode]?

    public init(
        path: CatalogPath, kind: OfferKind, mode: OfferMode? = nil, duration: String? = nil,
        periods: Int? = nil, price: Price? = nil, offerID: String? = nil, referenceName: String? = nil,
        eligibility: [OfferEligibility]? = nil, stackable: Bool? = nil
    ) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.duration = duration
        self.periods = periods
        self.price = price
        self.offerID = offerID
        self.referenceName = referenceName
        self.eligibility = eligibility
        self.stackable = stackable
    }
}

/// Where a batch of one-time-use codes can be redeemed: by customers (`production`, App Store Connect's default when
/// a request names none) or by testers' sandbox accounts only (`sandbox`, outside the quarter's quota).
public enum CodeEnvironment: String, Sendable, Hashable, CaseIterable {
    case production, sandbox

    /// App Store Connect's spelling: `PRODUCTION`, `SANDBOX`.
    public var apiValue: String { rawValue.uppercased() }
}

/// A batch of one-time-use codes of an offer code: how many, until when, for which environment. App Store Connect
/// makes the codes; `iapkit asc offer-codes download` writes them to a file. A batch has no name: the catalog's
/// batches are matched with App Store Connect's by count, expiration date and environment.
public struct OneTimeCodeBatch: Sendable, Hashable {
    public var path: CatalogPath
    public var count: Int?
    /// `YYYY-MM-DD`, as written.
    public var expires: String?
    /// False deactivates the batch's codes.
    public var active: Bool?
    /// Absent: production, as App Store Connect makes a batch whose request names no environment.
    public var environment: CodeEnvironment?
    /// The `environment` text as written, kept when it names no environment.
    public var environmentText: String?
    public init(
        path: CatalogPath, count: Int? = nil, expires: String? = nil, active: Bool? = nil,
        environment: CodeEnvironment? = nil
    ) {
        self.path = path
        self.count = count
        self.expires = expires
        self.active = active
        self.environment = environment
    }
}

/// A custom code of an offer code (`SPRING2027`): one code many customers redeem, up to `count` times.
public struct CustomOfferCode: Sendable, Hashable {
    public var path: CatalogPath
    public var code: String?
    /// How many redemptions.
    public var count: Int?
    /// `YYYY-MM-DD`, as written; none when absent.
    public var expires: String?
    public var active: Bool?
    public init(path: CatalogPath, code: String? = nil, count: Int? = nil, expires: String? = nil, active: Bool? = nil) {
        self.path = path
        self.code = code
        self.count = count
        self.expires = expires
        self.active = active
    }
}

/// What a win-back offer's owner can change after it exists (App Store Connect fixes the terms: mode, duration,
/// periods, prices). Absent values take App Store Connect's usual choices (`WinBackSettings.defaults`).
public struct WinBackSettings: Sendable, Hashable {
    /// Months the customer must have paid for the subscription (`eligibility.paidMonths`).
    public var paidMonths: Int?
    /// The range of months since the subscription lapsed (`eligibility.lapsedMonths: {min, max}`).
    public var lapsedMinimum: Int?
    public var lapsedMaximum: Int?
    /// Months a customer waits after redeeming a win-back offer before the next (`eligibility.monthsBetweenOffers`).
    public var monthsBetweenOffers: Int?
    /// `high` or `normal`, as written.
    public var priority: String?
    /// `app-store` (the App Store shows it with generated assets) or `none`, as written.
    public var promotion: String?
    /// `YYYY-MM-DD`, as written: the first and last day of the offer.
    public var startDate: String?
    public var endDate: String?

    public init() {}

    public var isEmpty: Bool { self == WinBackSettings() }

    public static let priorities = ["high", "normal"]
    public static let promotions = ["app-store", "none"]
    /// App Store Connect's choices of months: paid at least, lapsed between, and waited between offers.
    public static let paidMonths = Array(1...24) + [36, 48, 60]
    public static let lapsedMonths = 1...24
    public static let monthsBetweenOffers = 2...24
    /// An offer runs at least this many days, its first and last day counted.
    public static let minimumDays = 3
}

/// How a subscription's price is collected (App Store Connect's `planType`): the whole period up front, or monthly
/// payments for a 12-month commitment.
public enum BillingPlanType: String, Sendable, Hashable, CaseIterable {
    case upfront
    case monthly
}

/// One billing plan of an auto-renewable subscription. Absent prices take their defaults: an upfront plan costs the
/// subscription's price, and a plan commits to one period (upfront) or twelve payments (monthly).
public struct BillingPlan: Sendable, Hashable {
    public var path: CatalogPath
    public var type: BillingPlanType?
    /// The `planType` text as written, kept when it names no plan type (the `billing-plan` rule reports it).
    public var typeText: String?
    /// What each payment costs: the monthly payment of a monthly plan, the period's price of an upfront plan.
    public var price: Price?
    /// What the customer commits to in total.
    public var commitmentPrice: Price?
    /// The plan's own prices in territories' currencies (each payment), and its scheduled changes.
    public var territoryPrices: [TerritoryPrice] = []
    public var priceChanges: [PriceChange] = []
    public var enabled: Bool?
    /// Offers for this plan only; the subscription's own offers are those of its upfront plan.
    public var introductoryOffer: Offer?
    public var promotionalOffers: [Offer]
    public var offerCodes: [Offer]
    public var winBackOffers: [Offer]

    /// Months a monthly plan commits the customer to.
    public static let commitmentMonths = 12

    public init(
        path: CatalogPath, type: BillingPlanType? = nil, price: Price? = nil, commitmentPrice: Price? = nil,
        enabled: Bool? = nil, introductoryOffer: Offer? = nil, promotionalOffers: [Offer] = [],
        offerCodes: [Offer] = [], winBackOffers: [Offer] = []
    ) {
        self.path = path
        self.type = type
        self.price = price
        self.commitmentPrice = commitmentPrice
        self.enabled = enabled
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
    }

    /// Every offer of the plan, introductory first.
    public var allOffers: [Offer] {
        (introductoryOffer.map { [$0] } ?? []) + promotionalOffers + offerCodes + winBackOffers
    }

    /// The price of each payment, the subscription's own price standing in for an upfront plan's.
    public func resolvedPrice(of subscription: Product) -> Price? {
        if let price { return price }
        guard type == .upfront else { return nil }
        return subscription.price ?? subscription.resolvedPriceCents.map(Price.init(cents:))
    }

    /// The commitment when none is written: one payment upfront, twelve monthly payments.
    public func defaultCommitmentPrice(of subscription: Product) -> Price? {
        guard let payment = resolvedPrice(of: subscription) else { return nil }
        guard type == .monthly else { return payment }
        return payment.cents.map { Price(cents: $0 * Self.commitmentMonths) }
    }
}
