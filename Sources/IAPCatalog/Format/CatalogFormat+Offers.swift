import IAPCore

extension CatalogFormat {
    /// The object an offer of `kind` is: an in-app purchase's offer code has keys of its own.
    public static func offer(_ kind: OfferKind, inAppPurchase: Bool) -> CatalogObject {
        switch kind {
        case .introductory: introductoryOffer
        case .promotional: promotionalOffer
        case .offerCode: inAppPurchase ? inAppPurchaseOfferCode : offerCode
        case .winBack: winBackOffer
        }
    }

    /// What every offer of a subscription says of what it costs: how it is paid, for how long, at what price.
    static let offerTerms: [CatalogKey] = [.mode, .duration, .periods, .price, .offerTerritoryPrices]

    public static let introductoryOffer = CatalogObject(
        offerTerms + [
            CatalogKey(
                "territories", .list(.string(pattern: "^[A-Z]{3}$"), unique: true),
                "The territories the offer is set in, when not every territory the subscription is priced in.")
        ])

    public static let promotionalOffer = CatalogObject(
        [.offerId, .offerReferenceName] + offerTerms + [
            .offerTerritories
        ])

    public static let offerCode = CatalogObject(
        [.offerReferenceName] + offerTerms + [
            .offerTerritories,
            CatalogKey("eligibility", .list(.choice(["new", "existing", "expired"]))),
            CatalogKey("stackable", .boolean),
            .offerCodeActive,
            .oneTimeCodes,
            .customCodes,
        ])

    public static let winBackOffer = CatalogObject(
        [.offerId, .offerReferenceName] + offerTerms + [
            .offerTerritories,
            CatalogKey(
                "eligibility", .object(winBackEligibility),
                "Who can redeem the offer; absent values: paid 1+ months, lapsed 1 to 24 months ago, no wait between offers"),
            CatalogKey("priority", .choice(["high", "normal"]), "normal when absent"),
            CatalogKey(
                "promotion", .choice(["app-store", "none"]), "app-store: the App Store shows the offer with generated assets; none when absent"),
            CatalogKey(
                "startDate", .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), "First day (YYYY-MM-DD); the day of the push when absent or past"),
            CatalogKey("endDate", .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), "Last day (YYYY-MM-DD); none when absent"),
        ])

    public static let winBackEligibility = CatalogObject(
        [
            CatalogKey(
                "paidMonths", .numbers([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 36, 48, 60]),
                "Months the customer paid for the subscription"),
            CatalogKey("lapsedMonths", .object(monthRange), "Months since the subscription lapsed"),
            CatalogKey("monthsBetweenOffers", .integer(minimum: 2, maximum: 24), "Months after redeeming a win-back offer before the next"),
        ])

    public static let monthRange = CatalogObject(
        [
            CatalogKey("min", .integer(minimum: 1, maximum: 24), required: true),
            CatalogKey("max", .integer(minimum: 1, maximum: 24), required: true),
        ])

    public static let oneTimeCodeBatch = CatalogObject(
        [
            CatalogKey("count", .integer(minimum: 1, maximum: 1000000), required: true),
            CatalogKey(
                "expires", .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), required: true,
                "Last day the codes work (YYYY-MM-DD), at most six months ahead when created"),
            .codeActive,
            CatalogKey(
                "environment", .choice(of: CodeEnvironment.self),
                "Who can redeem the codes: customers (production, as App Store Connect makes a batch when none is named) or sandbox testers only"),
        ])

    public static let customOfferCode = CatalogObject(
        [
            CatalogKey("code", .string(pattern: "^[A-Za-z0-9]{1,64}$"), required: true),
            CatalogKey("count", .integer(minimum: 1, maximum: 1000000), required: true, "How many redemptions"),
            CatalogKey("expires", .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), "Last day (YYYY-MM-DD); none when absent"),
            .codeActive,
        ])
}
