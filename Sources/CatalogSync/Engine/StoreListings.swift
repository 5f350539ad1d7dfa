import AppStoreConnect
import AppStoreConnectAPI

/// The app's storefronts and product lists as App Store Connect listed them, before any product is read in detail.
public struct StoreListings: Sendable {
    public let app: StoreApp
    /// Territory → the currency App Store Connect prices it in.
    public let storefronts: [String: String?]
    let inAppPurchases: [InAppPurchaseListing]
    let groups: [(group: Components.Schemas.SubscriptionGroup, subscriptions: [SubscriptionListing])]
    /// Requests for the price grids of hand-priced territories (read after the products).
    let gridReads: Int
    /// Every listed product ID.
    public let productIDs: Set<String>

    /// Product IDs App Store Connect answered more than once, each a sentence: the first is read, the others left out.
    let duplicates: [String]

    init(
        app: StoreApp, storefronts: [String: String?], inAppPurchases: [InAppPurchaseListing],
        groups: [(group: Components.Schemas.SubscriptionGroup, subscriptions: [SubscriptionListing])], gridReads: Int
    ) {
        self.app = app
        self.storefronts = storefronts
        // A product ID answered twice would make a catalog its own lint refuses: the first is kept, and said.
        var first: [String: String] = [:]
        var duplicates: [String] = []
        func keep(_ productID: String?, _ id: String) -> Bool {
            guard let productID else { return true }
            guard let kept = first[productID] else {
                first[productID] = id
                return true
            }
            duplicates.append("\(productID): App Store Connect answered this product ID twice (its ids \(kept) and \(id)); iapkit reads the first")
            return false
        }
        self.inAppPurchases = inAppPurchases.filter { keep($0.resource.attributes?.productId, $0.resource.id) }
        self.groups = groups.map { group in (group.group, group.subscriptions.filter { keep($0.resource.attributes?.productId, $0.resource.id) }) }
        self.duplicates = duplicates
        self.gridReads = gridReads
        productIDs = Set(
            inAppPurchases.compactMap { $0.resource.attributes?.productId }
                + groups.flatMap(\.subscriptions).compactMap { $0.resource.attributes?.productId })
    }

    /// How many listed products there are.
    public var count: Int { inAppPurchases.count + groups.reduce(0) { $0 + $1.subscriptions.count } }

    /// About how many requests reading `selection` in detail sends: each resource kind counts what its read sends for
    /// the list entry it is given, plus a request per group read and the app's own reads.
    func estimatedReads(_ selection: ReadSelection) -> Int {
        var requests = gridReads + AppKinds.all.reduce(0) { $0 + $1.estimatedReads } + selection.sharedReads
        for listing in inAppPurchases where selection.reads(listing.resource.attributes?.productId) {
            requests += InAppPurchaseKinds.estimatedReads(listing)
        }
        for (group, subscriptions) in groups {
            if selection.reads(group: group, subscriptions: subscriptions) { requests += 1 }
            for listing in subscriptions where selection.reads(listing.resource.attributes?.productId) {
                requests += SubscriptionKinds.estimatedReads(listing)
            }
        }
        return requests
    }
}

/// What a plan reads in detail, decided once the lists are read: the products it compares, those of them it reads
/// (the catalog's: a product App Store Connect alone has is shown as `?` from its list entry), the groups whose own
/// texts it reads, and what all that costs.
public struct ReadSelection: Sendable {
    /// The products the plan compares; nil: every product.
    public let compared: Set<String>?
    /// The products read in detail; nil: every listed product (a pull).
    public let read: Set<String>?
    /// Groups whose texts are read although none of their listed products is: groups the catalog adds to.
    public let groups: Set<String>
    /// Reads the app shares among its products (what each USD price equalizes to).
    public let sharedReads: Int
    /// How many listed products are read in detail.
    public let products: Int
    /// About how many requests the detail reads send.
    public private(set) var estimatedRequests = 0
    /// Whether the app's own resources (grace period, promoted purchases, asset packs) are read: not for a plan of
    /// named products, which leaves them out.
    public var appResources = true

    /// Every product, as a pull reads them.
    public static func everything(_ listings: StoreListings) -> ReadSelection {
        ReadSelection(compared: nil, read: nil, groups: [], sharedReads: 0, products: listings.count, listings: listings)
    }

    /// The products of `scope` for a plan of `desired`.
    public init(listings: StoreListings, desired: CatalogRecords, scope: PlanScope) {
        let catalog = Set(desired.allProducts.map(\.productID))
        let compared = scope.products(catalog: catalog, listed: listings.productIDs)
        let read = (compared ?? listings.productIDs).intersection(catalog).intersection(listings.productIDs)
        self.init(
            compared: compared, read: read, groups: Set(desired.scoped(to: compared).groups.map(\.referenceName)),
            // Equalizations are read for the subscriptions App Store Connect already has.
            sharedReads: desired.scoped(to: read).equalizationReads + desired.scoped(to: read).baseTerritoryReads, products: read.count,
            listings: listings)
        appResources = scope.includesAppResources
    }

    private init(
        compared: Set<String>?, read: Set<String>?, groups: Set<String>, sharedReads: Int, products: Int,
        listings: StoreListings
    ) {
        self.compared = compared
        self.read = read
        self.groups = groups
        self.sharedReads = sharedReads
        self.products = products
        estimatedRequests = listings.estimatedReads(self)
    }

    func reads(_ productID: String?) -> Bool { productID.map { read?.contains($0) ?? true } ?? false }

    /// Whether a group's own texts are read: always in a pull, else when it holds a product read in detail or the
    /// catalog adds to it.
    func reads(group: Components.Schemas.SubscriptionGroup, subscriptions: [SubscriptionListing]) -> Bool {
        guard read != nil else { return true }
        if groups.contains(group.attributes?.referenceName ?? group.id) { return true }
        return subscriptions.contains { reads($0.resource.attributes?.productId) }
    }
}
