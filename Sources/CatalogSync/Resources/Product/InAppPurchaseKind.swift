import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// The in-app purchase itself (`inAppPurchases`, v2): product ID and type (fixed once created), reference name,
/// review note and family sharing (which App Store Connect never turns off again).
enum InAppPurchaseKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    static func ref(_ productID: String) -> String { "iap:\(productID)" }

    /// The list entry holds every attribute: nothing more to read.
    static func estimatedReads(_ listing: InAppPurchaseListing) -> Int { 0 }

    static func read(into product: inout StoreProduct, listing: InAppPurchaseListing, reader: StoreReader) async throws(SyncError) {}

    /// The record of a listed in-app purchase, or nil for one the catalog cannot describe.
    static func record(_ purchase: Schemas.InAppPurchaseV2) -> StoreProduct? {
        guard let attributes = purchase.attributes, let productID = attributes.productId,
            let type = attributes.inAppPurchaseType.flatMap({ Vocabulary.productType(api: $0.rawValue) })
        else { return nil }
        let record = ProductRecord(
            productID: productID, referenceName: attributes.name ?? productID, type: type,
            familySharable: attributes.familySharable ?? false,
            reviewNote: attributes.reviewNote.flatMap { $0.isEmpty ? nil : $0 })
        return StoreProduct(record: record, ids: ProductIDs(resource: purchase.id), state: attributes.state?.rawValue)
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        guard let live else {
            builder.add(
                .create, .inAppPurchase, wanted, fields: PlanBuilder.creationFields(wanted),
                operations: [Create(ref: ref(wanted.productID), app: builder.app.id, record: wanted)])
            return
        }
        let update = ProductAttributes.compare(wanted, live: live.record, resource: .inAppPurchase, builder: &builder)
        if !update.fields.isEmpty {
            builder.add(
                .update, .inAppPurchase, wanted, fields: update.fields,
                operations: [
                    Update(
                        product: product, referenceName: update.referenceName, reviewNote: update.reviewNote,
                        familySharable: update.familySharable)
                ])
        } else if !builder.changes.contains(where: { $0.productID == wanted.productID && $0.resource == .inAppPurchase }) {
            builder.add(.unchanged, .inAppPurchase, wanted)
        }
    }

    struct Create: WriteOperation {
        var ref: String
        var app: String
        var record: ProductRecord
        var summary: String { "create in-app purchase \(record.productID)" }
        var createdRef: String? { ref }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let type = Schemas.InAppPurchaseType(rawValue: Vocabulary.apiProductType(record.type) ?? "") ?? .consumable
            let body = Schemas.InAppPurchaseV2CreateRequest(
                data: .init(
                    _type: .inAppPurchases,
                    attributes: .init(
                        name: record.referenceName, productId: record.productID, inAppPurchaseType: type,
                        reviewNote: record.reviewNote, familySharable: record.familySharable),
                    relationships: .init(app: .init(data: .init(_type: .apps, id: app)))))
            let id = try await context.send { try await $0.inAppPurchasesV2CreateInstance(body: .json(body)).created.body.json.data.id }
            context.record(created: id, as: ref)
        }
    }

    struct Update: WriteOperation {
        var product: ResourceRef
        var referenceName: String?
        var reviewNote: String?
        var familySharable: Bool?
        var summary: String { "update in-app purchase \(product)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let id = context.id(product)
            let body = Schemas.InAppPurchaseV2UpdateRequest(
                data: .init(
                    _type: .inAppPurchases, id: id, attributes: .init(name: referenceName, reviewNote: reviewNote, familySharable: familySharable)))
            _ = try await context.send { try await $0.inAppPurchasesV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
        }
    }
}

extension InAppPurchaseKind {
    /// `DELETE /v2/inAppPurchases/{id}` (`asc push --prune`, for a product never submitted).
    struct Delete: WriteOperation {
        var id: String
        var productID: String
        var summary: String { "delete in-app purchase \(productID)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            _ = try await context.send { try await $0.inAppPurchasesV2DeleteInstance(path: .init(id: id)).noContent }
        }
    }
}
