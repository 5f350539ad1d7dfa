import IAPCore

/// The catalog format (schema version 1), each key declared once; the objects of products, offers, prices and
/// asset packs are declared in the files beside this one.
public enum CatalogFormat {
    public static let description = "In-app purchase catalog checked by `iapkit lint catalog`."

    public static let root = CatalogObject(
        [
            CatalogKey("schemaVersion", .constant(.int(1)), required: true, "The catalog format version; iapkit reads 1."),
            CatalogKey("app", .object(app), required: true, "The app whose in-app purchases these are."),
            CatalogKey(
                "retiredProductIds", .list(.string),
                "Product IDs used before (deleted products included), which App Store Connect never allows again."),
            CatalogKey("products", .list(.reference("product")), "Consumables, non-consumables and non-renewing subscriptions."),
            CatalogKey("subscriptionGroups", .list(.reference("group")), "Auto-renewable subscriptions, by group."),
            CatalogKey("appPolicies", .object(appPolicies), "The app's license agreement and privacy policies as StoreKit shows them."),
            CatalogKey("storeKit", .object(storeKit), "Options for `iapkit export storekit`"),
            CatalogKey(
                "assetPacks", .list(.reference("assetPack")),
                "Apple-hosted asset packs (Background Assets): `iapkit package --asset-packs` builds them with Apple's ba-package, `iapkit asc push` uploads new versions. At most 100."
            ),
            CatalogKey(
                "billingGracePeriod", .object(billingGracePeriod), "The app's Billing Grace Period; absent leaves App Store Connect's as it is"),
            CatalogKey(
                "promotedPurchases", .list(.object(promotedPurchase), maximum: 20),
                "The products the App Store shows on the app's page, in order (at most 20); absent leaves App Store Connect's as they are"),
        ])

    public static let app = CatalogObject(
        [
            CatalogKey("bundleId", .string, required: true, "The app's bundle ID; asc finds the app by it, and product IDs usually start with it."),
            CatalogKey("appId", .digits, "App Store Connect's id for the app (Apple ID); the asc commands find the app by bundleId when absent."),
            CatalogKey(
                "primaryLocale", .string, required: true,
                "The locale every product and group must have texts in; App Store Connect shows it where a translation is missing."),
            CatalogKey(
                "platforms", .list(.choice(["iOS", "macOS", "tvOS", "visionOS"])),
                "The platforms the app ships on; iOS when absent. Asset packs may name only these."),
        ])

    public static let appPolicies = CatalogObject(
        [
            CatalogKey("eula", .string),
            CatalogKey("policies", .list(.object(policy))),
        ])

    public static let policy = CatalogObject(
        [
            CatalogKey("locale", .string, required: true),
            CatalogKey("text", .string),
            CatalogKey("url", .string),
        ])

    public static let storeKit = CatalogObject(
        [
            CatalogKey("storefront", .string(pattern: "^[A-Z]{3}$")),
            CatalogKey("locale", .string),
            CatalogKey(
                "formatVersion", .string(pattern: #"^([1-5]\.(0|[1-9][0-9]?)|6\.[0-3])$"#),
                "The StoreKit format `export storekit` writes unless --format-version says otherwise; 4.0 when absent. A format from 1.0 to 6.3, as `import storekit` sets it to the imported file's."
            ),
        ])

    public static let billingGracePeriod = CatalogObject(
        [
            CatalogKey("enabled", .boolean, "Subscribers keep access while Apple retries a failed renewal; false when absent"),
            CatalogKey("sandbox", .boolean, "The same in the sandbox; false when absent"),
            CatalogKey("duration", .choice(["P3D", "P16D", "P28D"]), "P16D when absent"),
            CatalogKey("renewals", .choice(["all", "paid-to-paid"]), "all when absent; paid-to-paid leaves out the end of a free trial"),
        ])

    public static let promotedPurchase = CatalogObject(
        [
            CatalogKey("productId", .string, required: true),
            CatalogKey("visible", .boolean, "Shown to every customer; true when absent"),
            CatalogKey("enabled", .boolean, "Shown at all; true when absent"),
        ])

    /// The parts several keys share, in the order the schema lists them.
    public static let definitions = [
        CatalogDefinition("localization", .object(localization)),
        CatalogDefinition("groupLocalization", .object(groupLocalization)),
        CatalogDefinition("review", .object(review)),
        CatalogDefinition("product", .object(product)),
        CatalogDefinition("group", .object(group)),
        CatalogDefinition("subscription", .object(subscription)),
        CatalogDefinition("billingPlan", .object(billingPlan)),
        CatalogDefinition(
            "availability", .object(availability),
            "Where the product is sold (iapkit asc push). Absent: every territory, and new ones as App Store Connect opens them."),
        CatalogDefinition("assetPack", .object(assetPack)),
        CatalogDefinition(
            "territoryPrices", .mapping(keyPattern: "^[A-Z]{3}$", values: .amount),
            "Prices in territories' own currencies, overriding the price App Store Connect equalizes from the USD base price. Keys are ISO 3166-1 alpha-3 territory codes as App Store Connect uses them, e.g. {\"IND\": 99, \"BRA\": 14.90}."
        ),
        CatalogDefinition(
            "sale", .object(sale),
            "A sale: from startDate until endDate, a USD base price and/or territory prices; then the regular prices again."),
        CatalogDefinition(
            "priceChange", .object(priceChange), "A scheduled price change: from startDate, a new USD base price and/or new territory prices."),
        CatalogDefinition(
            "oneTimeCodes", .list(.object(oneTimeCodeBatch)),
            "Batches of one-time-use codes; absent leaves App Store Connect's as they are, a list (even empty) is all of them"),
        CatalogDefinition(
            "customCodes", .list(.object(customOfferCode)), "Custom codes customers type in; absent leaves App Store Connect's as they are"),
    ]
}
