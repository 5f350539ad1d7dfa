import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// A subscription's win-back offers (`winBackOffers`), by offer id; the eligibility App Store Connect requires and
/// the catalog does not hold comes from `WinBackDefaults`.
enum WinBackOfferKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    /// The list when it came cut short, and each paid offer's prices.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int {
        OfferRequests.estimatedReads(listing.winBackOffers) { $0.attributes?.offerMode?.rawValue }
    }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        let context = "reading the win-back offers of subscription \(product.record.productID)"
        let id = product.ids.resource
        var offers = listing.winBackOffers.items
        if !listing.winBackOffers.complete {
            offers = try await reader.pages(context) {
                try await $0.subscriptionsWinBackOffersGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
            } next: { $0.links.next }.flatMap(\.data)
        }
        for offer in offers {
            guard let attributes = offer.attributes, let offerID = attributes.offerId, let mode = attributes.offerMode?.rawValue,
                  let duration = attributes.duration?.rawValue else { continue }
            let resource = offer.id
            let prices = mode == "FREE_TRIAL" ? (nil, [:]) : try await OfferRequests.readPrices(context, reader: reader, plan: attributes.targetSubscriptionPlanType?.rawValue) {
                try await $0.winBackOffersPricesGetToManyRelated(
                    path: .init(id: resource), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
                ).ok.body.json
            }
            product.ids.winBackOffers[offerID] = offer.id
            var winBack = OfferRecord(
                kind: .winBack, identifier: offerID, referenceName: attributes.referenceName, mode: mode, duration: duration,
                periods: attributes.periodCount ?? 1, priceCents: prices.0, planType: attributes.targetSubscriptionPlanType?.rawValue)
            winBack.territoryPrices = prices.1
            product.record.winBackOffers.append(winBack)
            // The catalog holds none of the eligibility: an offer with other than push's own is not fully managed.
            let lapsed = attributes.customerEligibilityTimeSinceLastSubscribedInMonths
            if attributes.customerEligibilityPaidSubscriptionDurationInMonths.map({ $0 != WinBackDefaults.paidMonths }) == true
                || lapsed.map({ $0.minimum != WinBackDefaults.lapsedMonths.lowerBound || $0.maximum != WinBackDefaults.lapsedMonths.upperBound }) == true
                || attributes.priority.map({ $0 != .normal }) == true || attributes.endDate != nil {
                product.notes.append(StoreNote(resource: "winBackOffer", managed: false,
                                               text: "win-back offer \(offerID) has customer eligibility, priority or an end date the catalog does not hold yet"))
            }
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = wanted.pricedTerritories ?? wanted.availability?.territories ?? builder.territories
        OfferRequests.compare("winBackOffer", wanted: wanted.winBackOffers, existing: live?.record.winBackOffers ?? [],
                              product: wanted, key: "winBackOffers", builder: &builder) {
            Create(subscription: product, offer: $0, territories: territories)
        }
    }

    struct Create: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create win-back offer \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let prices = try await OfferRequests.prices(offer, subscription: subscription, territories: territories, context: context)
            let body = Schemas.WinBackOfferCreateRequest(
                data: .init(
                    _type: .winBackOffers,
                    attributes: .init(referenceName: offer.referenceName ?? offer.identifier ?? "", offerId: offer.identifier ?? "",
                                      duration: OfferRequests.duration(offer), offerMode: OfferRequests.mode(offer), periodCount: offer.periods,
                                      customerEligibilityPaidSubscriptionDurationInMonths: WinBackDefaults.paidMonths,
                                      customerEligibilityTimeSinceLastSubscribedInMonths: .init(minimum: WinBackDefaults.lapsedMonths.lowerBound,
                                                                                                  maximum: WinBackDefaults.lapsedMonths.upperBound),
                                      startDate: WinBackDefaults.startDate(), priority: .normal,
                                      targetSubscriptionPlanType: OfferRequests.plan(offer)),
                    relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: context.id(subscription))),
                                         prices: .init(data: prices.map { .init(_type: .winBackOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(_type: .winBackOfferPrices, id: price.local, relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
                })
            _ = try await context.send { try await $0.winBackOffersCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
