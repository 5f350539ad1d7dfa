import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import IAPCore

/// A subscription's prices (`subscriptionPrices`), one per territory, billing plan and start date: the USA price
/// point and its equalizations, the territories priced by hand, and scheduled changes with what existing
/// subscribers pay (`preserveCurrentPrice`). Every price of one change goes in one `PATCH /v1/subscriptions/{id}`
/// with inline creates, which is also the only way App Store Connect takes the first prices of a new subscription.
enum SubscriptionPriceKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.subscriptionPrices

    /// One request (or a page per 200 prices): every price with its territory and point; plus, once per USD price
    /// and billing plan for the whole app, what it equalizes to, to tell hand-set territory prices from equalized ones.
    /// One page of prices with their points (what a USD price equalizes to is read once for the app: see
    /// `CatalogRecords.equalizationReads`).
    static func estimatedReads(_ listing: SubscriptionListing) -> Int { 1 }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {
        let id = product.ids.resource
        let pages = try await reader.pages("reading the prices of subscription \(product.record.productID)") {
            try await $0.subscriptionsPricesGetToManyRelated(
                path: .init(id: id), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var points: [String: String] = [:]
        for case let .subscriptionPricePoints(point) in pages.flatMap({ $0.included ?? [] }) { points[point.id] = point.attributes?.customerPrice }
        var priced: [String: Swift.Set<String>] = [:]
        var byPlan: [String: [DatedPrice]] = [:]
        var usaPoints: [String: [Int: String]] = [:]
        let today = reader.today
        var unread = 0
        for price in pages.flatMap(\.data) {
            let plan = price.attributes?.planType?.rawValue ?? "UPFRONT"
            guard let territory = price.relationships?.territory?.data?.id, let point = price.relationships?.subscriptionPricePoint?.data?.id,
                let customer = points[point].flatMap(LocalPrice.canonical)
            else {
                unread += 1
                continue
            }
            let day = price.attributes?.startDate.flatMap(CalendarDay.parse)
            priced[plan, default: []].insert(territory)
            if territory == Vocabulary.baseTerritory, let cents = Price(text: customer)?.cents { usaPoints[plan, default: [:]][cents] = point }
            if let day, day > today { product.ids.scheduledPrices[plan, default: [:]][day, default: []].append(price.id) }
            byPlan[plan, default: []].append(
                DatedPrice(
                    territory: territory, day: day, price: customer,
                    keepsExistingSubscribers: price.attributes?.preserved))
        }
        if unread > 0 {
            product.notes.append(.unlinked(unread, "price", without: "its territory or price point", resource: resource))
            // Prices read in part are not the prices: a change to them is `? -> new`, never from what was read.
            product.unanswered.insert("price")
        }
        for (plan, prices) in byPlan {
            var tables: [Int: [String: String]] = [:]
            if prices.contains(where: { $0.territory != Vocabulary.baseTerritory }) {
                for (cents, point) in usaPoints[plan] ?? [:] {
                    tables[cents] = try await reader.equalization(ofPoint: point, cents: cents, plan: plan)
                }
            }
            var view = ProductRecord(productID: product.record.productID, referenceName: "", type: .autoRenewableSubscription)
            DatedPrice.apply(prices, to: &view, today: today) { cents, territory in tables[cents]?[territory] }
            // Priced today: a territory whose only price is still to come has none yet.
            priced[plan] = Swift.Set(view.currentPrices.keys)
            if plan == "MONTHLY" {
                var monthly = product.record.monthlyPlan ?? MonthlyPlanRecord()
                (monthly.priceCents, monthly.territoryPrices, monthly.priceChanges) = (view.priceCents, view.territoryPrices, view.priceChanges)
                monthly.currentPrices = view.currentPrices
                monthly.pricedTerritories = priced[plan]?.sorted()
                product.record.monthlyPlan = monthly
            } else {
                (product.record.priceCents, product.record.territoryPrices, product.record.priceChanges) = (
                    view.priceCents, view.territoryPrices, view.priceChanges
                )
                product.record.currentPrices = view.currentPrices
                product.record.pricedTerritories = priced[plan]?.sorted()
            }
        }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        for (planType, slice) in PlanSlice.slices(of: wanted).sorted(by: { $0.key > $1.key }) {
            let prices = pricing(of: wanted, plan: planType)
            guard prices.priceCents != nil || !prices.territoryPrices.isEmpty || !prices.priceChanges.isEmpty else { continue }
            let territories = prices.pricedTerritories ?? slice.availability?.territories ?? builder.territories
            planSlice(
                prices, live: live.map { pricing(of: $0.record, plan: planType) },
                scheduled: live?.ids.scheduledPrices[planType] ?? [:], cents: prices.priceCents, territories: territories,
                planType: slice.named ? planType : nil, detail: slice.detail, path: slice.path(wanted, "price"),
                product: product, builder: &builder)
        }
    }

    /// A billing plan's prices as a record of their own (the subscription's for the standard plan).
    static func pricing(of record: ProductRecord, plan: String) -> ProductRecord {
        guard plan == "MONTHLY" else { return record }
        var view = record
        let monthly = record.monthlyPlan
        view.priceCents = monthly?.priceCents
        view.territoryPrices = monthly?.territoryPrices ?? [:]
        view.priceChanges = monthly?.priceChanges ?? []
        view.pricedTerritories = monthly?.pricedTerritories
        view.currentPrices = monthly?.currentPrices ?? [:]
        return view
    }

    /// One billing plan: today's base and territory prices, then each scheduled change, each as one line and one PATCH.
    static func planSlice(
        _ wanted: ProductRecord, live: ProductRecord?, scheduled: [Int: [String]], cents: Int?, territories: [String],
        planType: String?, detail: String?, path: CatalogPath?, product: ResourceRef, builder: inout PlanBuilder
    ) {
        var old = live
        // A price equal to what that territory pays (today, or from a change's day) is already in place, equalized or not.
        old?.takeHandSetPrices(from: wanted)
        let overrides = Swift.Set(wanted.territoryPrices.keys)
        // Without a USD price nothing is equalized: the subscription is priced where the catalog names a price.
        let equalized = cents == nil ? [] : territories.filter { !overrides.contains($0) }
        var refusals = builder.priceRefusals(kind: .subscription, wanted)
        let unpriced = Swift.Set(old?.currentPrices.keys.map { $0 } ?? []).subtracting(territories).subtracting(overrides)
        if !unpriced.isEmpty {
            refusals.append(
                "App Store Connect cannot remove a subscription's price in a territory (\(unpriced.sorted().joined(separator: ", "))); "
                    + "list them in `pricedTerritories` (or `pricedTerritories: all`)")
        }
        var lines = PricingDiff.lines(wanted: wanted, live: old, today: builder.today, equalizedCount: equalized.count)
        if !refusals.isEmpty, !lines.isEmpty || !unpriced.isEmpty {
            builder.add(.refused, resource, wanted, path: path, detail: detail, reason: refusals.joined(separator: "; "))
            return
        }
        let priced = Swift.Set(old?.pricedTerritories ?? [])
        let missing = territories.filter { !priced.contains($0) && !overrides.contains($0) }
        if old?.priceCents == cents, !missing.isEmpty, !lines.contains(where: { $0.day == nil }) {
            lines.insert(
                PricingDiff.Line(
                    day: nil, detail: "\(missing.count) territories without a price",
                    fields: [Change.Field("pricedTerritories", from: String(priced.count), to: String(priced.count + missing.count))]), at: 0)
        }
        let liveChanges = Dictionary((old?.priceChanges ?? []).map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        for line in lines {
            var operations: [any PlannedOperation] = []
            if let day = line.day {
                if liveChanges[day] != nil, let ids = scheduled[day], !ids.isEmpty {
                    operations.append(Withdraw(subscription: product, day: day, priceIDs: ids))
                }
                if let change = wanted.priceChanges.first(where: { $0.day == day }) {
                    let handSet = overrides.union(change.territoryPrices.keys)
                    operations.append(
                        Set(
                            subscription: product, cents: change.priceCents ?? cents,
                            territories: change.priceCents == nil ? [] : territories.filter { !handSet.contains($0) },
                            localPrices: change.territoryPrices, planType: planType, day: day,
                            keepsExistingSubscribers: change.keepsExistingSubscribers ?? true,
                            territoryChoices: change.territoryChoices))
                }
            } else if old?.priceCents != cents {
                operations.append(
                    Set(
                        subscription: product, cents: cents, territories: equalized, localPrices: wanted.territoryPrices,
                        planType: planType, keepsExistingSubscribers: old?.priceCents != nil))
            } else {
                let removed = (old?.territoryPrices ?? [:]).keys.filter { !overrides.contains($0) }
                let changed = wanted.territoryPrices.filter { old?.territoryPrices[$0.key] != $0.value }
                operations.append(
                    Set(
                        subscription: product, cents: cents, territories: (missing + removed).sorted(), localPrices: changed,
                        planType: planType, keepsExistingSubscribers: true))
            }
            let lineDetail = [detail, line.detail].compactMap { $0 }.joined(separator: ", ")
            builder.add(
                old?.priceCents == nil && (old?.currentPrices ?? [:]).isEmpty ? .create : .update, resource, wanted, path: line.path ?? path,
                detail: lineDetail.isEmpty ? nil : lineDetail, fields: line.fields, operations: operations)
        }
    }

    /// The USA point (one request) and its equalizations (one more), the hand-set territories' points (one more),
    /// then every price of the change in one PATCH.
    struct Set: WriteOperation {
        var subscription: ResourceRef
        /// The USD price; nil when no territory is equalized.
        var cents: Int?
        /// Territories priced by equalizing `cents`.
        var territories: [String]
        /// Territories priced by hand: territory → canonical local price.
        var localPrices: [String: String] = [:]
        var planType: String?
        var day: Int?
        var keepsExistingSubscribers = false
        /// Territories whose existing subscribers' choice differs from `keepsExistingSubscribers`.
        var territoryChoices: [String: Bool] = [:]
        var summary: String {
            let plan = planType.map { $0.lowercased() + " " } ?? ""
            var text =
                cents.map { "set the \(plan)price \(Price.format(cents: $0)) USD in \(territories.count) territories" }
                ?? "set the \(plan)price in " + Format.count(localPrices.count, "territory")
            if cents != nil, !localPrices.isEmpty { text += " and " + Format.count(localPrices.count, "territory price") }
            if let day { text += " from \(CalendarDay.format(day))" }
            return text
        }
        var estimatedRequests: Int {
            (territories.isEmpty ? 1 : 3) + WriteContext.gridReads(territories: localPrices.count)
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            if let cents, !territories.isEmpty {
                try await context.lookUpPricePoints(product: subscription, subscription: true, cents: cents, territories: territories)
            }
            let pairs = localPrices.map { LocalPricePair(territory: $0.key, price: $0.value) }.sorted { $0.territory < $1.territory }
            try await context.lookUpLocalPricePoints(product: subscription, subscription: true, prices: pairs)
            let id = context.id(subscription)
            let points =
                territories.map { ($0, context.pricePoint(product: subscription, cents: cents ?? 0, territory: $0)) }
                + pairs.map { ($0.territory, context.localPricePoint(product: subscription, territory: $0.territory, price: $0.price)) }
            let prices = points.enumerated().map { index, entry in
                Schemas.SubscriptionPriceInlineCreate(
                    _type: .subscriptionPrices, id: "${price-\(index + 1)}",
                    attributes: .init(
                        startDate: day.map(CalendarDay.format),
                        preserveCurrentPrice: territoryChoices[entry.0] ?? keepsExistingSubscribers,
                        planType: planType.flatMap(Schemas.SubscriptionPlanType.init(rawValue:))),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: id)),
                        territory: .init(data: .init(_type: .territories, id: entry.0)),
                        subscriptionPricePoint: .init(data: .init(_type: .subscriptionPricePoints, id: entry.1))))
            }
            let body = Schemas.SubscriptionUpdateRequest(
                data: .init(
                    _type: .subscriptions, id: id,
                    relationships: .init(prices: .init(data: prices.map { .init(_type: .subscriptionPrices, id: $0.id ?? "") }))),
                included: prices.map { .SubscriptionPriceInlineCreate($0) })
            _ = try await context.send { try await $0.subscriptionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        }
    }

    /// Withdraws a scheduled change: its prices are deleted one by one (App Store Connect has no bulk delete).
    struct Withdraw: WriteOperation {
        var subscription: ResourceRef
        var day: Int
        var priceIDs: [String]
        var summary: String { "withdraw the \(priceIDs.count) prices scheduled from \(CalendarDay.format(day))" }
        var estimatedRequests: Int { priceIDs.count }

        func perform(_ context: WriteContext) async throws(ASCError) {
            for id in priceIDs {
                _ = try await context.send { try await $0.subscriptionPricesDeleteInstance(path: .init(id: id)).noContent }
            }
        }
    }
}
