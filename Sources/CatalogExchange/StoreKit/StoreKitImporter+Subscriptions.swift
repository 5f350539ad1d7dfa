import IAPCatalog
import IAPCore

/// Auto-renewable subscriptions: their periods, billing plans and offers of every kind.
extension StoreKitImporter.Reader {
    mutating func readSubscription(_ item: JSONNode, path: String, in subscriptionsPath: CatalogPath, index: Int) throws(IAPKitError) -> Product {
        _ = try object(item, path)
        let id = try string(item["productID"], path + ".productID") ?? ""
        unread(item, known: Self.subscriptionKeys, at: "subscriptions", owner: "`\(id)`")
        placed(id, at: path)
        var product = Product(path: subscriptionsPath.index(index), productID: id, type: .autoRenewableSubscription)
        try fillCommon(&product, item, path: path)
        product.period = try string(item["recurringSubscriptionPeriod"], path + ".recurringSubscriptionPeriod")
        product.groupLevel = try int(item["groupNumber"], path + ".groupNumber")
        for (planIndex, plan) in try array(item["billingPlans"], path + ".billingPlans", optional: true).enumerated() {
            product.billingPlans.append(try readBillingPlan(plan, path: "\(path).billingPlans[\(planIndex)]", of: product))
        }
        // 5.0 lists one introductory offer per billing plan and repeats the first as `introductoryOffer`.
        var intros = try array(item["introductoryOffers"], path + ".introductoryOffers", optional: true)
            .enumerated().map { ($0.element, "\(path).introductoryOffers[\($0.offset)]") }
        if intros.isEmpty, let intro = item["introductoryOffer"], !intro.isNull { intros = [(intro, path + ".introductoryOffer")] }
        var offers: [(JSONNode, String, OfferKind)] = intros.map { ($0.0, $0.1, .introductory) }
        for (key, kind) in [("adHocOffers", OfferKind.promotional), ("codeOffers", .offerCode), ("winbackOffers", .winBack)] {
            for (offerIndex, offer) in try array(item[key], "\(path).\(key)", optional: true).enumerated() {
                offers.append((offer, "\(path).\(key)[\(offerIndex)]", kind))
            }
        }
        for (offer, offerPath, kind) in offers {
            let planType = try billingPlanType(offer["billingPlanType"], offerPath + ".billingPlanType")
            let renewal = planType == .monthly ? "P1M" : product.period
            guard let read = try readOffer(offer, path: offerPath, kind: kind, of: product, renewal: renewal) else { continue }
            if planType == .upfront {
                add(
                    read, to: &product.introductoryOffer, &product.promotionalOffers, &product.offerCodes,
                    &product.winBackOffers, owner: id)
                continue
            }
            var index = product.billingPlans.firstIndex { $0.type == planType }
            if index == nil {
                notes.append(
                    "`\(id)`: a \(kind.rawValue) names the \(planType.rawValue) billing plan, which the file does not list; the plan was added")
                product.billingPlans.append(BillingPlan(path: .root, type: planType))
                index = product.billingPlans.count - 1
            }
            var plan = product.billingPlans[index!]
            add(read, to: &plan.introductoryOffer, &plan.promotionalOffers, &plan.offerCodes, &plan.winBackOffers, owner: id)
            product.billingPlans[index!] = plan
        }
        return product
    }

    /// Files one offer under its kind; a second introductory offer for the same plan has nowhere to go.
    mutating func add(
        _ offer: Offer, to introductory: inout Offer?, _ promotional: inout [Offer], _ codes: inout [Offer],
        _ winBack: inout [Offer], owner: String
    ) {
        switch offer.kind {
        case .introductory:
            if introductory == nil {
                introductory = offer
            } else {
                notes.append("`\(owner)`: a second introductory offer for one billing plan dropped; a plan has one")
            }
        case .promotional: promotional.append(offer)
        case .offerCode: codes.append(offer)
        case .winBack: winBack.append(offer)
        }
    }

    /// StoreKit's `BILLED_UPFRONT` and `MONTHLY`; files before 5.0 have no plans, so absent means upfront.
    func billingPlanType(_ value: JSONNode?, _ path: @autoclosure () -> String) throws(IAPKitError) -> BillingPlanType {
        switch try string(value, path(), optional: true) {
        case nil, "BILLED_UPFRONT"?: return .upfront
        case "MONTHLY"?: return .monthly
        case let other?: throw fail(path(), "`\(other)` is not a StoreKit billing plan type (BILLED_UPFRONT, MONTHLY)")
        }
    }

