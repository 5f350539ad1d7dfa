import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// A subscription's offer codes (`subscriptionOfferCodes`), by name. Eligibility, stacking and terms are fixed once
/// created; whether the offer code is active, its one-time-use batches and its custom codes change in place
/// (`OfferCodesRecord`): batches and custom codes are created, deactivated, never deleted (App Store Connect cannot).
enum OfferCodeKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    /// How many batches and custom codes one read of an offer code carries (`limit[oneTimeUseCodes]`, the API's most).
    static let partsCap = 50

    /// One read of the offer codes with their batches and custom codes when there are any, and each paid one's prices.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int {
        let codes = listing.offerCodes
        return (codes.items.isEmpty && codes.complete ? 0 : 1) + codes.items.filter { $0.attributes?.offerMode != .freeTrial }.count
    }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        guard !listing.offerCodes.items.isEmpty || !listing.offerCodes.complete else { return }
        let context = "reading the offer codes of subscription \(product.record.productID)"
        let id = product.ids.resource
        let pages = try await reader.pages(context) {
            try await $0.subscriptionsOfferCodesGetToManyRelated(
                path: .init(id: id),
                query: .init(limit: 200, include: [.oneTimeUseCodes, .customCodes], limitOneTimeUseCodes: partsCap,
                             limitCustomCodes: partsCap)).ok.body.json
        } next: { $0.links.next }
        var batches: [String: Schemas.SubscriptionOfferCodeOneTimeUseCode] = [:]
        var customs: [String: Schemas.SubscriptionOfferCodeCustomCode] = [:]
        for item in pages.flatMap({ $0.included ?? [] }) {
            switch item {
            case let .subscriptionOfferCodeOneTimeUseCodes(batch): batches[batch.id] = batch
            case let .subscriptionOfferCodeCustomCodes(code): customs[code.id] = code
            default: break
            }
        }
        for offer in pages.flatMap(\.data) {
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
            code.codes = parts(of: offer, batches: batches, customs: customs, into: &product)
            product.record.offerCodes.append(code)
        }
    }

    /// The offer code's state beyond its terms, with the ids of its batches and custom codes kept for changes.
    static func parts(of offer: Schemas.SubscriptionOfferCode, batches: [String: Schemas.SubscriptionOfferCodeOneTimeUseCode],
                      customs: [String: Schemas.SubscriptionOfferCodeCustomCode], into product: inout StoreProduct) -> OfferCodesRecord {
        let name = offer.attributes?.name ?? offer.id
        let batchLinks = offer.relationships?.oneTimeUseCodes?.data ?? []
        let customLinks = offer.relationships?.customCodes?.data ?? []
        var batchRecords: [OfferCodesRecord.Batch] = []
        for link in batchLinks {
            guard let attributes = batches[link.id]?.attributes, let count = attributes.numberOfCodes,
                  let expires = attributes.expirationDate.flatMap(CalendarDay.parse) else { continue }
            let batch = OfferCodesRecord.Batch(count: count, expires: expires, active: attributes.active ?? true)
            batchRecords.append(batch)
            product.ids.oneTimeCodeBatches[name, default: []].append(.init(batch: batch, id: link.id))
        }
        var customRecords: [OfferCodesRecord.Custom] = []
        for link in customLinks {
            guard let attributes = customs[link.id]?.attributes, let text = attributes.customCode, let count = attributes.numberOfCodes else { continue }
            customRecords.append(.init(code: text, count: count, expires: attributes.expirationDate.flatMap(CalendarDay.parse),
                                       active: attributes.active ?? true))
            product.ids.customCodes[text] = link.id
        }
        let batchesWhole = offer.relationships?.oneTimeUseCodes?.meta.isComplete(count: batchLinks.count, cap: partsCap) ?? true
        let customWhole = offer.relationships?.customCodes?.meta.isComplete(count: customLinks.count, cap: partsCap) ?? true
        let cut = !batchesWhole || !customWhole
        if cut {
            product.notes.append(StoreNote(resource: "subscriptionOfferCode", managed: false,
                                           text: "offer code \(name) has more than \(partsCap) batches or custom codes; iapkit reads the first \(partsCap)"))
        }
        return OfferCodesRecord(active: offer.attributes?.active ?? true, batches: batchRecords, custom: customRecords)
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = wanted.pricedTerritories ?? wanted.availability?.territories ?? builder.territories
        // Batch and custom-code lists the catalog leaves out are App Store Connect's alone: not compared.
        let wantedByName = Dictionary(wanted.offerCodes.map { ($0.identifier ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        let existing = (live?.record.offerCodes ?? []).map { offer in
            var offer = offer
            offer.codes = offer.codes?.managed(like: wantedByName[offer.identifier ?? ""]?.codes)
            return offer
        }
        OfferRequests.compare("subscriptionOfferCode", wanted: wanted.offerCodes, existing: existing,
                              product: wanted, key: "offerCodes", builder: &builder,
                              update: { update($0, to: $1, live: live) }) {
            Create(subscription: product, offer: $0, territories: territories)
        }
    }

    /// What changing an existing offer code's state takes: one operation for every write, the parts App Store
    /// Connect has that the catalog does not list, and what it cannot do (turn anything back on, change a custom code).
    static func update(_ old: OfferRecord, to new: OfferRecord, live: StoreProduct?) -> [OfferRequests.Update] {
        let name = new.identifier ?? ""
        let before = old.codes ?? OfferCodesRecord(), after = new.codes ?? OfferCodesRecord()
        var results: [OfferRequests.Update] = []
        var writes = CodeWrites(offerCode: live?.ids.offerCodes[name], name: name)
        var fields: [Change.Field] = []
        if before.active != after.active {
            if after.active {
                results.append(.refused([Change.Field("active", from: "false", to: "true")], "App Store Connect cannot reactivate an offer code"))
            } else {
                writes.deactivateOffer = true
                fields.append(Change.Field("active", from: "true", to: "false"))
            }
        }
        if let wantedBatches = after.batches {
            var available = live?.ids.oneTimeCodeBatches[name] ?? []
            var unmatched: [OfferCodesRecord.Batch] = []
            for batch in wantedBatches {
                if let index = available.firstIndex(where: { $0.batch == batch }) { available.remove(at: index) } else { unmatched.append(batch) }
            }
            for batch in unmatched {
                if let index = available.firstIndex(where: { $0.batch.count == batch.count && $0.batch.expires == batch.expires }) {
                    let found = available.remove(at: index)
                    if batch.active {
                        results.append(.refused([Change.Field("oneTimeCodes", from: found.batch.text, to: batch.text)],
                                                "App Store Connect cannot reactivate a batch of codes"))
                    } else {
                        writes.deactivateBatches.append(found.id)
                        fields.append(Change.Field("oneTimeCodes", from: found.batch.text, to: batch.text))
                    }
                } else {
                    writes.createBatches.append(batch)
                    fields.append(Change.Field("oneTimeCodes", from: nil, to: batch.text))
                }
            }
            for extra in available {
                results.append(.unmanaged("batch of \(extra.batch.text)",
                                          "in App Store Connect but not in the catalog; a batch cannot be deleted: list it (`active: false` to deactivate it)"))
            }
        }
        if let wantedCustom = after.custom {
            let liveCustom = Dictionary((before.custom ?? []).map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
            for code in wantedCustom {
                guard let found = liveCustom[code.code] else {
                    writes.createCustom.append(code)
                    fields.append(Change.Field("customCode \(code.code)", from: nil, to: code.text))
                    continue
                }
                if found.count != code.count || found.expires != code.expires {
                    results.append(.refused([Change.Field("customCode \(code.code)", from: found.text, to: code.text)],
                                            "App Store Connect cannot change a custom code's count or expiration; give a new code"))
                } else if found.active != code.active {
                    if code.active {
                        results.append(.refused([Change.Field("customCode \(code.code)", from: found.text, to: code.text)],
                                                "App Store Connect cannot reactivate a custom code"))
                    } else if let id = live?.ids.customCodes[code.code] {
                        writes.deactivateCustom.append(id)
                        fields.append(Change.Field("customCode \(code.code)", from: found.text, to: code.text))
                    }
                }
            }
            let wantedCodes = Set(wantedCustom.map(\.code))
            for extra in before.custom ?? [] where !wantedCodes.contains(extra.code) {
                results.append(.unmanaged("custom code \(extra.code)",
                                          "in App Store Connect but not in the catalog; a custom code cannot be deleted: list it (`active: false` to deactivate it)"))
            }
        }
        if !writes.isEmpty { results.append(.update(fields, writes)) }
        return results
    }

    /// Creates the offer code, then its batches and custom codes, then deactivates what the catalog says is inactive.
    struct Create: WriteOperation {
        var subscription: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create offer code \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) + CodeWrites(created: offer).estimatedRequests }

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
            let id = try await context.send { try await $0.subscriptionOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
            var writes = CodeWrites(created: offer)
            writes.offerCode = id
            try await writes.perform(context)
        }
    }

    /// The writes of an offer code's state, in the order App Store Connect accepts them: new batches and custom
    /// codes first (a deactivated offer code takes none), then deactivations.
    struct CodeWrites: WriteOperation {
        var offerCode: String?
        var name: String
        var createBatches: [OfferCodesRecord.Batch] = []
        var createCustom: [OfferCodesRecord.Custom] = []
        var deactivateBatches: [String] = []
        var deactivateCustom: [String] = []
        var deactivateOffer = false

        init(offerCode: String?, name: String) {
            self.offerCode = offerCode
            self.name = name
        }

        /// Everything a new offer code of the catalog needs after its creation.
        init(created offer: OfferRecord) {
            self.init(offerCode: nil, name: offer.identifier ?? "")
            createBatches = offer.codes?.batches ?? []
            createCustom = offer.codes?.custom ?? []
            deactivateOffer = offer.codes.map { !$0.active } ?? false
        }

        var isEmpty: Bool {
            createBatches.isEmpty && createCustom.isEmpty && deactivateBatches.isEmpty && deactivateCustom.isEmpty && !deactivateOffer
        }
        var summary: String { "update offer code \(name)" }
        var estimatedRequests: Int {
            createBatches.count + createCustom.count + deactivateBatches.count + deactivateCustom.count
                + createBatches.filter { !$0.active }.count + createCustom.filter { !$0.active }.count + (deactivateOffer ? 1 : 0)
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            guard let offerCode else { throw ASCError.unexpectedResponse(operation: "update offer code \(name)", status: nil, reason: "it has no App Store Connect id") }
            let link = Schemas.SubscriptionOfferCodeOneTimeUseCodeCreateRequest.DataPayload.RelationshipsPayload.OfferCodePayload(
                data: .init(_type: .subscriptionOfferCodes, id: offerCode))
            var deactivateBatches = deactivateBatches, deactivateCustom = deactivateCustom
            for batch in createBatches {
                let body = Schemas.SubscriptionOfferCodeOneTimeUseCodeCreateRequest(data: .init(
                    _type: .subscriptionOfferCodeOneTimeUseCodes,
                    attributes: .init(numberOfCodes: batch.count, expirationDate: CalendarDay.format(batch.expires)),
                    relationships: .init(offerCode: link)))
                let id = try await context.send {
                    try await $0.subscriptionOfferCodeOneTimeUseCodesCreateInstance(body: .json(body)).created.body.json.data.id
                }
                if !batch.active { deactivateBatches.append(id) }
            }
            for code in createCustom {
                let body = Schemas.SubscriptionOfferCodeCustomCodeCreateRequest(data: .init(
                    _type: .subscriptionOfferCodeCustomCodes,
                    attributes: .init(customCode: code.code, numberOfCodes: code.count, expirationDate: code.expires.map(CalendarDay.format)),
                    relationships: .init(offerCode: .init(data: .init(_type: .subscriptionOfferCodes, id: offerCode)))))
                let id = try await context.send {
                    try await $0.subscriptionOfferCodeCustomCodesCreateInstance(body: .json(body)).created.body.json.data.id
                }
                if !code.active { deactivateCustom.append(id) }
            }
            for id in deactivateBatches {
                let body = Schemas.SubscriptionOfferCodeOneTimeUseCodeUpdateRequest(data: .init(
                    _type: .subscriptionOfferCodeOneTimeUseCodes, id: id, attributes: .init(active: false)))
                _ = try await context.send { try await $0.subscriptionOfferCodeOneTimeUseCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
            }
            for id in deactivateCustom {
                let body = Schemas.SubscriptionOfferCodeCustomCodeUpdateRequest(data: .init(
                    _type: .subscriptionOfferCodeCustomCodes, id: id, attributes: .init(active: false)))
                _ = try await context.send { try await $0.subscriptionOfferCodeCustomCodesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
            }
            if deactivateOffer {
                let body = Schemas.SubscriptionOfferCodeUpdateRequest(data: .init(_type: .subscriptionOfferCodes, id: offerCode, attributes: .init(active: false)))
                _ = try await context.send { try await $0.subscriptionOfferCodesUpdateInstance(path: .init(id: offerCode), body: .json(body)).ok }
            }
        }
    }
}
