import IAPCore

extension CatalogFormat {
    public static let product = CatalogObject(
        [
            .productId,
            CatalogKey("referenceName", .string(maxLength: 64), "The internal name App Store Connect lists the product by; not shown to customers."),
            CatalogKey(
                "type", .choice(["consumable", "non-consumable", "non-renewing-subscription"]), required: true,
                "Cannot change once the product exists."),
            .price,
            .tier,
            CatalogKey(
                "baseTerritory", .string(pattern: "^[A-Z]{3}$"),
                "The territory App Store Connect equalizes this in-app purchase's prices from, when it is not the USA; its price is then territoryPrices of that territory, and price is absent."
            ),
            .territoryPrices,
            .priceSheet,
            .priceChanges,
            CatalogKey(
                "sales", .list(.reference("sale")),
                "Prices with an end: each from its startDate until its endDate, after which the regular prices apply again."),
            .familySharable,
            CatalogKey(
                "offerCodes", .list(.object(inAppPurchaseOfferCode)),
                "Offer codes of a consumable, non-consumable or non-renewing subscription: a price for the customers each is for, and its codes"),
            .localizations,
            .review,
            .promotionalImage,
            CatalogKey("hostedContent", .string, "Folder with ContentInfo.plist and Contents/"),
            CatalogKey("availability", .reference("availability"), "Where the product is sold."),
        ])

    public static let inAppPurchaseOfferCode = CatalogObject(
        [
            CatalogKey("referenceName", .string(maxLength: 64), required: true),
            CatalogKey("price", .amount, required: true, "USD customer price on App Store Connect's grid, 0 for free; below the product's own price"),
            .offerTerritoryPrices,
            CatalogKey(
                "territories", .list(.string(pattern: "^[A-Z]{3}$"), unique: true),
                "The territories the offer code is set in, when not every territory the product is sold in"),
            CatalogKey(
                "eligibility", .list(.choice(["non-spender", "active-spender", "churned-spender"]), minimum: 1),
                "Customers the offer code is for; every customer when absent"),
            .offerCodeActive,
            .oneTimeCodes,
            .customCodes,
        ])

    public static let subscription = CatalogObject(
        [
            .productId,
            CatalogKey(
                "referenceName", .string(maxLength: 64), "The internal name App Store Connect lists the subscription by; not shown to customers."),
            CatalogKey(
                "period", .choice(["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]), required: true,
                "How long one renewal lasts; cannot change once the subscription exists."),
            CatalogKey("groupLevel", .integer(minimum: 1), "The subscription's rank in its group for upgrades and downgrades; 1 is the highest."),
            .price,
            .tier,
            .territoryPrices,
            .priceSheet,
            CatalogKey(
                "pricedTerritories", .oneOf([.constant(.string("all")), .list(.string(pattern: "^[A-Z]{3}$"), unique: true)]),
                "Where the subscription has prices, when that is not where it is sold (App Store Connect's web form prices every territory): `all`, or a list of territory codes."
            ),
            .priceChanges,
            .familySharable,
            CatalogKey(
                "multiSeat", .boolean,
                "Whether organizations can buy seats of the subscription (App Store Connect's multiseat setting, API 4.5; on by default since September 2026). Absent leaves App Store Connect's setting as it is. Cannot be true with familySharable: turning Family Sharing on turns multiseat off."
            ),
            CatalogKey(
                "markets", .list(.choice(of: SubscriptionMarket.self), unique: true),
                "Where organizations can buy seats: the App Store, Apple Business Manager, Apple School Manager. Absent leaves App Store Connect's markets as they are."
            ),
            CatalogKey(
                "introductoryOffer", .object(introductoryOffer), "The offer new subscribers get once: a free trial, pay as you go or pay up front."),
            CatalogKey(
                "promotionalOffers", .list(.object(promotionalOffer), maximum: 10),
                "Offers the app presents to current or lapsed subscribers, signed by your server."),
            CatalogKey("offerCodes", .list(.object(offerCode)), "Codes customers redeem for an offer."),
            CatalogKey("winBackOffers", .list(.object(winBackOffer)), "Offers App Store Connect shows to subscribers who left."),
            CatalogKey(
                "billingPlans", .list(.reference("billingPlan")),
                "How the subscription is billed (App Store Connect's subscription plans). Without it, the whole period is paid up front."),
            .localizations,
            .review,
            .promotionalImage,
            CatalogKey("availability", .reference("availability"), "Where the subscription is sold."),
        ])

    public static let group = CatalogObject(
        [
            CatalogKey("referenceName", .string(maxLength: 64), required: true, "The internal name App Store Connect lists the group by."),
            CatalogKey("localizations", .list(.reference("groupLocalization")), "The group's name customers see, per locale."),
            CatalogKey(
                "subscriptions", .list(.reference("subscription")), required: true,
                "The group's subscriptions; a customer has at most one of them at a time."),
        ])

    public static let localization = CatalogObject(
        [
            CatalogKey("locale", .string, required: true, "App Store Connect locale code, e.g. en-US"),
            CatalogKey("name", .string(maxLength: 35), required: true, "Display name, at most 35 characters"),
            CatalogKey("description", .string(maxLength: 55), "At most 55 characters"),
        ])

    public static let groupLocalization = CatalogObject(
        [
            CatalogKey("locale", .string, required: true, "An App Store Connect locale code."),
            CatalogKey("name", .string(maxLength: 75), required: true, "The group's name customers see."),
            CatalogKey("customAppName", .string(maxLength: 30), "A name shown instead of the app's in the subscription's listing."),
        ])

    public static let review = CatalogObject(
        [
            CatalogKey("note", .string(maxLength: 4000), "Notes for App Review: how to find and buy the product."),
            CatalogKey("screenshot", .string, "PNG or JPEG, relative to the catalog"),
        ])

    public static let availability = CatalogObject(
        [
            CatalogKey("territories", .list(.string(pattern: "^[A-Z]{3}$")), "ISO 3166-1 alpha-3 territory codes, e.g. USA, FRA."),
            CatalogKey(
                "availableInNewTerritories", .boolean,
                "Add territories App Store Connect opens later (default: true when territories is absent, else false)."),
        ])

    public static let billingPlan = CatalogObject(
        [
            CatalogKey(
                "planType", .choice(of: BillingPlanType.self), required: true,
                "upfront: the whole period paid at once; monthly: monthly payments for a 12-month commitment."),
            CatalogKey(
                "price", .amount,
                "USD price of each payment: the monthly payment of a monthly plan; an upfront plan defaults to the subscription's price"),
            CatalogKey("commitmentPrice", .amount, "USD total the customer commits to; defaults to 12 payments (monthly) or one (upfront)"),
            .offerTerritoryPrices,
            CatalogKey("priceChanges", .list(.reference("priceChange"))),
            CatalogKey("enabled", .boolean),
            CatalogKey("introductoryOffer", .reference("subscription/properties/introductoryOffer")),
            CatalogKey("promotionalOffers", .reference("subscription/properties/promotionalOffers")),
            CatalogKey("offerCodes", .reference("subscription/properties/offerCodes")),
            CatalogKey("winBackOffers", .reference("subscription/properties/winBackOffers")),
        ])
}
