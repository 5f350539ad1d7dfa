import IAPCore

/// Keys that need more than their declaration (`CatalogFormat`), and how each object of the catalog is read.
public enum CatalogKeys {
    /// Keys only an auto-renewable subscription has; on a product the offer and billing-plan rules report them.
    /// (Offer codes exist for both, with keys of their own on an in-app purchase.)
    public static let offerKeys = ["introductoryOffer", "promotionalOffers", "winBackOffers", "billingPlans"]

    /// Keys people bring from other files (Xcode's StoreKit configurations above all) or write in the wrong object,
    /// each with the catalog's key and where it goes. An unknown key the list names gets that place in its message.
    public static let hints: [String: KeyHint] = [
        // Xcode's names in a `.storekit` file.
        "productID": KeyHint("productId", from: "Xcode"),
        "displayName": KeyHint("localizations[].name", from: "Xcode"),
        "familyShareable": KeyHint("familySharable", from: "Xcode"),
        "displayPrice": KeyHint("price", from: "Xcode"),
        "recurringSubscriptionPeriod": KeyHint("period", from: "Xcode"),
        "groupNumber": KeyHint("groupLevel", from: "Xcode"),
        "paymentMode": KeyHint("mode", from: "Xcode"),
        "numberOfPeriods": KeyHint("periods", from: "Xcode"),
        "offerID": KeyHint("offerId", from: "Xcode"),
        "adHocOffers": KeyHint("promotionalOffers", from: "Xcode"),
        "codeOffers": KeyHint("offerCodes", from: "Xcode"),
        "winbackOffers": KeyHint("winBackOffers", from: "Xcode"),
        // Other tools' and everyday names.
        "introOffer": KeyHint("introductoryOffer"),
        "introductoryOffers": KeyHint("introductoryOffer", why: "a subscription has one introductory offer"),
        "productIdentifier": KeyHint("productId"),
        "bundleID": KeyHint("app.bundleId"),
        // Catalog keys written in the wrong object.
        "subscriptions": KeyHint("subscriptionGroups[].subscriptions", why: "every auto-renewable subscription belongs to a group"),
        "name": KeyHint("localizations[].name", why: "names are per locale"),
        "description": KeyHint("localizations[].description", why: "descriptions are per locale"),
        "bundleId": KeyHint("app.bundleId"),
        "primaryLocale": KeyHint("app.primaryLocale"),
    ]
}

/// Where the catalog has a key written under another name or in another object.
public struct KeyHint: Sendable {
    /// The catalog's key and the keys leading to it, from the outermost object that may hold the mistake:
    /// `localizations[].name` is the name in each of an object's localizations.
    public var place: String
    /// Whose name it is (`Xcode`), when it is another tool's.
    public var from: String?
    /// Why it goes there, when it is a catalog key in the wrong object.
    public var why: String?

    public init(_ place: String, from: String? = nil, why: String? = nil) {
        self.place = place
        self.from = from
        self.why = why
    }

    /// The place as seen from an object that takes `allowed`: the end of `place` that starts with one of its keys
    /// (`name` in a localization, `localizations[].name` in a product), or nil when the object has none of them.
    public func place(within allowed: [String]) -> String? {
        let parts = place.split(separator: ".").map(String.init)
        for start in parts.indices {
            let key = parts[start].hasSuffix("[]") ? String(parts[start].dropLast(2)) : parts[start]
            if allowed.contains(key) { return parts[start...].joined(separator: ".") }
        }
        return nil
    }

    /// `did you mean `name`? (`displayName` is Xcode's name for it)`, for `written` in an object taking `allowed`.
    public func suggestion(for written: String, within allowed: [String]) -> String? {
        guard let target = place(within: allowed), target != written else { return nil }
        var reasons: [String] = []
        if let from { reasons.append("`\(written)` is \(from)'s name for it") }
        if let why { reasons.append(why) }
        return "did you mean `\(target)`?" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
    }
}

