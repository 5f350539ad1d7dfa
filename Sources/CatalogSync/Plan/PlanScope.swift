#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IAPCatalog

/// Which products a plan reads in detail and compares, so a plan costs what the change costs.
///
/// The product lists are always read whole: a product created or deleted in App Store Connect, or one the catalog
/// adds, is still seen. `--product` patterns keep only the products they match (push writes nothing else);
/// `--changed-since` keeps the products whose catalog entries changed, those the catalog and App Store Connect's
/// lists do not both have, and nothing else.
public struct PlanScope: Sendable, Equatable {
    /// Glob patterns (`com.example.gems.*`); empty: every product.
    public var patterns: [String]
    /// Product IDs whose catalog entries differ from an earlier revision; nil: no such filter.
    public var changed: Set<String>?

    public init(patterns: [String] = [], changed: Set<String>? = nil) {
        self.patterns = patterns
        self.changed = changed
    }

    /// Every product, as an unscoped plan reads them.
    public static let everything = PlanScope()

    public var isEverything: Bool { patterns.isEmpty && changed == nil }

    /// Whether `productID` matches one of the patterns (or there are none).
    public func matches(_ productID: String) -> Bool {
        patterns.isEmpty || patterns.contains { fnmatch($0, productID, 0) == 0 }
    }

    /// The products in scope, given the catalog's products and App Store Connect's listed ones; nil: all of them.
    public func products(catalog: Set<String>, listed: Set<String>) -> Set<String>? {
        guard !isEverything else { return nil }
        var chosen = catalog.union(listed).filter(matches)
        if let changed {
            // Created or deleted on one side: the lists show it, so it is compared whatever the revision says.
            let oneSided = catalog.symmetricDifference(listed)
            chosen = chosen.filter { changed.contains($0) || oneSided.contains($0) }
        }
        return chosen
    }

    /// Whether app-level resources (asset packs) are compared: not when products are named by pattern.
    public var includesAppResources: Bool { patterns.isEmpty }

    /// The product IDs whose entries differ between two versions of a catalog: changed, added or removed.
    public static func changedProducts(before: CatalogRecords, after: CatalogRecords) -> Set<String> {
        let old = Dictionary(before.allProducts.map { ($0.productID, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(after.allProducts.map { ($0.productID, $0) }, uniquingKeysWith: { a, _ in a })
        var changed = Set(old.keys).symmetricDifference(new.keys)
        for (id, record) in new where old[id].map({ $0 != record }) == true { changed.insert(id) }
        // A subscription whose group changed (its name, its texts) is changed with it.
        let oldGroups = Dictionary(before.groups.map { ($0.referenceName, $0) }, uniquingKeysWith: { a, _ in a })
        for group in after.groups {
            var shape = group
            shape.subscriptions = []
            var oldShape = oldGroups[group.referenceName]
            oldShape?.subscriptions = []
            if oldShape != shape { changed.formUnion(group.subscriptions.map(\.productID)) }
        }
        return changed
    }
}

extension CatalogRecords {
    /// Only the products in `products` (groups keep only those subscriptions; a group left empty is dropped).
    public func scoped(to products: Set<String>?) -> CatalogRecords {
        guard let products else { return self }
        var scoped = self
        scoped.inAppPurchases = inAppPurchases.filter { products.contains($0.productID) }
        scoped.groups = groups.compactMap { group in
            var group = group
            group.subscriptions = group.subscriptions.filter { products.contains($0.productID) }
            return group.subscriptions.isEmpty ? nil : group
        }
        return scoped
    }
}

extension CatalogRecords {
    /// About how many equalization tables a plan of these records reads: one per billing plan and USD price among
    /// the subscriptions and their paid offers, and one per USD price of the in-app purchases' offer codes (App
    /// Store Connect's answer is the same for every product of a kind).
    /// In-app purchases priced in more than one territory (now or from a date): the read of their schedule takes one
    /// request more, for its base territory, which prices in one territory name themselves.
    public var baseTerritoryReads: Int {
        inAppPurchases.lazy.filter { !$0.territoryPrices.isEmpty || $0.priceChanges.contains { !$0.territoryPrices.isEmpty } }.count
    }

    public var equalizationReads: Int {
        var prices = Set<String>()
        for offer in inAppPurchases.flatMap(\.offerCodes) { if let cents = offer.priceCents { prices.insert("IAP|\(cents)") } }
        for subscription in groups.flatMap(\.subscriptions) {
            if let cents = subscription.priceCents { prices.insert("UPFRONT|\(cents)") }
            if let cents = subscription.monthlyPlan?.priceCents { prices.insert("MONTHLY|\(cents)") }
            let offers =
                [subscription.introductoryOffer].compactMap { $0 } + subscription.promotionalOffers
                + subscription.offerCodes + subscription.winBackOffers
            for offer in offers { if let cents = offer.priceCents { prices.insert("\(offer.planType ?? "UPFRONT")|\(cents)") } }
        }
        return prices.count
    }
}
