import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// A product's offer codes, by name, for either owner (`InAppPurchaseOfferCodeAPI`, `SubscriptionOfferCodeAPI`).
/// Their terms are fixed once created; whether an offer code is active, its one-time-use batches and its custom
/// codes change in place (`OfferCodesRecord`): batches and custom codes are created and deactivated, never deleted
/// (App Store Connect cannot).
enum OfferCodeKind<API: OfferCodeAPI>: ProductResourceKind {
    typealias Listing = API.Listing
    static var listRelations: [String] { ["offerCodes"] }

    /// One read of the offer codes with their batches and custom codes when there are any, and each one's prices.
    static func estimatedReads(_ listing: Listing) -> Int {
        let codes = API.listed(listing)
        return (codes.items.isEmpty && codes.complete ? 0 : 1) + codes.items.count
    }

    static func read(into product: inout StoreProduct, listing: Listing, reader: StoreReader) async throws(SyncError) {
        let listed = API.listed(listing)
        guard !listed.items.isEmpty || !listed.complete else { return }
        let context = "reading the offer codes of \(API.owner) \(product.record.productID)"
        let (offers, parts) = try await API.offerCodes(owner: product.ids.resource, reader: reader, context: context)
        for offer in offers {
            guard let name = offer.terms.identifier else { continue }
            var code = offer.terms
            try await API.readPrices(of: offer.id, into: &code, product: &product, reader: reader, context: context)
            product.ids.offerCodes[name] = offer.id
            code.codes = parts.record(
                name: name, active: offer.active, batchIDs: offer.batchIDs, batchesMeta: offer.batchesMeta,
                customIDs: offer.customIDs, customsMeta: offer.customsMeta, resource: API.resource, into: &product)
            product.record.offerCodes.append(code)
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let territories = API.territories(for: wanted, builder: builder)
        var wanted = wanted
        wanted.offerCodes = OfferCodeCodes.withoutHistory(wanted.offerCodes, live: live?.record.offerCodes ?? [])
        let offers = API.offersNow(wanted, live: live, builder: &builder)
        OfferRequests.compare(
            API.resource, wanted: offers,
            existing: OfferCodeCodes.comparable(live?.record.offerCodes ?? [], wanted: offers),
            product: wanted, key: "offerCodes", territories: API.namesTerritories ? territories : nil, builder: &builder,
            update: { OfferCodeCodes.update($0, to: $1, live: live, api: API.self) }
        ) {
            Create(owner: product, offer: $0, territories: territories)
        }
    }

    /// Creates the offer code with its prices inline, then its batches and custom codes (only active ones: what the
    /// catalog keeps deactivated is history, never made anew).
    struct Create: WriteOperation {
        var owner: ResourceRef
        var offer: OfferRecord
        var territories: [String]
        var summary: String { "create offer code \(offer.identifier ?? "")" }
        var estimatedRequests: Int { OfferRequests.estimate(offer) + OfferCodeCodes.Writes<API>(created: offer).estimatedRequests }

        func perform(_ context: WriteContext) async throws(ASCError) {
            var writes = OfferCodeCodes.Writes<API>(created: offer)
            writes.offerCode = try await API.create(offer, owner: owner, territories: territories, context)
            try await writes.perform(context)
        }
    }
}

/// An offer code as its owner's list of them answers it: its terms (without prices and codes, read apart) and the
/// linkage of its batches and custom codes.
struct ListedOfferCode: Sendable {
    var id: String
    /// Named by its reference name (`identifier`).
    var terms: OfferRecord
    var active: Bool?
    var batchIDs: [String]
    var batchesMeta: Components.Schemas.PagingInformation?
    var customIDs: [String]
    var customsMeta: Components.Schemas.PagingInformation?
}

/// The requests of one owner's offer codes, beyond those of their codes (`OfferCodeCodesAPI`): what differs between
/// an in-app purchase's and a subscription's is the types, the terms and where a new one is set.
protocol OfferCodeAPI: OfferCodeCodesAPI {
    associatedtype Listing: Sendable
    associatedtype Listed: Sendable
    /// `inAppPurchaseOfferCode`, `subscriptionOfferCode`.
    static var resource: ResourceName { get }
    /// `in-app purchase`, `subscription`: for people.
    static var owner: String { get }
    /// Whether the offer codes name their territories (a subscription's do; an in-app purchase's are set wherever
    /// the purchase is sold).
    static var namesTerritories: Bool { get }
    /// The offer codes the owner's list entry sent along, and whether they are all it has.
    static func listed(_ listing: Listing) -> Included<Listed>
    /// The owner's offer codes, with their batches and custom codes sent along.
    static func offerCodes(
        owner: String, reader: StoreReader, context: String
    ) async throws(SyncError) -> (offers: [ListedOfferCode], parts: OfferCodeCodes.IncludedParts)
    /// Reads one offer code's prices into its record.
    static func readPrices(
        of offerCode: String, into offer: inout OfferRecord, product: inout StoreProduct, reader: StoreReader, context: String
    ) async throws(SyncError)
    /// Where a new offer code is set.
    static func territories(for wanted: ProductRecord, builder: PlanBuilder) -> [String]
    /// The offer codes the plan makes now; the rest it shows as waiting.
    static func offersNow(_ wanted: ProductRecord, live: StoreProduct?, builder: inout PlanBuilder) -> [OfferRecord]
    /// Creates the offer code with its prices; its id.
    static func create(_ offer: OfferRecord, owner: ResourceRef, territories: [String], _ context: WriteContext) async throws(ASCError) -> String
}

extension OfferCodeAPI {
    static func offersNow(_ wanted: ProductRecord, live: StoreProduct?, builder: inout PlanBuilder) -> [OfferRecord] { wanted.offerCodes }
}
