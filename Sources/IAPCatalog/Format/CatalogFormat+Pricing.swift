import IAPCore

extension CatalogFormat {
    public static let sale = CatalogObject(
        [
            CatalogKey(
                "startDate", .string(pattern: #"^\d{4}-\d{2}-\d{2}$"#),
                "The first day of the sale, YYYY-MM-DD (App Store Connect's day, UTC); absent for a sale already under way."),
            CatalogKey(
                "endDate", .string(pattern: #"^\d{4}-\d{2}-\d{2}$"#), required: true,
                "The first day back at the regular price, YYYY-MM-DD: App Store Connect's endDate."),
            CatalogKey("price", .amount, "The sale's USD price in the base territory, equalized in every territory without a price of its own."),
            .offerTerritoryPrices,
        ])

    public static let priceChange = CatalogObject(
        [
            CatalogKey("startDate", .string(pattern: #"^\d{4}-\d{2}-\d{2}$"#), required: true, "The first day of the new prices, YYYY-MM-DD."),
            CatalogKey("price", .amount, "The new USD base price, equalized in every territory without an override."),
            .offerTerritoryPrices,
            CatalogKey(
                "existingSubscribers",
                .oneOf([
                    .choice(of: ExistingSubscribers.self),
                    .mapping(keyPattern: "^([A-Z]{3}|others)$", values: .choice(of: ExistingSubscribers.self), minimum: 1),
                ]),
                "Auto-renewable subscriptions: whether existing subscribers keep their current price (keep) or move to the new one (move), App Store Connect's preserveCurrentPrice; or per territory, as a mapping of territory codes (and `others`) to keep or move."
            ),
        ])
}