extension NodeReader {
    func readCatalog(_ root: Node, into catalog: inout Catalog) throws(IAPKitError) {
        let object = try Object(root, path: .root, what: "the catalog", allowed: CatalogFormat.root.names, reader: self)
        if let node = object.node("schemaVersion") {
            catalog.schemaVersion = int(node, at: CatalogPath.root / "schemaVersion")
        }
        if let app = try object.object("app", what: "`app`", allowed: CatalogFormat.app.names) {
            catalog.app = App(
                bundleID: app.string("bundleId", required: true),
                primaryLocale: app.string("primaryLocale", required: true))
            catalog.app.appID = app.string("appId")
            if app.node("platforms") != nil {
                catalog.app.platforms = try app.list("platforms") { node, path throws(IAPKitError) in
                    try count()
                    return string(node, at: path).map { Located($0, path: path) }
                }
            }
            app.finish()
        } else {
            _ = object.require("app")
        }
        catalog.retiredProductIDs = try object.list("retiredProductIds") { node, path throws(IAPKitError) in
            try count()
            return string(node, at: path).map { Located($0, path: path) }
        }
        catalog.products = try readProducts(object)
        catalog.subscriptionGroups = try object.list("subscriptionGroups") { node, path throws(IAPKitError) in
            try readGroup(node, path: path)
        }
        for groupIndex in catalog.subscriptionGroups.indices {
            for index in catalog.subscriptionGroups[groupIndex].subscriptions.indices {
                catalog.subscriptionGroups[groupIndex].subscriptions[index].groupIndex = groupIndex
            }
        }
        if let policies = try object.object("appPolicies", what: "`appPolicies`", allowed: CatalogFormat.appPolicies.names) {
            catalog.appPolicies = AppPolicies(
                path: policies.path, eula: policies.string("eula"),
                policies: try policies.list("policies") { node, path throws(IAPKitError) in
                    let policy = try Object(node, path: path, what: "a policy", allowed: CatalogFormat.policy.names, reader: self)
                    defer { policy.finish() }
                    return AppPolicies.Policy(
                        path: path, locale: policy.string("locale", required: true),
                        text: policy.string("text"), url: policy.string("url"))
                })
            policies.finish()
        }
        if let settings = try object.object("storeKit", what: "`storeKit`", allowed: CatalogFormat.storeKit.names) {
            catalog.storeKit = StoreKitSettings(
                path: settings.path, storefront: settings.string("storefront"),
                locale: settings.string("locale"))
            catalog.storeKit?.formatVersion = settings.string("formatVersion")
            settings.finish()
        }
        catalog.assetPacks = try object.list("assetPacks") { node, path throws(IAPKitError) in try readAssetPack(node, path: path) }
        if let grace = try object.object("billingGracePeriod", what: "`billingGracePeriod`", allowed: CatalogFormat.billingGracePeriod.names) {
            catalog.billingGracePeriod = BillingGracePeriod(
                path: grace.path, enabled: grace.bool("enabled"), sandbox: grace.bool("sandbox"),
                duration: grace.string("duration"), renewals: grace.string("renewals"))
            grace.finish()
        }
        if object.node("promotedPurchases") != nil {
            catalog.promotedPurchases = try object.list("promotedPurchases") { node, path throws(IAPKitError) in
                let entry = try Object(node, path: path, what: "a promoted purchase", allowed: CatalogFormat.promotedPurchase.names, reader: self)
                guard entry.valid else { return nil }
                defer { entry.finish() }
                return PromotedPurchase(
                    path: path, productID: entry.string("productId", required: true),
                    visible: entry.bool("visible"), enabled: entry.bool("enabled"))
            }
        }
        object.finish()
    }

    func readLocalization(_ node: Node, path: CatalogPath, group: Bool = false) throws(IAPKitError) -> Localization? {
        let object = try Object(
            node, path: path, what: "a localization",
            allowed: group ? CatalogFormat.groupLocalization.names : CatalogFormat.localization.names, reader: self)
        guard object.valid else { return nil }
        defer { object.finish() }
        return Localization(
            path: path, locale: object.string("locale", required: true),
            name: object.string("name", required: true),
            description: group ? nil : object.string("description"),
            customAppName: group ? object.string("customAppName") : nil)
    }

