import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// Reads what App Store Connect holds for an app into a `StoreSnapshot`, in as few requests as the API allows:
/// each list of products comes with its related resources (`include=`), and each resource kind reads only what
/// the list cannot say. Products are read concurrently, `concurrency` requests in flight at most.
public struct StoreReader: Sendable {
    public let asc: AppStoreConnectClient
    /// How many products are read at once (App Store Connect answers each request in 0.3–0.8 s).
    public var concurrency: Int
    /// Territories whose price grids the plan needs (those the catalog prices by hand).
    public var gridTerritories: [String]
    /// Equalization tables by billing plan and USD price, shared by the concurrent product reads.
    let equalizations = Locked<[String: [String: String]]>([:])

    /// What to do when App Store Connect's hourly request budget cannot pay for the detail reads.
    public var budget: ReadBudget
    /// A saved plan's writes still to send after these reads (`push --plan`): the hour must pay for both to start.
    public var writesToFollow: (requests: Int, operations: Int)?
    /// Told of waits for the budget and of the reads done, for a progress line.
    public var progress: ReadProgress?
    /// How long `.wait` may wait for the budget in all (`--wait-max`).
    public var waitAllowance = WaitAllowance()

    public init(
        asc: AppStoreConnectClient, concurrency: Int = 4, gridTerritories: [String] = [],
        budget: ReadBudget = .ignore, progress: ReadProgress? = nil
    ) {
        self.asc = asc
        self.concurrency = max(1, concurrency)
        self.gridTerritories = gridTerritories
        self.budget = budget
        self.progress = progress
    }

    /// App Store Connect's today, from its latest answer (this machine's date before the first one).
    var today: Int { asc.serverDate.map(CalendarDay.of) ?? CalendarDay.today }

    typealias Schemas = Components.Schemas
    /// App Store Connect's largest page, and the cap of a related list sent along (`limit[…]`).
    static let pageSize = 200
    static let includedCap = 50

    /// The app with this bundle ID.
    public func app(bundleID: String) async throws(SyncError) -> StoreApp {
        let response = try await read("finding the app \(bundleID)") {
            try await $0.appsGetCollection(query: .init(filterBundleId: [bundleID])).ok.body.json
        }
        guard let app = response.data.first(where: { $0.attributes?.bundleId == bundleID }) ?? response.data.first else {
            throw .appNotFound(bundleID: bundleID)
        }
        return StoreApp(id: app.id, bundleID: app.attributes?.bundleId ?? bundleID)
    }

    /// Every storefront App Store Connect sells in, with the currency it prices it in (nil where the answer has none).
    public func storefronts() async throws(SyncError) -> [String: String?] {
        let pages = try await pages("listing territories") {
            try await $0.territoriesGetCollection(query: .init(fieldsTerritories: [.currency], limit: Self.pageSize)).ok.body.json
        } next: {
            $0.links.next
        }
        var storefronts: [String: String?] = [:]
        for territory in pages.flatMap(\.data) { storefronts[territory.id] = .some(territory.attributes?.currency) }
        return storefronts
    }

    /// Every territory App Store Connect sells in, sorted.
    public func territories() async throws(SyncError) -> [String] { try await storefronts().keys.sorted() }

    /// Everything the catalog can hold of the app.
    public func snapshot(app: StoreApp) async throws(SyncError) -> StoreSnapshot {
        let listings = try await listings(app: app)
        return try await snapshot(of: listings, selection: .everything(listings))
    }

    /// The app's storefronts and product lists, read whole (with what `include=` sends along): what a plan knows
    /// before it reads any product in detail, and what that costs.
    public func listings(app: StoreApp) async throws(SyncError) -> StoreListings {
        let storefronts = try await storefronts()
        let inAppPurchases = try await inAppPurchaseListings(app: app)
        let groups = try await pages("listing subscription groups") {
            try await $0.appsSubscriptionGroupsGetToManyRelated(path: .init(id: app.id), query: .init(limit: Self.pageSize)).ok.body.json
        } next: {
            $0.links.next
        }.flatMap(\.data)
        let subscriptions = try await concurrently(groups) { group throws(SyncError) in try await subscriptionListings(group: group.id) }
        return StoreListings(
            app: app, storefronts: storefronts, inAppPurchases: inAppPurchases,
            groups: Array(zip(groups, subscriptions)),
            // One request per product kind App Store Connect has a product of to read the grid through.
            gridReads: gridTerritories.isEmpty ? 0 : (inAppPurchases.isEmpty ? 0 : 1) + (subscriptions.joined().isEmpty ? 0 : 1))
    }

