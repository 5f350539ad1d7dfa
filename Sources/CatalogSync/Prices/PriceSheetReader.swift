import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import IAPCore

/// Reads `iapkit asc prices`: every product's customer price and proceeds in every territory, today and at each
/// scheduled change. An in-app purchase takes two requests (manual and equalized prices, each with its points), a
/// subscription one (its prices with their points) plus one per USD price for the whole app (its equalization, to
/// tell prices set by hand from equalized ones).
public struct PriceSheetReader: Sendable {
    public let reader: StoreReader

    public init(reader: StoreReader) {
        self.reader = reader
    }

    typealias Schemas = Components.Schemas

    /// One territory's price from a day, as read.
    struct Dated {
        var territory: String
        var day: Int?
        var price: String
        var proceeds: String?
        var byHand: Bool
        var plan: String?
        /// A sale's end.
        var end: Int? = nil
    }

    /// The rows of the products `scope` matches (`--product` patterns, as `asc plan` matches them): the product
    /// lists are read whole, the prices of those products alone.
    public func rows(app: StoreApp, scope: PlanScope = .everything) async throws(SyncError) -> [PriceSheetRow] {
        let today = reader.today
        var rows: [PriceSheetRow] = []
        let listed = try await reader.inAppPurchaseListings(app: app).filter { scope.matches($0.resource.attributes?.productId ?? "") }
        let purchases = try await reader.concurrently(listed) { listing throws(SyncError) in
            try await Self.inAppPurchaseRows(listing, reader: reader, today: today)
        }
        rows += purchases.flatMap { $0 }
        let groups = try await reader.pages("listing subscription groups") {
            try await $0.appsSubscriptionGroupsGetToManyRelated(path: .init(id: app.id), query: .init(limit: StoreReader.pageSize)).ok.body.json
        } next: {
            $0.links.next
        }.flatMap(\.data)
        for group in groups {
            let listed = try await reader.subscriptionListings(group: group.id).filter { scope.matches($0.resource.attributes?.productId ?? "") }
            let subscriptions = try await reader.concurrently(listed) { listing throws(SyncError) in
                try await Self.subscriptionRows(listing, reader: reader, today: today)
            }
            rows += subscriptions.flatMap { $0 }
        }
        return rows
    }

