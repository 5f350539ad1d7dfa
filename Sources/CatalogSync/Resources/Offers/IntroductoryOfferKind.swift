import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// A subscription's introductory offer (`subscriptionIntroductoryOffers`): one resource per territory and billing
/// plan, with the same terms. Offers cannot be edited: new terms remove the old ones in one relationship DELETE
/// and create the new ones, every territory inline in one `PATCH /v1/subscriptions/{id}`.
enum IntroductoryOfferKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["introductoryOffers"]

    /// Whether the list shows the subscription has introductory offers (it sends at most one of them along);
    /// without the relationship's data (an older server) the list cannot prove there are none.
    static func listed(_ listing: SubscriptionListing) -> Bool {
        listing.resource.relationships?.introductoryOffers?.data.map { !$0.isEmpty } ?? true
    }

    /// Only a subscription whose list entry shows introductory offers costs a request: all of them, each with its
    /// territory and price point.
    /// One page of offers with their points.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int { listed(listing) ? 1 : 0 }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        guard listed(listing) else { return }
        let id = product.ids.resource
        let pages = try await reader.pages("reading the introductory offers of subscription \(product.record.productID)") {
            try await $0.subscriptionsIntroductoryOffersGetToManyRelated(
                path: .init(id: id), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var points: [String: String] = [:]
        for case let .subscriptionPricePoints(point) in pages.flatMap({ $0.included ?? [] }) { points[point.id] = point.attributes?.customerPrice }
        // Grouped by the billing plan they target; the USA offer of each gives the terms and the USD price.
        let byPlan = Dictionary(grouping: pages.flatMap(\.data)) { $0.attributes?.targetSubscriptionPlanType?.rawValue ?? "" }
        for (plan, offers) in byPlan {
            var covered: [String: String] = [:]
            var unread = 0
            for offer in offers {
                guard let territory = offer.relationships?.territory?.data?.id else {
                    unread += 1
                    continue
                }
                covered[territory] = offer.id
            }
            if unread > 0 {
                product.notes.append(.unlinked(unread, "introductory offer", without: "its territory", resource: .subscriptionIntroductoryOffer))
            }
            guard let base = offers.first(where: { $0.relationships?.territory?.data?.id == Vocabulary.baseTerritory }) ?? offers.first,
                let attributes = base.attributes, let mode = attributes.offerMode?.rawValue, let duration = attributes.duration?.rawValue
            else { continue }
            let isUSA = base.relationships?.territory?.data?.id == Vocabulary.baseTerritory
            let basePoint = isUSA ? base.relationships?.subscriptionPricePoint?.data?.id : nil
            let price = basePoint.flatMap { points[$0] }.flatMap { Price(text: $0)?.cents }
            var offer = OfferRecord(
                kind: .introductory, mode: mode, duration: duration, periods: attributes.numberOfPeriods ?? 1,
                priceCents: mode == "FREE_TRIAL" ? nil : price, planType: plan.isEmpty ? nil : plan)
            if mode != "FREE_TRIAL", price == nil {
                // Not offered in the USA: each territory's own price, no USD one.
                for other in offers {
                    guard let territory = other.relationships?.territory?.data?.id,
                        let customer = (other.relationships?.subscriptionPricePoint?.data?.id).flatMap({ points[$0] }).flatMap(LocalPrice.canonical)
                    else { continue }
                    offer.territoryPrices[territory] = customer
                }
            }
            // A paid offer's territory prices: those that are not what its USD price equalizes to.
            if mode != "FREE_TRIAL", let basePoint, let cents = price, offers.count > 1 {
                let equalized = try await reader.equalization(ofPoint: basePoint, cents: cents, plan: plan.isEmpty ? "UPFRONT" : plan)
                for other in offers {
                    guard let territory = other.relationships?.territory?.data?.id, territory != Vocabulary.baseTerritory,
                        let customer = (other.relationships?.subscriptionPricePoint?.data?.id).flatMap({ points[$0] }).flatMap(LocalPrice.canonical),
                        equalized[territory] != customer
                    else { continue }
                    offer.territoryPrices[territory] = customer
                }
            }
            if plan == "MONTHLY" {
                product.ids.monthlyIntroductoryOffers = covered
                product.record.monthlyPlan = product.record.monthlyPlan ?? MonthlyPlanRecord()
                product.record.monthlyPlan?.introductoryOffer = offer
                product.record.monthlyPlan?.introductoryOfferTerritories = covered.keys.sorted()
            } else {
                product.ids.introductoryOffers = covered
                product.record.introductoryOffer = offer
                product.record.introductoryOfferTerritories = covered.keys.sorted()
            }
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let liveSlices = PlanSlice.slices(of: live?.record)
        for (planType, slice) in PlanSlice.slices(of: wanted).sorted(by: { $0.key > $1.key }) {
            let old = liveSlices[planType]
            let territories =
                (planType == "MONTHLY" ? wanted.monthlyPlan?.introductoryOfferTerritories : wanted.introductoryOfferTerritories)
                ?? slice.availability?.territories ?? builder.territories
            let path = slice.path(wanted, "introductoryOffer")
            let existing = (planType == "MONTHLY" ? live?.ids.monthlyIntroductoryOffers : live?.ids.introductoryOffers) ?? [:]
            guard let offer = slice.introductoryOffer else {
                if old?.introductoryOffer != nil {
                    builder.add(.unmanaged, .subscriptionIntroductoryOffer, wanted, detail: slice.detail, reason: PlanBuilder.unmanagedReason)
                }
                continue
            }
            let covered = Swift.Set(old?.introductoryOfferTerritories ?? [])
            if let liveOffer = old?.introductoryOffer, liveOffer != offer {
                builder.add(
                    .update, .subscriptionIntroductoryOffer, wanted, path: path, detail: slice.detail,
                    fields: PlanBuilder.termFields(from: liveOffer, to: offer),
                    operations: [Replace(subscription: product, offer: offer, territories: territories, removing: existing.values.sorted())])
            } else if old?.introductoryOffer == nil {
                builder.add(
                    .create, .subscriptionIntroductoryOffer, wanted, path: path, detail: slice.detail,
                    fields: PlanBuilder.termFields(from: nil, to: offer),
                    operations: [Replace(subscription: product, offer: offer, territories: territories, removing: [])])
            } else if !covered.isSubset(of: territories) {
                // Set in a territory the catalog does not name: App Store Connect deletes offers, not territories.
                let extra = covered.subtracting(territories).sorted()
                builder.add(
                    .update, .subscriptionIntroductoryOffer, wanted, path: path,
                    detail: [slice.detail, "not in \(extra.joined(separator: ", "))"].compactMap { $0 }.joined(separator: ", "),
                    fields: [Change.Field("territories", from: String(covered.count), to: String(territories.count))],
                    operations: [Replace(subscription: product, offer: offer, territories: territories, removing: existing.values.sorted())])
            } else if case let missing = territories.filter({ !covered.contains($0) }), !missing.isEmpty {
                builder.add(
                    .update, .subscriptionIntroductoryOffer, wanted, path: path,
                    detail: [slice.detail, "\(missing.count) territories without it"].compactMap { $0 }.joined(separator: ", "),
                    fields: [Change.Field("territories", from: String(covered.count), to: String(covered.count + missing.count))],
                    operations: [Replace(subscription: product, offer: offer, territories: missing, removing: [])])
            }
        }
    }

    /// Removes the offers being replaced (one DELETE of the relationship), then creates the offer in every
    /// territory listed (one PATCH with inline creates; paid offers first look up their price points).
    struct Replace: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var removing: [String]
        var summary: String {
            removing.isEmpty
                ? "create the introductory offer in \(territories.count) territories"
                : "replace the introductory offer (\(removing.count) removed, \(territories.count) territories)"
        }
        var estimatedRequests: Int { 1 + (removing.isEmpty ? 0 : 1) + (offer.priceCents == nil ? 0 : 2) + (offer.territoryPrices.isEmpty ? 0 : 1) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let id = context.id(subscription)
            if !removing.isEmpty {
                let body = Components.Schemas.SubscriptionIntroductoryOffersLinkagesRequest(
                    data: removing.map { .init(_type: .subscriptionIntroductoryOffers, id: $0) })
                _ = try await context.send {
                    try await $0.subscriptionsIntroductoryOffersDeleteToManyRelationship(path: .init(id: id), body: .json(body)).noContent
                }
            }
            try await OfferRequests.lookUpPoints(offer, product: subscription, territories: territories, context: context)
            let offers = territories.enumerated().map { index, territory in
                Schemas.SubscriptionIntroductoryOfferInlineCreate(
                    _type: .subscriptionIntroductoryOffers, id: "${intro-\(index + 1)}",
                    attributes: .init(
                        duration: OfferRequests.duration(offer), offerMode: OfferRequests.mode(offer),
                        numberOfPeriods: offer.periods, targetSubscriptionPlanType: OfferRequests.plan(offer)),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: id)),
                        territory: .init(data: .init(_type: .territories, id: territory)),
                        subscriptionPricePoint: OfferRequests.point(offer, product: subscription, territory: territory, context: context)
                            .map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
            }
            let body = Schemas.SubscriptionUpdateRequest(
                data: .init(
                    _type: .subscriptions, id: id,
                    relationships: .init(
                        introductoryOffers: .init(data: offers.map { .init(_type: .subscriptionIntroductoryOffers, id: $0.id ?? "") }))),
                included: offers.map { .SubscriptionIntroductoryOfferInlineCreate($0) })
            _ = try await context.send { try await $0.subscriptionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        }
    }
}
