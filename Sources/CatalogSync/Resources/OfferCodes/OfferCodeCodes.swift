import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// The requests that change an offer code's codes, for one owner: a subscription's offer codes
/// (`subscriptionOfferCode…`) or an in-app purchase's (`inAppPurchaseOfferCode…`). The two sets of resources have
/// the same shape and rules; only their types differ.
protocol OfferCodeCodesAPI: Sendable {
    /// Creates a batch of one-time-use codes; answers its id.
    static func createBatch(
        offerCode: String, count: Int, expires: String, environment: CodeEnvironment,
        context: WriteContext
    ) async throws(ASCError) -> String
    /// Creates a custom code; answers its id.
    static func createCustom(offerCode: String, code: String, count: Int, expires: String?, context: WriteContext) async throws(ASCError) -> String
    static func deactivateBatch(_ id: String, context: WriteContext) async throws(ASCError)
    static func deactivateCustom(_ id: String, context: WriteContext) async throws(ASCError)
    static func deactivateOfferCode(_ id: String, context: WriteContext) async throws(ASCError)
}

/// What the two owners' offer codes share beyond their terms: whether active, one-time-use batches and custom codes,
/// read into `OfferCodesRecord`, compared, and written (`OfferCodeCodes.Writes`). Batches and custom codes are
/// created and deactivated, never deleted (App Store Connect cannot).
enum OfferCodeCodes {
    /// How many batches and custom codes one read of an offer code carries (`limit[oneTimeUseCodes]`, the API's most).
    static let partsCap = 50

    /// The batches and custom codes an answer sent along (`included`), by id, whichever owner's types they have.
    struct IncludedParts {
        private var batches: [String: OfferCodesRecord.Batch] = [:]
        private var customs: [String: OfferCodesRecord.Custom] = [:]

        mutating func add(batch id: String, _ attributes: (some OneTimeCodeBatchAttributes)?) {
            guard let attributes, let count = attributes.numberOfCodes, let expires = attributes.expirationDate.flatMap(CalendarDay.parse) else {
                return
            }
            let environment = attributes.environment.flatMap { CodeEnvironment(rawValue: $0.rawValue.lowercased()) }
            batches[id] = OfferCodesRecord.Batch(count: count, expires: expires, active: attributes.active ?? true, environment: environment)
        }

        mutating func add(custom id: String, _ attributes: (some CustomCodeAttributes)?) {
            guard let attributes, let code = attributes.customCode, let count = attributes.numberOfCodes else { return }
            customs[id] = .init(
                code: code, count: count, expires: attributes.expirationDate.flatMap(CalendarDay.parse), active: attributes.active ?? true)
        }

        /// An offer code's state beyond its terms, from the ids of its batches and custom codes (as linked, in
        /// order), with those ids kept in `product` for changes. When a list of links is cut short (`meta`), a note
        /// says iapkit read the first ones.
        func record(
            name: String, active: Bool?, batchIDs: [String], batchesMeta: Components.Schemas.PagingInformation?,
            customIDs: [String], customsMeta: Components.Schemas.PagingInformation?, resource: ResourceName,
            into product: inout StoreProduct
        ) -> OfferCodesRecord {
            var batchRecords: [OfferCodesRecord.Batch] = []
            for id in batchIDs {
                guard let batch = batches[id] else { continue }
                batchRecords.append(batch)
                product.ids.oneTimeCodeBatches[name, default: []].append(.init(batch: batch, id: id))
            }
            let unknown = batchRecords.filter { $0.environment == nil }.count
            if unknown > 0 {
                product.notes.append(
                    StoreNote(
                        resource: resource, managed: false,
                        text: "App Store Connect did not answer the environment of \(unknown) batch\(unknown == 1 ? "" : "es")"
                            + " of offer code \(name); iapkit neither takes it for production nor creates it again"))
            }
            var customRecords: [OfferCodesRecord.Custom] = []
            for id in customIDs {
                guard let custom = customs[id] else { continue }
                customRecords.append(custom)
                product.ids.customCodes[custom.code] = id
            }
            if !batchesMeta.isComplete(count: batchIDs.count, cap: partsCap) || !customsMeta.isComplete(count: customIDs.count, cap: partsCap) {
                product.notes.append(
                    StoreNote(
                        resource: resource, managed: false,
                        text: "offer code \(name) has more than \(partsCap) batches or custom codes; iapkit reads the first \(partsCap)"))
            }
            return OfferCodesRecord(active: active ?? true, batches: batchRecords, custom: customRecords)
        }
    }

