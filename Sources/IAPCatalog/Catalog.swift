import IAPCore

/// A catalog as loaded from `catalog.yaml`. Values the file did not give, or gave with the wrong type, are nil;
/// the loader has already reported those as `schema` findings, and the rules check the rest.
public struct Catalog: Sendable {
    public static let supportedSchemaVersions = [1]

    /// The file the catalog came from, as given by the user.
    public var file: String
    public var schemaVersion: Int?
    public var app: App
    public var retiredProductIDs: [Located<String>]
    public var products: [Product]
    public var subscriptionGroups: [SubscriptionGroup]
    public var appPolicies: AppPolicies?
    public var storeKit: StoreKitSettings?

    /// The YAML the catalog was read from, kept to turn a `CatalogPath` into a line and column only when a
    /// finding needs one.
    var document: YAMLDocument?

    public init(file: String, schemaVersion: Int? = 1, app: App = App(), retiredProductIDs: [Located<String>] = [],
                products: [Product] = [], subscriptionGroups: [SubscriptionGroup] = [],
                appPolicies: AppPolicies? = nil, storeKit: StoreKitSettings? = nil) {
        self.file = file
        self.schemaVersion = schemaVersion
        self.app = app
        self.retiredProductIDs = retiredProductIDs
        self.products = products
        self.subscriptionGroups = subscriptionGroups
        self.appPolicies = appPolicies
        self.storeKit = storeKit
        document = nil
    }

    /// Every purchasable item: products first, then each group's subscriptions, in file order.
    public var allProducts: [Product] {
        products + subscriptionGroups.flatMap(\.subscriptions)
    }

    /// The subscriptions of every group.
    public var allSubscriptions: [Product] { subscriptionGroups.flatMap(\.subscriptions) }

    /// The line and column of the value at `path`, or of its nearest parent the file has. A mapping or list
    /// reached through a key is reported at that key, where a reader looks for it.
    public func location(of path: CatalogPath) -> SourceLocation {
        guard let document else { return SourceLocation(file: file) }
        var node = document.root
        var marked = node
        for component in path.components {
            var next: YAMLDocument.NodeID?
            var key: YAMLDocument.NodeID?
            switch component {
            case let .key(name):
                if let pair = document.pair(node, key: name) { (key, next) = (pair.key, pair.value) }
            case let .index(index):
                if document.kind(node) == .sequence {
                    let items = document.items(node)
                    next = index >= 0 && index < items.count ? items[items.startIndex + index] : nil
                }
            }
            guard let next else { break }
            node = next
            marked = document.isScalar(next) ? next : key ?? next
        }
        return SourceLocation(file: file, line: document.line(marked), column: document.column(marked))
    }

    /// The location of the key that introduces `path` (for "unknown key" findings).
    func keyLocation(parent: CatalogPath, key: String) -> SourceLocation {
        guard let document, let parentNode = node(at: parent), let pair = document.pair(parentNode, key: key)
        else { return location(of: parent) }
        return SourceLocation(file: file, line: document.line(pair.key), column: document.column(pair.key))
    }

    private func node(at path: CatalogPath) -> YAMLDocument.NodeID? {
        guard let document else { return nil }
        var node = document.root
        for component in path.components {
            switch component {
            case let .key(name):
                guard let pair = document.pair(node, key: name) else { return nil }
                node = pair.value
            case let .index(index):
                let items = document.items(node)
                guard document.kind(node) == .sequence, index >= 0, index < items.count else { return nil }
                node = items[items.startIndex + index]
            }
        }
        return node
    }
}

/// A value together with where it sits in the catalog.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var path: CatalogPath
    public init(_ value: Value, path: CatalogPath) {
        self.value = value
        self.path = path
    }
}

public struct App: Sendable, Hashable {
    public var bundleID: String?
    public var primaryLocale: String?
    public init(bundleID: String? = nil, primaryLocale: String? = nil) {
        self.bundleID = bundleID
        self.primaryLocale = primaryLocale
    }
}