    /// Reads the products `selection` reads in detail; the others keep what their list entry says. With `budget`
    /// `.stop` it reads nothing when App Store Connect's hourly budget cannot pay for the reads (`SyncError.readBudget`,
    /// exit 75); with `.wait` it paces them across hours instead.
    public func snapshot(of listings: StoreListings, selection: ReadSelection) async throws(SyncError) -> StoreSnapshot {
        let pacer = ReadPacer(
            asc: asc, budget: budget, total: selection.estimatedRequests, writes: writesToFollow, allowance: waitAllowance, progress: progress)
        try pacer.checkBeforeReading(products: selection.products)
        var snapshot = StoreSnapshot(app: listings.app, territories: listings.storefronts.keys.sorted())
        snapshot.storefrontDifferences = StorefrontDifference.between(live: listings.storefronts)
        snapshot.appNotes = listings.duplicates
        snapshot.inAppPurchases = try await concurrently(listings.inAppPurchases) { listing throws(SyncError) in
            guard var product = InAppPurchaseKind.record(listing.resource) else { return nil }
            UnreadAttributes.note(&product, type: "inAppPurchases", resource: .inAppPurchase, asc: asc)
            guard selection.reads(product.record.productID) else { return product }
            return try await readInDetail(product, listing: listing, kinds: InAppPurchaseKinds.all, pacer: pacer)
        }.compactMap { $0 }
        for (group, subscriptions) in listings.groups {
            var live = StoreGroup(record: GroupRecord(referenceName: group.attributes?.referenceName ?? group.id), id: group.id)
            if selection.reads(group: group, subscriptions: subscriptions) {
                live = try await pacer.run(1) { () throws(SyncError) in try await SubscriptionGroupKind.read(group, reader: self) }
            }
            live.subscriptions = try await concurrently(subscriptions) { listing throws(SyncError) in
                guard var product = SubscriptionKind.record(listing.resource) else { return nil }
                UnreadAttributes.note(&product, type: "subscriptions", resource: .subscription, asc: asc)
                guard selection.reads(product.record.productID) else { return product }
                var read = try await readInDetail(product, listing: listing, kinds: SubscriptionKinds.all, pacer: pacer)
                Self.settlePlans(&read.record)
                return read
            }.compactMap { $0 }
            snapshot.groups.append(live)
        }
        if selection.appResources { for kind in AppKinds.all { try await kind.read(into: &snapshot, reader: self) } }
        snapshot.today = today
        try await readPriceGrids(into: &snapshot)
        return snapshot
    }

    /// Runs each kind's read for one listed product, within the budget (started again from the list entry when
    /// paced reads had to wait for it).
    func readInDetail<Listing: LinkageAnswering>(
        _ listed: StoreProduct, listing: Listing, kinds: [any ProductResourceKind<Listing>.Type],
        pacer: ReadPacer
    ) async throws(SyncError) -> StoreProduct {
        try await pacer.run(kinds.reduce(0) { $0 + $1.estimatedReads(listing) }) { () throws(SyncError) in
            var product = listed
            for kind in kinds { try await kind.read(into: &product, listing: listing, reader: self) }
            // A relationship asked for and answered with links only that no kind said more of: unknown, not none.
            for relation in listing.unanswered.sorted() where !product.unanswered.contains(relation) {
                product.unanswered(
                    relation, of: ResourceName(rawValue: relation) ?? (product.record.isSubscription ? .subscription : .inAppPurchase),
                    "App Store Connect answered its \(relation) with links only, though iapkit asked for it; it is unknown, not none")
            }
            return product
        }
    }

