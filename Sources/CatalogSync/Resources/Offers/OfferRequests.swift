import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// What the offer kinds with an id (promotional offers, offer codes, win-back offers) share: their enums in App
/// Store Connect's spelling, their prices in every territory, and how they are compared.
enum OfferRequests {
    typealias Schemas = Components.Schemas

    static func duration(_ offer: OfferRecord) -> Schemas.SubscriptionOfferDuration {
        Schemas.SubscriptionOfferDuration(rawValue: offer.duration) ?? .oneMonth
    }

    static func plan(_ offer: OfferRecord) -> Schemas.SubscriptionPlanType? {
        offer.planType.flatMap(Schemas.SubscriptionPlanType.init(rawValue:))
    }

    static func mode(_ offer: OfferRecord) -> Schemas.SubscriptionOfferMode {
        Schemas.SubscriptionOfferMode(rawValue: offer.mode) ?? .freeTrial
    }

    /// An offer's price in every territory: the USA point and its equalizations, or the territory's own price where
    /// the offer sets one. A free trial has a price without a point in each territory it is offered in. The points
    /// are the subscription's, or with `inAppPurchase` the in-app purchase's (`product`).
    static func prices(
        _ offer: OfferRecord, product: ResourceRef, territories: [String], context: WriteContext, inAppPurchase: Bool = false
    )
        async throws(ASCError) -> [(local: String, territory: String, point: String?)]
    {
        let territories = offer.territories ?? territories
        guard offer.priceCents != nil || !offer.territoryPrices.isEmpty else {
            return territories.enumerated().map { index, territory in ("${price-\(index + 1)}", territory, nil) }
        }
        // An in-app purchase's offer code is free at the purchase's free point, a subscription offer without one.
        let paid = inAppPurchase ? territories : territories.filter { !offer.isFree(in: $0) }
        try await lookUpPoints(offer, product: product, territories: paid, context: context, inAppPurchase: inAppPurchase)
        return territories.enumerated().compactMap { index, territory in
            // A paid offer free in a territory has a price there without a point (API 4.4.1: the point is optional).
            guard !offer.isFree(in: territory) || inAppPurchase else { return ("${price-\(index + 1)}", territory, nil) }
            return point(offer, product: product, territory: territory, context: context).map { ("${price-\(index + 1)}", territory, $0) }
        }
    }

    /// Looks up the points a paid offer needs in `territories`: the USA point's equalizations, and the hand-set ones.
    static func lookUpPoints(
        _ offer: OfferRecord, product: ResourceRef, territories: [String], context: WriteContext,
        inAppPurchase: Bool = false
    ) async throws(ASCError) {
        let handSet = territories.filter { offer.territoryPrices[$0] != nil }
        if let cents = offer.priceCents, cents > 0 || inAppPurchase {
            try await context.lookUpPricePoints(
                product: product, subscription: !inAppPurchase, cents: cents,
                territories: territories.filter { offer.territoryPrices[$0] == nil })
        }
        try await context.lookUpLocalPricePoints(
            product: product, subscription: !inAppPurchase,
            prices: handSet.map {
                LocalPricePair(territory: $0, price: offer.territoryPrices[$0] ?? "")
            })
    }

    /// The point of a paid offer in one territory (after `lookUpPoints`); nil for a free trial.
    static func point(_ offer: OfferRecord, product: ResourceRef, territory: String, context: WriteContext) -> String? {
        if let local = offer.territoryPrices[territory] {
            return context.localPricePoint(product: product, territory: territory, price: local)
        }
        guard let cents = offer.priceCents else { return nil }
        return context.pricePoint(product: product, cents: cents, territory: territory)
    }

    /// Requests an offer's creation sends: itself, and the price-point look-ups of a paid one.
    static func estimate(_ offer: OfferRecord) -> Int { offer.priceCents == nil ? 1 : (offer.territoryPrices.isEmpty ? 3 : 4) }

