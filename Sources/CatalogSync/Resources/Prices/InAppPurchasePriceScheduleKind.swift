import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import IAPCore

/// An in-app purchase's price schedule (`inAppPurchasePriceSchedules`): the USD price in the base territory, from
/// which App Store Connect equalizes every other territory, the territories priced by hand (manual prices), and
/// scheduled changes (manual prices with a start date). One request writes the whole schedule.
enum InAppPurchasePriceScheduleKind: ProductResourceKind {
    typealias Schemas = Components.Schemas
    static let listRelations = ["iapPriceSchedule"]
    static let resource = ResourceName.inAppPurchasePriceSchedule

    /// The price schedule sent with the list.
    static func listed(_ listing: InAppPurchaseListing) -> Schemas.InAppPurchasePriceSchedule? {
        listing.one(listing.resource.relationships?.iapPriceSchedule?.data?.id) {
            if case let .inAppPurchasePriceSchedules(item) = $0 { item } else { nil }
        }
    }

    /// The schedule comes with the list, but a resource sent along carries no linkage of its own: its manual prices
    /// (every territory, with their points) take one request, and its base territory one more (the schedule with
    /// `include=baseTerritory`) when they are in more than one territory. A schedule always has a manual price in
    /// its base territory (App Store Connect creates none without one), so prices in one territory name it.
    static func estimatedReads(_ listing: InAppPurchaseListing) -> Int { listed(listing) == nil ? 0 : 1 }

