import IAPCatalog
import IAPCore

/// The ordered App Store Connect API requests that create a catalog:
/// `[{"method": "POST", "path": "/v2/inAppPurchases", "body": {…}, "ref": "…"}]`.
///
/// A body that needs the id of a resource an earlier request created names it `${ref}`. A price point is
/// `${pricePoint:REF:USA:NUMBER}`: App Store Connect's price-point id for the USA storefront and that point number
/// (10000 = free, 10001 = $0.29, …) of the resource REF, which the uploader resolves after creating REF (the API
/// lists them at `GET /v2/inAppPurchases/{id}/pricePoints` and `GET /v1/subscriptions/{id}/pricePoints`).
/// Inline resources use App Store Connect's own `${local-id}` form inside the same body.
public struct ASCRequestExporter: Sendable {
    public var appID: String
    public init(appID: String) { self.appID = appID }

    public struct Output: Sendable {
        public var requests: JSONValue
        /// Parts of the catalog the API requests leave out (offer codes, win-back offers), each a sentence.
        public var notes: [String]
    }

    public func export(_ catalog: Catalog) -> Output {
        var requests: [JSONValue] = []
        var notes: [String] = []
        func request(_ path: String, _ type: String, ref: String?, attributes: [(String, JSONValue?)],
                     relationships: [(String, JSONValue)], included: [JSONValue]? = nil) {
            var data: [(String, JSONValue)] = [("type", .string(type))]
            let present = attributes.compactMap { key, value in value.map { (key, $0) } }
            if !present.isEmpty { data.append(("attributes", .object(present))) }
            data.append(("relationships", .object(relationships)))
            var body: [(String, JSONValue)] = [("data", .object(data))]
            if let included { body.append(("included", .array(included))) }
            var fields: [(String, JSONValue)] = [("method", .string("POST")), ("path", .string(path)), ("body", .object(body))]
            if let ref { fields.append(("ref", .string(ref))) }
            requests.append(.object(fields))
        }
        func link(_ type: String, _ id: String) -> JSONValue { .object([("data", .object([("type", .string(type)), ("id", .string(id))]))]) }
        let app = ("app", link("apps", appID))

        for product in catalog.products {
            guard let id = product.productID, let type = product.type else { continue }
            let ref = "iap:\(id)"
            let kind: String
            switch type {
            case .consumable: kind = "CONSUMABLE"
            case .nonConsumable: kind = "NON_CONSUMABLE"
            default: kind = "NON_RENEWING_SUBSCRIPTION"
            }
            request("/v2/inAppPurchases", "inAppPurchases", ref: ref, attributes: [
                ("name", .string(product.referenceName ?? id)), ("productId", .string(id)), ("inAppPurchaseType", .string(kind)),
                ("reviewNote", product.review?.note.map(JSONValue.string)), ("familySharable", .bool(product.familySharable ?? false)),
            ], relationships: [app])
            for localization in product.localizations {
                request("/v1/inAppPurchaseLocalizations", "inAppPurchaseLocalizations", ref: nil, attributes: [
                    ("name", .optional(localization.name)), ("locale", .optional(localization.locale)),
                    ("description", localization.description.map(JSONValue.string)),
                ], relationships: [("inAppPurchaseV2", link("inAppPurchases", "${\(ref)}"))])
            }
            if let cents = product.resolvedPriceCents, let point = PriceGrid.pricePointNumber(cents: cents) {
                let local = "${price-\(id)}"
                request("/v1/inAppPurchasePriceSchedules", "inAppPurchasePriceSchedules", ref: nil, attributes: [], relationships: [
                    ("inAppPurchase", link("inAppPurchases", "${\(ref)}")),
                    ("baseTerritory", link("territories", "USA")),
                    ("manualPrices", .object([("data", .array([.object([("type", .string("inAppPurchasePrices")), ("id", .string(local))])]))])),
                ], included: [.object([
                    ("type", .string("inAppPurchasePrices")), ("id", .string(local)),
                    ("relationships", .object([
                        ("inAppPurchaseV2", link("inAppPurchases", "${\(ref)}")),
                        ("inAppPurchasePricePoint", link("inAppPurchasePricePoints", "${pricePoint:\(ref):USA:\(point)}")),
                    ])),
                ])])
            }
        }

        for (groupIndex, group) in catalog.subscriptionGroups.enumerated() {
            let groupRef = "group:\(group.referenceName ?? String(groupIndex))"
            request("/v1/subscriptionGroups", "subscriptionGroups", ref: groupRef,
                    attributes: [("referenceName", .optional(group.referenceName))], relationships: [app])
            for localization in group.localizations {
                request("/v1/subscriptionGroupLocalizations", "subscriptionGroupLocalizations", ref: nil, attributes: [
                    ("name", .optional(localization.name)), ("customAppName", localization.customAppName.map(JSONValue.string)),
                    ("locale", .optional(localization.locale)),
                ], relationships: [("subscriptionGroup", link("subscriptionGroups", "${\(groupRef)}"))])
            }
            for subscription in group.subscriptions {
                guard let id = subscription.productID else { continue }
                let ref = "subscription:\(id)"
                let subscriptionLink = ("subscription", link("subscriptions", "${\(ref)}"))
                request("/v1/subscriptions", "subscriptions", ref: ref, attributes: [
                    ("name", .string(subscription.referenceName ?? id)), ("productId", .string(id)),
                    ("familySharable", .bool(subscription.familySharable ?? false)),
                    ("subscriptionPeriod", subscription.period.flatMap(Self.apiDuration).map(JSONValue.string)),
                    ("reviewNote", subscription.review?.note.map(JSONValue.string)),
                    ("groupLevel", subscription.groupLevel.map(JSONValue.int)),
                ], relationships: [("group", link("subscriptionGroups", "${\(groupRef)}"))])
                for localization in subscription.localizations {
                    request("/v1/subscriptionLocalizations", "subscriptionLocalizations", ref: nil, attributes: [
                        ("name", .optional(localization.name)), ("locale", .optional(localization.locale)),
                        ("description", localization.description.map(JSONValue.string)),
                    ], relationships: [subscriptionLink])
                }
                // With billing plans listed, every price and offer names the plan it belongs to.
                let plans = subscription.billingPlans
                let upfront: BillingPlanType? = plans.isEmpty ? nil : .upfront
                func price(_ cents: Int?, plan: BillingPlanType?) {
                    guard let cents, let point = PriceGrid.pricePointNumber(cents: cents) else { return }
                    request("/v1/subscriptionPrices", "subscriptionPrices", ref: nil, attributes: [
                        ("preserveCurrentPrice", .bool(false)), ("planType", plan.map { .string(Self.apiPlanType($0)) }),
                    ], relationships: [
                        subscriptionLink, ("territory", link("territories", "USA")),
                        ("subscriptionPricePoint", link("subscriptionPricePoints", "${pricePoint:\(ref):USA:\(point)}")),
                    ])
                }
                func introductory(_ offer: Offer?, plan: BillingPlanType?) {
                    guard let offer, let terms = Self.terms(offer, of: subscription) else { return }
                    var relationships = [subscriptionLink, ("territory", link("territories", "USA"))]
                    if let point = offer.price?.cents.flatMap(PriceGrid.pricePointNumber(cents:)), offer.mode != .freeTrial {
                        relationships.append(("subscriptionPricePoint", link("subscriptionPricePoints", "${pricePoint:\(ref):USA:\(point)}")))
                    }
                    request("/v1/subscriptionIntroductoryOffers", "subscriptionIntroductoryOffers", ref: nil, attributes: [
                        ("duration", .string(terms.duration)), ("offerMode", .string(terms.mode)), ("numberOfPeriods", .int(terms.periods)),
                        ("targetSubscriptionPlanType", plan.map { .string(Self.apiPlanType($0)) }),
                    ], relationships: relationships)
                }
                func promotional(_ offers: [Offer], plan: BillingPlanType?) {
                    for (index, offer) in offers.enumerated() {
                        guard let terms = Self.terms(offer, of: subscription) else { continue }
                        var prices: [JSONValue] = []
                        var included: [JSONValue] = []
                        if offer.mode != .freeTrial, let point = offer.price?.cents.flatMap(PriceGrid.pricePointNumber(cents:)) {
                            let local = "${promo-price-\(id)-\(plan == .monthly ? "monthly-" : "")\(index)}"
                            prices.append(.object([("type", .string("subscriptionPromotionalOfferPrices")), ("id", .string(local))]))
                            included.append(.object([
                                ("type", .string("subscriptionPromotionalOfferPrices")), ("id", .string(local)),
                                ("relationships", .object([
                                    ("territory", link("territories", "USA")),
                                    ("subscriptionPricePoint", link("subscriptionPricePoints", "${pricePoint:\(ref):USA:\(point)}")),
                                ])),
                            ]))
                        }
                        request("/v1/subscriptionPromotionalOffers", "subscriptionPromotionalOffers", ref: nil, attributes: [
                            ("duration", .string(terms.duration)), ("name", .string(offer.referenceName ?? offer.offerID ?? "")),
                            ("numberOfPeriods", .int(terms.periods)), ("offerCode", .string(offer.offerID ?? "")),
                            ("offerMode", .string(terms.mode)), ("targetSubscriptionPlanType", plan.map { .string(Self.apiPlanType($0)) }),
                        ], relationships: [subscriptionLink, ("prices", .object([("data", .array(prices))]))], included: included)
                    }
                }

                price(subscription.resolvedPriceCents, plan: upfront)
                introductory(subscription.introductoryOffer, plan: upfront)
                promotional(subscription.promotionalOffers, plan: upfront)
                for plan in plans {
                    guard let type = plan.type else { continue }
                    guard plan.enabled != false else {
                        notes.append("`\(id)`: the \(type.rawValue) billing plan is disabled; not made available")
                        continue
                    }
                    request("/v1/subscriptionPlanAvailabilities", "subscriptionPlanAvailabilities", ref: nil, attributes: [
                        ("planType", .string(Self.apiPlanType(type))), ("availableInNewTerritories", .bool(true)),
                    ], relationships: [
                        ("availableTerritories", .object([("data", .array([.object([("type", .string("territories")), ("id", .string("USA"))])]))])),
                        subscriptionLink,
                    ])
                    guard type == .monthly else { continue }
                    price(plan.price?.cents, plan: .monthly)
                    if let payment = plan.price, payment.cents.flatMap(PriceGrid.pricePointNumber(cents:)) == nil {
                        notes.append("`\(id)`: the monthly plan's price $\(payment) is not a USD price point; set it in App Store Connect")
                    }
                    introductory(plan.introductoryOffer, plan: .monthly)
                    promotional(plan.promotionalOffers, plan: .monthly)
                    if !plan.offerCodes.isEmpty || !plan.winBackOffers.isEmpty {
                        notes.append("`\(id)`: the monthly plan's offer codes and win-back offers are not exported; create them in App Store Connect")
                    }
                }
                if !subscription.offerCodes.isEmpty || !subscription.winBackOffers.isEmpty {
                    notes.append("`\(id)`: offer codes and win-back offers are not exported; create them in App Store Connect")
                }
            }
        }
        return Output(requests: .array(requests), notes: notes)
    }

