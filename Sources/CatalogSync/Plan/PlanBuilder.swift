import IAPCatalog
import IAPCore

/// Accumulates a plan's changes in order. Resource kinds add theirs through it; the comparisons every kind shares
/// (fields, localizations, availability, offer terms) live here, so each is written once.
public struct PlanBuilder: Sendable {
    public let catalog: Catalog
    public let app: StoreApp
    /// Every territory App Store Connect sells in.
    public let territories: [String]
    public private(set) var changes: [Change] = []
    /// The group whose subscriptions are being planned.
    public var currentGroup: ResourceRef?
    /// Subscriptions the current group will have when the next one is created.
    public var groupSize = 0
    /// Group levels set once every subscription of the group exists (App Store Connect refuses a level outside
    /// 1…N of the group's size at the time).
    public var deferredLevels: [any PlannedOperation] = []
    /// App Store Connect's today: price changes up to it have started.
    public var today: Int = CalendarDay.today
    /// Territories' customer prices (`StoreSnapshot.priceGrids`), to refuse a price a territory does not offer.
    public var priceGrids: [String: [String]] = [:] {
        didSet { gridKinds = Set(priceGrids.keys.compactMap { $0.split(separator: "|").first.flatMap { PriceGrid(rawValue: String($0)) } }) }
    }
    /// The grids read, so each product's prices know at once.
    public private(set) var gridKinds: Set<PriceGrid> = []
    /// Territory prices of a kind with no grid read (no product of that kind exists yet).
    public internal(set) var uncheckedPrices: [UncheckedPrice] = []

    /// What App Store Connect did not answer, by product ID (`StoreProduct.unanswered`): a change to it plans as
    /// `? -> new`, and is refused unless `replacesUnanswered` (the command was told to replace what it never read).
    public var unanswered: [String: Set<String>] = [:]
    public var replacesUnanswered = false

    /// The unanswered field whose values a resource writes.
    static let unansweredField: [ResourceName: String] = [
        .inAppPurchasePriceSchedule: "price", .subscriptionPrices: "price", .inAppPurchaseAvailability: "availability",
        .subscriptionPlanAvailability: "availability",
        .inAppPurchaseAppStoreReviewScreenshot: "appStoreReviewScreenshot", .subscriptionAppStoreReviewScreenshot: "appStoreReviewScreenshot",
    ]

    public init(catalog: Catalog, app: StoreApp, territories: [String]) {
        self.catalog = catalog
        self.app = app
        self.territories = territories
    }

    public func location(_ path: CatalogPath?) -> SourceLocation? { path.map { catalog.location(of: $0) } }

    public mutating func add(
        _ action: Change.Action, _ resource: ResourceName, _ product: ProductRecord?, path: CatalogPath? = nil,
        detail: String? = nil, fields: [Change.Field] = [], reason: String? = nil,
        operations: [any PlannedOperation] = []
    ) {
        let path = path ?? product?.path
        var (action, fields, reason, operations) = (action, fields, reason, operations)
        if action == .create || action == .update {
            // A value App Store Connect did not answer is never taken for "none": its change is `? -> new`.
            // Every field of a resource not answered, or one field answered with a value iapkit does not know.
            if let id = product?.productID, let unread = unanswered[id] {
                let whole = Self.unansweredField[resource].map(unread.contains) ?? false
                fields = fields.map { $0.fromUnanswered || !(whole || unread.contains($0.name)) ? $0 : .unanswered($0.name, to: $0.to) }
            }
            if !replacesUnanswered, let unread = fields.first(where: \.fromUnanswered) {
                action = .refused
                reason =
                    "App Store Connect did not answer the \(unread.name) it holds, so push would replace what iapkit never "
                    + "read; pass --replace-unanswered to replace it (or check the value in App Store Connect)"
                operations = []
            }
        }
        changes.append(
            Change(
                action: action, resource: resource, productID: product?.productID, path: path?.description,
                location: location(path), detail: detail, fields: fields, reason: reason,
                operations: operations))
    }

    /// Appends operations to the latest change (deferred group levels go after the group's last subscription).
    public mutating func appendToLast(_ operations: [any PlannedOperation]) {
        guard let last = changes.indices.last else { return }
        changes[last].operations += operations
    }

    public mutating func refuse(_ product: ProductRecord, field: Change.Field? = nil, reason: String) {
        add(
            .refused, product.isSubscription ? ResourceName.subscription : .inAppPurchase, product, fields: field.map { [$0] } ?? [],
            reason: reason)
    }

    public mutating func unmanaged(_ resource: ResourceName, _ product: ProductRecord?, detail: String? = nil) {
        add(.unmanaged, resource, product, detail: detail, reason: Self.unmanagedReason)
    }

    public static let unmanagedReason = "in App Store Connect but not in the catalog; left as is"

    // MARK: Shared comparisons

    /// The localizations to create or update (with the live one they replace), and the live locales the catalog
    /// does not list, which are reported and left alone.
    public mutating func diffLocalizations(
        _ wanted: [LocalizationRecord], live: [LocalizationRecord], resource: ResourceName,
        product: ProductRecord?, detailPrefix: String? = nil
    )
        -> [(wanted: LocalizationRecord, old: LocalizationRecord?)]
    {
        let liveByLocale = Dictionary(live.map { ($0.locale, $0) }, uniquingKeysWith: { a, _ in a })
        let pending = wanted.filter { liveByLocale[$0.locale] != $0 }.map { ($0, liveByLocale[$0.locale]) }
        let wantedLocales = Set(wanted.map(\.locale))
        for extra in live where !wantedLocales.contains(extra.locale) {
            unmanaged(resource, product, detail: [detailPrefix, extra.locale].compactMap { $0 }.joined(separator: " "))
        }
        return pending
    }

