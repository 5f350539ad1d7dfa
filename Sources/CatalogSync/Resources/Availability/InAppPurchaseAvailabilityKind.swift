import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// Where an in-app purchase is sold (`inAppPurchaseAvailabilities`): its territories and whether new ones are added.
enum InAppPurchaseAvailabilityKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["inAppPurchaseAvailability"]

    /// The availability sent with the list, and whether the list named the relationship at all: in-app purchases
    /// made before 2023 are answered without it, and where they are sold is then unknown, not nowhere.
    static func listed(_ listing: InAppPurchaseListing) -> (availability: Schemas.InAppPurchaseAvailability?, answered: Bool) {
        let link = listing.resource.relationships?.inAppPurchaseAvailability
        let answered = link != nil && !listing.unanswered.contains("inAppPurchaseAvailability")
        return (listing.one(link?.data?.id) { if case let .inAppPurchaseAvailabilities(item) = $0 { item } else { nil } }, answered)
    }

    /// The availability comes with the list; its territories take one request.
    /// One page of territories (up to 200).
    static func estimatedReads(_ listing: InAppPurchaseListing) -> Int { listed(listing).availability == nil ? 0 : 1 }

    static func read(into product: inout StoreProduct, listing: InAppPurchaseListing, reader: StoreReader) async throws(SyncError) {
        let listed = listed(listing)
        guard listed.answered else {
            let why =
                listing.unanswered.contains("inAppPurchaseAvailability")
                ? "App Store Connect answered its availability with links only, though iapkit asked for it"
                : "App Store Connect answered no availability for it (as it answers in-app purchases made before 2023, "
                    + "sold by the retired all-territories setting)"
            product.unanswered("availability", of: .inAppPurchaseAvailability, why + "; the catalog names none: add `availability` to manage it")
            product.unanswered.insert("inAppPurchaseAvailability")
            return
        }
        guard let availability = listed.availability else {
            product.record.availability = .nowhere
            return
        }
        product.ids.availability = availability.id
        let territories = try await reader.pages("reading the territories of in-app purchase \(product.record.productID)") {
            try await $0.inAppPurchaseAvailabilitiesAvailableTerritoriesGetToManyRelated(path: .init(id: availability.id), query: .init(limit: 200))
                .ok.body.json
        } next: {
            $0.links.next
        }.flatMap { $0.data.map(\.id) }
        product.record.availability = AvailabilityRecord(
            territories: territories,
            availableInNewTerritories: availability.attributes?.availableInNewTerritories ?? false)
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        guard let availability = wanted.availability else { return }
        let unanswered = live?.unanswered.contains("availability") == true
        // Unanswered and not declared: the note's `?` says it all; the catalog's default is no reason to write.
        guard unanswered ? wanted.availabilityDeclared : availability != live?.record.availability else { return }
        let fields =
            unanswered
            ? [
                Change.Field.unanswered("territories", to: String(availability.territories.count)),
                .unanswered("availableInNewTerritories", to: String(availability.availableInNewTerritories)),
            ]
            : PlanBuilder.availabilityFields(from: live?.record.availability, to: availability)
        // The line of the value shown: the availability, or the one key of it that changed.
        let path = wanted.path.map { fields.count == 1 ? $0 / "availability" / fields[0].name : $0 / "availability" }
        builder.add(
            live?.ids.availability == nil ? .create : .update, .inAppPurchaseAvailability, wanted, path: path,
            fields: fields, operations: [Set(product: product, availability: availability)])
    }

    /// A new availability replaces the product's current one.
    struct Set: WriteOperation {
        var product: ResourceRef
        var availability: AvailabilityRecord
        var summary: String { "set availability (\(availability.territories.count) territories)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let body = Schemas.InAppPurchaseAvailabilityCreateRequest(
                data: .init(
                    _type: .inAppPurchaseAvailabilities,
                    attributes: .init(availableInNewTerritories: availability.availableInNewTerritories),
                    relationships: .init(
                        inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: context.id(product))),
                        availableTerritories: .init(data: availability.territories.map { .init(_type: .territories, id: $0) }))))
            _ = try await context.send { try await $0.inAppPurchaseAvailabilitiesCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