    /// App Store Connect's `SubscriptionPlanType`.
    static func apiPlanType(_ type: BillingPlanType) -> String { type == .monthly ? "MONTHLY" : "UPFRONT" }

    /// App Store Connect's duration names.
    static func apiDuration(_ period: String) -> String? {
        ["P3D": "THREE_DAYS", "P1W": "ONE_WEEK", "P2W": "TWO_WEEKS", "P1M": "ONE_MONTH", "P2M": "TWO_MONTHS",
         "P3M": "THREE_MONTHS", "P6M": "SIX_MONTHS", "P1Y": "ONE_YEAR"][period]
    }

    /// Duration, mode and period count as the API wants them: a trial or up-front offer is one period of its
    /// duration; pay-as-you-go is N periods of the subscription's own length.
    static func terms(_ offer: Offer, of subscription: Product) -> (duration: String, mode: String, periods: Int)? {
        switch offer.mode {
        case .freeTrial?: return offer.duration.flatMap(apiDuration).map { ($0, "FREE_TRIAL", 1) }
        case .payUpFront?: return offer.duration.flatMap(apiDuration).map { ($0, "PAY_UP_FRONT", 1) }
        case .payAsYouGo?: return subscription.period.flatMap(apiDuration).map { ($0, "PAY_AS_YOU_GO", offer.periods ?? 1) }
        case nil: return nil
        }
    }
}
