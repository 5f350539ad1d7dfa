import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// The requests of a subscription's offer codes (`subscriptionOfferCodes`, by name): their eligibility, stacking
/// and terms, per billing plan.
enum SubscriptionOfferCodeAPI: OfferCodeAPI {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.subscriptionOfferCode
    static let owner = "subscription"
    static let namesTerritories = true

    static func listed(_ listing: SubscriptionListing) -> Included<Schemas.SubscriptionOfferCode> {
        let link = listing.resource.relationships?.offerCodes
        return listing.many(link?.data?.map(\.id), paging: link?.meta, cap: StoreReader.includedCap) {
            if case let .subscriptionOfferCodes(item) = $0 { item } else { nil }
        }
    }

    static func offerCodes(
        owner: String, reader: StoreReader, context: String
    ) async throws(SyncError) -> (offers: [ListedOfferCode], parts: OfferCodeCodes.IncludedParts) {
        let pages = try await reader.pages(context) {
            try await $0.subscriptionsOfferCodesGetToManyRelated(
                path: .init(id: owner),
                query: .init(
                    limit: 200, include: [.oneTimeUseCodes, .customCodes], limitOneTimeUseCodes: OfferCodeCodes.partsCap,
                    limitCustomCodes: OfferCodeCodes.partsCap)
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var parts = OfferCodeCodes.IncludedParts()
        for item in pages.flatMap({ $0.included ?? [] }) {
            switch item {
            case let .subscriptionOfferCodeOneTimeUseCodes(batch): parts.add(batch: batch.id, batch.attributes)
            case let .subscriptionOfferCodeCustomCodes(code): parts.add(custom: code.id, code.attributes)
            default: break
            }
        }
        let offers = pages.flatMap(\.data).compactMap { offer -> ListedOfferCode? in
            guard let attributes = offer.attributes, let name = attributes.name, let mode = attributes.offerMode?.rawValue,
                let duration = attributes.duration?.rawValue
            else { return nil }
            let links = offer.relationships
            return ListedOfferCode(
                id: offer.id,
                terms: OfferRecord(
                    kind: .offerCode, identifier: name, referenceName: name, mode: mode, duration: duration,
                    periods: attributes.numberOfPeriods ?? 1,
                    eligibilities: attributes.customerEligibilities?.map(\.rawValue), offerEligibility: attributes.offerEligibility?.rawValue,
                    planType: attributes.targetSubscriptionPlanType?.rawValue),
                active: attributes.active,
                batchIDs: links?.oneTimeUseCodes?.data?.map(\.id) ?? [], batchesMeta: links?.oneTimeUseCodes?.meta,
                customIDs: links?.customCodes?.data?.map(\.id) ?? [], customsMeta: links?.customCodes?.meta)
        }
        return (offers, parts)
    }

    static func readPrices(
        of offerCode: String, into offer: inout OfferRecord, product: inout StoreProduct, reader: StoreReader, context: String
    ) async throws(SyncError) {
        let prices = try await OfferRequests.readPrices(context, reader: reader, plan: offer.planType) {
            try await $0.subscriptionOfferCodesPricesGetToManyRelated(
                path: .init(id: offerCode), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
            ).ok.body.json
        }
        OfferRequests.apply(prices, to: &offer, resource: resource, of: &product)
    }

    static func territories(for wanted: ProductRecord, builder: PlanBuilder) -> [String] {
        wanted.pricedTerritories ?? wanted.availability?.territories ?? builder.territories
    }

    static func create(_ offer: OfferRecord, owner: ResourceRef, territories: [String], _ context: WriteContext) async throws(ASCError) -> String {
        let prices = try await OfferRequests.prices(offer, product: owner, territories: territories, context: context)
        let body = Schemas.SubscriptionOfferCodeCreateRequest(
            data: .init(
                _type: .subscriptionOfferCodes,
                attributes: .init(
                    name: offer.identifier ?? "",
                    customerEligibilities: (offer.eligibilities ?? ["NEW"]).compactMap(Schemas.SubscriptionCustomerEligibility.init(rawValue:)),
                    offerEligibility: Schemas.SubscriptionOfferEligibility(rawValue: offer.offerEligibility ?? "") ?? .replaceIntroOffers,
                    duration: OfferRequests.duration(offer), offerMode: OfferRequests.mode(offer), numberOfPeriods: offer.periods,
                    targetSubscriptionPlanType: OfferRequests.plan(offer)),
                relationships: .init(
                    subscription: .init(data: .init(_type: .subscriptions, id: context.id(owner))),
                    prices: .init(data: prices.map { .init(_type: .subscriptionOfferCodePrices, id: $0.local) }))),
            included: prices.map { price in
                .init(
                    _type: .subscriptionOfferCodePrices, id: price.local,
                    relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
            })
        return try await context.send { try await $0.subscriptionOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
    }
}

// The requests of a subscription offer code's codes.
extension SubscriptionOfferCodeAPI {
    static func createBatch(
        offerCode: String, count: Int, expires: String, environment: CodeEnvironment,
        context: WriteContext
    ) async throws(ASCError) -> String {
        let body = Schemas.SubscriptionOfferCodeOneTimeUseCodeCreateRequest(
            data: .init(
                _type: .subscriptionOfferCodeOneTimeUseCodes,
                attributes: .init(
                    numberOfCodes: count, expirationDate: expires,
                    environment: .init(rawValue: environment.apiValue)),
                relationships: .init(offerCode: .init(data: .init(_type: .subscriptionOfferCodes, id: offerCode)))))
        return try await context.send { try await $0.subscriptionOfferCodeOneTimeUseCodesCreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func createCustom(offerCode: String, code: String, count: Int, expires: String?, context: WriteContext) async throws(ASCError) -> String {
        let body = Schemas.SubscriptionOfferCodeCustomCodeCreateRequest(
            data: .init(
                _type: .subscriptionOfferCodeCustomCodes, attributes: .init(customCode: code, numberOfCodes: count, expirationDate: expires),
                relationships: .init(offerCode: .init(data: .init(_type: .subscriptionOfferCodes, id: offerCode)))))
        return try await context.send { try await $0.subscriptionOfferCodeCustomCodesCreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func deactivateBatch(_ id: String, context: WriteContext) async throws(ASCError) {
        let body = Schemas.SubscriptionOfferCodeOneTimeUseCodeUpdateRequest(
            data: .init(
                _type: .subscriptionOfferCodeOneTimeUseCodes, id: id, attributes: .init(active: false)))
        _ = try await context.send { try await $0.subscriptionOfferCodeOneTimeUseCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func deactivateCustom(_ id: String, context: WriteContext) async throws(ASCError) {
        let body = Schemas.SubscriptionOfferCodeCustomCodeUpdateRequest(
            data: .init(
                _type: .subscriptionOfferCodeCustomCodes, id: id, attributes: .init(active: false)))
        _ = try await context.send { try await $0.subscriptionOfferCodeCustomCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func deactivateOfferCode(_ id: String, context: WriteContext) async throws(ASCError) {
        let body = Schemas.SubscriptionOfferCodeUpdateRequest(data: .init(_type: .subscriptionOfferCodes, id: id, attributes: .init(active: false)))
        _ = try await context.send { try await $0.subscriptionOfferCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}