    func readReview(_ object: Object) throws(IAPKitError) -> Review? {
        guard let review = try object.object("review", what: "`review`", allowed: CatalogFormat.review.names) else { return nil }
        defer { review.finish() }
        return Review(path: review.path, note: review.string("note"), screenshot: review.string("screenshot"))
    }

    func readProduct(_ node: Node, path: CatalogPath) throws(IAPKitError) -> Product? {
        var product = Product(path: path)
        return try readProduct(node, into: &product) ? product : nil
    }

    /// Reads a product into `product`, made with its path, where it is to stay: a product returned from here would
    /// be copied whole, every field retained, and the original released. False when the node is not a mapping.
    func readProduct(_ node: Node, into product: inout Product) throws(IAPKitError) -> Bool {
        let object = try Object(node, path: product.path, what: "a product", allowed: CatalogFormat.product.names, reader: self)
        guard object.valid else { return false }
        // Declared first so it runs last: the unknown keys `finish` reports still name the product.
        defer { productID = nil }
        defer { object.finish() }
        product.productID = object.string("productId", required: true)
        productID = product.productID
        product.referenceName = object.string("referenceName")
        if let text = object.string("type", required: true) {
            product.type = ProductType.productTypes.first { $0.rawValue == text }
            if product.type == nil { product.typeText = text }
        }
        // Offers belong to auto-renewable subscriptions; the offer rules say so rather than "unknown key".
        for key in CatalogKeys.offerKeys where object.node(key) != nil {
            product.misplacedOfferKeys.append(key)
            object.allowed.append(key)
        }
        try readCommon(object, into: &product)
        product.offerCodes = try object.list("offerCodes") { node, path throws(IAPKitError) in
            try readOffer(node, path: path, kind: .offerCode, inAppPurchase: true)
        }
        product.hostedContent = object.string("hostedContent")
        product.baseTerritory = object.string("baseTerritory")
        return true
    }

    func readCommon(_ object: Object, into product: inout Product) throws(IAPKitError) {
        product.price = object.price("price")
        product.tier = object.int("tier")
        product.familySharable = object.bool("familySharable")
        product.localizations = try object.list("localizations") { node, path throws(IAPKitError) in
            try readLocalization(node, path: path)
        }
        product.review = try readReview(object)
        product.promotionalImage = object.string("promotionalImage")
        product.availability = try readAvailability(object)
        try readPricing(object, into: &product)
    }

    func readAvailability(_ object: Object) throws(IAPKitError) -> Availability? {
        guard let availability = try object.object("availability", what: "`availability`", allowed: CatalogFormat.availability.names)
        else { return nil }
        defer { availability.finish() }
        var result = Availability(
            path: availability.path,
            availableInNewTerritories: availability.bool("availableInNewTerritories"))
        if availability.node("territories") != nil {
            result.territories = try availability.list("territories") { node, path throws(IAPKitError) in
                try count()
                return string(node, at: path)
            }
        }
        return result
    }

    func readGroup(_ node: Node, path: CatalogPath) throws(IAPKitError) -> SubscriptionGroup? {
        let object = try Object(node, path: path, what: "a subscription group", allowed: CatalogFormat.group.names, reader: self)
        guard object.valid else { return nil }
        defer { object.finish() }
        var group = SubscriptionGroup(path: path, referenceName: object.string("referenceName", required: true))
        group.localizations = try object.list("localizations") { node, path throws(IAPKitError) in
            try readLocalization(node, path: path, group: true)
        }
        group.subscriptions = try object.list("subscriptions") { node, path throws(IAPKitError) in
            try readSubscription(node, path: path)
        }
        return group
    }