    /// Marks a paid offer whose prices App Store Connect answered without their territory or point: its price is
    /// unknown, never free, and plan shows it as `?`.
    static func pricesUnanswered(_ offer: inout OfferRecord, resource: ResourceName, of product: inout StoreProduct) {
        offer.pricesUnanswered = true
        product.notes.append(
            StoreNote(
                resource: resource, managed: false,
                text: "App Store Connect answered the prices of "
                    + "\(offer.identifier ?? "its offer") without their territories or price points; the catalog names no price for it"))
    }

    /// Offers with an id: created when new, refused when their terms changed (App Store Connect cannot change
    /// them), unmanaged when only in App Store Connect. An offer that names no territories is set in `territories`
    /// (where a new one is created), and so is a live one whose territories were not read.
    static func compare(
        _ resource: ResourceName, wanted: [OfferRecord], existing: [OfferRecord], product: ProductRecord, key: String,
        territories: [String]? = nil, gate: String? = nil, builder: inout PlanBuilder,
        update: ((OfferRecord, OfferRecord) -> [Update])? = nil,
        updatePrices: ((OfferRecord) -> any PlannedOperation)? = nil,
        create: (OfferRecord) -> any PlannedOperation
    ) {
        let implied = territories?.sorted()
        let wanted = wanted.map { offer in
            var offer = offer
            offer.territories = offer.territories ?? implied
            return offer
        }
        let liveByID = Dictionary(
            existing.map { offer in
                var offer = offer
                offer.territories = offer.territories ?? implied
                return (offer.identifier ?? "", offer)
            }, uniquingKeysWith: { a, _ in a })
        for (index, offer) in wanted.enumerated() {
            let path = product.path.map { key == "billingPlans" ? $0 / key : $0 / key + index }
            guard let old = liveByID[offer.identifier ?? ""] else {
                if offer.codes?.active == false {
                    // A deactivated offer code is history App Store Connect keeps: never made anew where it has none.
                    builder.add(
                        .unchanged, resource, product, path: path, detail: offer.identifier,
                        reason: "deactivated: kept as history, never created")
                    continue
                }
                // Territories are shown where the catalog names them, not where they are every one the product's.
                var shown = offer
                if shown.territories == implied { shown.territories = nil }
                let fields = PlanBuilder.termFields(from: nil, to: shown) + PlanBuilder.codeFields(of: offer)
                if let gate {
                    builder.add(.waiting, resource, product, path: path, detail: offer.identifier, fields: fields, reason: gate)
                } else {
                    builder.add(.create, resource, product, path: path, detail: offer.identifier, fields: fields, operations: [create(offer)])
                }
                continue
            }
            if old.pricesUnanswered {
                // The live price is unknown: a price in the catalog is no change of terms, nor proof of none.
                var known = old, asked = offer
                (known.priceCents, known.territoryPrices, known.pricesUnanswered) = (nil, [:], false)
                (asked.priceCents, asked.territoryPrices) = (nil, [:])
                if known.fixedPart == asked.fixedPart {
                    builder.add(
                        .unmanaged, resource, product, path: path.map { $0 / "price" }, detail: offer.identifier,
                        fields: [.unanswered("price", to: offer.priceCents.map(Price.format(cents:)))],
                        reason: "App Store Connect did not answer this offer's prices; push leaves them as they are")
                    continue
                }
            }
            if old == offer {
                builder.add(.unchanged, resource, product, path: path, detail: offer.identifier)
            } else if let update, old.fixedPart == offer.fixedPart {
                let results = update(old, offer)
                for result in results {
                    switch result {
                    case let .update(fields, operation):
                        // One field changed: the line of that field, where the catalog names it.
                        let field = fields.count == 1 ? fieldKeys[fields[0].name] : nil
                        builder.add(
                            .update, resource, product, path: field.flatMap { keys in path.map { start in keys.reduce(start) { $0 / $1 } } } ?? path,
                            detail: offer.identifier, fields: fields, operations: [operation])
                    case let .refused(fields, reason):
                        builder.add(.refused, resource, product, path: path, detail: offer.identifier, fields: fields, reason: reason)
                    case let .unmanaged(detail, reason):
                        builder.add(.unmanaged, resource, product, path: path, detail: "\(offer.identifier ?? "") \(detail)", reason: reason)
                    }
                }
                if !results.contains(where: { if case .unmanaged = $0 { false } else { true } }) {
                    builder.add(.unchanged, resource, product, path: path, detail: offer.identifier)
                }
            } else if let updatePrices, old.withoutPrices.fixedPart == offer.withoutPrices.fixedPart {
                // Only the prices differ, and the kind's update request carries them: changed in place, same id.
                let fields = PlanBuilder.termFields(from: old, to: offer)
                let field = fields.count == 1 ? fieldKeys[fields[0].name] : nil
                builder.add(
                    .update, resource, product, path: field.flatMap { keys in path.map { start in keys.reduce(start) { $0 / $1 } } } ?? path,
                    detail: offer.identifier, fields: fields, operations: [updatePrices(offer)])
            } else {
                builder.add(
                    .refused, resource, product, path: path, detail: offer.identifier, fields: PlanBuilder.termFields(from: old, to: offer),
                    reason: "App Store Connect cannot change an offer's terms; give the new terms a new id")
            }
        }
        let wantedIDs = Set(wanted.map { $0.identifier ?? "" })
        for old in existing where !wantedIDs.contains(old.identifier ?? "") {
            builder.unmanaged(resource, product, detail: old.identifier)
        }
    }

