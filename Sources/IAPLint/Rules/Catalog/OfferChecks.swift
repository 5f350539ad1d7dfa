import IAPCatalog
import IAPCore

/// The checks every kind of subscription offer shares: mode, duration or periods, and price. Each offer rule
/// runs them under its own id.
enum OfferChecks {
    static let freeTrialDurations = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    static let payUpFrontDurations = ["P1M", "P2M", "P3M", "P6M", "P1Y"]

    /// How many discounted periods pay-as-you-go allows for each renewal period.
    static func payAsYouGoRange(for period: String) -> ClosedRange<Int>? {
        switch period {
        case "P1W", "P1M": return 1...12
        case "P2M": return 1...6
        case "P3M": return 1...4
        case "P6M": return 1...2
        case "P1Y": return 1...1
        default: return nil
        }
    }

    static func check<R: RuleDescribing>(_ offer: Offer, of product: Product, rule: R.Type, in context: CatalogLintContext) {
        let kind = offer.kind.rawValue
        func report(_ message: String, _ key: String? = nil) {
            context.report(rule, message, at: key.map { offer.path / $0 } ?? offer.path, product: product)
        }
        if let text = offer.modeText {
            report(Suggestions.unknownChoice(text, what: "an offer mode", choices: OfferMode.allCases.map(\.rawValue)), "mode")
            return
        }
        if let territories = offer.territories {
            let set = Set(territories)
            for entry in offer.territoryPrices where !set.contains(entry.territory) {
                context.report(
                    rule,
                    "\(entry.territory) has a price but the \(kind) is not set there; add \(entry.territory) to `territories` "
                        + "or remove the price", at: entry.path, product: product)
            }
        }
        guard let mode = offer.mode else { return }
        switch mode {
        case .freeTrial:
            if offer.price != nil { report("a free trial has no price; remove `price` or choose pay-as-you-go or pay-up-front", "price") }
            if let periods = offer.periods, periods != 1 {
                report("a free trial runs once for its `duration`; remove `periods`", "periods")
            }
            checkDuration(offer, allowed: freeTrialDurations, modeName: "a free trial", report: report)
        case .payUpFront:
            checkDuration(offer, allowed: payUpFrontDurations, modeName: "pay-up-front", report: report)
            if let periods = offer.periods, periods != 1 {
                report("pay-up-front is one payment for its `duration`; remove `periods`", "periods")
            }
            checkPrice(offer, of: product, spanDays: offer.duration.flatMap(SubscriptionPeriods.days), report: report)
        case .payAsYouGo:
            let period = product.period ?? ""
            if let duration = offer.duration, duration != period {
                report("pay-as-you-go discounts whole \(period) periods; remove `duration` and set `periods`", "duration")
            }
            if let range = payAsYouGoRange(for: period) {
                if let periods = offer.periods {
                    if !range.contains(periods) {
                        report("pay-as-you-go on a \(period) subscription allows \(Format.range(range, "period")), not \(periods)", "periods")
                    }
                } else {
                    report(
                        "pay-as-you-go needs `periods`: how many \(period) periods are discounted; a \(period) subscription allows "
                            + Format.range(range, "period"))
                }
            }
            checkPrice(offer, of: product, spanDays: SubscriptionPeriods.days(period), report: report)
        }
        _ = kind
    }

    private static func checkDuration(_ offer: Offer, allowed: [String], modeName: String, report: (String, String?) -> Void) {
        guard let duration = offer.duration else {
            report("\(modeName) needs a `duration`: one of \(allowed.joined(separator: " "))", nil)
            return
        }
        if !allowed.contains(duration) {
            report("`\(duration)` is not a duration for \(modeName); use one of \(allowed.joined(separator: " "))", "duration")
        }
    }

    /// A paid offer needs a grid price lower than the regular price over the same span.
    private static func checkPrice(_ offer: Offer, of product: Product, spanDays: Double?, report: (String, String?) -> Void) {
        guard let price = offer.price else {
            // An offer set in some territories only (its own, else the subscription's) may give each its own price and
            // no USD one; one set everywhere needs the USD price the others are equalized from, as a product does.
            let priced = Set(offer.territoryPrices.map(\.territory))
            if !priced.isEmpty, !priced.contains(Storefronts.base),
                let setIn = offer.territories ?? product.listedPricedTerritories, Set(setIn).isSubset(of: priced)
            {
                return
            }
            if !priced.isEmpty {
                report(
                    "a \(offer.mode?.rawValue ?? "paid") offer has territory prices but no USD price: add `price:` (USD, equalized "
                        + "everywhere else), or `territories: [\(priced.sorted().joined(separator: ", "))]` to set it there only", nil)
                return
            }
            report("a \(offer.mode?.rawValue ?? "paid") offer needs a `price` (USD, lower than the regular price)", nil)
            return
        }
        if let problem = PriceRule.gridProblem(price, free: true) { report(problem, "price"); return }
        guard let cents = price.cents else { return }
        if cents == 0 {
            // Free in the USA and paid elsewhere is a paid offer; free everywhere is a free trial.
            if !offer.territoryPrices.contains(where: { ($0.price?.approximateCents ?? 0) > 0 }) {
                report("a paid offer cannot cost $0 everywhere; use a free trial, or give the territories that pay their `territoryPrices`", "price")
            }
            return
        }
        guard let regular = product.resolvedPriceCents, let period = product.period,
            let periodDays = SubscriptionPeriods.days(period), let spanDays
        else { return }
        let regularForSpan = Double(regular) * spanDays / periodDays
        if Double(cents) >= regularForSpan.rounded() {
            report(
                "offer price $\(price) is not a discount: the regular price for the same span is $\(Price(cents: Int(regularForSpan.rounded())))",
                "price")
        }
    }
}
