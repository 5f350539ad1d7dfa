import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// An in-app purchase's offer codes (`inAppPurchaseOfferCodes`), by name: a price in every territory the purchase
/// is sold in (0 is free) for the customers it names. The price and customers are fixed once created; whether the
/// offer code is active, its one-time-use batches and its custom codes change in place, as a subscription's do.
enum InAppPurchaseOfferCodeKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["offerCodes"]
    static let resource = "inAppPurchaseOfferCode"

    /// One read of the offer codes with their batches and custom codes when there are any, and each one's prices.
    static func estimatedReads(_ listing: InAppPurchaseListing) -> Int {
        let codes = listing.offerCodes
        return (codes.items.isEmpty && codes.complete ? 0 : 1) + codes.items.count
    }

    static func read(into product: inout StoreProduct, listing: InAppPurchaseListing, reader: StoreReader) async throws(SyncError) {
        guard !listing.offerCodes.items.isEmpty || !listing.offerCodes.complete else { return }
        let context = "reading the offer codes of in-app purchase \(product.record.productID)"
        let id = product.ids.resource
        let cap = OfferCodeCodes.partsCap
        let pages = try await reader.pages(context) {
            try await $0.inAppPurchasesV2OfferCodesGetToManyRelated(
                path: .init(id: id),
                query: .init(limit: 200, include: [.oneTimeUseCodes, .customCodes], limitOneTimeUseCodes: cap, limitCustomCodes: cap)
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var parts = OfferCodeCodes.IncludedParts()
        for item in pages.flatMap({ $0.included ?? [] }) {
            switch item {
            case let .inAppPurchaseOfferCodeOneTimeUseCodes(batch): parts.add(batch: batch.id, batch.attributes)
            case let .inAppPurchaseOfferCodeCustomCodes(code): parts.add(custom: code.id, code.attributes)
            default: break
            }
        }
        for offer in pages.flatMap(\.data) {
            guard let attributes = offer.attributes, let name = attributes.name else { continue }
            let offerID = offer.id
            let prices = try await OfferRequests.readPrices(context, reader: reader, plan: StoreReader.inAppPurchasePlan) {
                try await $0.inAppPurchaseOfferCodesPricesGetToManyRelated(
                    path: .init(id: offerID), query: .init(limit: 200, include: [.pricePoint, .territory])
                ).ok.body.json
            }
            product.ids.offerCodes[name] = offer.id
            var code = OfferRecord(
                kind: .inAppPurchaseOfferCode, identifier: name, referenceName: name, mode: "", duration: "", periods: 0,
                priceCents: prices.cents, eligibilities: attributes.customerEligibilities?.map(\.rawValue))
            code.territoryPrices = prices.territoryPrices
            if !prices.complete { OfferRequests.pricesUnanswered(&code, resource: resource, of: &product) }
            let links = offer.relationships
            code.codes = parts.record(
                name: name, active: attributes.active,
                batchIDs: links?.oneTimeUseCodes?.data?.map(\.id) ?? [], batchesMeta: links?.oneTimeUseCodes?.meta,
                customIDs: links?.customCodes?.data?.map(\.id) ?? [], customsMeta: links?.customCodes?.meta,
                resource: resource, into: &product)
            product.record.offerCodes.append(code)
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = wanted.availability?.territories ?? builder.territories
        // Before App Review approves the purchase, its offer codes and their sandbox codes are made now and the rest
        // waits (`ReviewGate`).
        var offers = wanted.offerCodes
        var waiting: [(index: Int, codes: OfferCodesRecord)] = []
        if let gate = ReviewGate.inAppPurchaseCodes(live) {
            let liveByName = Dictionary((live?.record.offerCodes ?? []).map { ($0.identifier ?? "", $0) }, uniquingKeysWith: { a, _ in a })
            for index in offers.indices {
                let split = ReviewGate.split(offers[index], live: liveByName[offers[index].identifier ?? ""])
                offers[index] = split.now
                if let codes = split.waiting { waiting.append((index, codes)) }
            }
            for (index, codes) in waiting {
                var shown = offers[index]
                shown.codes = codes
                let off = codes.active ? [] : [Change.Field("active", from: "true", to: "false")]
                builder.add(
                    .waiting, resource, wanted, path: wanted.path.map { $0 / "offerCodes" + index }, detail: shown.identifier,
                    fields: PlanBuilder.codeFields(of: shown) + off, reason: gate)
            }
        }
        OfferRequests.compare(
            resource, wanted: offers,
            existing: OfferCodeCodes.comparable(live?.record.offerCodes ?? [], wanted: offers),
            product: wanted, key: "offerCodes", builder: &builder,
            update: { OfferCodeCodes.update($0, to: $1, live: live, api: InAppPurchaseOfferCodeCodesAPI.self) }
        ) {
            Create(inAppPurchase: product, offer: $0, territories: territories)
        }
    }

    /// Creates the offer code with its prices inline, then its batches and custom codes, then deactivates what the
    /// catalog says is inactive.
    struct Create: WriteOperation {
        var inAppPurchase: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create offer code \(offer.identifier ?? "")" }
        var estimatedRequests: Int {
            OfferRequests.estimate(offer) + OfferCodeCodes.Writes<InAppPurchaseOfferCodeCodesAPI>(created: offer).estimatedRequests
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let prices = try await OfferRequests.prices(
                offer, product: inAppPurchase, territories: territories, context: context,
                inAppPurchase: true)
            let customers = (offer.eligibilities ?? OfferEligibility.inAppPurchaseCustomers.map(\.apiValue))
                .compactMap(
                    Schemas.InAppPurchaseOfferCodeCreateRequest.DataPayload.AttributesPayload.CustomerEligibilitiesPayloadPayload.init(rawValue:))
            let body = Schemas.InAppPurchaseOfferCodeCreateRequest(
                data: .init(
                    _type: .inAppPurchaseOfferCodes,
                    attributes: .init(name: offer.identifier ?? "", customerEligibilities: customers),
                    relationships: .init(
                        inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: context.id(inAppPurchase))),
                        prices: .init(data: prices.map { .init(_type: .inAppPurchaseOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(
                        _type: .inAppPurchaseOfferPrices, id: price.local,
                        relationships: .init(
                            territory: .init(data: .init(_type: .territories, id: price.territory)),
                            pricePoint: price.point.map { .init(data: .init(_type: .inAppPurchasePricePoints, id: $0)) }))
                })
            let id = try await context.send { try await $0.inAppPurchaseOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
            var writes = OfferCodeCodes.Writes<InAppPurchaseOfferCodeCodesAPI>(created: offer)
            writes.offerCode = id
            try await writes.perform(context)
        }
    }
}

/// The requests of an in-app purchase offer code's codes.
enum InAppPurchaseOfferCodeCodesAPI: OfferCodeCodesAPI {
    typealias Schemas = Components.Schemas

    static func createBatch(
        offerCode: String, count: Int, expires: String, environment: CodeEnvironment,
        context: WriteContext
    ) async throws(ASCError) -> String {
        let body = Schemas.InAppPurchaseOfferCodeOneTimeUseCodeCreateRequest(
            data: .init(
                _type: .inAppPurchaseOfferCodeOneTimeUseCodes,
                attributes: .init(
                    numberOfCodes: count, expirationDate: expires,
                    environment: .init(rawValue: environment.apiValue)),
                relationships: .init(offerCode: .init(data: .init(_type: .inAppPurchaseOfferCodes, id: offerCode)))))
        return try await context.send {
            try await $0.inAppPurchaseOfferCodeOneTimeUseCodesCreateInstance(body: .json(body)).created.body.json.data.id
        }
    }

    static func createCustom(offerCode: String, code: String, count: Int, expires: String?, context: WriteContext) async throws(ASCError) -> String {
        let body = Schemas.InAppPurchaseOfferCodeCustomCodeCreateRequest(
            data: .init(
                _type: .inAppPurchaseOfferCodeCustomCodes, attributes: .init(customCode: code, numberOfCodes: count, expirationDate: expires),
                relationships: .init(offerCode: .init(data: .init(_type: .inAppPurchaseOfferCodes, id: offerCode)))))
        return try await context.send { try await $0.inAppPurchaseOfferCodeCustomCodesCreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func deactivateBatch(_ id: String, context: WriteContext) async throws(ASCError) {
        let body = Schemas.InAppPurchaseOfferCodeOneTimeUseCodeUpdateRequest(
            data: .init(
                _type: .inAppPurchaseOfferCodeOneTimeUseCodes, id: id, attributes: .init(active: false)))
        _ = try await context.send { try await $0.inAppPurchaseOfferCodeOneTimeUseCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func deactivateCustom(_ id: String, context: WriteContext) async throws(ASCError) {
        let body = Schemas.InAppPurchaseOfferCodeCustomCodeUpdateRequest(
            data: .init(
                _type: .inAppPurchaseOfferCodeCustomCodes, id: id, attributes: .init(active: false)))
        _ = try await context.send { try await $0.inAppPurchaseOfferCodeCustomCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func deactivateOfferCode(_ id: String, context: WriteContext) async throws(ASCError) {
        let body = Schemas.InAppPurchaseOfferCodeUpdateRequest(data: .init(_type: .inAppPurchaseOfferCodes, id: id, attributes: .init(active: false)))
        _ = try await context.send { try await $0.inAppPurchaseOfferCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}

extension Components.Schemas.InAppPurchaseOfferPricesResponse: OfferPricePage {
    var priceLinks: [(territory: String?, point: String?)] {
        data.map { ($0.relationships?.territory?.data?.id, $0.relationships?.pricePoint?.data?.id) }
    }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .inAppPurchasePricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}