    /// The catalog keys of an offer's changeable fields, by the name plan gives them.
    static let fieldKeys: [String: [String]] = [
        "priority": ["priority"], "promotionIntent": ["promotion"], "startDate": ["startDate"], "endDate": ["endDate"],
        "paidMonths": ["eligibility", "paidMonths"], "lapsedMonths": ["eligibility", "lapsedMonths"],
        "monthsBetweenOffers": ["eligibility", "monthsBetweenOffers"], "active": ["active"], "price": ["price"],
        "territoryPrices": ["territoryPrices"],
    ]

    /// What changing an existing offer's changeable part takes: an operation, or why App Store Connect refuses it.
    enum Update {
        case update([Change.Field], any PlannedOperation)
        case refused([Change.Field], String)
        /// Part of the offer App Store Connect has that the catalog does not list and push leaves as is.
        case unmanaged(String, String)
    }

    /// Requests an offer kind's read sends: the list when the one sent along was cut short, and the prices of each
    /// offer (a free trial's too: its prices are where it is set).
    static func estimatedReads<Offer>(_ included: Included<Offer>) -> Int {
        (included.complete ? 0 : 1) + included.items.count
    }

    /// Puts what `readPrices` answered into `offer`: its USD price and territory prices (none for a free trial), the
    /// territories it is set in, or a note when App Store Connect answered its prices without their linkage.
    static func apply(
        _ prices: (cents: Int?, territoryPrices: [String: String], territories: [String], complete: Bool),
        to offer: inout OfferRecord, resource: ResourceName, of product: inout StoreProduct
    ) {
        if offer.mode != "FREE_TRIAL" {
            offer.priceCents = prices.cents
            offer.territoryPrices = prices.territoryPrices
        }
        if prices.complete {
            offer.territories = prices.territories
        } else {
            pricesUnanswered(&offer, resource: resource, of: &product)
        }
    }

    /// An offer's prices as the catalog says them: the USD price (its USA price), and the territories whose price is
    /// not what that USD price equalizes to. One request, plus the equalization once per USD price for the app.
    static func readPrices<Page: OfferPricePage>(
        _ context: String, reader: StoreReader, plan: String?,
        _ fetch: @escaping @Sendable (Client) async throws -> Page
    )
        async throws(SyncError) -> (cents: Int?, territoryPrices: [String: String], territories: [String], complete: Bool)
    {
        let pages = try await reader.pages(context, fetch) { $0.nextLink }
        let points = Dictionary(
            pages.flatMap(\.pricePoints).compactMap { id, price in price.map { (id, $0) } },
            uniquingKeysWith: { a, _ in a })
        let links = pages.flatMap(\.priceLinks)
        // A price whose territory came linked but whose point is null is free there: the linkage shows the request's
        // `include=` was answered. One without its territory, or with a point not sent along, is unknown.
        let complete = !links.isEmpty && links.allSatisfy { link in link.territory != nil && (link.point.map { points[$0] != nil } ?? true) }
        let prices = OfferPrices.pairs(links)
        let free = links.compactMap { $0.point == nil ? $0.territory : nil }
        var read = try await usdAndTerritoryPrices(prices, points: points, reader: reader, plan: plan)
        if !free.isEmpty {
            if read.cents == nil || free.contains(Vocabulary.baseTerritory) {
                // Free in the USA (or everywhere): the offer's USD price is 0, each paid territory at its own price.
                read.territoryPrices = Dictionary(
                    prices.compactMap { price in points[price.point].flatMap(LocalPrice.canonical).map { (price.territory, $0) } },
                    uniquingKeysWith: { a, _ in a })
                read.territoryPrices[Vocabulary.baseTerritory] = nil
                read.cents = 0
            } else {
                for territory in free { read.territoryPrices[territory] = "0" }
            }
        }
        return (read.cents, read.territoryPrices, Set(links.compactMap(\.territory)).sorted(), complete)
    }