    /// The customer prices of every territory the catalog prices by hand: one request per product kind, through
    /// the first product of that kind (price points are read through a product; every product has the same grid).
    func readPriceGrids(into snapshot: inout StoreSnapshot) async throws(SyncError) {
        let territories = gridTerritories.filter { $0 != Vocabulary.baseTerritory && snapshot.territories.contains($0) }
        guard !territories.isEmpty else { return }
        let what = "reading the price points of \(territories.joined(separator: ", "))"
        if let first = snapshot.inAppPurchases.first?.ids.resource {
            let points = try await pages(what) {
                try await $0.inAppPurchasesV2PricePointsGetToManyRelated(
                    path: .init(id: first), query: .init(filterTerritory: territories, limit: 8000, include: [.territory])
                ).ok.body.json
            } next: {
                $0.links.next
            }.flatMap(\.data)
            Self.addGrid(points.map { ($0.relationships?.territory?.data?.id, $0.attributes?.customerPrice) }, kind: .inAppPurchase, to: &snapshot)
        }
        if let first = snapshot.groups.lazy.flatMap(\.subscriptions).first?.ids.resource {
            let points = try await pages(what) {
                try await $0.subscriptionsPricePointsGetToManyRelated(
                    path: .init(id: first), query: .init(filterTerritory: territories, limit: 8000, include: [.territory])
                ).ok.body.json
            } next: {
                $0.links.next
            }.flatMap(\.data)
            Self.addGrid(points.map { ($0.relationships?.territory?.data?.id, $0.attributes?.customerPrice) }, kind: .subscription, to: &snapshot)
        }
    }

    static func addGrid(_ points: [(territory: String?, price: String?)], kind: PriceGrid, to snapshot: inout StoreSnapshot) {
        for point in points {
            guard let territory = point.territory, let price = point.price.flatMap(LocalPrice.canonical) else { continue }
            snapshot.priceGrids["\(kind.rawValue)|\(territory)", default: []].append(price)
        }
    }

    /// What a USA price point equalizes to in every territory, read once per USD price for the whole app (every
    /// subscription's grid is the same, and every in-app purchase's). `plan` is a subscription's billing plan, or
    /// `IAP` for an in-app purchase's point. Without `cents` (a point outside the USA) the answer is kept by point.
    func equalization(ofPoint point: String, cents: Int?, plan: String = "UPFRONT") async throws(SyncError) -> [String: String] {
        let key = cents.map { "\(plan)|\($0)" } ?? "\(plan)|point \(point)"
        if let known = equalizations.withLock({ $0[key] }) { return known }
        let context = cents.map { "reading what \(Price.format(cents: $0)) USD equalizes to" } ?? "reading what a price point equalizes to"
        let points: [(territory: String?, price: String?)]
        if plan == Self.inAppPurchasePlan {
            points = try await pages(context) {
                try await $0.inAppPurchasePricePointsEqualizationsGetToManyRelated(
                    path: .init(id: point), query: .init(limit: 8000, include: [.territory])
                ).ok.body.json
            } next: {
                $0.links.next
            }.flatMap(\.data).map { ($0.relationships?.territory?.data?.id, $0.attributes?.customerPrice) }
        } else {
            points = try await pages(context) {
                try await $0.subscriptionPricePointsEqualizationsGetToManyRelated(
                    path: .init(id: point), query: .init(limit: 8000, include: [.territory])
                ).ok.body.json
            } next: {
                $0.links.next
            }.flatMap(\.data).map { ($0.relationships?.territory?.data?.id, $0.attributes?.customerPrice) }
        }
        var table: [String: String] = [:]
        for point in points {
            guard let territory = point.territory, let price = point.price.flatMap(LocalPrice.canonical) else { continue }
            table[territory] = price
        }
        equalizations.withLock { $0[key] = table }
        return table
    }

    /// The equalization key of an in-app purchase's points.
    static let inAppPurchasePlan = "IAP"

    /// Offers name their plan only when the subscription lists billing plans (prices always carry one).
    static func settlePlans(_ record: inout ProductRecord) {
        if let monthly = record.monthlyPlan, monthly.availability == nil, monthly.priceCents == nil, monthly.pricedTerritories == nil,
            monthly.introductoryOffer == nil, monthly.promotionalOffers.isEmpty
        {
            record.monthlyPlan = nil
        }
        record.namesPlans =
            record.monthlyPlan != nil || record.promotionalOffers.contains { $0.planType != nil }
            || record.introductoryOffer?.planType != nil
    }

    // MARK: Lists with their related resources

    typealias InAppPurchaseInclude = Operations.AppsInAppPurchasesV2GetToManyRelated.Input.Query.IncludePayloadPayload
    typealias SubscriptionInclude = Operations.SubscriptionGroupsSubscriptionsGetToManyRelated.Input.Query.IncludePayloadPayload
    /// The union of what the in-app purchase kinds read from the list (`ListRelationTests` checks that the list
    /// operation documents every name, so none is dropped here).
    static let inAppPurchaseIncludes = listRelations(InAppPurchaseKinds.all).compactMap(InAppPurchaseInclude.init(rawValue:))
    static let subscriptionIncludes = listRelations(SubscriptionKinds.all).compactMap(SubscriptionInclude.init(rawValue:))

