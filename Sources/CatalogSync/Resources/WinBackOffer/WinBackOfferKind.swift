import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// A subscription's win-back offers (`winBackOffers`), by offer id. Their terms and prices are fixed once created;
/// their eligibility, priority, promotion and dates (`WinBackRecord`) are updated in place.
enum WinBackOfferKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["winBackOffers"]

    /// The offers sent with the list, and whether they are all the subscription has.
    static func listed(_ listing: SubscriptionListing) -> Included<Schemas.WinBackOffer> {
        let link = listing.resource.relationships?.winBackOffers
        return listing.many(link?.data?.map(\.id), paging: link?.meta, cap: StoreReader.includedCap) {
            if case let .winBackOffers(item) = $0 { item } else { nil }
        }
    }

    /// The list when it came cut short, and each offer's prices (where it is set, and at what price).
    static func estimatedReads(_ listing: SubscriptionListing) -> Int {
        OfferRequests.estimatedReads(listed(listing))
    }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        let context = "reading the win-back offers of subscription \(product.record.productID)"
        let id = product.ids.resource
        let listed = listed(listing)
        var offers = listed.items
        if !listed.complete {
            offers = try await reader.pages(context) {
                try await $0.subscriptionsWinBackOffersGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
            } next: {
                $0.links.next
            }.flatMap(\.data)
        }
        for offer in offers {
            guard let attributes = offer.attributes, let offerID = attributes.offerId, let mode = attributes.offerMode?.rawValue,
                let duration = attributes.duration?.rawValue
            else { continue }
            let resource = offer.id
            let prices = try await OfferRequests.readPrices(context, reader: reader, plan: attributes.targetSubscriptionPlanType?.rawValue) {
                try await $0.winBackOffersPricesGetToManyRelated(
                    path: .init(id: resource), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
                ).ok.body.json
            }
            product.ids.winBackOffers[offerID] = offer.id
            var winBack = OfferRecord(
                kind: .winBack, identifier: offerID, referenceName: attributes.referenceName, mode: mode, duration: duration,
                periods: attributes.periodCount ?? 1, planType: attributes.targetSubscriptionPlanType?.rawValue)
            OfferRequests.apply(prices, to: &winBack, resource: .winBackOffer, of: &product)
            winBack.winBack = record(attributes).started(by: reader.today)
            product.record.winBackOffers.append(winBack)
        }
    }

    /// The settings as App Store Connect holds them; a value it left out takes the usual choice.
    static func record(_ attributes: Schemas.WinBackOffer.AttributesPayload) -> WinBackRecord {
        var record = WinBackRecord()
        if let months = attributes.customerEligibilityPaidSubscriptionDurationInMonths { record.paidMonths = months }
        if let lapsed = attributes.customerEligibilityTimeSinceLastSubscribedInMonths {
            record.lapsedMinimum = lapsed.minimum ?? record.lapsedMinimum
            record.lapsedMaximum = lapsed.maximum ?? record.lapsedMaximum
        }
        record.monthsBetweenOffers = attributes.customerEligibilityWaitBetweenOffersInMonths
        if let priority = attributes.priority?.rawValue { record.priority = priority }
        if let intent = attributes.promotionIntent?.rawValue { record.promotionIntent = intent }
        record.startDate = attributes.startDate.flatMap(CalendarDay.parse)
        record.endDate = attributes.endDate.flatMap(CalendarDay.parse)
        return record
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = wanted.pricedTerritories ?? wanted.availability?.territories ?? builder.territories
        let today = builder.today
        // A start on or before App Store Connect's today is a start now, on both sides.
        let started = { (offers: [OfferRecord]) in
            offers.map { offer in
                var offer = offer
                offer.winBack = offer.winBack?.started(by: today)
                return offer
            }
        }
        OfferRequests.compare(
            .winBackOffer, wanted: started(wanted.winBackOffers), existing: started(live?.record.winBackOffers ?? []),
            product: wanted, key: "winBackOffers", territories: territories, gate: ReviewGate.winBackOffer(live),
            builder: &builder,
            update: { update($0, to: $1, id: live?.ids.winBackOffers[$1.identifier ?? ""], today: today) }
        ) {
            Create(subscription: product, offer: $0, territories: territories, today: today)
        }
    }

    /// The change of an existing offer's settings, or why App Store Connect cannot make it.
    static func update(_ old: OfferRecord, to new: OfferRecord, id: String?, today: Int) -> [OfferRequests.Update] {
        let before = old.winBack ?? WinBackRecord(), after = new.winBack ?? WinBackRecord()
        let fields = after.fields.keys.sorted().compactMap { key in
            before.fields[key] == after.fields[key] ? nil : Change.Field(key, from: before.fields[key], to: after.fields[key])
        }
        if before.startDate == nil, after.startDate != nil {
            return [.refused(fields, "the offer has started; App Store Connect cannot move its start")]
        }
        if before.endDate != nil, after.endDate == nil {
            return [.refused(fields, "App Store Connect keeps an end date once set; give a later one instead")]
        }
        if before.monthsBetweenOffers != nil, after.monthsBetweenOffers == nil {
            return [.refused(fields, "App Store Connect keeps the wait between offers once set; give another number of months instead")]
        }
        guard let id else { return [.refused(fields, "the offer has no App Store Connect id")] }
        return [.update(fields, Update(offer: id, identifier: new.identifier ?? "", from: before, to: after, today: today))]
    }

    /// Sends only the settings that change (PATCH /v1/winBackOffers/{id}).
    struct Update: WriteOperation {
        var offer: String
        var identifier: String
        var from: WinBackRecord
        var to: WinBackRecord
        var today: Int
        var summary: String { "update win-back offer \(identifier)" }
        var estimatedRequests: Int { 1 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            typealias Attributes = Schemas.WinBackOfferUpdateRequest.DataPayload.AttributesPayload
            var attributes = Attributes()
            if from.paidMonths != to.paidMonths { attributes.customerEligibilityPaidSubscriptionDurationInMonths = to.paidMonths }
            if from.lapsedMinimum != to.lapsedMinimum || from.lapsedMaximum != to.lapsedMaximum {
                attributes.customerEligibilityTimeSinceLastSubscribedInMonths = .init(minimum: to.lapsedMinimum, maximum: to.lapsedMaximum)
            }
            if from.monthsBetweenOffers != to.monthsBetweenOffers {
                attributes.customerEligibilityWaitBetweenOffersInMonths = to.monthsBetweenOffers
            }
            if from.priority != to.priority { attributes.priority = .init(rawValue: to.priority) }
            if from.promotionIntent != to.promotionIntent { attributes.promotionIntent = .init(rawValue: to.promotionIntent) }
            // A start that moves to "now" is sent as App Store Connect's today.
            if from.startDate != to.startDate { attributes.startDate = CalendarDay.format(to.startDate ?? today) }
            if from.endDate != to.endDate { attributes.endDate = to.endDate.map(CalendarDay.format) }
            let body = Schemas.WinBackOfferUpdateRequest(data: .init(_type: .winBackOffers, id: offer, attributes: attributes))
            _ = try await context.send { try await $0.winBackOffersUpdateInstance(path: .init(id: offer), body: .json(body)).ok.body.json }
        }
    }

    struct Create: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        /// App Store Connect's today: the start of an offer the catalog starts now.
        var today: Int
        var summary: String { "create win-back offer \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let prices = try await OfferRequests.prices(offer, product: subscription, territories: territories, context: context)
            let settings = offer.winBack ?? WinBackRecord()
            let body = Schemas.WinBackOfferCreateRequest(
                data: .init(
                    _type: .winBackOffers,
                    attributes: .init(
                        referenceName: offer.referenceName ?? offer.identifier ?? "", offerId: offer.identifier ?? "",
                        duration: OfferRequests.duration(offer), offerMode: OfferRequests.mode(offer), periodCount: offer.periods,
                        customerEligibilityPaidSubscriptionDurationInMonths: settings.paidMonths,
                        customerEligibilityTimeSinceLastSubscribedInMonths: .init(
                            minimum: settings.lapsedMinimum,
                            maximum: settings.lapsedMaximum),
                        customerEligibilityWaitBetweenOffersInMonths: settings.monthsBetweenOffers,
                        startDate: CalendarDay.format(max(settings.startDate ?? today, today)),
                        endDate: settings.endDate.map(CalendarDay.format),
                        priority: .init(rawValue: settings.priority) ?? .normal,
                        promotionIntent: .init(rawValue: settings.promotionIntent),
                        targetSubscriptionPlanType: OfferRequests.plan(offer)),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: context.id(subscription))),
                        prices: .init(data: prices.map { .init(_type: .winBackOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(
                        _type: .winBackOfferPrices, id: price.local,
                        relationships: .init(
                            territory: .init(data: .init(_type: .territories, id: price.territory)),
                            subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
                })
            _ = try await context.send { try await $0.winBackOffersCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
