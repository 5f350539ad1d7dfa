import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// The requests of an in-app purchase's offer codes (`inAppPurchaseOfferCodes`, by name): a price (0 is free) in
/// each territory it is set in, every territory the purchase is sold in unless it names them, for the customers it
/// names.
enum InAppPurchaseOfferCodeAPI: OfferCodeAPI {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.inAppPurchaseOfferCode
    static let owner = "in-app purchase"
    static let namesTerritories = true

    static func listed(_ listing: InAppPurchaseListing) -> Included<Schemas.InAppPurchaseOfferCode> {
        let link = listing.resource.relationships?.offerCodes
        return listing.many(link?.data?.map(\.id), paging: link?.meta, cap: StoreReader.includedCap) {
            if case let .inAppPurchaseOfferCodes(item) = $0 { item } else { nil }
        }
    }

    static func offerCodes(
        owner: String, reader: StoreReader, context: String
    ) async throws(SyncError) -> (offers: [ListedOfferCode], parts: OfferCodeCodes.IncludedParts) {
        let cap = OfferCodeCodes.partsCap
        let pages = try await reader.pages(context) {
            try await $0.inAppPurchasesV2OfferCodesGetToManyRelated(
                path: .init(id: owner),
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
        let offers = pages.flatMap(\.data).compactMap { offer -> ListedOfferCode? in
            guard let attributes = offer.attributes, let name = attributes.name else { return nil }
            let links = offer.relationships
            return ListedOfferCode(
                id: offer.id,
                terms: OfferRecord(
                    kind: .inAppPurchaseOfferCode, identifier: name, referenceName: name, mode: "", duration: "", periods: 0,
                    eligibilities: attributes.customerEligibilities?.map(\.rawValue)),
                active: attributes.active,
                batchIDs: links?.oneTimeUseCodes?.data?.map(\.id) ?? [], batchesMeta: links?.oneTimeUseCodes?.meta,
                customIDs: links?.customCodes?.data?.map(\.id) ?? [], customsMeta: links?.customCodes?.meta)
        }
        return (offers, parts)
    }

    static func readPrices(
        of offerCode: String, into offer: inout OfferRecord, product: inout StoreProduct, reader: StoreReader, context: String
    ) async throws(SyncError) {
        let prices = try await OfferRequests.readPrices(context, reader: reader, plan: StoreReader.inAppPurchasePlan) {
            try await $0.inAppPurchaseOfferCodesPricesGetToManyRelated(
                path: .init(id: offerCode), query: .init(limit: 200, include: [.pricePoint, .territory])
            ).ok.body.json
        }
        OfferRequests.apply(prices, to: &offer, resource: resource, of: &product)
    }

    static func territories(for wanted: ProductRecord, builder: PlanBuilder) -> [String] {
        wanted.availability?.territories ?? builder.territories
    }

    /// Before App Review approves the purchase, its offer codes and their sandbox codes are made now and the rest
    /// waits (`ReviewGate`).
    static func offersNow(_ wanted: ProductRecord, live: StoreProduct?, builder: inout PlanBuilder) -> [OfferRecord] {
        var offers = wanted.offerCodes
        guard let gate = ReviewGate.inAppPurchaseCodes(live) else { return offers }
        var waiting: [(index: Int, codes: OfferCodesRecord)] = []
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
        return offers
    }

    static func create(_ offer: OfferRecord, owner: ResourceRef, territories: [String], _ context: WriteContext) async throws(ASCError) -> String {
        let prices = try await OfferRequests.prices(offer, product: owner, territories: territories, context: context, inAppPurchase: true)
        let customers = (offer.eligibilities ?? OfferEligibility.inAppPurchaseCustomers.map(\.apiValue))
            .compactMap(Schemas.InAppPurchaseOfferCodeCreateRequest.DataPayload.AttributesPayload.CustomerEligibilitiesPayloadPayload.init(rawValue:))
        let body = Schemas.InAppPurchaseOfferCodeCreateRequest(
            data: .init(
                _type: .inAppPurchaseOfferCodes,
                attributes: .init(name: offer.identifier ?? "", customerEligibilities: customers),
                relationships: .init(
                    inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: context.id(owner))),
                    prices: .init(data: prices.map { .init(_type: .inAppPurchaseOfferPrices, id: $0.local) }))),
            included: prices.map { price in
                .init(
                    _type: .inAppPurchaseOfferPrices, id: price.local,
                    relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        pricePoint: price.point.map { .init(data: .init(_type: .inAppPurchasePricePoints, id: $0)) }))
            })
        return try await context.send { try await $0.inAppPurchaseOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
    }
}

// The requests of an in-app purchase offer code's codes.
extension InAppPurchaseOfferCodeAPI {
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
