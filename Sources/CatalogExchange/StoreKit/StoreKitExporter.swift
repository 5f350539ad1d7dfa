#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCatalog
import IAPCore

/// Writes a StoreKit configuration (`.storekit`) that Xcode opens and the simulator runs, in Xcode's exact layout.
/// Values go straight to the output bytes, each object's keys in Xcode's sorted order, with no tree in between.
public struct StoreKitExporter: Sendable {
    /// A format version Xcode writes, `MAJOR.MINOR`: every minor of majors 1 to 6 (Xcode 12 to Xcode 27) is read and
    /// written, each in its major's layout (1.0 has no identifier, non-renewing list or offer codes; 1.1 no offer codes).
    public struct FormatVersion: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        public let major: Int
        public let minor: Int

        public static let v1_0 = Self(1, 0), v1_1 = Self(1, 1), v1_2 = Self(1, 2), v2_0 = Self(2, 0), v3_0 = Self(3, 0),
            v4_0 = Self(4, 0), v5_0 = Self(5, 0), v6_3 = Self(6, 3)
        /// The versions Xcode releases introduced, each written in a test; any other minor of these majors is read too.
        public static let allCases: [FormatVersion] = [.v1_0, .v1_1, .v1_2, .v2_0, .v3_0, .v4_0, .v5_0, .v6_3]
        /// The majors iapkit reads and writes, and the newest version it knows.
        public static let majors = 1...6
        public static let newest = v6_3
        /// `1.0 to 6.3`, for messages.
        public static let range = "\(v1_0.rawValue) to \(newest.rawValue)"

        init(_ major: Int, _ minor: Int) { self.major = major; self.minor = minor }

        public init?(major: Int, minor: Int) {
            guard Self.majors.contains(major), minor >= 0, minor <= 99, major < Self.newest.major || minor <= Self.newest.minor else { return nil }
            self.init(major, minor)
        }

        public init?(rawValue: String) {
            let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                let major = Int(parts[0]), let minor = Int(parts[1])
            else { return nil }
            self.init(major: major, minor: minor)
        }

        public var rawValue: String { "\(major).\(minor)" }
        public var description: String { rawValue }