    func readSubscription(_ node: Node, path: CatalogPath) throws(IAPKitError) -> Product? {
        let object = try Object(node, path: path, what: "a subscription", allowed: CatalogFormat.subscription.names, reader: self)
        guard object.valid else { return nil }
        defer { productID = nil }
        defer { object.finish() }
        var product = Product(path: path, type: .autoRenewableSubscription)
        product.productID = object.string("productId", required: true)
        productID = product.productID
        product.referenceName = object.string("referenceName")
        product.period = object.string("period", required: true)
        product.groupLevel = object.int("groupLevel")
        product.multiSeat = object.bool("multiSeat")
        // A subscription's prices have no end in App Store Connect: the `sale` rule says so, pointing at offers.
        if object.node("sales") != nil { object.allowed.append("sales") }
        if object.node("markets") != nil {
            product.markets = try object.list("markets") { node, path throws(IAPKitError) in
                guard let text = string(node, at: path) else { return nil }
                guard let market = SubscriptionMarket(rawValue: text) else {
                    let names = SubscriptionMarket.allCases.map { "`\($0.rawValue)`" }
                    report(
                        "`\(text)` is not a market; use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")",
                        at: path)
                    return nil
                }
                return market
            }
        }
        try readCommon(object, into: &product)
        product.pricedTerritories = try readPricedTerritories(object)
        let offers = try readOffers(object)
        product.introductoryOffer = offers.introductory
        product.promotionalOffers = offers.promotional
        product.offerCodes = offers.codes
        product.winBackOffers = offers.winBack
        product.billingPlans = try object.list("billingPlans") { node, path throws(IAPKitError) in
            try readBillingPlan(node, path: path)
        }
        return product
    }

    /// The four offer keys a subscription and each of its billing plans share.
    func readOffers(
        _ object: Object
    ) throws(IAPKitError)
        -> (introductory: Offer?, promotional: [Offer], codes: [Offer], winBack: [Offer])
    {
        var introductory: Offer?
        if let node = object.node("introductoryOffer") {
            introductory = try readOffer(node, path: object.path / "introductoryOffer", kind: .introductory)
        }
        let promotional = try object.list("promotionalOffers") { node, path throws(IAPKitError) in
            try readOffer(node, path: path, kind: .promotional)
        }
        let codes = try object.list("offerCodes") { node, path throws(IAPKitError) in
            try readOffer(node, path: path, kind: .offerCode)
        }
        let winBack = try object.list("winBackOffers") { node, path throws(IAPKitError) in
            try readOffer(node, path: path, kind: .winBack)
        }
        return (introductory, promotional, codes, winBack)
    }

    func readBillingPlan(_ node: Node, path: CatalogPath) throws(IAPKitError) -> BillingPlan? {
        let object = try Object(node, path: path, what: "a billing plan", allowed: CatalogFormat.billingPlan.names, reader: self)
        guard object.valid else { return nil }
        defer { object.finish() }
        var plan = BillingPlan(path: path)
        (plan.type, plan.typeText) = object.choice("planType")
        plan.price = object.price("price")
        plan.commitmentPrice = object.price("commitmentPrice")
        plan.territoryPrices = try readTerritoryPrices(object)
        plan.priceChanges = try readPriceChanges(object)
        plan.enabled = object.bool("enabled")
        let offers = try readOffers(object)
        plan.introductoryOffer = offers.introductory
        plan.promotionalOffers = offers.promotional
        plan.offerCodes = offers.codes
        plan.winBackOffers = offers.winBack
        return plan
    }

    /// `inAppPurchase`: an offer code of an in-app purchase, which has a price and customers but no terms.
    func readOffer(_ node: Node, path: CatalogPath, kind: OfferKind, inAppPurchase: Bool = false) throws(IAPKitError) -> Offer? {
        let allowed = CatalogFormat.offer(kind, inAppPurchase: inAppPurchase).names
        let article = kind == .introductory || kind == .offerCode ? "an" : "a"
        let object = try Object(node, path: path, what: "\(article) \(kind.rawValue)", allowed: allowed, reader: self)
        guard object.valid else { return nil }
        defer { object.finish() }
        var offer = Offer(path: path, kind: kind)
        if !inAppPurchase {
            (offer.mode, offer.modeText) = object.choice("mode")
            offer.duration = object.string("duration")
            offer.periods = object.int("periods")
        }
        offer.price = object.price("price")
        offer.territoryPrices = try readTerritoryPrices(object)
        if object.node("territories") != nil {
            offer.territories = try object.list("territories") { node, path throws(IAPKitError) in
                try count()
                return string(node, at: path)
            }
        }
        if kind == .promotional || kind == .winBack {
            offer.offerID = object.string("offerId", required: true)
        }
        if kind != .introductory { offer.referenceName = object.string("referenceName") }
        if kind == .winBack { offer.winBack = try readWinBackSettings(object) }
        if kind == .offerCode {
            offer.active = object.bool("active")
            if object.node("oneTimeCodes") != nil {
                offer.oneTimeCodes = try object.list("oneTimeCodes") { node, path throws(IAPKitError) in
                    let batch = try Object(
                        node, path: path, what: "a batch of one-time codes", allowed: CatalogFormat.oneTimeCodeBatch.names, reader: self)
                    guard batch.valid else { return nil }
                    defer { batch.finish() }
                    var codes = OneTimeCodeBatch(
                        path: path, count: batch.int("count", required: true),
                        expires: batch.string("expires", required: true), active: batch.bool("active"))
                    if let text = batch.string("environment") {
                        codes.environment = CodeEnvironment(rawValue: text)
                        codes.environmentText = codes.environment == nil ? text : nil
                    }
                    return codes
                }
            }
            if object.node("customCodes") != nil {
                offer.customCodes = try object.list("customCodes") { node, path throws(IAPKitError) in
                    let code = try Object(node, path: path, what: "a custom code", allowed: CatalogFormat.customOfferCode.names, reader: self)
                    guard code.valid else { return nil }
                    defer { code.finish() }
                    return CustomOfferCode(
                        path: path, code: code.string("code", required: true), count: code.int("count", required: true),
                        expires: code.string("expires"), active: code.bool("active"))
                }
            }
            if !inAppPurchase { offer.stackable = object.bool("stackable") }
            // An in-app purchase's offer code without `eligibility` is for every customer.
            if !inAppPurchase || object.node("eligibility") != nil {
                offer.eligibility = try object.list("eligibility") { node, path throws(IAPKitError) in
                    guard let text = string(node, at: path) else { return nil }
                    let customers = inAppPurchase ? OfferEligibility.inAppPurchaseCustomers : OfferEligibility.subscriptionCustomers
                    guard let value = OfferEligibility(rawValue: text), customers.contains(value) else {
                        let names = customers.map { "`\($0.rawValue)`" }
                        report(
                            "`\(text)` is not \(inAppPurchase ? "an in-app purchase" : "a subscription") offer-code eligibility; "
                                + "use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")", at: path)
                        return nil
                    }
                    return value
                }
            }
        }
        return offer
    }
}

