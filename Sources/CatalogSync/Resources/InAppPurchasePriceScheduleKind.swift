import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// An in-app purchase's price schedule (`inAppPurchasePriceSchedules`): the USD price in the base territory, from
/// which App Store Connect equalizes every other territory. One request sets it with its manual prices inline.
enum InAppPurchasePriceScheduleKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    /// The schedule comes with the list; its current USA price takes one request.
    static func read(into product: inout StoreProduct, listing: InAppPurchaseListing, reader: StoreReader) async throws(SyncError) {
        guard let schedule = listing.priceSchedule else { return }
        let prices = try await reader.pages("reading the price of in-app purchase \(product.record.productID)") {
            try await $0.inAppPurchasePriceSchedulesManualPricesGetToManyRelated(
                path: .init(id: schedule.id),
                query: .init(filterTerritory: [Vocabulary.baseTerritory], limit: 200, include: [.inAppPurchasePricePoint])
            ).ok.body.json
        } next: { $0.links.next }
        var points: [String: String] = [:]
        for case let .inAppPurchasePricePoints(point) in prices.flatMap({ $0.included ?? [] }) {
            points[point.id] = point.attributes?.customerPrice
        }
        // The current manual price: one without an end date.
        let current = prices.flatMap(\.data).first { $0.attributes?.endDate == nil } ?? prices.flatMap(\.data).first
        if let pointID = current?.relationships?.inAppPurchasePricePoint?.data?.id, let text = points[pointID] {
            product.record.priceCents = Price(text: text)?.cents
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        guard let cents = wanted.priceCents, cents != live?.record.priceCents else { return }
        builder.add(live?.record.priceCents == nil ? .create : .update, "inAppPurchasePriceSchedule", wanted,
                    path: wanted.path.map { $0 / "price" },
                    fields: [Change.Field("price", from: live?.record.priceCents.map(Price.format(cents:)), to: Price.format(cents: cents))],
                    operations: [Set(product: product, cents: cents)])
    }

    /// Looks up the USA price point (one request), then sends the schedule with its price inline.
    struct Set: WriteOperation {
        var product: ResourceRef
        var cents: Int
        var summary: String { "set the USD price \(Price.format(cents: cents))" }
        var estimatedRequests: Int { 2 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            try await context.lookUpPricePoints(product: product, subscription: false, cents: cents, territories: [])
            let productID = context.id(product)
            let local = "${price-1}"
            let point = context.pricePoint(product: product, cents: cents, territory: Vocabulary.baseTerritory)
            let body = Schemas.InAppPurchasePriceScheduleCreateRequest(
                data: .init(_type: .inAppPurchasePriceSchedules, relationships: .init(
                    inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: productID)),
                    baseTerritory: .init(data: .init(_type: .territories, id: Vocabulary.baseTerritory)),
                    manualPrices: .init(data: [.init(_type: .inAppPurchasePrices, id: local)]))),
                included: [.InAppPurchasePriceInlineCreate(.init(
                    _type: .inAppPurchasePrices, id: local, attributes: .init(startDate: nil),
                    relationships: .init(inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: productID)),
                                         inAppPurchasePricePoint: .init(data: .init(_type: .inAppPurchasePricePoints, id: point)))))])
            _ = try await context.send { try await $0.inAppPurchasePriceSchedulesCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