    /// What a create change shows of a new product: the shared attributes, with `own` (the kind's) after its type.
    static func creationFields(_ product: ProductRecord, own: [Change.Field] = []) -> [Change.Field] {
        var fields = [
            Change.Field("productId", from: nil, to: product.productID),
            Change.Field("referenceName", from: nil, to: product.referenceName),
            Change.Field("type", from: nil, to: product.type.rawValue),
        ]
        fields += own
        fields.append(Change.Field("familySharable", from: nil, to: String(product.familySharable)))
        if let note = product.reviewNote { fields.append(Change.Field("reviewNote", from: nil, to: note)) }
        return fields
    }

    public static func localizationFields(from old: LocalizationRecord?, to new: LocalizationRecord) -> [Change.Field] {
        var fields: [Change.Field] = []
        if old?.name != new.name { fields.append(Change.Field("name", from: old?.name, to: new.name)) }
        if old?.description != new.description, new.description != nil || old != nil {
            fields.append(Change.Field("description", from: old?.description, to: new.description))
        }
        if old?.customAppName != new.customAppName {
            fields.append(Change.Field("customAppName", from: old?.customAppName, to: new.customAppName))
        }
        return fields
    }

    public static func availabilityFields(from old: AvailabilityRecord?, to new: AvailabilityRecord) -> [Change.Field] {
        var fields: [Change.Field] = []
        if old?.territories != new.territories {
            let added = Set(new.territories).subtracting(old?.territories ?? []).count
            let removed = Set(old?.territories ?? []).subtracting(new.territories).count
            fields.append(
                Change.Field(
                    "territories", from: old.map { String($0.territories.count) },
                    to: "\(new.territories.count) (+\(added) -\(removed))"))
        }
        if old?.availableInNewTerritories != new.availableInNewTerritories {
            fields.append(
                Change.Field(
                    "availableInNewTerritories", from: old.map { String($0.availableInNewTerritories) },
                    to: String(new.availableInNewTerritories)))
        }
        return fields
    }

    public static func termFields(from old: OfferRecord?, to new: OfferRecord) -> [Change.Field] {
        let before = old?.terms ?? [:]
        return new.terms.keys.sorted().compactMap { key in
            before[key] == new.terms[key] ? nil : Change.Field(key, from: before[key], to: new.terms[key])
        }
    }

    /// A new offer code's batches and custom codes, one field each, so that a review sees every code a push makes
    /// (production codes spend the app's quarter) and its environment.
    public static func codeFields(of new: OfferRecord) -> [Change.Field] {
        guard let codes = new.codes else { return [] }
        return (codes.batches ?? []).map { Change.Field("oneTimeCodes", from: nil, to: $0.text) }
            + (codes.custom ?? []).map { Change.Field("customCode \($0.code)", from: nil, to: $0.text) }
    }

    public static func describe(_ screenshot: ScreenshotRecord) -> String {
        "\(screenshot.fileName) (md5 \(screenshot.checksum.prefix(8)))"
    }
}

/// One billing plan of a subscription as the plan compares it: the standard (up-front) plan, or the monthly plan
/// of a subscription that has one. Prices, availability and offers exist once per plan.
public struct PlanSlice: Sendable {
    public var planType: String
    /// Requests name the plan only when the subscription lists billing plans.
    public var named: Bool
    public var availability: AvailabilityRecord?
    public var priceCents: Int?
    public var pricedTerritories: [String]?
    public var introductoryOffer: OfferRecord?
    public var introductoryOfferTerritories: [String]?
    public var promotionalOffers: [OfferRecord]
    /// Where the plan's values sit in a catalog product (`billingPlans` for the monthly plan).
    public var key: String?

    public init(upfrontOf product: ProductRecord) {
        planType = "UPFRONT"
        named = product.namesPlans
        availability = product.availability
        priceCents = product.priceCents
        pricedTerritories = product.pricedTerritories
        introductoryOffer = product.introductoryOffer
        introductoryOfferTerritories = product.introductoryOfferTerritories
        promotionalOffers = product.promotionalOffers
    }

    public init(monthly: MonthlyPlanRecord) {
        planType = "MONTHLY"
        named = true
        availability = monthly.availability
        priceCents = monthly.priceCents
        pricedTerritories = monthly.pricedTerritories
        introductoryOffer = monthly.introductoryOffer
        introductoryOfferTerritories = monthly.introductoryOfferTerritories
        promotionalOffers = monthly.promotionalOffers
        key = "billingPlans"
    }

    /// The slices of a subscription: its standard plan, and its monthly plan when it has one.
    public static func slices(of product: ProductRecord?) -> [String: PlanSlice] {
        guard let product else { return [:] }
        var slices = ["UPFRONT": PlanSlice(upfrontOf: product)]
        if let monthly = product.monthlyPlan { slices["MONTHLY"] = PlanSlice(monthly: monthly) }
        return slices
    }

    /// `monthly plan` for the monthly plan's changes.
    public var detail: String? { planType == "MONTHLY" ? "monthly plan" : nil }

    /// Where a value of this plan sits in the catalog.
    public func path(_ product: ProductRecord, _ key: String) -> CatalogPath? {
        product.path.map { self.key == nil ? $0 / key : $0 / "billingPlans" }
    }
}

extension CatalogPath {
    public static func + (path: CatalogPath, index: Int) -> CatalogPath { path.index(index) }
}