extension NodeReader {
    /// A win-back offer's eligibility, priority, promotion and dates.
    func readWinBackSettings(_ object: Object) throws(IAPKitError) -> WinBackSettings {
        var settings = WinBackSettings()
        settings.priority = object.string("priority")
        settings.promotion = object.string("promotion")
        settings.startDate = object.string("startDate")
        settings.endDate = object.string("endDate")
        if let eligibility = try object.object(
            "eligibility", what: "a win-back offer's `eligibility`",
            allowed: CatalogFormat.winBackEligibility.names)
        {
            defer { eligibility.finish() }
            settings.paidMonths = eligibility.int("paidMonths")
            settings.monthsBetweenOffers = eligibility.int("monthsBetweenOffers")
            if let lapsed = try eligibility.object(
                "lapsedMonths", what: "`lapsedMonths` (`{min: 1, max: 24}`)",
                allowed: CatalogFormat.monthRange.names)
            {
                defer { lapsed.finish() }
                settings.lapsedMinimum = lapsed.int("min", required: true)
                settings.lapsedMaximum = lapsed.int("max", required: true)
            }
        }
        return settings
    }
}

extension NodeReader.Object {
    /// A required value from a fixed set. Text that names none is returned too, for the rule that lists the choices.
    func choice<Value: RawRepresentable>(_ key: String) -> (value: Value?, unknownText: String?) where Value.RawValue == String {
        guard let text = string(key, required: true) else { return (nil, nil) }
        let value = Value(rawValue: text)
        return (value, value == nil ? text : nil)
    }
}
