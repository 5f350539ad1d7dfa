import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// The auto-renewable subscription itself (`subscriptions`): product ID and period (fixed once set), reference
/// name, review note, family sharing (never turned off again) and its level in the group.
enum SubscriptionKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    static func ref(_ productID: String) -> String { "subscription:\(productID)" }

    /// The list entry holds every attribute: nothing more to read.
    /// The list entry is the whole resource.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int { 0 }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {}

    static func record(_ subscription: Schemas.Subscription) -> StoreProduct? {
        guard let attributes = subscription.attributes, let productID = attributes.productId else { return nil }
        let record = ProductRecord(
            productID: productID, referenceName: attributes.name ?? productID, type: .autoRenewableSubscription,
            familySharable: attributes.familySharable ?? false,
            reviewNote: attributes.reviewNote.flatMap { $0.isEmpty ? nil : $0 },
            period: attributes.subscriptionPeriod.flatMap { Vocabulary.isoDuration($0.rawValue) },
            groupLevel: attributes.groupLevel)
        return StoreProduct(record: record, ids: ProductIDs(resource: subscription.id), state: attributes.state?.rawValue)
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        guard let live else {
            builder.groupSize += 1
            var created = wanted
            // A level must lie within the group's size when it is set: beyond it, it is set once the group is whole.
            if let level = wanted.groupLevel, level > builder.groupSize {
                created.groupLevel = nil
                builder.deferredLevels.append(Update(subscription: product, groupLevel: level))
            }
            builder.add(
                .create, "subscription", wanted, fields: PlanBuilder.creationFields(wanted),
                operations: [Create(ref: ref(wanted.productID), group: groupRef(builder), record: created)])
            return
        }
        let before = builder.changes.count
        if var update = ProductAttributes.compare(wanted, live: live.record, resource: "subscription", builder: &builder) {
            // The same for a level raised past the group's size now (its other subscriptions are created later).
            if let level = update.groupLevel, level > builder.groupSize {
                update.groupLevel = nil
                builder.deferredLevels.append(Update(subscription: product, groupLevel: level))
            }
            let now = update.referenceName != nil || update.reviewNote != nil || update.familySharable != nil || update.groupLevel != nil
            builder.add(
                .update, "subscription", wanted, fields: update.fields,
                operations: now
                    ? [
                        Update(
                            subscription: product, referenceName: update.referenceName, reviewNote: update.reviewNote,
                            familySharable: update.familySharable, groupLevel: update.groupLevel)
                    ] : [])
        } else if builder.changes.count == before {
            builder.add(.unchanged, "subscription", wanted)
        }
    }

    /// The group the subscriptions being planned belong to: the latest group change names it.
    static func groupRef(_ builder: PlanBuilder) -> ResourceRef {
        builder.currentGroup ?? .created("group")
    }

    struct Create: WriteOperation {
        var ref: String
        var group: ResourceRef
        var record: ProductRecord
        var summary: String { "create subscription \(record.productID)" }
        var createdRef: String? { ref }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let period = record.period.flatMap(Vocabulary.apiDuration).flatMap {
                Schemas.SubscriptionCreateRequest.DataPayload.AttributesPayload.SubscriptionPeriodPayload(rawValue: $0)
            }
            let body = Schemas.SubscriptionCreateRequest(
                data: .init(
                    _type: .subscriptions,
                    attributes: .init(
                        name: record.referenceName, productId: record.productID, familySharable: record.familySharable,
                        subscriptionPeriod: period, reviewNote: record.reviewNote, groupLevel: record.groupLevel),
                    relationships: .init(group: .init(data: .init(_type: .subscriptionGroups, id: context.id(group))))))
            let id = try await context.send { try await $0.subscriptionsCreateInstance(body: .json(body)).created.body.json.data.id }
            context.record(created: id, as: ref)
        }
    }

    struct Update: WriteOperation {
        var subscription: ResourceRef
        var referenceName: String?
        var reviewNote: String?
        var familySharable: Bool?
        var groupLevel: Int?
        var summary: String { "update subscription \(subscription)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let id = context.id(subscription)
            let body = Schemas.SubscriptionUpdateRequest(
                data: .init(
                    _type: .subscriptions, id: id,
                    attributes: .init(name: referenceName, familySharable: familySharable, reviewNote: reviewNote, groupLevel: groupLevel)))
            _ = try await context.send { try await $0.subscriptionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        }
    }
}

extension SubscriptionKind {
    /// `DELETE /v1/subscriptions/{id}` (`asc push --prune`, for a subscription never submitted).
    struct Delete: WriteOperation {
        var id: String
        var productID: String
        var summary: String { "delete subscription \(productID)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            _ = try await context.send { try await $0.subscriptionsDeleteInstance(path: .init(id: id)).noContent }
        }
    }
}
