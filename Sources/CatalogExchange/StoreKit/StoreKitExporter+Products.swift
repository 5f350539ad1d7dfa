import IAPCatalog
import IAPCore

/// Products, subscription groups and subscriptions with their billing plans and offers, as Xcode lays them out.
extension StoreKitExporter {
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

    func product(_ product: Product, into out: inout XcodeJSONWriter) {
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

    func group(_ group: SubscriptionGroup, into out: inout XcodeJSONWriter, layout: inout Layout.Group?) {
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

    func subscription(_ product: Product, groupID: String, into out: inout XcodeJSONWriter) {
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
}