/// The four kinds of in-app purchase. Products list the first three; subscriptions in groups are auto-renewable.
public enum ProductType: String, Sendable, Hashable, CaseIterable {
    case consumable
    case nonConsumable = "non-consumable"
    case nonRenewingSubscription = "non-renewing-subscription"
    case autoRenewableSubscription = "auto-renewable-subscription"

    /// The values a product's `type` key accepts.
    public static let productTypes: [ProductType] = [.consumable, .nonConsumable, .nonRenewingSubscription]
}

/// A USD customer price as written in the catalog. `cents` is set when the text has at most two decimals.
public struct Price: Sendable, Hashable, CustomStringConvertible {
    /// The amount exactly as written (`0.5`, `10`, `4.00`), so an imported price is exported unchanged.
    public var text: String
    public var cents: Int?
    public var approximateCents: Double

    public init(cents: Int) {
        self.cents = cents
        approximateCents = Double(cents)
        text = Price.format(cents: cents)
    }

    /// Parses `0.99`, `4`, `12.5`; nil when the text is not a non-negative decimal number.
    public init?(text: String) {
        let trimmed = text.trimmingWhitespace
        // ASCII digits, then optionally a point and more digits, read in one pass over the bytes.
        var whole = 0, wholeDigits = 0, fraction = 0, fractionDigits = 0
        var sawPoint = false, fractionIsZero = true
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                if sawPoint {
                    if fractionDigits < 2 { fraction = fraction * 10 + digit }
                    if digit != 0 { fractionIsZero = false }
                    fractionDigits += 1
                } else {
                    if wholeDigits < 10 { whole = whole * 10 + digit }
                    wholeDigits += 1
                }
            case UInt8(ascii: "."):
                if sawPoint { return nil }
                sawPoint = true
            default:
                return nil
            }
        }
        guard (1...9).contains(wholeDigits), !sawPoint || fractionDigits > 0, let approximate = Double(trimmed) else { return nil }
        self.text = trimmed
        approximateCents = approximate * 100
        if fractionDigits <= 2 {
            cents = whole * 100 + (fractionDigits == 1 ? fraction * 10 : fraction)
        } else if fractionIsZero {
            cents = whole * 100
        } else {
            cents = nil
        }
    }

    public static func format(cents: Int) -> String {
        let fraction = cents % 100
        return "\(cents / 100).\((0..<10).contains(fraction) ? "0" : "")\(fraction)"
    }

    /// `0.99` for messages and JSON: two decimals when exact.
    public var description: String { cents.map(Price.format(cents:)) ?? text }
}

public struct Localization: Sendable, Hashable {
    public var path: CatalogPath
    public var locale: String?
    public var name: String?
    public var description: String?
    /// Subscription-group localizations only.
    public var customAppName: String?