        /// 1.1 added the file's `identifier` and the non-renewing list; 1.2 offer codes.
        var hasIdentifier: Bool { major > 1 || minor >= 1 }
        var hasOfferCodes: Bool { major > 1 || minor >= 2 }
    }

    public var version: FormatVersion
    public init(version: FormatVersion = .v4_0) { self.version = version }

    public func export(_ catalog: Catalog) -> String { String(decoding: exportBytes(catalog), as: UTF8.self) }

    /// The configuration as UTF-8 bytes, ready to write.
    public func exportBytes(_ catalog: Catalog) -> [UInt8] {
        var layout: Layout?
        return export(catalog, layout: &layout)
    }

    /// Where the values of an exported file are in its bytes: each value of the top-level object but the product
    /// lists, each item of those lists with what names it, and each group's values and subscriptions.
    struct Layout {
        struct Group {
            var name: String
            var range: Range<Int>
            var values: [String: Range<Int>] = [:]
            var subscriptions: [(id: String, range: Range<Int>)] = []
        }
        var values: [String: Range<Int>] = [:]
        var lists: [String: [(id: String, range: Range<Int>)]] = [:]
        var groups: [Group] = []
    }

    /// The bytes and, when `layout` is not nil, where each value is in them.
    func export(_ catalog: Catalog, layout: inout Layout?) -> [UInt8] {
        let catalog = Self.inStorefrontCurrency(catalog)
        var out = XcodeJSONWriter(capacity: 4096 + catalog.products.count * 1024)
        let recording = layout != nil
        func record(_ key: String, _ range: Range<Int>) { if recording { layout?.values[key] = range } }
        func item(_ list: String, _ id: String?, _ range: Range<Int>) { if recording { layout?.lists[list, default: []].append((id ?? "", range)) } }
        out.beginObject()
        if version.major >= 4 {
            appPolicies(catalog, into: &out)
            record("appPolicies", out.lastClosed)
        }
        if version.hasIdentifier {
            out.key("identifier")
            let start = out.count
            out.string(StableID.hex8("catalog:" + (catalog.app.bundleID ?? "")))
            record("identifier", start..<out.count)
            out.key("nonRenewingSubscriptions")
            out.beginArray()
            if recording { layout?.lists["nonRenewingSubscriptions"] = [] }
            for product in catalog.products where product.type == .nonRenewingSubscription {
                self.product(product, into: &out)
                item("nonRenewingSubscriptions", product.productID, out.lastClosed)
            }
            out.endArray()
        }
        out.key("products")
        out.beginArray()
        if recording { layout?.lists["products"] = [] }
        // 1.0 lists non-renewing subscriptions with the other products.
        for product in catalog.products where product.type != .nonRenewingSubscription || !version.hasIdentifier {
            self.product(product, into: &out)
            item("products", product.productID, out.lastClosed)
        }
        out.endArray()
        settings(catalog, into: &out)
        record("settings", out.lastClosed)
        out.key("subscriptionGroups")
        out.beginArray()
        for item in catalog.subscriptionGroups {
            var groupLayout = recording ? Layout.Group(name: item.referenceName ?? "", range: 0..<0) : nil
            group(item, into: &out, layout: &groupLayout)
            if var groupLayout {
                groupLayout.range = out.lastClosed
                layout?.groups.append(groupLayout)
            }
        }
        out.endArray()
        out.key("version")
        version(into: &out)
        record("version", out.lastClosed)
        out.endObject()
        return out.finish()
    }

    private func version(into out: inout XcodeJSONWriter) {
        out.beginObject()
        out.key("major")
        out.int(version.major)
        out.key("minor")
        out.int(version.minor)
        out.endObject()
    }

    /// One product of a list as this version writes it, `depth` levels deep: in a subscription group (`groupID`) or
    /// not, with its prices in the simulator storefront's currency.
    func itemBytes(_ product: Product, storefront: String?, groupID: String?, depth: Int) -> [UInt8] {
        var out = XcodeJSONWriter(depth: depth)
        let product = Self.inStorefrontCurrency(product, storefront: storefront)
        if let groupID { subscription(product, groupID: groupID, into: &out) } else { self.product(product, into: &out) }
        return out.bytes
    }

    /// A group with no subscriptions, `depth` levels deep, and where each of its values is.
    func groupBytes(_ group: SubscriptionGroup, depth: Int) -> (bytes: [UInt8], values: [String: Range<Int>]) {
        var out = XcodeJSONWriter(depth: depth)
        var group = group
        group.subscriptions = []
        var layout: Layout.Group? = Layout.Group(name: "", range: 0..<0)
        self.group(group, into: &out, layout: &layout)
        return (out.bytes, layout?.values ?? [:])
    }

    private func localizations(_ list: [Localization], into out: inout XcodeJSONWriter) {
        out.key("localizations")
        out.beginArray()
        for localization in list {
            out.beginObject()
            out.field("description", localization.description ?? "")
            out.field("displayName", localization.name ?? "")
            out.field("locale", StoreKitLocale.storeKit(fromCatalog: localization.locale ?? ""))
            out.endObject()
        }
        out.endArray()
    }

    /// Xcode's simulator shows one storefront, in its currency: where the catalog prices that territory by hand (as
    /// `import storekit` does for a file of another storefront), its price stands in for the USD one.
    static func inStorefrontCurrency(_ catalog: Catalog) -> Catalog {
        guard let storefront = catalog.storeKit?.storefront, storefront != "USA" else { return catalog }
        var converted = catalog
        converted.products = catalog.products.map { inStorefrontCurrency($0, storefront: storefront) }
        converted.subscriptionGroups = catalog.subscriptionGroups.map { group in
            var group = group
            group.subscriptions = group.subscriptions.map { inStorefrontCurrency($0, storefront: storefront) }
            return group
        }
        return converted
    }

    /// One product in the storefront's currency.
    static func inStorefrontCurrency(_ product: Product, storefront: String?) -> Product {
        guard let storefront, storefront != "USA" else { return product }
        func local(_ price: Price?, _ territoryPrices: [TerritoryPrice]) -> Price? {
            territoryPrices.first { $0.territory == storefront }?.price ?? price
        }
        func offer(_ offer: Offer) -> Offer {
            var offer = offer
            offer.price = local(offer.price, offer.territoryPrices)
            return offer
        }
        func offers(_ introductory: inout Offer?, _ promotional: inout [Offer], _ codes: inout [Offer], _ winBack: inout [Offer]) {
            introductory = introductory.map(offer)
            promotional = promotional.map(offer)
            codes = codes.map(offer)
            winBack = winBack.map(offer)
        }
        var product = product
        product.price = local(product.price, product.territoryPrices)
        offers(&product.introductoryOffer, &product.promotionalOffers, &product.offerCodes, &product.winBackOffers)
        product.billingPlans = product.billingPlans.map { plan in
            var plan = plan
            plan.price = local(plan.price, plan.territoryPrices)
            offers(&plan.introductoryOffer, &plan.promotionalOffers, &plan.offerCodes, &plan.winBackOffers)
            return plan
        }
        return product
    }

    /// The price as the catalog writes it (an imported price comes back unchanged), else the legacy tier's.
    private func price(_ product: Product) -> String {
        product.price?.text ?? product.resolvedPriceCents.map(Price.format(cents:)) ?? ""
    }

    private func storeKitType(_ type: ProductType?) -> String {
        switch type {
        case .consumable: return "Consumable"
        case .nonRenewingSubscription: return "NonRenewingSubscription"
        case .autoRenewableSubscription: return "RecurringSubscription"
        default: return "NonConsumable"
        }
    }

    private func product(_ product: Product, into out: inout XcodeJSONWriter) {
        let id = product.productID ?? ""
        out.beginObject()
        out.field("displayPrice", price(product))
        out.key("familyShareable")
        out.bool(product.familySharable ?? false)
        out.field("internalID", StableID.hex8("product:" + id))
        localizations(product.localizations, into: &out)
        out.field("productID", id)
        out.field("referenceName", product.referenceName ?? id)
        out.field("type", storeKitType(product.type))
        out.endObject()
    }

    private func group(_ group: SubscriptionGroup, into out: inout XcodeJSONWriter, layout: inout Layout.Group?) {
        let id = StableID.hex8("group:" + (group.referenceName ?? ""))
        out.beginObject()
        out.key("id")
        var start = out.count
        out.string(id)
        layout?.values["id"] = start..<out.count
        localizations(group.localizations, into: &out)
        layout?.values["localizations"] = out.lastClosed
        out.key("name")
        start = out.count
        out.string(group.referenceName ?? "")
        layout?.values["name"] = start..<out.count
        out.key("subscriptions")
        out.beginArray()
        for item in group.subscriptions {
            subscription(item, groupID: id, into: &out)
            layout?.subscriptions.append((item.productID ?? "", out.lastClosed))
        }
        out.endArray()
        layout?.values["subscriptions"] = out.lastClosed
        out.endObject()
    }

    /// The subscription's own offers of one kind (its upfront plan's), then those of its monthly plans, each
    /// marked with its plan (5.0 only).
    private func offers(
        _ key: String, _ own: [Offer], _ perPlan: (BillingPlan) -> [Offer], plans: [BillingPlan],
        of product: Product, into out: inout XcodeJSONWriter
    ) {
        out.key(key)
        out.beginArray()
        for item in own { offer(item, of: product, plan: .upfront, into: &out) }
        for plan in plans {
            for item in perPlan(plan) { offer(item, of: product, plan: .monthly, into: &out) }
        }
        out.endArray()
    }

    private func subscription(_ product: Product, groupID: String, into out: inout XcodeJSONWriter) {
        let id = product.productID ?? ""
        // Offers of a monthly plan sit beside the subscription's own, marked with their plan (5.0 only).
        let plans = version.major >= 5 ? product.billingPlans.filter { $0.type == .monthly } : []
        out.beginObject()
        offers("adHocOffers", product.promotionalOffers, \.promotionalOffers, plans: plans, of: product, into: &out)
        if version.major >= 5, !product.billingPlans.isEmpty {
            out.key("billingPlans")
            out.beginArray()
            for plan in product.billingPlans { billingPlan(plan, of: product, into: &out) }
            out.endArray()
        }
        if version.hasOfferCodes { offers("codeOffers", product.offerCodes, \.offerCodes, plans: plans, of: product, into: &out) }
        out.field("displayPrice", price(product))
        out.key("familyShareable")
        out.bool(product.familySharable ?? false)
        out.key("groupNumber")
        out.int(product.groupLevel ?? 1)
        out.field("internalID", StableID.hex8("product:" + id))
        if version.major >= 5 {
            if let intro = product.introductoryOffer {
                out.key("introductoryOffer")
                offer(intro, of: product, plan: .upfront, into: &out)
            }
            offers(
                "introductoryOffers", product.introductoryOffer.map { [$0] } ?? [], { $0.introductoryOffer.map { [$0] } ?? [] },
                plans: plans, of: product, into: &out)
        } else {
            out.key("introductoryOffer")
            if let intro = product.introductoryOffer { offer(intro, of: product, plan: .upfront, into: &out) } else { out.null() }
        }
        localizations(product.localizations, into: &out)
        out.field("productID", id)
        out.field("recurringSubscriptionPeriod", product.period ?? "P1M")
        out.field("referenceName", product.referenceName ?? id)
        out.field("subscriptionGroupID", groupID)
        out.field("type", "RecurringSubscription")
        if version.major >= 4 { offers("winbackOffers", product.winBackOffers, \.winBackOffers, plans: plans, of: product, into: &out) }
        out.endObject()
    }

    /// A billing plan with its defaults filled in: an upfront plan costs the subscription's price, a monthly plan
    /// commits to twelve payments.
    private func billingPlan(_ plan: BillingPlan, of product: Product, into out: inout XcodeJSONWriter) {
        let type = plan.type ?? .upfront
        out.beginObject()
        out.field("billingPlanType", Self.storeKitPlanType(type))
        out.field("commitmentDisplayPrice", (plan.commitmentPrice ?? plan.defaultCommitmentPrice(of: product))?.text ?? "")
        out.field("displayPrice", plan.resolvedPrice(of: product)?.text ?? "")
        out.field("internalID", StableID.hex8("plan:\(product.productID ?? ""):\(type.rawValue)"))
        out.key("isEnabled")
        out.bool(plan.enabled ?? true)
        out.endObject()
    }

    static func storeKitPlanType(_ type: BillingPlanType) -> String { type == .monthly ? "MONTHLY" : "BILLED_UPFRONT" }

    /// Offers in StoreKit's words: `free` with the trial length, `payUpFront` with its whole span, `payAsYouGo`
    /// with the renewal period and how many periods are discounted.
    private func offer(_ offer: Offer, of product: Product, plan: BillingPlanType, into out: inout XcodeJSONWriter) {
        // Upfront offers keep the ids they had before billing plans existed.
        let planSeed = plan == .upfront ? "" : "\(plan.rawValue):"
        let seed = "offer:\(product.productID ?? ""):\(planSeed)\(offer.kind.rawValue):\(offer.offerID ?? offer.referenceName ?? "")"
        let mode: String, period: String, periods: Int?
        switch offer.mode {
        case .freeTrial?, nil:
            (mode, period, periods) = ("free", offer.duration ?? "P1W", version.major >= 2 ? 1 : nil)
        case .payUpFront?:
            (mode, period, periods) = ("payUpFront", offer.duration ?? product.period ?? "P1M", version.major >= 3 ? 1 : nil)
        case .payAsYouGo?:
            // A monthly plan's payments renew monthly whatever the subscription's period.
            (mode, period, periods) = ("payAsYouGo", plan == .monthly ? "P1M" : product.period ?? "P1M", offer.periods ?? 1)
        }
        out.beginObject()
        if version.major >= 5 { out.field("billingPlanType", Self.storeKitPlanType(plan)) }
        if let price = offer.price, offer.mode != .freeTrial { out.field("displayPrice", price.text) }
        if offer.kind == .offerCode {
            out.key("eligibility")
            out.beginArray()
            for eligibility in offer.eligibility ?? OfferEligibility.allCases { out.string(eligibility.rawValue) }
            out.endArray()
        }
        out.field("internalID", StableID.hex8(seed))
        if offer.kind == .offerCode {
            out.key("isStackable")
            out.bool(offer.stackable ?? false)
        }
        if let periods {
            out.key("numberOfPeriods")
            out.int(periods)
        }
        if offer.kind == .promotional || offer.kind == .winBack { out.field("offerID", offer.offerID ?? "") }
        out.field("paymentMode", mode)
        switch offer.kind {
        case .introductory: break
        case .promotional, .winBack: out.field("referenceName", offer.referenceName ?? offer.offerID ?? "")
        case .offerCode: out.field("referenceName", offer.referenceName ?? "")
        }
        out.field("subscriptionPeriod", period)
        out.endObject()
    }

    /// What this format version cannot hold, each a sentence naming the subscription, for the caller to show.
    public func unsupported(in catalog: Catalog) -> [String] {
        var notes: [String] = []
        for product in catalog.allSubscriptions {
            let id = product.productID ?? ""
            if version.major < 4 && !(product.winBackOffers + product.billingPlans.flatMap(\.winBackOffers)).isEmpty {
                notes.append("`\(id)`: win-back offers need StoreKit format 4.0 or later; not written")
            }
            if !version.hasOfferCodes && !(product.offerCodes + product.billingPlans.flatMap(\.offerCodes)).isEmpty {
                notes.append("`\(id)`: offer codes need StoreKit format 1.2 or later; not written")
            }
            if version.major < 5, product.billingPlans.contains(where: { !$0.isPlainUpfront }) {
                let offers = product.billingPlans.flatMap(\.allOffers).count
                notes.append(
                    "`\(id)`: billing plans\(offers > 0 ? " and their \(offers) offer\(offers == 1 ? "" : "s")" : "") need StoreKit format 5.0; not written"
                )
            }
        }
        return notes
    }

    private func settings(_ catalog: Catalog, into out: inout XcodeJSONWriter) {
        let locale = catalog.storeKit?.locale ?? catalog.app.primaryLocale ?? "en-US"
        out.key("settings")
        out.beginObject()
        // Xcode's StoreKit testing stands in for the sandbox: it simulates the grace period the sandbox would have.
        if let grace = catalog.billingGracePeriod {
            out.key("_billingGracePeriodEnabled")
            out.bool(grace.sandbox ?? grace.enabled ?? false)
        }
        out.field("_locale", StoreKitLocale.storeKit(fromCatalog: locale))
        out.field("_storefront", catalog.storeKit?.storefront ?? "USA")
        out.key("_timeRate")
        out.int(0)
        out.endObject()
    }

    private func appPolicies(_ catalog: Catalog, into out: inout XcodeJSONWriter) {
        let primary = catalog.app.primaryLocale ?? "en-US"
        let policies = catalog.appPolicies?.policies ?? []
        out.key("appPolicies")
        out.beginObject()
        out.field("eula", catalog.appPolicies?.eula ?? "")
        out.key("policies")
        out.beginArray()
        for policy in policies.isEmpty ? [AppPolicies.Policy(path: .root, locale: primary)] : policies {
            out.beginObject()
            out.field("locale", StoreKitLocale.storeKit(fromCatalog: policy.locale ?? primary))
            out.field("policyText", policy.text ?? "")
            out.field("policyURL", policy.url ?? "")
            out.endObject()
        }
        out.endArray()
        out.endObject()
    }
}

extension BillingPlan {
    /// An enabled upfront plan at the subscription's own price: what every format before 5.0 implies.
    var isPlainUpfront: Bool {
        type == .upfront && price == nil && commitmentPrice == nil && enabled != false && allOffers.isEmpty
    }
}