    /// The app's in-app purchases, each with the related resources its kinds declare.
    func inAppPurchaseListings(app: StoreApp) async throws(SyncError) -> [InAppPurchaseListing] {
        let cap = Self.includedCap
        let pages = try await pages("listing in-app purchases") {
            try await $0.appsInAppPurchasesV2GetToManyRelated(
                path: .init(id: app.id),
                query: .init(
                    limit: Self.pageSize, include: Self.inAppPurchaseIncludes, limitImages: 1, limitOfferCodes: cap)
            ).ok.body.json
        } next: {
            $0.links.next
        }
        return Self.listings(pages.flatMap(\.data), sentAlong: pages.flatMap { $0.included ?? [] }).map { listing in
            var listing = listing
            listing.unanswered = unansweredLinkage("inAppPurchases", listing.resource.id, Self.inAppPurchaseIncludes.map(\.rawValue))
            return listing
        }
    }

    /// The relationships of `type` `id` among `asked` that App Store Connect answered with links only.
    func unansweredLinkage(_ type: String, _ id: String, _ asked: [String]) -> Set<String> {
        Set(asked.filter { asc.linkageUnanswered(type: type, id: id, relationship: $0) })
    }

    /// A group's subscriptions, each with the related resources its kinds declare.
    func subscriptionListings(group: String) async throws(SyncError) -> [SubscriptionListing] {
        let cap = Self.includedCap
        let pages = try await pages("listing the subscriptions of group \(group)") {
            try await $0.subscriptionGroupsSubscriptionsGetToManyRelated(
                path: .init(id: group),
                query: .init(
                    limit: Self.pageSize, include: Self.subscriptionIncludes,
                    limitIntroductoryOffers: 1, limitPromotionalOffers: cap, limitOfferCodes: cap, limitWinBackOffers: cap, limitImages: 1,
                    limitPlanAvailabilities: cap)
            ).ok.body.json
        } next: {
            $0.links.next
        }
        return Self.listings(pages.flatMap(\.data), sentAlong: pages.flatMap { $0.included ?? [] }).map { listing in
            var listing = listing
            listing.unanswered = unansweredLinkage("subscriptions", listing.resource.id, Self.subscriptionIncludes.map(\.rawValue))
            return listing
        }
    }

    /// Each product with the resources sent along, which its kinds take their own from.
    static func listings<Resource, Related>(_ resources: [Resource], sentAlong: [Related]) -> [ProductListing<Resource, Related>] {
        var related: [String: [Related]] = [:]
        for item in sentAlong { related[item.id, default: []].append(item) }
        return resources.map { ProductListing(resource: $0, related: related) }
    }

    // MARK: Calls

    func read<Result>(_ context: String, _ call: (Client) async throws -> Result) async throws(SyncError) -> Result {
        do { return try await asc.send(call) } catch { throw .read(context: context, error: error) }
    }

    func pages<Page: Sendable>(
        _ context: String, _ first: @escaping @Sendable (Client) async throws -> Page,
        next: @escaping @Sendable (Page) -> String?
    ) async throws(SyncError) -> [Page] {
        do { return try await asc.allPages(first, next: next) } catch { throw .read(context: context, error: error) }
    }

    /// Runs `read` over every item, `concurrency` at a time, keeping the items' order.
    func concurrently<Item: Sendable, Result: Sendable>(
        _ items: [Item],
        _ read: @escaping @Sendable (Item) async throws(SyncError) -> Result
    )
        async throws(SyncError) -> [Result]
    {
        let limit = concurrency
        do {
            return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
                var results = [Result?](repeating: nil, count: items.count)
                var next = 0
                while next < min(limit, items.count) {
                    let index = next
                    group.addTask { (index, try await read(items[index])) }
                    next += 1
                }
                while let (index, result) = try await group.next() {
                    results[index] = result
                    if next < items.count {
                        let index = next
                        group.addTask { (index, try await read(items[index])) }
                        next += 1
                    }
                }
                return results.compactMap { $0 }
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store(context: "reading App Store Connect", reason: String(describing: error))
        }
    }
}
