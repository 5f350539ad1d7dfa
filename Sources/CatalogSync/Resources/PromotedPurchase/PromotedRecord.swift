import IAPCatalog

/// A product the App Store shows on the app's page; its place is its index in the list.
public struct PromotedRecord: Sendable, Equatable {
    public var productID: String
    public var visibleForAllUsers: Bool
    public var enabled: Bool
    public var path: CatalogPath?

    public init(productID: String, visibleForAllUsers: Bool = true, enabled: Bool = true, path: CatalogPath? = nil) {
        self.productID = productID
        self.visibleForAllUsers = visibleForAllUsers
        self.enabled = enabled
        self.path = path
    }

    public init?(_ entry: PromotedPurchase) {
        guard let id = entry.productID else { return nil }
        self.init(productID: id, visibleForAllUsers: entry.visible ?? true, enabled: entry.enabled ?? true, path: entry.path)
    }

    /// The catalog's form: the flags only where they are not the defaults.
    public var catalogEntry: PromotedPurchase {
        PromotedPurchase(path: .root, productID: productID, visible: visibleForAllUsers ? nil : false, enabled: enabled ? nil : false)
    }

    public static func == (lhs: PromotedRecord, rhs: PromotedRecord) -> Bool {
        lhs.productID == rhs.productID && lhs.visibleForAllUsers == rhs.visibleForAllUsers && lhs.enabled == rhs.enabled
    }
}
