import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// A subscription's promotional offers (`subscriptionPromotionalOffers`), by offer code, per billing plan; at most
/// ten. Their prices change in place (API 4.4.1's update request carries exactly the prices), so the app's server
/// keeps signing the same offer id; the rest of their terms is fixed once created.
enum PromotionalOfferKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["promotionalOffers"]

    /// The offers sent with the list, and whether they are all the subscription has.
    static func listed(_ listing: SubscriptionListing) -> Included<Schemas.SubscriptionPromotionalOffer> {
        let link = listing.resource.relationships?.promotionalOffers
        return listing.many(link?.data?.map(\.id), paging: link?.meta, cap: StoreReader.includedCap) {
            if case let .subscriptionPromotionalOffers(item) = $0 { item } else { nil }
        }
    }

    /// The offers come with the list (the rest, when it was cut short, in one request).
    /// The list when it came cut short, and each offer's prices (where it is set, and at what price).
    static func estimatedReads(_ listing: SubscriptionListing) -> Int {
        OfferRequests.estimatedReads(listed(listing))
    }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        let context = "reading the promotional offers of subscription \(product.record.productID)"
        let id = product.ids.resource
        let listed = listed(listing)
        var offers = listed.items
        if !listed.complete {
            offers = try await reader.pages(context) {
                try await $0.subscriptionsPromotionalOffersGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
            } next: {
                $0.links.next
            }.flatMap(\.data)
        }
        for offer in offers {
            guard let attributes = offer.attributes, let code = attributes.offerCode, let mode = attributes.offerMode?.rawValue,
                let duration = attributes.duration?.rawValue
            else { continue }
            let offerID = offer.id
            let prices = try await OfferRequests.readPrices(context, reader: reader, plan: attributes.targetSubscriptionPlanType?.rawValue) {
                try await $0.subscriptionPromotionalOffersPricesGetToManyRelated(
                    path: .init(id: offerID), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
                ).ok.body.json
            }
            product.ids.promotionalOffers[code] = offer.id
            let plan = attributes.targetSubscriptionPlanType?.rawValue
            var promotion = OfferRecord(
                kind: .promotional, identifier: code, referenceName: attributes.name, mode: mode,
                duration: duration, periods: attributes.numberOfPeriods ?? 1, planType: plan)
            OfferRequests.apply(prices, to: &promotion, resource: .subscriptionPromotionalOffer, of: &product)
            if plan == "MONTHLY" {
                product.record.monthlyPlan = product.record.monthlyPlan ?? MonthlyPlanRecord()
                product.record.monthlyPlan?.promotionalOffers.append(promotion)
            } else {
                product.record.promotionalOffers.append(promotion)
            }
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let liveSlices = PlanSlice.slices(of: live?.record)
        for (planType, slice) in PlanSlice.slices(of: wanted).sorted(by: { $0.key > $1.key }) {
            let territories = (slice.key == nil ? wanted.pricedTerritories : nil) ?? slice.availability?.territories ?? builder.territories
            OfferRequests.compare(
                .subscriptionPromotionalOffer, wanted: slice.promotionalOffers,
                existing: liveSlices[planType]?.promotionalOffers ?? [], product: wanted,
                key: slice.key ?? "promotionalOffers", territories: territories, builder: &builder,
                updatePrices: {
                    UpdatePrices(
                        subscription: product, offerID: live?.ids.promotionalOffers[$0.identifier ?? ""],
                        offer: $0, territories: territories)
                }
            ) {
                Create(subscription: product, offer: $0, territories: territories)
            }
        }
    }

    /// One request with the offer's new prices in every territory inline, replacing the old ones (plus the
    /// price-point look-ups).
    struct UpdatePrices: WriteOperation {
        var subscription: ResourceRef
        var offerID: String?
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "update the prices of promotional offer \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            guard let offerID else {
                throw ASCError.unexpectedResponse(operation: summary, status: nil, reason: "it has no App Store Connect id")
            }
            let prices = try await OfferRequests.prices(offer, product: subscription, territories: territories, context: context)
            let body = Schemas.SubscriptionPromotionalOfferUpdateRequest(
                data: .init(
                    _type: .subscriptionPromotionalOffers, id: offerID,
                    relationships: .init(
                        prices: .init(data: prices.map { .init(_type: .subscriptionPromotionalOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(
                        _type: .subscriptionPromotionalOfferPrices, id: price.local,
                        relationships: .init(
                            territory: .init(data: .init(_type: .territories, id: price.territory)),
                            subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
                })
            _ = try await context.send {
                try await $0.subscriptionPromotionalOffersUpdateInstance(path: .init(id: offerID), body: .json(body)).ok.body.json
            }
        }
    }

    /// One request with the offer's price in every territory inline.
    struct Create: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create promotional offer \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let prices = try await OfferRequests.prices(offer, product: subscription, territories: territories, context: context)
            let body = Schemas.SubscriptionPromotionalOfferCreateRequest(
                data: .init(
                    _type: .subscriptionPromotionalOffers,
                    attributes: .init(
                        duration: OfferRequests.duration(offer), name: offer.referenceName ?? offer.identifier ?? "",
                        numberOfPeriods: offer.periods, offerCode: offer.identifier ?? "", offerMode: OfferRequests.mode(offer),
                        targetSubscriptionPlanType: OfferRequests.plan(offer)),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: context.id(subscription))),
                        prices: .init(data: prices.map { .init(_type: .subscriptionPromotionalOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(
                        _type: .subscriptionPromotionalOfferPrices, id: price.local,
                        relationships: .init(
                            territory: .init(data: .init(_type: .territories, id: price.territory)),
                            subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
                })
            _ = try await context.send { try await $0.subscriptionPromotionalOffersCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
