import IAPCore

/// A catalog as loaded from `catalog.yaml`. Values the file did not give, or gave with the wrong type, are nil;
/// the loader has already reported those as `schema` findings, and the rules check the rest.
public struct Catalog: Sendable {
    public static let supportedSchemaVersions = [1]

    /// The file the catalog came from, as given by the user.
    public var file: String
    public var schemaVersion: Int?
    public var app: App
    public var retiredProductIDs: [Located<String>]
    public var products: [Product]
    public var subscriptionGroups: [SubscriptionGroup]
    public var appPolicies: AppPolicies?
    public var storeKit: StoreKitSettings?
    /// Apple-hosted asset packs (Background Assets) and the products that unlock them.
    public var assetPacks: [AssetPack] = []
    /// The app's Billing Grace Period; nil leaves App Store Connect's as it is.
    public var billingGracePeriod: BillingGracePeriod?
    /// The products the App Store shows on the app's page, in order; nil leaves App Store Connect's as they are.
    public var promotedPurchases: [PromotedPurchase]?

    /// The YAML the catalog was read from, kept to turn a `CatalogPath` into a line and column only when a
    /// finding needs one.
    var document: YAMLDocument?
    /// The `# iapkit:disable` comments of the catalog file, each accepting a known finding.
    public var disableComments: [DisableComment] = []
    /// Price-sheet rows live in CSV files beside the catalog: their paths point there.
    public var sheetLocations: [CatalogPath: SourceLocation] = [:]

    public init(
        file: String, schemaVersion: Int? = 1, app: App = App(), retiredProductIDs: [Located<String>] = [],
        products: [Product] = [], subscriptionGroups: [SubscriptionGroup] = [],
        appPolicies: AppPolicies? = nil, storeKit: StoreKitSettings? = nil
    ) {
        self.file = file
        self.schemaVersion = schemaVersion
        self.app = app
        self.retiredProductIDs = retiredProductIDs
        self.products = products
        self.subscriptionGroups = subscriptionGroups
        self.appPolicies = appPolicies
        self.storeKit = storeKit
        document = nil
    }

    /// Lets go of the YAML the catalog was read from, for a caller that reports no more findings: a location
    /// found after this names only the file.
    public mutating func releaseSourceText() { document = nil }

    /// Every purchasable item: products first, then each group's subscriptions, in file order.
    public var allProducts: [Product] {
        products + subscriptionGroups.flatMap(\.subscriptions)
    }

    /// Every territory some product prices in its own currency, sorted.
    public var handPricedTerritories: [String] {
        var territories = Set<String>()
        for product in allProducts {
            for entry in product.territoryPrices { territories.insert(entry.territory) }
            for change in product.priceChanges { for entry in change.territoryPrices { territories.insert(entry.territory) } }
        }
        return territories.sorted()
    }

    /// The subscriptions of every group.
    public var allSubscriptions: [Product] { subscriptionGroups.flatMap(\.subscriptions) }

    /// The line and column of the value at `path`, or of its nearest parent the file has. A mapping or list
    /// reached through a key is reported at that key, where a reader looks for it.
    public func location(of path: CatalogPath) -> SourceLocation {
        if !sheetLocations.isEmpty {
            var partial = CatalogPath.root
            for component in path.components {
                switch component {
                case let .key(key): partial = partial / key
                case let .index(index): partial = partial.index(index)
                }
                if let location = sheetLocations[partial] { return location }
            }
        }
        guard let document else { return SourceLocation(file: file) }
        var node = document.root
        var marked = node
        for component in path.components {
            var next: YAMLDocument.NodeID?
            var key: YAMLDocument.NodeID?
            switch component {
            case let .key(name):
                if let pair = document.pair(node, key: name) { (key, next) = (pair.key, pair.value) }
            case let .index(index):
                if document.kind(node) == .sequence {
                    let items = document.items(node)
                    next = index >= 0 && index < items.count ? items[items.startIndex + index] : nil
                }
            }
            guard let next else { break }
            node = next
            marked = document.isScalar(next) ? next : key ?? next
        }
        return SourceLocation(file: file, line: document.line(marked), column: document.column(marked))
    }

    /// The location of the key that introduces `path` (for "unknown key" findings).
    func keyLocation(parent: CatalogPath, key: String) -> SourceLocation {
        guard let document, let parentNode = node(at: parent), let pair = document.pair(parentNode, key: key)
        else { return location(of: parent) }
        return SourceLocation(file: file, line: document.line(pair.key), column: document.column(pair.key))
    }

    private func node(at path: CatalogPath) -> YAMLDocument.NodeID? {
        guard let document else { return nil }
        var node = document.root
        for component in path.components {
            switch component {
            case let .key(name):
                guard let pair = document.pair(node, key: name) else { return nil }
                node = pair.value
            case let .index(index):
                let items = document.items(node)
                guard document.kind(node) == .sequence, index >= 0, index < items.count else { return nil }
                node = items[items.startIndex + index]
            }
        }
        return node
    }
}

/// A value together with where it sits in the catalog.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var path: CatalogPath
    public init(_ value: Value, path: CatalogPath) {
        self.value = value
        self.path = path
    }
}
