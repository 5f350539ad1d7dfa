import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// A subscription's offer codes (`subscriptionOfferCodes`), by name. Eligibility, stacking and terms are fixed once
/// created; whether the offer code is active, its one-time-use batches and its custom codes change in place
/// (`OfferCodesRecord`): batches and custom codes are created, deactivated, never deleted (App Store Connect cannot).
enum SubscriptionOfferCodeKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["offerCodes"]

    /// One read of the offer codes with their batches and custom codes when there are any, and each one's prices.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int {
        let codes = listing.offerCodes
        return (codes.items.isEmpty && codes.complete ? 0 : 1) + codes.items.count
    }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        guard !listing.offerCodes.items.isEmpty || !listing.offerCodes.complete else { return }
        let context = "reading the offer codes of subscription \(product.record.productID)"
        let id = product.ids.resource
        let pages = try await reader.pages(context) {
            try await $0.subscriptionsOfferCodesGetToManyRelated(
                path: .init(id: id),
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
        for offer in pages.flatMap(\.data) {
            guard let attributes = offer.attributes, let name = attributes.name, let mode = attributes.offerMode?.rawValue,
                let duration = attributes.duration?.rawValue
            else { continue }
            let offerID = offer.id
            let prices = try await OfferRequests.readPrices(context, reader: reader, plan: attributes.targetSubscriptionPlanType?.rawValue) {
                try await $0.subscriptionOfferCodesPricesGetToManyRelated(
                    path: .init(id: offerID), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
                ).ok.body.json
            }
            product.ids.offerCodes[name] = offer.id
            var code = OfferRecord(
                kind: .offerCode, identifier: name, referenceName: name, mode: mode, duration: duration,
                periods: attributes.numberOfPeriods ?? 1,
                eligibilities: attributes.customerEligibilities?.map(\.rawValue), offerEligibility: attributes.offerEligibility?.rawValue,
                planType: attributes.targetSubscriptionPlanType?.rawValue)
            OfferRequests.apply(prices, to: &code, resource: "subscriptionOfferCode", of: &product)
            let links = offer.relationships
            code.codes = parts.record(
                name: name, active: attributes.active,
                batchIDs: links?.oneTimeUseCodes?.data?.map(\.id) ?? [], batchesMeta: links?.oneTimeUseCodes?.meta,
                customIDs: links?.customCodes?.data?.map(\.id) ?? [], customsMeta: links?.customCodes?.meta,
                resource: "subscriptionOfferCode", into: &product)
            product.record.offerCodes.append(code)
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = wanted.pricedTerritories ?? wanted.availability?.territories ?? builder.territories
        OfferRequests.compare(
            "subscriptionOfferCode", wanted: wanted.offerCodes,
            existing: OfferCodeCodes.comparable(live?.record.offerCodes ?? [], wanted: wanted.offerCodes),
            product: wanted, key: "offerCodes", territories: territories, builder: &builder,
            update: { OfferCodeCodes.update($0, to: $1, live: live, api: SubscriptionOfferCodeCodesAPI.self) }
        ) {
            Create(subscription: product, offer: $0, territories: territories)
        }
    }

    /// Creates the offer code, then its batches and custom codes, then deactivates what the catalog says is inactive.
    struct Create: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create offer code \(offer.identifier ?? "")" }
        var estimatedRequests: Int {
            OfferRequests.estimate(offer) + OfferCodeCodes.Writes<SubscriptionOfferCodeCodesAPI>(created: offer).estimatedRequests
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let prices = try await OfferRequests.prices(offer, product: subscription, territories: territories, context: context)
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
                        subscription: .init(data: .init(_type: .subscriptions, id: context.id(subscription))),
                        prices: .init(data: prices.map { .init(_type: .subscriptionOfferCodePrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(
                        _type: .subscriptionOfferCodePrices, id: price.local,
                        relationships: .init(
                            territory: .init(data: .init(_type: .territories, id: price.territory)),
                            subscriptionPricePoint: price.point.map { .init(data: .init(_type: .subscriptionPricePoints, id: $0)) }))
                })
            let id = try await context.send { try await $0.subscriptionOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
            var writes = OfferCodeCodes.Writes<SubscriptionOfferCodeCodesAPI>(created: offer)
            writes.offerCode = id
            try await writes.perform(context)
        }
    }
}

/// The requests of a subscription offer code's codes.
enum SubscriptionOfferCodeCodesAPI: OfferCodeCodesAPI {
    typealias Schemas = Components.Schemas

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