    static func usdAndTerritoryPrices(
        _ prices: [(territory: String, point: String)], points: [String: String], reader: StoreReader, plan: String?
    )
        async throws(SyncError) -> (cents: Int?, territoryPrices: [String: String])
    {
        let cents: Int, equalized: [String: String]
        if let usaPoint = prices.first(where: { $0.territory == Vocabulary.baseTerritory })?.point {
            guard let usd = points[usaPoint].flatMap({ Price(text: $0)?.cents }) else { return (nil, [:]) }
            guard prices.contains(where: { $0.territory != Vocabulary.baseTerritory }) else { return (usd, [:]) }
            cents = usd
            equalized = try await reader.equalization(ofPoint: usaPoint, cents: usd, plan: plan ?? "UPFRONT")
        } else if let first = prices.first, let local = points[first.point].flatMap(LocalPrice.canonical) {
            // Not offered in the USA: its USD price is what its first territory's point equalizes to there.
            var table = try await reader.equalization(ofPoint: first.point, cents: nil, plan: plan ?? "UPFRONT")
            guard let usd = table[Vocabulary.baseTerritory].flatMap({ Price(text: $0)?.cents }) else { return (nil, [:]) }
            table[first.territory] = local
            (cents, equalized) = (usd, table)
        } else {
            return (nil, [:])
        }
        var territoryPrices: [String: String] = [:]
        for price in prices where price.territory != Vocabulary.baseTerritory {
            guard let customer = points[price.point].flatMap(LocalPrice.canonical), equalized[price.territory] != customer else { continue }
            territoryPrices[price.territory] = customer
        }
        return (cents, territoryPrices)
    }
}

enum OfferPrices {
    /// (territory, point) of every price that names both; a price without either is not known (never the USA's).
    static func pairs(_ links: [(territory: String?, point: String?)]) -> [(territory: String, point: String)] {
        links.compactMap { link in
            guard let territory = link.territory, let point = link.point else { return nil }
            return (territory, point)
        }
    }
}

/// A page of an offer's prices (promotional, offer code, win-back): which price points they use, and those points'
/// customer prices from `included`.
protocol OfferPricePage: Sendable {
    /// Each price's territory and point, as linked (nil where the answer carries no linkage).
    var priceLinks: [(territory: String?, point: String?)] { get }
    var pricePoints: [(String, String?)] { get }
    var nextLink: String? { get }
}

extension Components.Schemas.SubscriptionPromotionalOfferPricesResponse: OfferPricePage {
    var priceLinks: [(territory: String?, point: String?)] {
        data.map { ($0.relationships?.territory?.data?.id, $0.relationships?.subscriptionPricePoint?.data?.id) }
    }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

extension Components.Schemas.SubscriptionOfferCodePricesResponse: OfferPricePage {
    var priceLinks: [(territory: String?, point: String?)] {
        data.map { ($0.relationships?.territory?.data?.id, $0.relationships?.subscriptionPricePoint?.data?.id) }
    }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

extension Components.Schemas.WinBackOfferPricesResponse: OfferPricePage {
    var priceLinks: [(territory: String?, point: String?)] {
        data.map { ($0.relationships?.territory?.data?.id, $0.relationships?.subscriptionPricePoint?.data?.id) }
    }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}
