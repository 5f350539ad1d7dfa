/// The app's Billing Grace Period: whether subscribers keep access while Apple retries a failed renewal, and for how
/// long. One per app in App Store Connect; absent from the catalog, iapkit leaves it as it is.
public struct BillingGracePeriod: Sendable, Hashable {
    public var path: CatalogPath
    public var enabled: Bool?
    /// The same in the sandbox, for testing before release.
    public var sandbox: Bool?
    /// `P3D`, `P16D` or `P28D`, as written.
    public var duration: String?
    /// `all` renewals, or `paid-to-paid` only (not a free trial's end), as written.
    public var renewals: String?

    public init(path: CatalogPath, enabled: Bool? = nil, sandbox: Bool? = nil, duration: String? = nil, renewals: String? = nil) {
        self.path = path
        self.enabled = enabled
        self.sandbox = sandbox
        self.duration = duration
        self.renewals = renewals
    }

    public static let durations = ["P3D", "P16D", "P28D"]
    public static let renewalChoices = ["all", "paid-to-paid"]
}

/// A product the App Store shows on the app's page (a promoted in-app purchase), in the order of the catalog's list.
public struct PromotedPurchase: Sendable, Hashable {
    public var path: CatalogPath
    public var productID: String?
    /// Shown to every customer (false: only to those who can buy it again, as App Store Connect's toggle says).
    public var visible: Bool?
    /// Shown at all; false keeps the product in the order without showing it.
    public var enabled: Bool?

    public init(path: CatalogPath, productID: String? = nil, visible: Bool? = nil, enabled: Bool? = nil) {
        self.path = path
        self.productID = productID
        self.visible = visible
        self.enabled = enabled
    }

    /// App Store Connect promotes at most this many products per app.
    public static let maximumCount = 20
}
