import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// A subscription's prices (`subscriptionPrices`), one per territory and billing plan: the USA price point and its
/// equalizations. All territories go in one `PATCH /v1/subscriptions/{id}` with inline creates, which is also the
/// only way App Store Connect takes the first prices of a new subscription.
enum SubscriptionPriceKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    /// One request (or a page per 200 prices): every price with its territory and price point.
    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        let id = product.ids.resource
        let pages = try await reader.pages("reading the prices of subscription \(product.record.productID)") {
            try await $0.subscriptionsPricesGetToManyRelated(path: .init(id: id), query: .init(limit: 200, include: [.subscriptionPricePoint])).ok.body.json
        } next: { $0.links.next }
        var points: [String: String] = [:]
        for case let .subscriptionPricePoints(point) in pages.flatMap({ $0.included ?? [] }) { points[point.id] = point.attributes?.customerPrice }
        var priced: [String: Swift.Set<String>] = [:]
        for price in pages.flatMap(\.data) {
            let plan = price.attributes?.planType?.rawValue ?? "UPFRONT"
            guard let territory = price.relationships?.territory?.data?.id else { continue }
            priced[plan, default: []].insert(territory)
            guard territory == Vocabulary.baseTerritory, let point = price.relationships?.subscriptionPricePoint?.data?.id,
                  let cents = points[point].flatMap({ Price(text: $0)?.cents }) else { continue }
            if plan == "MONTHLY" {
                product.record.monthlyPlan = product.record.monthlyPlan ?? MonthlyPlanRecord()
                product.record.monthlyPlan?.priceCents = cents
            } else {
                product.record.priceCents = cents
            }
        }
        if let upfront = priced["UPFRONT"] { product.record.pricedTerritories = upfront.sorted() }
        if let monthly = priced["MONTHLY"] {
            product.record.monthlyPlan = product.record.monthlyPlan ?? MonthlyPlanRecord()
            product.record.monthlyPlan?.pricedTerritories = monthly.sorted()
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let liveSlices = PlanSlice.slices(of: live?.record)
        for (planType, slice) in PlanSlice.slices(of: wanted).sorted(by: { $0.key > $1.key }) {
            guard let cents = slice.priceCents else { continue }
            let old = liveSlices[planType]
            let territories = slice.availability?.territories ?? builder.territories
            let plan = slice.named ? planType : nil
            let priced = Swift.Set(old?.pricedTerritories ?? [])
            if cents != old?.priceCents {
                builder.add(old?.priceCents == nil ? .create : .update, "subscriptionPrices", wanted, path: slice.path(wanted, "price"),
                            detail: [slice.detail, "\(territories.count) territories"].compactMap { $0 }.joined(separator: ", "),
                            fields: [Change.Field("price", from: old?.priceCents.map(Price.format(cents:)), to: Price.format(cents: cents))],
                            operations: [Set(subscription: product, cents: cents, territories: territories, planType: plan)])
            } else if case let missing = territories.filter({ !priced.contains($0) }), !missing.isEmpty {
                builder.add(.update, "subscriptionPrices", wanted, path: slice.path(wanted, "price"),
                            detail: [slice.detail, "\(missing.count) territories without a price"].compactMap { $0 }.joined(separator: ", "),
                            fields: [Change.Field("pricedTerritories", from: String(priced.count), to: String(priced.count + missing.count))],
                            operations: [Set(subscription: product, cents: cents, territories: missing, planType: plan)])
            }
        }
    }

    /// The USA point (one request) and its equalizations (one more), then every territory's price in one PATCH.
    struct Set: WriteOperation {
        var subscription: ResourceRef
        var cents: Int
        var territories: [String]
        var planType: String?
        var summary: String {
            "set the \(planType.map { $0.lowercased() + " " } ?? "")price \(Price.format(cents: cents)) USD in \(territories.count) territories"
        }
        var estimatedRequests: Int { 3 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            try await context.lookUpPricePoints(product: subscription, subscription: true, cents: cents, territories: territories)
            let id = context.id(subscription)
            let prices = territories.enumerated().map { index, territory in
                Schemas.SubscriptionPriceInlineCreate(
                    _type: .subscriptionPrices, id: "${price-\(index + 1)}",
                    attributes: .init(preserveCurrentPrice: false, planType: planType.flatMap(Schemas.SubscriptionPlanType.init(rawValue:))),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: id)),
                        territory: .init(data: .init(_type: .territories, id: territory)),
                        subscriptionPricePoint: .init(data: .init(
                            _type: .subscriptionPricePoints, id: context.pricePoint(product: subscription, cents: cents, territory: territory)))))
            }
            let body = Schemas.SubscriptionUpdateRequest(
                data: .init(_type: .subscriptions, id: id,
                            relationships: .init(prices: .init(data: prices.map { .init(_type: .subscriptionPrices, id: $0.id ?? "") }))),
                included: prices.map { .SubscriptionPriceInlineCreate($0) })
            _ = try await context.send { try await $0.subscriptionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        }
    }
}