    static func inAppPurchaseRows(_ listing: InAppPurchaseListing, reader: StoreReader, today: Int) async throws(SyncError) -> [PriceSheetRow] {
        guard let productID = listing.resource.attributes?.productId else { return [] }
        if listing.unanswered.contains("iapPriceSchedule") {
            return [.unanswered(productID: productID, territory: nil, today: today, why: Self.scheduleUnanswered)]
        }
        guard let schedule = InAppPurchasePriceScheduleKind.listed(listing) else { return [] }
        let context = "reading the prices of in-app purchase \(productID)"
        let manual = try await reader.pages(context) {
            try await $0.inAppPurchasePriceSchedulesManualPricesGetToManyRelated(
                path: .init(id: schedule.id), query: .init(limit: 200, include: [.inAppPurchasePricePoint, .territory])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        let automatic = try await reader.pages(context) {
            try await $0.inAppPurchasePriceSchedulesAutomaticPricesGetToManyRelated(
                path: .init(id: schedule.id), query: .init(limit: 200, include: [.inAppPurchasePricePoint, .territory])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var points: [String: Schemas.InAppPurchasePricePoint] = [:]
        for case let .inAppPurchasePricePoints(point) in (manual + automatic).flatMap({ $0.included ?? [] }) { points[point.id] = point }
        var prices: [Dated] = []
        var unread: [PriceSheetRow] = []
        for (byHand, list) in [(true, manual.flatMap(\.data)), (false, automatic.flatMap(\.data))] {
            for price in list {
                guard let pointID = price.relationships?.inAppPurchasePricePoint?.data?.id, let point = points[pointID],
                    let territory = price.relationships?.territory?.data?.id ?? point.relationships?.territory?.data?.id,
                    let customer = point.attributes?.customerPrice
                else {
                    unread.append(
                        .unanswered(
                            productID: productID, territory: price.relationships?.territory?.data?.id, today: today, why: Self.priceUnanswered))
                    continue
                }
                prices.append(
                    Dated(
                        territory: territory, day: price.attributes?.startDate.flatMap(CalendarDay.parse), price: customer,
                        proceeds: point.attributes?.proceeds, byHand: byHand || territory == Vocabulary.baseTerritory,
                        end: price.attributes?.endDate.flatMap(CalendarDay.parse)))
            }
        }
        return timeline(prices, productID: productID, today: today) + unread
    }

    static let scheduleUnanswered = "App Store Connect answered its price schedule with links only, though iapkit asked for it"
    static let priceUnanswered = "App Store Connect answered this price without its territory or price point"

    static func subscriptionRows(_ listing: SubscriptionListing, reader: StoreReader, today: Int) async throws(SyncError) -> [PriceSheetRow] {
        guard let productID = listing.resource.attributes?.productId else { return [] }
        let id = listing.resource.id
        let pages = try await reader.pages("reading the prices of subscription \(productID)") {
            try await $0.subscriptionsPricesGetToManyRelated(
                path: .init(id: id), query: .init(limit: 200, include: [.subscriptionPricePoint, .territory])
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var points: [String: Schemas.SubscriptionPricePoint] = [:]
        for case let .subscriptionPricePoints(point) in pages.flatMap({ $0.included ?? [] }) { points[point.id] = point }
        var prices: [Dated] = []
        var unread: [PriceSheetRow] = []
        var usa: [(plan: String, day: Int?, cents: Int, point: String)] = []
        for price in pages.flatMap(\.data) {
            guard let pointID = price.relationships?.subscriptionPricePoint?.data?.id, let point = points[pointID],
                let territory = price.relationships?.territory?.data?.id, let customer = point.attributes?.customerPrice
            else {
                unread.append(
                    .unanswered(
                        productID: productID, territory: price.relationships?.territory?.data?.id, today: today, why: Self.priceUnanswered))
                continue
            }
            let plan = price.attributes?.planType?.rawValue ?? "UPFRONT"
            let day = price.attributes?.startDate.flatMap(CalendarDay.parse)
            if territory == Vocabulary.baseTerritory, let cents = Price(text: customer)?.cents { usa.append((plan, day, cents, pointID)) }
            prices.append(Dated(territory: territory, day: day, price: customer, proceeds: point.attributes?.proceeds, byHand: false, plan: plan))
        }
        // A territory's price is by hand unless it is what the USA price in force on that day equalizes to.
        var tables: [String: [String: String]] = [:]
        for entry in usa where tables["\(entry.plan)|\(entry.cents)"] == nil {
            tables["\(entry.plan)|\(entry.cents)"] = try await reader.equalization(ofPoint: entry.point, cents: entry.cents, plan: entry.plan)
        }
        for index in prices.indices where prices[index].territory != Vocabulary.baseTerritory {
            let price = prices[index]
            let base = usa.filter { $0.plan == price.plan && ($0.day ?? 0) <= (price.day ?? 0) }.max { ($0.day ?? 0) < ($1.day ?? 0) }
            let equalized = base.flatMap { tables["\($0.plan)|\($0.cents)"]?[price.territory] }
            prices[index].byHand = equalized != LocalPrice.canonical(price.price)
        }
        for index in prices.indices where prices[index].territory == Vocabulary.baseTerritory { prices[index].byHand = true }
        // The plan is named only where the subscription has billing plans: the standard plan is the whole price.
        if !prices.contains(where: { $0.plan == "MONTHLY" }) {
            for index in prices.indices { prices[index].plan = nil }
        }
        return timeline(prices, productID: productID, today: today) + unread
    }

    /// Each territory's price today (its latest from a day up to today), every later one, and each sale that has not
    /// ended (from its start, or today for one under way, until its end).
    static func timeline(_ prices: [Dated], productID: String, today: Int) -> [PriceSheetRow] {
        var byKey: [String: [Dated]] = [:]
        // A sale that has ended is history.
        for price in prices where price.end.map({ $0 > today }) ?? true {
            byKey["\(price.plan ?? "")|\(price.territory)", default: []].append(price)
        }
        var rows: [PriceSheetRow] = []
        for key in byKey.keys.sorted() {
            let list = (byKey[key] ?? []).sorted { ($0.day ?? 0) < ($1.day ?? 0) }
            let current = list.last { ($0.day ?? 0) <= today && $0.end == nil }
            for price in ([current].compactMap { $0 } + list.filter { ($0.day ?? 0) > today || $0.end != nil }) {
                var row = PriceSheetRow(
                    productID: productID, plan: price.plan, territory: price.territory,
                    startDate: (price.day ?? 0) > today ? price.day.map(CalendarDay.format) : nil, today: today,
                    customerPrice: price.price, proceeds: price.proceeds, byHand: price.byHand)
                row.until = price.end.map(CalendarDay.format)
                rows.append(row)
            }
        }
        return rows
    }
}
