import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import IAPCore

/// The products the App Store shows on the app's page (`promotedPurchases`), in the app's order. A catalog that
/// lists them owns the whole list: entries are created, updated and removed, then ordered as the catalog orders them.
enum PromotedPurchaseKind: AppResourceKind {
    typealias Schemas = Components.Schemas

    static func ref(_ productID: String) -> String { "promotedPurchase:\(productID)" }

    /// One page holds every promoted purchase (App Store Connect allows 20).
    static var estimatedReads: Int { 1 }

    static func read(into snapshot: inout StoreSnapshot, reader: StoreReader) async throws(SyncError) {
        let app = snapshot.app.id
        let pages = try await reader.pages("listing the app's promoted purchases") {
            try await $0.appsPromotedPurchasesGetToManyRelated(
                path: .init(id: app),
                query: .init(
                    fieldsInAppPurchases: [.productId], fieldsSubscriptions: [.productId], limit: 200,
                    include: [.inAppPurchaseV2, .subscription])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var productIDs: [String: String] = [:]
        for item in pages.flatMap({ $0.included ?? [] }) {
            switch item {
            case let .inAppPurchases(product): productIDs["inAppPurchases:" + product.id] = product.attributes?.productId
            case let .subscriptions(product): productIDs["subscriptions:" + product.id] = product.attributes?.productId
            }
        }
        let all = pages.flatMap(\.data)
        snapshot.promotedPurchases = all.compactMap { promoted in
            let product =
                promoted.relationships?.inAppPurchaseV2?.data.map { "inAppPurchases:" + $0.id }
                ?? promoted.relationships?.subscription?.data.map { "subscriptions:" + $0.id }
            guard let productID = product.flatMap({ productIDs[$0] }) else { return nil }
            return (
                promoted.id,
                PromotedRecord(
                    productID: productID, visibleForAllUsers: promoted.attributes?.visibleForAllUsers ?? true,
                    enabled: promoted.attributes?.enabled ?? true)
            )
        }
        let unnamed = all.count - snapshot.promotedPurchases.count
        if unnamed > 0 {
            snapshot.appNotes.append(
                "App Store Connect answered " + Format.count(unnamed, "promoted purchase")
                    + " that name" + (unnamed == 1 ? "s" : "") + " no product of the app; the catalog's promotedPurchases leave "
                    + (unnamed == 1 ? "it" : "them") + " out")
        }
    }

    static func plan(_ desired: CatalogRecords, store: StoreSnapshot, builder: inout PlanBuilder) {
        guard let wanted = desired.promotedPurchases else {
            for live in store.promotedPurchases { builder.unmanaged(.promotedPurchase, nil, detail: live.record.productID) }
            return
        }
        let live = Dictionary(store.promotedPurchases.map { ($0.record.productID, $0) }, uniquingKeysWith: { a, _ in a })
        let products = productRefs(desired, store: store)
        var order: [ResourceRef] = []
        for entry in wanted {
            guard let product = products[entry.productID] else {
                builder.add(
                    .refused, .promotedPurchase, nil, path: entry.path, detail: entry.productID,
                    reason: "no product of the catalog or of App Store Connect has this ID")
                continue
            }
            guard let existing = live[entry.productID] else {
                builder.add(
                    .create, .promotedPurchase, nil, path: entry.path, detail: entry.productID,
                    fields: fields(from: nil, to: entry),
                    operations: [Create(app: store.app.id, product: product.ref, subscription: product.subscription, record: entry)])
                order.append(.created(ref(entry.productID)))
                continue
            }
            order.append(.id(existing.id))
            if existing.record == entry {
                builder.add(.unchanged, .promotedPurchase, nil, path: entry.path, detail: entry.productID)
            } else {
                builder.add(
                    .update, .promotedPurchase, nil, path: entry.path, detail: entry.productID,
                    fields: fields(from: existing.record, to: entry), operations: [Update(id: existing.id, record: entry)])
            }
        }
        let kept = Set(wanted.map(\.productID))
        let removed = store.promotedPurchases.filter { !kept.contains($0.record.productID) }
        for old in removed {
            builder.add(
                .update, .promotedPurchase, nil, detail: old.record.productID,
                fields: [Change.Field("promoted", from: "true", to: "false")], operations: [Delete(id: old.id)])
        }
        // The order App Store Connect will have after the push (new entries go to the end); sent only when it is not the catalog's.
        let after =
            store.promotedPurchases.filter { kept.contains($0.record.productID) }.map { ResourceRef.id($0.id) }
            + order.filter(\.isCreated)
        if order != after {
            builder.add(
                .update, .promotedPurchases, nil, path: CatalogPath.root / "promotedPurchases",
                detail: "order",
                fields: [
                    Change.Field(
                        "order", from: store.promotedPurchases.map(\.record.productID).joined(separator: ", "),
                        to: wanted.map(\.productID).joined(separator: ", "))
                ],
                operations: [Reorder(app: store.app.id, order: order)])
        }
    }

    static func fields(from old: PromotedRecord?, to new: PromotedRecord) -> [Change.Field] {
        var fields: [Change.Field] = []
        if old?.visibleForAllUsers != new.visibleForAllUsers {
            fields.append(Change.Field("visibleForAllUsers", from: old.map { String($0.visibleForAllUsers) }, to: String(new.visibleForAllUsers)))
        }
        if old?.enabled != new.enabled {
            fields.append(Change.Field("enabled", from: old.map { String($0.enabled) }, to: String(new.enabled)))
        }
        return fields
    }

    /// Each product the promoted list can name: App Store Connect's, or the catalog's created earlier in the push.
    static func productRefs(_ desired: CatalogRecords, store: StoreSnapshot) -> [String: (ref: ResourceRef, subscription: Bool)] {
        var refs: [String: (ref: ResourceRef, subscription: Bool)] = [:]
        for product in desired.inAppPurchases { refs[product.productID] = (.created(InAppPurchaseKind.ref(product.productID)), false) }
        for product in desired.groups.flatMap(\.subscriptions) { refs[product.productID] = (.created(SubscriptionKind.ref(product.productID)), true) }
        for product in store.inAppPurchases { refs[product.record.productID] = (.id(product.ids.resource), false) }
        for product in store.groups.flatMap(\.subscriptions) { refs[product.record.productID] = (.id(product.ids.resource), true) }
        return refs
    }

    /// `POST /v1/promotedPurchases`; App Store Connect adds it at the end of the app's order.
    struct Create: WriteOperation {
        var app: String
        var product: ResourceRef
        var subscription: Bool
        var record: PromotedRecord
        var summary: String { "promote \(record.productID)" }
        var createdRef: String? { PromotedPurchaseKind.ref(record.productID) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let productID = context.id(product)
            let body = Schemas.PromotedPurchaseCreateRequest(
                data: .init(
                    _type: .promotedPurchases,
                    attributes: .init(visibleForAllUsers: record.visibleForAllUsers, enabled: record.enabled),
                    relationships: .init(
                        app: .init(data: .init(_type: .apps, id: app)),
                        inAppPurchaseV2: subscription ? nil : .init(data: .init(_type: .inAppPurchases, id: productID)),
                        subscription: subscription ? .init(data: .init(_type: .subscriptions, id: productID)) : nil)))
            let id = try await context.send { try await $0.promotedPurchasesCreateInstance(body: .json(body)).created.body.json.data.id }
            context.record(created: id, as: PromotedPurchaseKind.ref(record.productID))
        }
    }

    /// `PATCH /v1/promotedPurchases/{id}`.
    struct Update: WriteOperation {
        var id: String
        var record: PromotedRecord
        var summary: String { "update promoted purchase \(record.productID)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let body = Schemas.PromotedPurchaseUpdateRequest(
                data: .init(
                    _type: .promotedPurchases, id: id,
                    attributes: .init(visibleForAllUsers: record.visibleForAllUsers, enabled: record.enabled)))
            _ = try await context.send { try await $0.promotedPurchasesUpdateInstance(path: .init(id: id), body: .json(body)).ok.body.json }
        }
    }

    /// `DELETE /v1/promotedPurchases/{id}`: the product stays; the App Store stops showing it on the app's page.
    struct Delete: WriteOperation {
        var id: String
        var summary: String { "stop promoting \(id)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            _ = try await context.send { try await $0.promotedPurchasesDeleteInstance(path: .init(id: id)).noContent }
        }
    }

    /// `PATCH /v1/apps/{id}/relationships/promotedPurchases`: the whole list, in the catalog's order.
    struct Reorder: WriteOperation {
        var app: String
        var order: [ResourceRef]
        var summary: String { "order the promoted purchases" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let body = Schemas.AppPromotedPurchasesLinkagesRequest(data: order.map { .init(_type: .promotedPurchases, id: context.id($0)) })
            _ = try await context.send {
                try await $0.appsPromotedPurchasesReplaceToManyRelationship(path: .init(id: app), body: .json(body)).noContent
            }
        }
    }
}

extension ResourceRef {
    var isCreated: Bool { if case .created = self { true } else { false } }
}
