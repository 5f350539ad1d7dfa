import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// Where a subscription's billing plan is sold (`subscriptionPlanAvailabilities`, one per plan type: the standard
/// UPFRONT plan, and MONTHLY for a monthly plan). Replaces the deprecated `subscriptionAvailabilities`.
enum SubscriptionPlanAvailabilityKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["planAvailabilities"]

    /// The billing plans' availabilities sent with the list.
    static func listed(_ listing: SubscriptionListing) -> [Schemas.SubscriptionPlanAvailability] {
        (listing.resource.relationships?.planAvailabilities?.data ?? []).compactMap { link in
            listing.one(link.id) { if case let .subscriptionPlanAvailabilities(item) = $0 { item } else { nil } }
        }
    }

    /// The plan availabilities come with the list; each one's territories take one request.
    /// One page of territories per billing plan.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int { listed(listing).count }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        if listing.unanswered.contains("planAvailabilities") {
            product.unanswered(
                "availability", of: .subscriptionPlanAvailability,
                "App Store Connect answered its plan availabilities with links only, though iapkit asked for them; "
                    + "where it is sold is unknown, not nowhere")
            product.unanswered.insert("planAvailabilities")
            return
        }
        for plan in listed(listing) {
            let planID = plan.id
            let territories = try await reader.pages("reading the territories of subscription \(product.record.productID)") {
                try await $0.subscriptionPlanAvailabilitiesAvailableTerritoriesGetToManyRelated(path: .init(id: planID), query: .init(limit: 200)).ok
                    .body.json
            } next: {
                $0.links.next
            }.flatMap { $0.data.map(\.id) }
            let availability = AvailabilityRecord(
                territories: territories,
                availableInNewTerritories: plan.attributes?.availableInNewTerritories ?? false)
            if plan.attributes?.planType?.rawValue == "MONTHLY" {
                product.record.monthlyPlan = product.record.monthlyPlan ?? MonthlyPlanRecord()
                product.record.monthlyPlan?.availability = availability
                product.ids.monthlyAvailability = plan.id
            } else {
                product.record.availability = availability
                product.ids.availability = plan.id
            }
        }
        if product.record.availability == nil { product.record.availability = .nowhere }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let liveSlices = PlanSlice.slices(of: live?.record)
        for (planType, slice) in PlanSlice.slices(of: wanted).sorted(by: { $0.key > $1.key }) {
            let old = liveSlices[planType]?.availability
            guard let availability = slice.availability, availability != old else { continue }
            let existing = planType == "MONTHLY" ? live?.ids.monthlyAvailability : live?.ids.availability
            builder.add(
                existing == nil ? .create : .update, .subscriptionPlanAvailability, wanted, detail: slice.detail,
                fields: PlanBuilder.availabilityFields(from: old, to: availability),
                operations: [Set(subscription: product, existing: existing, availability: availability, planType: planType)])
        }
    }

    /// Creates the plan's availability, or updates the one it has.
    struct Set: WriteOperation {
        var subscription: ResourceRef
        var existing: String?
        var availability: AvailabilityRecord
        var planType: String
        var summary: String { "set \(planType.lowercased()) plan availability (\(availability.territories.count) territories)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            if let existing {
                let body = Schemas.SubscriptionPlanAvailabilityUpdateRequest(
                    data: .init(
                        _type: .subscriptionPlanAvailabilities, id: existing,
                        attributes: .init(availableInNewTerritories: availability.availableInNewTerritories),
                        relationships: .init(availableTerritories: .init(data: availability.territories.map { .init(_type: .territories, id: $0) }))))
                _ = try await context.send {
                    try await $0.subscriptionPlanAvailabilitiesUpdateInstance(path: .init(id: existing), body: .json(body)).ok
                }
                return
            }
            let body = Schemas.SubscriptionPlanAvailabilityCreateRequest(
                data: .init(
                    _type: .subscriptionPlanAvailabilities,
                    attributes: .init(
                        availableInNewTerritories: availability.availableInNewTerritories,
                        planType: Schemas.SubscriptionPlanType(rawValue: planType) ?? .upfront),
                    relationships: .init(
                        availableTerritories: .init(data: availability.territories.map { .init(_type: .territories, id: $0) }),
                        subscription: .init(data: .init(_type: .subscriptions, id: context.id(subscription))))))
            _ = try await context.send { try await $0.subscriptionPlanAvailabilitiesCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