    static func read(into product: inout StoreProduct, listing: InAppPurchaseListing, reader: StoreReader) async throws(SyncError) {
        if listing.unanswered.contains("iapPriceSchedule") {
            product.unanswered(
                "price", of: resource,
                "App Store Connect answered its price schedule with links only, though iapkit asked for it; "
                    + "its prices are unknown, not none")
            product.unanswered.insert("iapPriceSchedule")
            return
        }
        guard let schedule = listed(listing) else { return }
        let id = product.ids.resource
        let context = "reading the prices of in-app purchase \(product.record.productID)"
        let pages = try await reader.pages(context) {
            try await $0.inAppPurchasePriceSchedulesManualPricesGetToManyRelated(
                path: .init(id: schedule.id),
                query: .init(limit: 200, include: [.inAppPurchasePricePoint, .territory])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var points: [String: String] = [:]
        for case let .inAppPurchasePricePoints(point) in pages.flatMap({ $0.included ?? [] }) {
            points[point.id] = point.attributes?.customerPrice ?? ""
        }
        var unread = 0
        let prices: [DatedPrice] = pages.flatMap(\.data).compactMap { price in
            // A price is known only from its own linkage (asked for with include=); a point's territory is not sent.
            guard let pointID = price.relationships?.inAppPurchasePricePoint?.data?.id, let territory = price.relationships?.territory?.data?.id,
                let canonical = points[pointID].flatMap(LocalPrice.canonical)
            else {
                unread += 1
                return nil
            }
            return DatedPrice(
                territory: territory, day: price.attributes?.startDate.flatMap(CalendarDay.parse), price: canonical,
                endDay: price.attributes?.endDate.flatMap(CalendarDay.parse))
        }
        if unread > 0 {
            product.notes.append(.unlinked(unread, "price", without: "its territory or price point", resource: resource))
            // Prices read in part are not the prices: a change to them is `? -> new`, never from what was read.
            product.unanswered.insert("price")
        }
        let territories = Swift.Set(prices.map(\.territory))
        guard !territories.isEmpty else { return }
        var base = territories.count == 1 && unread == 0 ? territories.first : nil
        if base == nil {
            let answer = try await reader.read(context) {
                try await $0.inAppPurchasesV2IapPriceScheduleGetToOneRelated(path: .init(id: id), query: .init(include: [.baseTerritory])).ok.body
                    .json
            }
            base = answer.data.relationships?.baseTerritory?.data?.id
        }
        guard let base else {
            // Prices are still read; which territory the others are equalized from is not taken for the USA.
            DatedPrice.apply(prices, to: &product.record, today: reader.today, base: "", follow: true)
            product.unanswered(
                "baseTerritory", of: resource,
                "App Store Connect did not answer its price schedule's base territory; "
                    + "the catalog names none: set `baseTerritory` to manage it")
            return
        }
        // Every territory without a manual price follows the base territory's: a change of the base price is one.
        DatedPrice.apply(prices, to: &product.record, today: reader.today, base: base, follow: true)
        product.record.baseTerritory = base == Vocabulary.baseTerritory ? nil : base
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        let base = wanted.baseTerritory ?? Vocabulary.baseTerritory
        let path = wanted.path.map { $0 / "price" }
        guard wanted.priceCents != nil || wanted.territoryPrices[base] != nil else {
            // Territory prices without a price in the base territory: App Store Connect takes no schedule without
            // one, and an edit of them is never silently no request.
            if !wanted.territoryPrices.isEmpty || !wanted.priceChanges.isEmpty {
                builder.add(
                    .refused, resource, wanted, path: wanted.path.map { $0 / "territoryPrices" },
                    reason: "no price in the base territory \(base): set `price`, or `baseTerritory` to a territory the catalog prices")
            }
            return
        }
        let old = live?.record
        var lines = PricingDiff.lines(wanted: wanted, live: old, today: builder.today)
        if live?.unanswered.contains("baseTerritory") == true {
            lines.insert(
                PricingDiff.Line(
                    day: nil, detail: nil, fields: [.unanswered("baseTerritory", to: base)],
                    path: wanted.path.map { $0 / "baseTerritory" }), at: 0)
        } else if old?.baseTerritory != wanted.baseTerritory {
            lines.insert(
                PricingDiff.Line(
                    day: nil, detail: nil,
                    fields: [
                        Change.Field(
                            "baseTerritory", from: old.map { $0.baseTerritory ?? Vocabulary.baseTerritory },
                            to: base)
                    ],
                    path: wanted.path.map { $0 / "baseTerritory" }), at: 0)
        }
        guard !lines.isEmpty else { return }
        let refusals = builder.priceRefusals(kind: .inAppPurchase, wanted)
        guard refusals.isEmpty else {
            builder.add(.refused, resource, wanted, path: path, reason: refusals.joined(separator: "; "))
            return
        }
        let set = Set(product: product, schedule: PriceScheduleRecord(cents: wanted.priceCents, record: wanted, base: base))
        // A schedule App Store Connect already has (priced from the USA or from another territory) is updated.
        let action: Change.Action = old == nil || (old?.priceCents == nil && old?.territoryPrices.isEmpty != false) ? .create : .update
        for (index, line) in lines.enumerated() {
            builder.add(
                action, resource, wanted, path: line.path ?? located(line, in: wanted) ?? path, detail: line.detail,
                fields: line.fields, operations: index == 0 ? [set] : [])
        }
    }

    /// Today's price of one territory is at its line in `territoryPrices`.
    static func located(_ line: PricingDiff.Line, in wanted: ProductRecord) -> CatalogPath? {
        guard line.day == nil, line.fields.count == 1, let name = line.fields.first?.name, wanted.territoryPrices[name] != nil else { return nil }
        return wanted.path.map { $0 / "territoryPrices" / name }
    }

    /// Looks up the price points (the USA points, and the hand-priced territories' in pages of 8,000), then sends the
    /// schedule with all its manual prices inline.
    struct Set: WriteOperation {
        var product: ResourceRef
        var schedule: PriceScheduleRecord
        var summary: String {
            (schedule.cents.map { "set the USD price \(Price.format(cents: $0))" } ?? "set the price from \(schedule.base)")
                + (schedule.localPrices.isEmpty ? "" : ", " + Format.count(schedule.localPrices.count, "territory price"))
                + (schedule.changes.isEmpty ? "" : ", \(schedule.changes.count) scheduled changes")
                + (schedule.sales.isEmpty ? "" : ", " + Format.count(schedule.sales.count, "sale"))
        }
        var estimatedRequests: Int {
            1 + schedule.baseCents.count + WriteContext.gridReads(territories: Swift.Set(schedule.localPrices.map(\.territory)).count)
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            for cents in schedule.baseCents {
                try await context.lookUpPricePoints(product: product, subscription: false, cents: cents, territories: [])
            }
            try await context.lookUpLocalPricePoints(product: product, subscription: false, prices: schedule.localPrices)
            let productID = context.id(product)
            var inline: [Schemas.InAppPurchasePriceInlineCreate] = []
            func add(_ point: String, day: Int?, end: Int? = nil) {
                inline.append(
                    .init(
                        _type: .inAppPurchasePrices, id: "${price-\(inline.count + 1)}",
                        attributes: .init(startDate: day.map(CalendarDay.format), endDate: end.map(CalendarDay.format)),
                        relationships: .init(
                            inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: productID)),
                            inAppPurchasePricePoint: .init(data: .init(_type: .inAppPurchasePricePoints, id: point)))))
            }
            // Today's prices, each scheduled change's and each sale's: a USD price and territory prices from a day
            // (until a day, for a sale; a sale under way is written without its start, which App Store Connect takes
            // only from today on).
            func add(cents: Int?, territoryPrices: [String: String], day: Int?, end: Int? = nil) {
                if let cents { add(context.pricePoint(product: product, cents: cents, territory: Vocabulary.baseTerritory), day: day, end: end) }
                for (territory, price) in territoryPrices.sorted(by: { $0.key < $1.key }) {
                    add(context.localPricePoint(product: product, territory: territory, price: price), day: day, end: end)
                }
            }
            add(cents: schedule.cents, territoryPrices: schedule.territoryPrices, day: nil)
            for change in schedule.changes { add(cents: change.priceCents, territoryPrices: change.territoryPrices, day: change.day) }
            for sale in schedule.sales { add(cents: sale.priceCents, territoryPrices: sale.territoryPrices, day: sale.startDay, end: sale.endDay) }
            let body = Schemas.InAppPurchasePriceScheduleCreateRequest(
                data: .init(
                    _type: .inAppPurchasePriceSchedules,
                    relationships: .init(
                        inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: productID)),
                        baseTerritory: .init(data: .init(_type: .territories, id: schedule.base)),
                        manualPrices: .init(data: inline.map { .init(_type: .inAppPurchasePrices, id: $0.id ?? "") }))),
                included: inline.map { .InAppPurchasePriceInlineCreate($0) })
            _ = try await context.send { try await $0.inAppPurchasePriceSchedulesCreateInstance(body: .json(body)).created.body.json.data.id }
        }
    }
}
