import IAPCore

/// Writes a catalog as the YAML a person would write: keys in the order of the starter catalog, values quoted
/// only where a YAML reader could take them for something else. Emitted through libyaml, one event at a time.
public enum CatalogYAMLWriter {
    public static func write(_ catalog: Catalog, header: String? = nil) throws(IAPKitError) -> String {
        String(decoding: try bytes(catalog, header: header), as: UTF8.self)
    }

    /// The catalog YAML with comment lines above products: `notes` by product ID (what `asc pull` left out).
    /// libyaml writes no comments, so they go in after, above each product's `- productId:` line.
    public static func write(_ catalog: Catalog, header: String? = nil, notes: [String: [String]]) throws(IAPKitError) -> String {
        let text = try write(catalog, header: header)
        guard !notes.isEmpty else { return text }
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("- productId: ") {
                var id = trimmed.dropFirst("- productId: ".count)
                if id.count >= 2, let first = id.first, first == "'" || first == "\"", id.last == first { id = id.dropFirst().dropLast() }
                let indent = String(repeating: " ", count: line.count - trimmed.count)
                for note in notes[String(id)] ?? [] {
                    lines.append(Substring(indent + "# " + note.replacingAll("\n", with: " ")))
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The catalog YAML as UTF-8 bytes, `header` first: what a command writes, with no copy on the way.
    public static func bytes(_ catalog: Catalog, header: String? = nil) throws(IAPKitError) -> [UInt8] {
        let out = YAMLWriter(preamble: header ?? "")
        out.beginMapping(CatalogFormat.root)
        out.pair("schemaVersion", number: 1)
        out.key("app")
        out.beginMapping(CatalogFormat.app)
        out.pair("bundleId", catalog.app.bundleID)
        out.pair("appId", ifPresent: catalog.app.appID)
        out.pair("primaryLocale", catalog.app.primaryLocale)
        out.endMapping()
        if !catalog.retiredProductIDs.isEmpty {
            out.key("retiredProductIds")
            out.list(catalog.retiredProductIDs) { out.text($0.value) }
        }
        if !catalog.products.isEmpty {
            out.key("products")
            out.list(catalog.products) { product($0, into: out) }
        }
        if !catalog.subscriptionGroups.isEmpty {
            out.key("subscriptionGroups")
            out.list(catalog.subscriptionGroups) { group($0, into: out) }
        }
        if let policies = catalog.appPolicies {
            out.key("appPolicies")
            out.beginMapping(CatalogFormat.appPolicies)
            out.pair("eula", ifPresent: policies.eula)
            if !policies.policies.isEmpty {
                out.key("policies")
                out.list(policies.policies) { policy in
                    out.beginMapping(CatalogFormat.policy)
                    out.pair("locale", policy.locale)
                    out.pair("text", ifPresent: policy.text)
                    out.pair("url", ifPresent: policy.url)
                    out.endMapping()
                }
            }
            out.endMapping()
        }
        if let settings = catalog.storeKit, settings.storefront != nil || settings.locale != nil || settings.formatVersion != nil {
            out.key("storeKit")
            out.beginMapping(CatalogFormat.storeKit)
            out.pair("storefront", ifPresent: settings.storefront)
            out.pair("locale", ifPresent: settings.locale)
            out.pair("formatVersion", ifPresent: settings.formatVersion)
            out.endMapping()
        }
        if let grace = catalog.billingGracePeriod {
            out.key("billingGracePeriod")
            out.beginMapping(CatalogFormat.billingGracePeriod)
            if let enabled = grace.enabled { out.pair("enabled", flag: enabled) }
            if let sandbox = grace.sandbox { out.pair("sandbox", flag: sandbox) }
            out.pair("duration", ifPresent: grace.duration)
            out.pair("renewals", ifPresent: grace.renewals)
            out.endMapping()
        }
        if let promoted = catalog.promotedPurchases {
            out.key("promotedPurchases")
            out.list(promoted) { entry in
                out.beginMapping(CatalogFormat.promotedPurchase)
                out.pair("productId", entry.productID)
                if let visible = entry.visible { out.pair("visible", flag: visible) }
                if let enabled = entry.enabled { out.pair("enabled", flag: enabled) }
                out.endMapping()
            }
        }
        out.endMapping()
        return try out.finish()
    }

    static func product(_ product: Product, into out: YAMLWriter) {
        out.beginMapping(product.isSubscription ? CatalogFormat.subscription : CatalogFormat.product)
        out.pair("productId", product.productID)
        out.pair("referenceName", product.referenceName)
        if product.isSubscription {
            // None when App Store Connect's period was not one iapkit knows (the product's note says which).
            if let period = product.period { out.pair("period", period) }
            if let level = product.groupLevel { out.pair("groupLevel", number: level) }
        } else {
            out.pair("type", product.type?.rawValue)
        }
        if let price = product.price {
            out.pair("price", price: price)
        } else if let tier = product.tier {
            out.pair("tier", number: tier)
        }
        if let base = product.baseTerritory { out.pair("baseTerritory", base) }
        territoryPrices(product.territoryPrices, into: out)
        switch product.pricedTerritories {
        case .all?: out.pair("pricedTerritories", "all")
        case let .only(territories)?:
            out.key("pricedTerritories")
            out.list(territories) { out.text($0) }
        case nil: break
        }
        priceChanges(product.priceChanges, into: out)
        sales(product.sales, into: out)
        if product.familySharable == true { out.pair("familySharable", flag: true) }
        if let multiSeat = product.multiSeat { out.pair("multiSeat", flag: multiSeat) }
        if let markets = product.markets {
            out.key("markets")
            out.list(markets) { out.text($0.rawValue) }
        }
        offers(
            introductory: product.introductoryOffer, promotional: product.promotionalOffers, codes: product.offerCodes,
            winBack: product.winBackOffers, inAppPurchase: !product.isSubscription, into: out)
        if !product.billingPlans.isEmpty {
            out.key("billingPlans")
            out.list(product.billingPlans) { billingPlan($0, into: out) }
        }
        out.key("localizations")
        out.list(product.localizations) { localization($0, into: out) }
        if let review = product.review {
            out.key("review")
            out.beginMapping(CatalogFormat.review)
            out.pair("note", ifPresent: review.note)
            out.pair("screenshot", ifPresent: review.screenshot)
            out.endMapping()
        }
        out.pair("promotionalImage", ifPresent: product.promotionalImage)
        if let folder = product.hostedContent { out.pair("hostedContent", folder) }
        if let availability = product.availability {
            out.key("availability")
            out.beginMapping(CatalogFormat.availability)
            if let territories = availability.territories {
                out.key("territories")
                out.list(territories) { out.text($0) }
            }
            if let flag = availability.availableInNewTerritories { out.pair("availableInNewTerritories", flag: flag) }
            out.endMapping()
        }
        out.endMapping()
    }

    static func priceChanges(_ changes: [PriceChange], into out: YAMLWriter) {
        guard !changes.isEmpty else { return }
        out.key("priceChanges")
        out.list(changes) { change in
            out.beginMapping(CatalogFormat.priceChange)
            out.pair("startDate", change.startDate)
            if let price = change.price { out.pair("price", price: price) }
            territoryPrices(change.territoryPrices, into: out)
            if !change.existingSubscribersByTerritory.isEmpty {
                out.key("existingSubscribers")
                out.beginMapping()
                for entry in change.existingSubscribersByTerritory { out.pair(entry.territory, entry.text) }
                if let others = change.existingSubscribers { out.pair("others", others.rawValue) }
                out.endMapping()
            } else if let choice = change.existingSubscribers {
                out.pair("existingSubscribers", choice.rawValue)
            }
            out.endMapping()
        }
    }

    static func sales(_ sales: [Sale], into out: YAMLWriter) {
        guard !sales.isEmpty else { return }
        out.key("sales")
        out.list(sales) { sale in
            out.beginMapping(CatalogFormat.sale)
            if let start = sale.startDate { out.pair("startDate", start) }
            out.pair("endDate", sale.endDate)
            if let price = sale.price { out.pair("price", price: price) }
            territoryPrices(sale.territoryPrices, into: out)
            out.endMapping()
        }
    }

    /// `territoryPrices:` as a mapping in territory order.
    static func territoryPrices(_ prices: [TerritoryPrice], into out: YAMLWriter) {
        guard !prices.isEmpty else { return }
        out.key("territoryPrices")
        out.beginMapping()
        for price in prices.sorted(by: { $0.territory < $1.territory }) {
            guard let value = price.price else { continue }
            out.pair(price.territory, price: value)
        }
        out.endMapping()
    }

    static func group(_ group: SubscriptionGroup, into out: YAMLWriter) {
        out.beginMapping(CatalogFormat.group)
        out.pair("referenceName", group.referenceName)
        if !group.localizations.isEmpty {
            out.key("localizations")
            out.list(group.localizations) { localization in
                out.beginMapping(CatalogFormat.groupLocalization)
                out.pair("locale", localization.locale)
                out.pair("name", localization.name)
                out.pair("customAppName", ifPresent: localization.customAppName)
                out.endMapping()
            }
        }
        out.key("subscriptions")
        out.list(group.subscriptions) { product($0, into: out) }
        out.endMapping()
    }

    static func localization(_ localization: Localization, into out: YAMLWriter) {
        out.beginMapping(CatalogFormat.localization)
        out.pair("locale", localization.locale)
        out.pair("name", localization.name)
        out.pair("description", ifPresent: localization.description)
        out.endMapping()
    }

    /// The offer keys a subscription and a billing plan share, each only when present.
    static func offers(
        introductory: Offer?, promotional: [Offer], codes: [Offer], winBack: [Offer], inAppPurchase: Bool = false, into out: YAMLWriter
    ) {
        if let introductory {
            out.key("introductoryOffer")
            offer(introductory, into: out)
        }
        for (key, offers) in [("promotionalOffers", promotional), ("offerCodes", codes), ("winBackOffers", winBack)] where !offers.isEmpty {
            out.key(key)
            out.list(offers) { offer($0, inAppPurchase: inAppPurchase, into: out) }
        }
    }

    static func billingPlan(_ plan: BillingPlan, into out: YAMLWriter) {
        out.beginMapping(CatalogFormat.billingPlan)
        out.pair("planType", plan.type?.rawValue ?? plan.typeText)
        if let price = plan.price { out.pair("price", price: price) }
        if let price = plan.commitmentPrice { out.pair("commitmentPrice", price: price) }
        territoryPrices(plan.territoryPrices, into: out)
        priceChanges(plan.priceChanges, into: out)
        if let enabled = plan.enabled { out.pair("enabled", flag: enabled) }
        offers(
            introductory: plan.introductoryOffer, promotional: plan.promotionalOffers, codes: plan.offerCodes,
            winBack: plan.winBackOffers, into: out)
        out.endMapping()
    }

    static func offer(_ offer: Offer, inAppPurchase: Bool = false, into out: YAMLWriter) {
        out.beginMapping(CatalogFormat.offer(offer.kind, inAppPurchase: inAppPurchase))
        if offer.kind == .promotional || offer.kind == .winBack { out.pair("offerId", ifPresent: offer.offerID) }
        if offer.kind != .introductory { out.pair("referenceName", ifPresent: offer.referenceName) }
        out.pair("mode", ifPresent: offer.mode?.rawValue)
        out.pair("duration", ifPresent: offer.duration)
        if let periods = offer.periods { out.pair("periods", number: periods) }
        if let price = offer.price { out.pair("price", price: price) }
        territoryPrices(offer.territoryPrices, into: out)
        if let territories = offer.territories {
            out.key("territories")
            out.list(territories) { out.text($0) }
        }
        if let eligibility = offer.eligibility {
            out.key("eligibility")
            out.list(eligibility) { out.text($0.rawValue) }
        }
        if let stackable = offer.stackable { out.pair("stackable", flag: stackable) }
        if offer.kind == .winBack { winBackSettings(offer.winBack, into: out) }
        if let active = offer.active { out.pair("active", flag: active) }
        if let batches = offer.oneTimeCodes {
            out.key("oneTimeCodes")
            out.list(batches) { batch in
                out.beginMapping(CatalogFormat.oneTimeCodeBatch)
                if let count = batch.count { out.pair("count", number: count) }
                out.pair("expires", ifPresent: batch.expires)
                if let active = batch.active { out.pair("active", flag: active) }
                out.pair("environment", ifPresent: batch.environment?.rawValue)
                out.endMapping()
            }
        }
        if let codes = offer.customCodes {
            out.key("customCodes")
            out.list(codes) { code in
                out.beginMapping(CatalogFormat.customOfferCode)
                out.pair("code", code.code)
                if let count = code.count { out.pair("count", number: count) }
                out.pair("expires", ifPresent: code.expires)
                if let active = code.active { out.pair("active", flag: active) }
                out.endMapping()
            }
        }
        out.endMapping()
    }

    static func winBackSettings(_ settings: WinBackSettings, into out: YAMLWriter) {
        if settings.paidMonths != nil || settings.lapsedMinimum != nil || settings.monthsBetweenOffers != nil {
            out.key("eligibility")
            out.beginMapping(CatalogFormat.winBackEligibility)
            if let months = settings.paidMonths { out.pair("paidMonths", number: months) }
            if let minimum = settings.lapsedMinimum, let maximum = settings.lapsedMaximum {
                out.key("lapsedMonths")
                out.beginMapping(CatalogFormat.monthRange)
                out.pair("min", number: minimum)
                out.pair("max", number: maximum)
                out.endMapping()
            }
            if let months = settings.monthsBetweenOffers { out.pair("monthsBetweenOffers", number: months) }
            out.endMapping()
        }
        out.pair("priority", ifPresent: settings.priority)
        out.pair("promotion", ifPresent: settings.promotion)
        out.pair("startDate", ifPresent: settings.startDate)
        out.pair("endDate", ifPresent: settings.endDate)
    }

    /// Words a YAML 1.1 reader takes for a boolean or null, in any case; as bytes, so a scalar is checked in place.
    private static let reservedWords: [[UInt8]] = ["y", "yes", "n", "no", "true", "false", "on", "off", "null", "~"].map { Array($0.utf8) }

    /// Whether `bytes` spell a reserved word, upper-case ASCII letters read as lower-case; no String is made for the
    /// question, which every text value of an import asks.
    private static func isReservedWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= 5 else { return false }
        return reservedWords.contains { word in
            word.count == bytes.count && zip(word, bytes).allSatisfy { $0 == ((0x41...0x5A).contains($1) ? $1 | 0x20 : $1) }
        }
    }

    /// One pass over the UTF-8 bytes: an import of 10,000 products asks this about 100,000 times. Every character
    /// that matters here is ASCII, and no other character lowercases into one of the reserved words.
    static func needsQuotes(_ string: String) -> Bool {
        if let answer = string.utf8.withContiguousStorageIfAvailable({ needsQuotes(string, bytes: $0) }) { return answer }
        return Array(string.utf8).withUnsafeBufferPointer { needsQuotes(string, bytes: $0) }
    }

    private static func needsQuotes(_ string: String, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), colon = UInt8(ascii: ":")
        if first == space || last == space || first == tab || last == tab { return true }
        if isIndicator(first) { return true }
        if isReservedWord(bytes) { return true }
        var numberLike = true
        var previous = space
        for byte in bytes {
            switch byte {
            case 0x0A, 0x09, 0x0D: return true
            case space where previous == colon: return true
            case UInt8(ascii: "#") where previous == space: return true
            case 0x30...0x39, UInt8(ascii: "."), UInt8(ascii: "_"), colon, UInt8(ascii: "+"), UInt8(ascii: "-"),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                break
            default: numberLike = false
            }
            previous = byte
        }
        if previous == colon { return true }
        return numberLike && (Double(string) != nil || bytes.allSatisfy { $0 == 0x2E || $0 == 0x5F || $0 == colon || (0x30...0x39).contains($0) })
    }

    /// Whether a character starts YAML structure when it comes first in a plain scalar (`-?:,[]{}#&*!|>'"%@` and the
    /// backquote): a switch, where a list would be searched for every value written.
    private static func isIndicator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
            UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"):
            return true
        default:
            return false
        }
    }
}

/// The catalog's scalar forms: keys and numbers plain, text plain when unambiguous and double-quoted when a YAML
/// 1.1 or 1.2 reader could take it for a number, a boolean, null, or structure.
extension YAMLWriter {
    func text(_ value: String?) {
        let string = value ?? ""
        scalar(string, quoted: CatalogYAMLWriter.needsQuotes(string))
    }
    func pair(_ key: String, _ value: String?) { self.key(key); text(value) }
    func pair(_ key: String, ifPresent value: String?) { if let value { pair(key, value) } }
    func pair(_ key: String, number: Int) { self.key(key); scalar(String(number)) }
    func pair(_ key: String, flag: Bool) { self.key(key); scalar(flag ? "true" : "false") }
    /// The text as written (`0.5`, `10`), so a price read from a StoreKit file is written back unchanged.
    func pair(_ key: String, price: Price) { self.key(key); scalar(price.text) }
    func list<Element>(_ items: [Element], _ item: (Element) -> Void) {
        beginSequence()
        for element in items { item(element) }
        endSequence()
    }
}
