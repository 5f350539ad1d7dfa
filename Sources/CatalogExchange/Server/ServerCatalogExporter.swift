import IAPCatalog
import IAPCore
import PropertyList

/// The resolved catalog for an app's own server (defaults applied, prices as decimal strings, tiers resolved to
/// USD), and the product-ID list for the app bundle.
public enum ServerCatalogExporter {
    public static func json(_ catalog: Catalog) -> String {
        func localizations(_ list: [Localization]) -> JSONValue {
            .array(
                list.map { localization in
                    var fields: [(String, JSONValue)] = [("locale", .optional(localization.locale)), ("name", .optional(localization.name))]
                    if let description = localization.description { fields.append(("description", .string(description))) }
                    if let name = localization.customAppName { fields.append(("customAppName", .string(name))) }
                    return .object(fields)
                })
        }
        func price(_ product: Product) -> JSONValue { .optional(product.resolvedPriceCents.map(Price.format(cents:))) }
        func offer(_ offer: Offer) -> JSONValue {
            var fields: [(String, JSONValue)] = [("mode", .optional(offer.mode?.rawValue))]
            if let id = offer.offerID { fields.append(("offerId", .string(id))) }
            if let name = offer.referenceName { fields.append(("referenceName", .string(name))) }
            if let duration = offer.duration { fields.append(("duration", .string(duration))) }
            if let periods = offer.periods { fields.append(("periods", .int(periods))) }
            if let price = offer.price { fields.append(("price", .string(price.description))) }
            return .object(fields)
        }
        // Territory prices in their currencies, so the server shows what the App Store charges there.
        func territoryPrices(_ entries: [TerritoryPrice]) -> JSONValue {
            .object(
                entries.sorted { $0.territory < $1.territory }.compactMap { entry in
                    entry.price.map { price in
                        (
                            entry.territory,
                            .object([
                                ("price", .string(price.text)),
                                ("currency", .optional(Storefronts.currencies[entry.territory])),
                            ])
                        )
                    }
                })
        }
        func product(_ product: Product) -> JSONValue {
            var fields: [(String, JSONValue)] = [
                ("productId", .optional(product.productID)), ("referenceName", .optional(product.referenceName)),
                ("type", .optional(product.type?.rawValue)), ("price", price(product)), ("currency", .string("USD")),
                ("familySharable", .bool(product.familySharable ?? false)),
            ]
            if !product.territoryPrices.isEmpty { fields.append(("territoryPrices", territoryPrices(product.territoryPrices))) }
            if !product.priceChanges.isEmpty {
                fields.append(
                    (
                        "priceChanges",
                        .array(
                            product.priceChanges.map { change in
                                var entry: [(String, JSONValue)] = [("startDate", .optional(change.startDate))]
                                if let price = change.price { entry.append(("price", .string(price.description))) }
                                if !change.territoryPrices.isEmpty { entry.append(("territoryPrices", territoryPrices(change.territoryPrices))) }
                                if let choice = change.existingSubscribers { entry.append(("existingSubscribers", .string(choice.rawValue))) }
                                return .object(entry)
                            })
                    ))
            }
            if product.isSubscription {
                fields += [
                    ("period", .optional(product.period)), ("groupLevel", .optional(product.groupLevel)),
                    ("introductoryOffer", product.introductoryOffer.map(offer) ?? .null),
                    ("promotionalOffers", .array(product.promotionalOffers.map(offer))),
                ]
            } else {
                fields.append(("hostedContent", .bool(product.hostedContent != nil)))
            }
            let packs = AssetPackMap.packs(unlockedBy: product.productID, in: catalog)
            if !packs.isEmpty { fields.append(("unlocksAssetPacks", .array(packs.map(JSONValue.string)))) }
            fields.append(("localizations", localizations(product.localizations)))
            return .object(fields)
        }
        var assetPacks: [(String, JSONValue)] = []
        if !catalog.assetPacks.isEmpty { assetPacks.append(("assetPacks", AssetPackMap.json(catalog))) }
        return JSONValue.object(
            [
                ("schemaVersion", .int(1)),
                ("bundleId", .optional(catalog.app.bundleID)),
                ("primaryLocale", .optional(catalog.app.primaryLocale)),
                ("products", .array(catalog.products.map(product))),
                (
                    "subscriptionGroups",
                    .array(
                        catalog.subscriptionGroups.map { group in
                            .object([
                                ("referenceName", .optional(group.referenceName)), ("localizations", localizations(group.localizations)),
                                ("subscriptions", .array(group.subscriptions.map(product))),
                            ])
                        })
                ),
            ] + assetPacks
        ).serialized(.pretty)
    }

    /// The product IDs as an XML plist array (products, then subscriptions).
    public static func plist(_ catalog: Catalog) throws(IAPKitError) -> [UInt8] {
        Array(try PropertyListWriter.write(.array(catalog.allProducts.compactMap(\.productID).map(PropertyListValue.string))))
    }
}