    /// Live offer codes with only the batch and custom-code lists the catalog lists: a list the catalog leaves out is
    /// App Store Connect's alone, not compared.
    static func comparable(_ live: [OfferRecord], wanted: [OfferRecord]) -> [OfferRecord] {
        let wantedByName = Dictionary(wanted.map { ($0.identifier ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        return live.map { offer in
            var offer = offer
            offer.codes = offer.codes?.managed(like: wantedByName[offer.identifier ?? ""]?.codes)
            return offer
        }
    }

    /// The catalog's offer codes without the history App Store Connect does not hold: a deactivated batch or custom
    /// code it has no such batch or code of (another app, an app made anew) is never created, nor is a deactivated
    /// offer code it has none of (`OfferRequests.compare` leaves it unchanged). What it holds active is deactivated;
    /// what it holds deactivated is compared as it is.
    static func withoutHistory(_ wanted: [OfferRecord], live: [OfferRecord]) -> [OfferRecord] {
        let liveByName = Dictionary(live.map { ($0.identifier ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        return wanted.map { offer in
            guard var codes = offer.codes else { return offer }
            let held = liveByName[offer.identifier ?? ""]?.codes
            if let batches = codes.batches {
                // Matched as `update` matches them: the same batch exactly first, then the same codes.
                var available = held?.batches ?? []
                var kept = [Bool](repeating: false, count: batches.count)
                for (index, batch) in batches.enumerated() {
                    if let found = available.firstIndex(of: batch) {
                        available.remove(at: found)
                        kept[index] = true
                    }
                }
                for (index, batch) in batches.enumerated() where !kept[index] {
                    if let found = available.firstIndex(where: { $0.isSameBatch(as: batch) }) {
                        available.remove(at: found)
                        kept[index] = true
                    } else {
                        kept[index] = batch.active
                    }
                }
                codes.batches = zip(batches, kept).filter(\.1).map(\.0)
            }
            let heldCodes = Set((held?.custom ?? []).map(\.code))
            codes.custom = codes.custom?.filter { $0.active || heldCodes.contains($0.code) }
            var offer = offer
            offer.codes = codes
            return offer
        }
    }

    /// What changing an existing offer code's state takes: one operation for every write, the parts App Store
    /// Connect has that the catalog does not list, and what it cannot do (turn anything back on, change a custom code).
    static func update<API: OfferCodeCodesAPI>(_ old: OfferRecord, to new: OfferRecord, live: StoreProduct?, api: API.Type) -> [OfferRequests.Update]
    {
        let name = new.identifier ?? ""
        let before = old.codes ?? OfferCodesRecord(), after = new.codes ?? OfferCodesRecord()
        var results: [OfferRequests.Update] = []
        var writes = Writes<API>(offerCode: live?.ids.offerCodes[name], name: name)
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
                if let index = available.firstIndex(where: { $0.batch.isSameBatch(as: batch) }) {
                    let found = available.remove(at: index)
                    if found.batch.active == batch.active {
                        continue  // the same batch, its environment unanswered: noted, not changed
                    } else if batch.active {
                        results.append(
                            .refused(
                                [Change.Field("oneTimeCodes", from: found.batch.text, to: batch.text)],
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
                results.append(
                    .unmanaged(
                        "batch of \(extra.batch.text)",
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
                    results.append(
                        .refused(
                            [Change.Field("customCode \(code.code)", from: found.text, to: code.text)],
                            "App Store Connect cannot change a custom code's count or expiration; give a new code"))
                } else if found.active != code.active {
                    if code.active {
                        results.append(
                            .refused(
                                [Change.Field("customCode \(code.code)", from: found.text, to: code.text)],
                                "App Store Connect cannot reactivate a custom code"))
                    } else if let id = live?.ids.customCodes[code.code] {
                        writes.deactivateCustom.append(id)
                        fields.append(Change.Field("customCode \(code.code)", from: found.text, to: code.text))
                    }
                }
            }
            let wantedCodes = Set(wantedCustom.map(\.code))
            for extra in before.custom ?? [] where !wantedCodes.contains(extra.code) {
                results.append(
                    .unmanaged(
                        "custom code \(extra.code)",
                        "in App Store Connect but not in the catalog; a custom code cannot be deleted: list it (`active: false` to deactivate it)"))
            }
        }
        if !writes.isEmpty { results.append(.update(fields, writes)) }
        return results
    }

    /// The writes of an offer code's state, in the order App Store Connect accepts them: new batches and custom
    /// codes first (a deactivated offer code takes none), then deactivations of codes App Store Connect holds.
    struct Writes<API: OfferCodeCodesAPI>: WriteOperation {
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

        /// Everything a new offer code of the catalog needs after its creation: its active codes (a deactivated
        /// one is history, `withoutHistory`).
        init(created offer: OfferRecord) {
            self.init(offerCode: nil, name: offer.identifier ?? "")
            createBatches = (offer.codes?.batches ?? []).filter(\.active)
            createCustom = (offer.codes?.custom ?? []).filter(\.active)
        }

        var isEmpty: Bool {
            createBatches.isEmpty && createCustom.isEmpty && deactivateBatches.isEmpty && deactivateCustom.isEmpty && !deactivateOffer
        }
        var summary: String { "update offer code \(name)" }
        var estimatedRequests: Int {
            createBatches.count + createCustom.count + deactivateBatches.count + deactivateCustom.count + (deactivateOffer ? 1 : 0)
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            guard let offerCode else {
                throw ASCError.unexpectedResponse(operation: "update offer code \(name)", status: nil, reason: "it has no App Store Connect id")
            }
            for batch in createBatches {
                _ = try await API.createBatch(
                    offerCode: offerCode, count: batch.count, expires: CalendarDay.format(batch.expires),
                    environment: batch.environment ?? .production, context: context)
            }
            for code in createCustom {
                _ = try await API.createCustom(
                    offerCode: offerCode, code: code.code, count: code.count,
                    expires: code.expires.map(CalendarDay.format), context: context)
            }
            for id in deactivateBatches { try await API.deactivateBatch(id, context: context) }
            for id in deactivateCustom { try await API.deactivateCustom(id, context: context) }
            if deactivateOffer { try await API.deactivateOfferCode(offerCode, context: context) }
        }
    }
}

/// What both owners' one-time-use batches say of themselves (the generated attribute types already have these).
protocol OneTimeCodeBatchAttributes {
    var numberOfCodes: Int? { get }
    var expirationDate: String? { get }
    var active: Bool? { get }
    var environment: Components.Schemas.OfferCodeEnvironment? { get }
}

/// What both owners' custom codes say of themselves.
protocol CustomCodeAttributes {
    var customCode: String? { get }
    var numberOfCodes: Int? { get }
    var expirationDate: String? { get }
    var active: Bool? { get }
}

extension Components.Schemas.SubscriptionOfferCodeOneTimeUseCode.AttributesPayload: OneTimeCodeBatchAttributes {}
extension Components.Schemas.InAppPurchaseOfferCodeOneTimeUseCode.AttributesPayload: OneTimeCodeBatchAttributes {}
extension Components.Schemas.SubscriptionOfferCodeCustomCode.AttributesPayload: CustomCodeAttributes {}
extension Components.Schemas.InAppPurchaseOfferCodeCustomCode.AttributesPayload: CustomCodeAttributes {}
