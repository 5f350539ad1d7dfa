import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// A subscription's offer codes (`subscriptionOfferCodes`), by name: eligibility, stacking and terms fixed once
/// created. (Custom and one-time codes are not managed.)
enum OfferCodeKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    /// The list when it came cut short, and each paid offer's prices.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int {
        OfferRequests.estimatedReads(listing.offerCodes) { $0.attributes?.offerMode?.rawValue }
    }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        let context = "reading the offer codes of subscription \(product.record.productID)"
        let id = product.ids.resource
        var offers = listing.offerCodes.items
        if !listing.offerCodes.complete {
            offers = try await reader.pages(context) {
                try await $0.subscriptionsOfferCodesGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
            } next: { $0.links.next }.flatMap(\.data)
        }
        for offer in offers {
            guard let attributes = offer.attributes, let name = attributes.name, let mode = attributes.offerMode?.rawValue,
                  let duration = attributes.duration?.rawValue else { continue }
            let offerID = offer.id
            let prices = mode == "FREE_TRIAL" ? (nil, [:]) : try await OfferRequests.readPrices(context, reader: reader, plan: attributes.targetSubscriptionPlanType?.rawValue) {
                try await $0.subscriptionOfferCodesPricesGetToManyRelated(
                    path: .init(id: offerID), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
                ).ok.body.json
            }
            product.ids.offerCodes[name] = offer.id
            var code = OfferRecord(
                kind: .offerCode, identifier: name, referenceName: name, mode: mode, duration: duration,
                periods: attributes.numberOfPeriods ?? 1, priceCents: prices.0,
                eligibilities: attributes.customerEligibilities?.map(\.rawValue), offerEligibility: attributes.offerEligibility?.rawValue,
                planType: attributes.targetSubscriptionPlanType?.rawValue)
            code.territoryPrices = prices.1
            product.record.offerCodes.append(code)
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = wanted.pricedTerritories ?? wanted.availability?.territories ?? builder.territories
        OfferRequests.compare("subscriptionOfferCode", wanted: wanted.offerCodes, existing: live?.record.offerCodes ?? [],
                              product: wanted, key: "offerCodes", builder: &builder) {
            Create(subscription: product, offer: $0, territories: territories)
        }
    }

    struct Create: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create offer code \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let prices = try await OfferRequests.prices(offer, subscription: subscription, territories: territories, context: context)
            let body = Schemas.SubscriptionOfferCodeCreateRequest(
                data: .init(
                    _type: .subscriptionOfferCodes,
                    attributes: .init(name: offer.identifier ?? "",
                                      customerEligibilities: (offer.eligibilities ?? ["NEW"]).compactMap(Schemas.SubscriptionCustomerEligibility.init(rawValue:)),
                                      offerEligibility: Schemas.SubscriptionOfferEligibility(rawValue: offer.offerEligibility ?? "") ?? .replaceIntroOffers,
                                      duration: OfferRequests.duration(offer), offerMode: OfferRequests.mode(offer), numberOfPeriods: offer.periods,
                                      targetSubscriptionPlanType: OfferRequests.plan(offer)),
                    relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: context.id(subscription))),
                                         prices: .init(data: prices.map { .init(_type: .subscriptionOfferCodePrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(_type: .subscriptionOfferCodePrices, id: price.local, relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
                })
            _ = try await context.send { try await $0.subscriptionOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