    public init(path: CatalogPath, locale: String? = nil, name: String? = nil, description: String? = nil,
                customAppName: String? = nil) {
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

/// Customers an offer code is for.
public enum OfferEligibility: String, Sendable, Hashable, CaseIterable {
    case new, existing, expired
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
    public var enabled: Bool?
    /// Offers for this plan only; the subscription's own offers are those of its upfront plan.
    public var introductoryOffer: Offer?
    public var promotionalOffers: [Offer]
    public var offerCodes: [Offer]
    public var winBackOffers: [Offer]

    /// Months a monthly plan commits the customer to.
    public static let commitmentMonths = 12

    public init(path: CatalogPath, type: BillingPlanType? = nil, price: Price? = nil, commitmentPrice: Price? = nil,
                enabled: Bool? = nil, introductoryOffer: Offer? = nil, promotionalOffers: [Offer] = [],
                offerCodes: [Offer] = [], winBackOffers: [Offer] = []) {
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

/// An introductory, promotional, offer-code or win-back offer on an auto-renewable subscription.
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
    /// Promotional and win-back offers.
    public var offerID: String?
    public var referenceName: String?
    /// Offer codes only.
    public var eligibility: [OfferEligibility]?
    public var stackable: Bool?

    public init(path: CatalogPath, kind: OfferKind, mode: OfferMode? = nil, duration: String? = nil,
                periods: Int? = nil, price: Price? = nil, offerID: String? = nil, referenceName: String? = nil,
                eligibility: [OfferEligibility]? = nil, stackable: Bool? = nil) {
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
    public var familySharable: Bool?
    public var localizations: [Localization]
    public var review: Review?
    public var hostedContent: String?
    /// Where the product is sold; every territory (and new ones) when absent.
    public var availability: Availability?
    // Auto-renewable subscriptions only.
    public var groupIndex: Int?
    public var period: String?
    public var groupLevel: Int?
    public var introductoryOffer: Offer?
    public var promotionalOffers: [Offer]
    public var offerCodes: [Offer]
    public var winBackOffers: [Offer]
    public var billingPlans: [BillingPlan] = []
    /// Offer keys written on a product that is not an auto-renewable subscription.
    public var misplacedOfferKeys: [String] = []

    public init(path: CatalogPath, productID: String? = nil, referenceName: String? = nil, type: ProductType? = nil,
                price: Price? = nil, tier: Int? = nil, familySharable: Bool? = nil, localizations: [Localization] = [],
                review: Review? = nil, hostedContent: String? = nil, groupIndex: Int? = nil, period: String? = nil,
                groupLevel: Int? = nil, introductoryOffer: Offer? = nil, promotionalOffers: [Offer] = [],
                offerCodes: [Offer] = [], winBackOffers: [Offer] = []) {
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
    public init(path: CatalogPath, referenceName: String? = nil, localizations: [Localization] = [],
                subscriptions: [Product] = []) {
        self.path = path
        self.referenceName = referenceName
        self.localizations = localizations
        self.subscriptions = subscriptions
    }
}

/// The app's license agreement and privacy policies, as StoreKit configurations (4.0+) carry them.
public struct AppPolicies: Sendable, Hashable {
    public struct Policy: Sendable, Hashable {
        public var path: CatalogPath
        public var locale: String?
        public var text: String?
        public var url: String?
        public init(path: CatalogPath, locale: String? = nil, text: String? = nil, url: String? = nil) {
            self.path = path
            self.locale = locale
            self.text = text
            self.url = url
        }
    }
    public var path: CatalogPath
    public var eula: String?
    public var policies: [Policy]
    public init(path: CatalogPath, eula: String? = nil, policies: [Policy] = []) {
        self.path = path
        self.eula = eula
        self.policies = policies
    }
}

/// Options for the simulator's StoreKit configuration (`export storekit`).
public struct StoreKitSettings: Sendable, Hashable {
    public var path: CatalogPath
    /// ISO 3166-1 alpha-3 storefront; USA when absent.
    public var storefront: String?
    /// Locale the simulator's store uses; the primary locale when absent.
    public var locale: String?
    public init(path: CatalogPath, storefront: String? = nil, locale: String? = nil) {
        self.path = path
        self.storefront = storefront
        self.locale = locale
    }
}

/// Every purchasable item of a catalog, products first and then each group's subscriptions, in file order, read in
/// place: no product is copied into a list of its own.
public struct ProductList: RandomAccessCollection, Sendable {
    private let products: [Product]
    private let groups: [SubscriptionGroup]
    /// Where each group's subscriptions start, counted from the first subscription.
    private let groupStarts: [Int]
    private let productCount: Int
    public let endIndex: Int

    public init(_ catalog: Catalog, subscriptionsOnly: Bool = false) {
        products = catalog.products
        groups = catalog.subscriptionGroups
        var starts: [Int] = []
        starts.reserveCapacity(groups.count)
        var total = 0
        for group in groups {
            starts.append(total)
            total += group.subscriptions.count
        }
        groupStarts = starts
        productCount = subscriptionsOnly ? 0 : products.count
        endIndex = productCount + total
    }

    public var startIndex: Int { 0 }

    public subscript(position: Int) -> Product {
        if position < productCount { return products[position] }
        let offset = position - productCount
        // The last group starting at or before `offset`; empty groups share a start with the next one.
        var low = 0, high = groupStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if groupStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return groups[low].subscriptions[offset - groupStarts[low]]
    }
}