    /// A billing plan, leaving out what equals its default so a plain upfront plan reads `planType: upfront`.
    mutating func readBillingPlan(_ item: JSONNode, path: String, of product: Product) throws(IAPKitError) -> BillingPlan {
        unread(try object(item, path), known: Self.planKeys, at: "billing plans", owner: "`\(product.productID ?? "")`")
        var plan = BillingPlan(path: .root, type: try billingPlanType(item["billingPlanType"], path + ".billingPlanType"))
        let price = try price(item["displayPrice"], path + ".displayPrice")
        if plan.type == .monthly || price?.text != storefrontPrice(of: product) {
            place(price, owner: product.productID ?? "", price: &plan.price, territoryPrices: &plan.territoryPrices)
        }
        let commitment = try self.price(item["commitmentDisplayPrice"], path + ".commitmentDisplayPrice")
        // A commitment price is USD only; in another storefront's currency it is left to its default.
        if foreignStorefront == nil, commitment?.text != plan.defaultCommitmentPrice(of: product)?.text { plan.commitmentPrice = commitment }
        if try bool(item["isEnabled"], path + ".isEnabled") == false { plan.enabled = false }
        return plan
    }

    /// `renewal` is how often the offer's plan bills: the subscription's period, or monthly for a monthly plan.
    mutating func readOffer(
        _ item: JSONNode, path: String, kind: OfferKind, of product: Product,
        renewal: String?
    ) throws(IAPKitError) -> Offer? {
        _ = try object(item, path)
        let id = product.productID ?? ""
        unread(item, known: Self.offerKeys, at: kind.rawValue + "s", owner: "`\(id)`")
        var offer = Offer(path: .root, kind: kind)
        let mode = try string(item["paymentMode"], path + ".paymentMode")
        let period = try string(item["subscriptionPeriod"], path + ".subscriptionPeriod", optional: true)
        let count = try int(item["numberOfPeriods"], path + ".numberOfPeriods") ?? 1
        switch mode {
        case "free":
            offer.mode = .freeTrial
            offer.duration = period.flatMap { Self.multiply($0, count) } ?? period
        case "payUpFront":
            offer.mode = .payUpFront
            offer.duration = period.flatMap { Self.multiply($0, count) } ?? period
        case "payAsYouGo":
            offer.mode = .payAsYouGo
            offer.periods = count
            if let period, period != renewal {
                notes.append(
                    "`\(id)`: a pay-as-you-go \(kind.rawValue) billed every \(period) on a plan billed every \(renewal ?? "") was imported with the plan's period"
                )
            }
        default:
            throw fail(path + ".paymentMode", "`\(mode ?? "")` is not a StoreKit payment mode (free, payAsYouGo, payUpFront)")
        }
        // A free trial is free whatever its price text says (Xcode writes none, or an empty one).
        if offer.mode != .freeTrial {
            place(
                try price(item["displayPrice"], path + ".displayPrice"), owner: id, price: &offer.price,
                territoryPrices: &offer.territoryPrices)
            if Self.isEmptyPrice(item["displayPrice"]) { notes.append("`\(id)`: a \(kind.rawValue) had an empty displayPrice; set its `price`") }
        }
        if kind == .promotional || kind == .winBack { offer.offerID = try string(item["offerID"], path + ".offerID", optional: true) }
        if kind != .introductory { offer.referenceName = try string(item["referenceName"], path + ".referenceName", optional: true) }
        if kind == .offerCode {
            offer.stackable = try bool(item["isStackable"], path + ".isStackable")
            offer.eligibility = try array(item["eligibility"], path + ".eligibility", optional: true).compactMap {
                $0.string.flatMap(OfferEligibility.init(rawValue:))
            }.sorted { OfferEligibility.allCases.firstIndex(of: $0)! < OfferEligibility.allCases.firstIndex(of: $1)! }
        }
        return offer
    }

    /// `P1W` × 2 = `P2W`, `P1M` × 3 = `P3M`; nil when the product is not a period App Store Connect names.
    static func multiply(_ period: String, _ count: Int) -> String? {
        guard count > 1 else { return period }
        guard period.hasPrefix("P"), let unit = period.last, let amount = Int(period.dropFirst().dropLast()) else { return nil }
        let total = amount * count
        switch (unit, total) {
        case ("D", 3), ("W", 1), ("W", 2): return "P\(total)\(unit)"
        case ("D", 7): return "P1W"
        case ("D", 14): return "P2W"
        case ("M", 1), ("M", 2), ("M", 3), ("M", 6): return "P\(total)M"
        case ("M", 12): return "P1Y"
        default: return nil
        }
    }
}
