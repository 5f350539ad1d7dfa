import IAPCatalog
import IAPCore

/// Writes a StoreKit configuration (`.storekit`) that Xcode opens and the simulator runs, in Xcode's exact layout.
public struct StoreKitExporter: Sendable {
    public enum FormatVersion: String, Sendable, CaseIterable {
        case v1_2 = "1.2", v2_0 = "2.0", v3_0 = "3.0", v4_0 = "4.0", v5_0 = "5.0"

        var major: Int { Int(rawValue.split(separator: ".")[0])! }
        var minor: Int { Int(rawValue.split(separator: ".")[1])! }
    }

    public var version: FormatVersion
    public init(version: FormatVersion = .v4_0) { self.version = version }

    public func export(_ catalog: Catalog) -> String { document(catalog).serialized(.xcode) }

    public func document(_ catalog: Catalog) -> JSONValue {
        let products = catalog.products.filter { $0.type == .consumable || $0.type == .nonConsumable }
        let nonRenewing = catalog.products.filter { $0.type == .nonRenewingSubscription }
        var top: [(String, JSONValue)] = [
            ("identifier", .string(StableID.hex8("catalog:" + (catalog.app.bundleID ?? "")))),
            ("nonRenewingSubscriptions", .array(nonRenewing.map(product))),
            ("products", .array(products.map(product))),
            ("settings", settings(catalog)),
            ("subscriptionGroups", .array(catalog.subscriptionGroups.map(group))),
            ("version", .object([("major", .int(version.major)), ("minor", .int(version.minor))])),
        ]
        if version.major >= 4 { top.append(("appPolicies", appPolicies(catalog))) }
        return .object(top)
    }

