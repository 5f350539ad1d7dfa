import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import SyncPlan

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

    /// An offer's price in every territory: the USA point and its equalizations. Free trials have none.
    static func prices(_ offer: OfferRecord, subscription: ResourceRef, territories: [String], context: WriteContext)
        async throws(ASCError) -> [(local: String, territory: String, point: String)] {
        guard let cents = offer.priceCents else { return [] }
        try await context.lookUpPricePoints(product: subscription, subscription: true, cents: cents, territories: territories)
        return territories.enumerated().map { index, territory in
            ("${price-\(index + 1)}", territory, context.pricePoint(product: subscription, cents: cents, territory: territory))
        }
    }

    /// Requests an offer's creation sends: itself, and the price-point look-ups of a paid one.
    static func estimate(_ offer: OfferRecord) -> Int { offer.priceCents == nil ? 1 : 3 }

    /// Offers with an id: created when new, refused when their terms changed (App Store Connect cannot change
    /// them), unmanaged when only in App Store Connect.
    static func compare(_ resource: String, wanted: [OfferRecord], existing: [OfferRecord], product: ProductRecord, key: String,
                        builder: inout PlanBuilder, create: (OfferRecord) -> any PlannedOperation) {
        let liveByID = Dictionary(existing.map { ($0.identifier ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        for (index, offer) in wanted.enumerated() {
            let path = product.path.map { key == "billingPlans" ? $0 / key : $0 / key + index }
            guard let old = liveByID[offer.identifier ?? ""] else {
                builder.add(.create, resource, product, path: path, detail: offer.identifier,
                            fields: PlanBuilder.termFields(from: nil, to: offer), operations: [create(offer)])
                continue
            }
            if old == offer {
                builder.add(.unchanged, resource, product, path: path, detail: offer.identifier)
            } else {
                builder.add(.refused, resource, product, path: path, detail: offer.identifier, fields: PlanBuilder.termFields(from: old, to: offer),
                            reason: "App Store Connect cannot change an offer's terms; give the new terms a new id")
            }
        }
        let wantedIDs = Set(wanted.map { $0.identifier ?? "" })
        for old in existing where !wantedIDs.contains(old.identifier ?? "") {
            builder.unmanaged(resource, product, detail: old.identifier)
        }
    }

    /// The USD price of an offer, from its USA price and that price's point (one request).
    static func baseTerritoryPrice<Page: OfferPricePage>(_ context: String, reader: StoreReader,
                                                         _ fetch: @escaping @Sendable (Client) async throws -> Page) async throws(SyncError) -> Int? {
        let pages = try await reader.pages(context, fetch) { $0.nextLink }
        let points = Dictionary(pages.flatMap(\.pricePoints).compactMap { id, price in price.map { (id, $0) } },
                                uniquingKeysWith: { a, _ in a })
        return pages.lazy.flatMap(\.pricePointIDs).first.flatMap { points[$0] }.flatMap { Price(text: $0)?.cents }
    }
}

/// A page of an offer's prices (promotional, offer code, win-back): which price points they use, and those points'
/// customer prices from `included`.
protocol OfferPricePage: Sendable {
    var pricePointIDs: [String] { get }
    var pricePoints: [(String, String?)] { get }
    var nextLink: String? { get }
}

extension Components.Schemas.SubscriptionPromotionalOfferPricesResponse: OfferPricePage {
    var pricePointIDs: [String] { data.compactMap { $0.relationships?.subscriptionPricePoint?.data?.id } }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

extension Components.Schemas.SubscriptionOfferCodePricesResponse: OfferPricePage {
    var pricePointIDs: [String] { data.compactMap { $0.relationships?.subscriptionPricePoint?.data?.id } }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

extension Components.Schemas.WinBackOfferPricesResponse: OfferPricePage {
    var pricePointIDs: [String] { data.compactMap { $0.relationships?.subscriptionPricePoint?.data?.id } }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

/// The eligibility App Store Connect requires of a win-back offer and the catalog does not say: customers who paid
/// at least one month and lapsed between 1 and 24 months ago, normal priority, starting the day it is created.
public enum WinBackDefaults {
    public static let paidMonths = 1
    public static let lapsedMonths = 1...24

    static func startDate() -> String {
        HTTPDate.day(Date())
    }
}
