/// The app the catalog is for.
public struct App: Sendable, Hashable {
    public var bundleID: String?
    /// App Store Connect's id for the app (`appId`), when the catalog names it; found from the bundle ID otherwise.
    public var appID: String?
    public var primaryLocale: String?
    /// The platforms the app ships on (`iOS`, `macOS`, `tvOS`, `visionOS`); iOS alone when absent.
    public var platforms: [Located<String>]?
    public init(bundleID: String? = nil, primaryLocale: String? = nil) {
        self.bundleID = bundleID
        self.primaryLocale = primaryLocale
    }

    /// The bundle ID `import storekit` writes when the product IDs share no prefix to guess it from. It says what it
    /// is, and no example or real app uses it: lint says once that it stands for the app's own, rather than at every
    /// product ID.
    public static let placeholderBundleID = "com.example.placeholder"

    /// The app's platforms, iOS when the catalog names none.
    public var effectivePlatforms: [String] { platforms.map { $0.map(\.value) } ?? ["iOS"] }
}

/// The app's license agreement and privacy policies, as StoreKit configurations (4.0+) carry them.
public struct AppPolicies: Sendable, Hashable {
    public struct Policy: Sendable, Hashable {
        public var path: CatalogPath
        public var locale: String?
        public var text: String?
        public var url: String?
        public init(path: CatalogPath, locale: String? = nil, text: String? = nil, url: String? = nil) {
            self.path = path
            self.locale = locale
            self.text = text
            self.url = url
        }
    }
    public var path: CatalogPath
    public var eula: String?
    public var policies: [Policy]
    public init(path: CatalogPath, eula: String? = nil, policies: [Policy] = []) {
        self.path = path
        self.eula = eula
        self.policies = policies
    }
}

/// Options for the simulator's StoreKit configuration (`export storekit`).
public struct StoreKitSettings: Sendable, Hashable {
    public var path: CatalogPath
    /// ISO 3166-1 alpha-3 storefront; USA when absent.
    public var storefront: String?
    /// Locale the simulator's store uses; the primary locale when absent.
    public var locale: String?
    /// The StoreKit configuration format `export storekit` writes when not told (`3.0`): the version of the file the
    /// catalog was imported from, so a team's Xcode keeps the format it opens.
    public var formatVersion: String?
    public init(path: CatalogPath, storefront: String? = nil, locale: String? = nil) {
        self.path = path
        self.storefront = storefront
        self.locale = locale
    }
}