    private func localizations(_ list: [Localization]) -> JSONValue {
        .array(list.map { localization in
            .object([
                ("description", .string(localization.description ?? "")),
                ("displayName", .string(localization.name ?? "")),
                ("locale", .string(StoreKitLocale.storeKit(fromCatalog: localization.locale ?? ""))),
            ])
        })
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

    private func product(_ product: Product) -> JSONValue {
        let id = product.productID ?? ""
        return .object([
            ("displayPrice", .string(price(product))),
            ("familyShareable", .bool(product.familySharable ?? false)),
            ("internalID", .string(StableID.hex8("product:" + id))),
            ("localizations", localizations(product.localizations)),
            ("productID", .string(id)),
            ("referenceName", .string(product.referenceName ?? id)),
            ("type", .string(storeKitType(product.type))),
        ])
    }

    private func group(_ group: SubscriptionGroup) -> JSONValue {
        let id = StableID.hex8("group:" + (group.referenceName ?? ""))
        return .object([
            ("id", .string(id)),
            ("localizations", localizations(group.localizations)),
            ("name", .string(group.referenceName ?? "")),
            ("subscriptions", .array(group.subscriptions.map { subscription($0, groupID: id) })),
        ])
    }

    private func subscription(_ product: Product, groupID: String) -> JSONValue {
        let id = product.productID ?? ""
        var fields: [(String, JSONValue)] = [
            ("displayPrice", .string(price(product))),
            ("familyShareable", .bool(product.familySharable ?? false)),
            ("groupNumber", .int(product.groupLevel ?? 1)),
            ("internalID", .string(StableID.hex8("product:" + id))),
            ("localizations", localizations(product.localizations)),
            ("productID", .string(id)),
            ("recurringSubscriptionPeriod", .string(product.period ?? "P1M")),
            ("referenceName", .string(product.referenceName ?? id)),
            ("subscriptionGroupID", .string(groupID)),
            ("type", .string("RecurringSubscription")),
        ]
        // Offers of a monthly plan sit beside the subscription's own, marked with their plan (5.0 only).
        let plans = version.major >= 5 ? product.billingPlans.filter { $0.type == .monthly } : []
        func offers(_ own: [Offer], _ perPlan: (BillingPlan) -> [Offer]) -> JSONValue {
            .array(own.map { offer($0, of: product, plan: .upfront) }
                + plans.flatMap { plan in perPlan(plan).map { offer($0, of: product, plan: .monthly) } })
        }
        fields.append(("adHocOffers", offers(product.promotionalOffers, \.promotionalOffers)))
        // Every format iapkit writes (1.2 and later) has offer codes.
        fields.append(("codeOffers", offers(product.offerCodes, \.offerCodes)))
        if version.major >= 4 { fields.append(("winbackOffers", offers(product.winBackOffers, \.winBackOffers))) }
        let intro = product.introductoryOffer.map { offer($0, of: product, plan: .upfront) }
        if version.major >= 5 {
            if let intro { fields.append(("introductoryOffer", intro)) }
            let planIntros = plans.compactMap { plan in plan.introductoryOffer.map { offer($0, of: product, plan: .monthly) } }
            fields.append(("introductoryOffers", .array((intro.map { [$0] } ?? []) + planIntros)))
            if !product.billingPlans.isEmpty { fields.append(("billingPlans", .array(product.billingPlans.map { billingPlan($0, of: product) }))) }
        } else {
            fields.append(("introductoryOffer", intro ?? .null))
        }
        return .object(fields)
    }

    /// A billing plan with its defaults filled in: an upfront plan costs the subscription's price, a monthly plan
    /// commits to twelve payments.
    private func billingPlan(_ plan: BillingPlan, of product: Product) -> JSONValue {
        let type = plan.type ?? .upfront
        return .object([
            ("billingPlanType", .string(Self.storeKitPlanType(type))),
            ("commitmentDisplayPrice", .string((plan.commitmentPrice ?? plan.defaultCommitmentPrice(of: product))?.text ?? "")),
            ("displayPrice", .string(plan.resolvedPrice(of: product)?.text ?? "")),
            ("internalID", .string(StableID.hex8("plan:\(product.productID ?? ""):\(type.rawValue)"))),
            ("isEnabled", .bool(plan.enabled ?? true)),
        ])
    }

    static func storeKitPlanType(_ type: BillingPlanType) -> String { type == .monthly ? "MONTHLY" : "BILLED_UPFRONT" }

    /// Offers in StoreKit's words: `free` with the trial length, `payUpFront` with its whole span, `payAsYouGo`
    /// with the renewal period and how many periods are discounted.
    private func offer(_ offer: Offer, of product: Product, plan: BillingPlanType) -> JSONValue {
        // Upfront offers keep the ids they had before billing plans existed.
        let planSeed = plan == .upfront ? "" : "\(plan.rawValue):"
        let seed = "offer:\(product.productID ?? ""):\(planSeed)\(offer.kind.rawValue):\(offer.offerID ?? offer.referenceName ?? "")"
        var fields: [(String, JSONValue)] = [("internalID", .string(StableID.hex8(seed)))]
        switch offer.mode {
        case .freeTrial?, nil:
            fields.append(("paymentMode", .string("free")))
            fields.append(("subscriptionPeriod", .string(offer.duration ?? "P1W")))
            if version.major >= 2 { fields.append(("numberOfPeriods", .int(1))) }
        case .payUpFront?:
            fields.append(("paymentMode", .string("payUpFront")))
            fields.append(("subscriptionPeriod", .string(offer.duration ?? product.period ?? "P1M")))
            if version.major >= 3 { fields.append(("numberOfPeriods", .int(1))) }
        case .payAsYouGo?:
            fields.append(("paymentMode", .string("payAsYouGo")))
            // A monthly plan's payments renew monthly whatever the subscription's period.
            fields.append(("subscriptionPeriod", .string(plan == .monthly ? "P1M" : product.period ?? "P1M")))
            fields.append(("numberOfPeriods", .int(offer.periods ?? 1)))
        }
        if let price = offer.price, offer.mode != .freeTrial { fields.append(("displayPrice", .string(price.text))) }
        if version.major >= 5 { fields.append(("billingPlanType", .string(Self.storeKitPlanType(plan)))) }
        switch offer.kind {
        case .introductory:
            break
        case .promotional, .winBack:
            fields.append(("offerID", .string(offer.offerID ?? "")))
            fields.append(("referenceName", .string(offer.referenceName ?? offer.offerID ?? "")))
        case .offerCode:
            fields.append(("referenceName", .string(offer.referenceName ?? "")))
            fields.append(("eligibility", .array((offer.eligibility ?? OfferEligibility.allCases).map { .string($0.rawValue) })))
            fields.append(("isStackable", .bool(offer.stackable ?? false)))
        }
        return .object(fields)
    }

    /// What this format version cannot hold, each a sentence naming the subscription, for the caller to show.
    public func unsupported(in catalog: Catalog) -> [String] {
        var notes: [String] = []
        for product in catalog.allSubscriptions {
            let id = product.productID ?? ""
            if version.major < 4 && !(product.winBackOffers + product.billingPlans.flatMap(\.winBackOffers)).isEmpty {
                notes.append("`\(id)`: win-back offers need StoreKit format 4.0 or later; not written")
            }
            if version.major < 5, product.billingPlans.contains(where: { !$0.isPlainUpfront }) {
                let offers = product.billingPlans.flatMap(\.allOffers).count
                notes.append("`\(id)`: billing plans\(offers > 0 ? " and their \(offers) offer\(offers == 1 ? "" : "s")" : "") need StoreKit format 5.0; not written")
            }
        }
        return notes
    }

    private func settings(_ catalog: Catalog) -> JSONValue {
        let locale = catalog.storeKit?.locale ?? catalog.app.primaryLocale ?? "en-US"
        return .object([
            ("_locale", .string(StoreKitLocale.storeKit(fromCatalog: locale))),
            ("_storefront", .string(catalog.storeKit?.storefront ?? "USA")),
            ("_timeRate", .int(0)),
        ])
    }

    private func appPolicies(_ catalog: Catalog) -> JSONValue {
        let primary = catalog.app.primaryLocale ?? "en-US"
        let policies = catalog.appPolicies?.policies ?? []
        let list: [JSONValue] = (policies.isEmpty ? [AppPolicies.Policy(path: .root, locale: primary)] : policies).map { policy in
            .object([
                ("locale", .string(StoreKitLocale.storeKit(fromCatalog: policy.locale ?? primary))),
                ("policyText", .string(policy.text ?? "")),
                ("policyURL", .string(policy.url ?? "")),
            ])
        }
        return .object([("eula", .string(catalog.appPolicies?.eula ?? "")), ("policies", .array(list))])
    }
}

extension BillingPlan {
    /// An enabled upfront plan at the subscription's own price: what every format before 5.0 implies.
    var isPlainUpfront: Bool {
        type == .upfront && price == nil && commitmentPrice == nil && enabled != false && allOffers.isEmpty
    }
}
