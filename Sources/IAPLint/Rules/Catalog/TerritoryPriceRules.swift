import IAPCatalog
import IAPCore

/// Every territory price of a product: today's (`territoryPrices`, price-sheet rows) and each scheduled change's.
extension Product {
    /// Whether the product says anything about territory prices or schedules (most do not: the rules return early,
    /// so a catalog of 20,000 products pays nothing for them).
    var hasPricingDetail: Bool {
        !territoryPrices.isEmpty || !priceChanges.isEmpty || !billingPlans.isEmpty || !sales.isEmpty
            || introductoryOffer.map { !$0.territoryPrices.isEmpty } == true
            || promotionalOffers.contains { !$0.territoryPrices.isEmpty } || offerCodes.contains { !$0.territoryPrices.isEmpty }
            || winBackOffers.contains { !$0.territoryPrices.isEmpty }
    }

    var everyTerritoryPrice: [TerritoryPrice] {
        var prices: [TerritoryPrice] = priceSchedules.flatMap { $0.territoryPrices + $0.changes.flatMap(\.territoryPrices) }
        prices += allOffers.flatMap(\.territoryPrices)
        prices += sales.flatMap(\.territoryPrices)
        prices += billingPlans.flatMap { $0.allOffers.flatMap(\.territoryPrices) }
        return prices
    }
}

struct TerritoryPriceCodeRule: ProductRule {
    static let id = "territory-price-code"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect names territories by their ISO 3166-1 alpha-3 codes; an unknown code is refused, and the USD price already has its key."
    static let summary =
        "A territory price for a code that is no App Store territory (ISO 3166-1 alpha-3, as App Store Connect writes them), or for the USA beside a `price` (the USD price is `price`)."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  territoryPrices:\n    IN: ↓99"), Example.product("  territoryPrices:\n    USA: ↓1.29"),
            Example.product("  priceChanges:\n    - startDate: 2099-01-15\n      territoryPrices:\n        IDN2: ↓15000"),
        ],
        nonTriggering: [
            Example.product("  territoryPrices:\n    IND: 99\n    BRA: 14.90"),
            Example.subscription(
                "  priceChanges:\n    - startDate: 2099-01-15\n      territoryPrices: {USA: 5.99, GBR: 4.99}\n      existingSubscribers: {GBR: move, others: keep}"
            ),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.hasPricingDetail else { return }
        // The USA is a territory like the others where no USD `price` stands beside it: in a change of some
        // territories only, and in a product priced from another base territory.
        var allowed = Set<CatalogPath>()
        for schedule in product.priceSchedules {
            if product.baseTerritory != nil, schedule.name == nil { schedule.territoryPrices.forEach { allowed.insert($0.path) } }
            for change in schedule.changes where change.price == nil { change.territoryPrices.forEach { allowed.insert($0.path) } }
        }
        for entry in product.everyTerritoryPrice {
            if entry.territory == Storefronts.base, allowed.contains(entry.path) { continue }
            if entry.territory == Storefronts.base {
                context.report(
                    Self.self, "USA is the base territory: its price is `price` (USD), equalized everywhere else",
                    at: entry.path, product: product)
            } else if !Storefronts.isTerritory(entry.territory) {
                var message = "`\(entry.territory)` is not an App Store territory; use ISO 3166-1 alpha-3 codes such as IND, BRA, JPN"
                if let suggestion = Suggestions.nearest(to: entry.territory.uppercased(), in: Storefronts.codes) {
                    message += "; did you mean `\(suggestion)`?"
                }
                context.report(Self.self, message, at: entry.path, product: product)
            }
        }
    }
}

struct TerritoryPriceDuplicateRule: ProductRule {
    static let id = "territory-price-duplicate"
    static let severity = RuleSeverity.error
    static let rationale = "One territory has one price a day; two prices for the same day leave it to chance which one App Store Connect keeps."
    static let summary =
        "A territory priced twice for the same day: in `territoryPrices` and the price sheet, twice in the sheet, or in two changes with the same start date."
    static let examples = RuleExamples(
        triggering: [
            Example.product(
                "  priceChanges:\n    - startDate: 2099-01-15\n      territoryPrices: {IND: 129}\n    - startDate: 2099-01-15\n      territoryPrices: {IND: ↓149}"
            )
        ],
        nonTriggering: [
            Example.product("  territoryPrices: {IND: 99}\n  priceChanges:\n    - startDate: 2099-01-15\n      territoryPrices: {IND: 129}")
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.hasPricingDetail else { return }
        for schedule in product.priceSchedules { check(schedule, of: product, in: context) }
    }

    private func check(_ schedule: PriceSchedule, of product: Product, in context: CatalogLintContext) {
        var seen: [String: TerritoryPrice] = [:]
        let dated =
            schedule.territoryPrices.map { (day: "today", price: $0) }
            + schedule.changes.flatMap { change in change.territoryPrices.map { (day: change.startDate ?? "?", price: $0) } }
        for (day, entry) in dated {
            let key = day + " " + entry.territory
            if let first = seen[key] {
                let when = day == "today" ? "" : " from \(day)"
                context.report(
                    Self.self,
                    "\(entry.territory) is priced twice\(when); the first price is at "
                        + "\(context.catalog.location(of: first.path))", at: entry.path, product: product)
            } else {
                seen[key] = entry
            }
        }
    }
}

struct TerritoryPriceAvailabilityRule: ProductRule {
    static let id = "territory-price-availability"
    static let severity = RuleSeverity.warning
    static let rationale =
        "App Store Connect keeps the price, but no customer there can pay it: usually the territory was meant to be in `availability`."
    static let summary =
        "A territory price for a territory the product is not sold in (see `availability`) nor priced in (see `pricedTerritories`): a warning, since App Store Connect keeps the price but no customer there pays it."
    static let examples = RuleExamples(
        triggering: [Example.product("  availability:\n    territories: [USA, FRA]\n  territoryPrices:\n    IND: ↓99")],
        nonTriggering: [
            Example.product("  availability:\n    territories: [USA, IND]\n  territoryPrices:\n    IND: 99"),
            Example.product("  territoryPrices:\n    IND: 99"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.hasPricingDetail, let sold = product.availability?.territories else { return }
        var set = Set(sold)
        switch product.pricedTerritories {
        case .all?: return
        case let .only(list)?: set.formUnion(list)
        case nil: break
        }
        for entry in product.everyTerritoryPrice where Storefronts.isTerritory(entry.territory) && !set.contains(entry.territory) {
            context.report(
                Self.self, .warning,
                "\(entry.territory) has a price but \(product.productID ?? "the product") is not sold there; "
                    + "add \(entry.territory) to `availability.territories` or remove the price", at: entry.path, product: product)
        }
    }
}

struct TerritoryPriceDecimalsRule: ProductRule {
    static let id = "territory-price-decimals"
    static let severity = RuleSeverity.error
    static let rationale = "Prices are points on each currency's grid; a fraction the currency does not have is no price point."
    static let summary =
        "A territory price with more decimals than the territory's currency has on the App Store (none for JPY, KRW and other whole-number currencies, two otherwise)."
    static let examples = RuleExamples(
        triggering: [Example.product("  territoryPrices:\n    JPN: ↓150.5"), Example.product("  territoryPrices:\n    BRA: ↓14.905")],
        nonTriggering: [Example.product("  territoryPrices:\n    JPN: 150\n    BRA: 14.90\n    DEU: 1.00")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.hasPricingDetail else { return }
        for entry in product.everyTerritoryPrice {
            guard let price = entry.price, let allowed = Storefronts.decimals(of: entry.territory),
                price.significantDecimals > allowed, let currency = Storefronts.currencies[entry.territory]
            else { continue }
            let what = allowed == 0 ? "whole numbers" : "at most \(allowed) decimals"
            context.report(
                Self.self,
                "\(entry.territory) prices in \(currency), which the App Store writes in \(what); "
                    + "`\(price.text)` has \(price.writtenDecimals)", at: entry.path, product: product)
        }
    }
}

struct PriceChangeDateRule: ProductRule {
    static let id = "price-change-date"
    static let severity = RuleSeverity(.error, "warning once started")
    static let rationale = "A change is applied from its start date; a change whose day has come can no longer be scheduled, only made."
    static let summary =
        "A scheduled price change without a valid `startDate` (YYYY-MM-DD), out of date order, repeating a date, changing nothing, or already in the past (a warning: fold it into the current prices)."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  priceChanges:\n    - startDate: ↓2099-02-30\n      price: 1.29"),
            Example.product("  priceChanges:\n    - startDate: ↓2020-01-15\n      price: 1.29"),
            Example.product("  priceChanges:\n    - startDate: 2099-03-01\n      price: 1.29\n    - startDate: ↓2099-02-01\n      price: 1.99"),
            Example.product("  priceChanges:\n    - startDate: ↓2099-03-01"),
        ],
        nonTriggering: [
            Example.product(
                "  priceChanges:\n    - startDate: 2099-02-01\n      price: 1.29\n    - startDate: 2099-03-01\n      territoryPrices: {IND: 129}")
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard !product.priceChanges.isEmpty || !product.billingPlans.isEmpty else { return }
        for schedule in product.priceSchedules { check(schedule.changes, of: product, in: context) }
    }

    private func check(_ changes: [PriceChange], of product: Product, in context: CatalogLintContext) {
        let today = CalendarDay.today
        var previous: (day: Int, text: String)?
        for change in changes {
            guard let text = change.startDate else { continue }  // the loader reported the missing key
            let at = change.path / "startDate"
            guard let day = CalendarDay.parse(text) else {
                context.report(Self.self, "`\(text)` is not a date; write the first day of the new prices as YYYY-MM-DD", at: at, product: product)
                continue
            }
            if change.price == nil && change.territoryPrices.isEmpty {
                context.report(
                    Self.self, "the change from \(text) changes nothing; give a new `price` or `territoryPrices`", at: at, product: product)
            }
            if let previous, day <= previous.day {
                context.report(
                    Self.self,
                    day == previous.day
                        ? "two price changes start on \(text); merge them"
                        : "price changes must be in date order: \(text) comes after \(previous.text)", at: at, product: product)
            } else if day <= today {
                context.report(
                    Self.self, .warning,
                    "the change from \(text) has taken effect; move its prices into `price` and "
                        + "`territoryPrices` and remove it", at: at, productID: product.productID)
            }
            previous = (day, text)
        }
    }
}

struct PriceChangeSubscribersRule: ProductRule {
    static let id = "price-change-subscribers"
    static let severity = RuleSeverity(.error, "warning for an increase that moves existing subscribers")
    static let rationale =
        "App Store Connect asks on every subscription price change whether existing subscribers keep their price; an increase that moves them needs their consent in many territories."
    static let summary =
        "A subscription's price change that does not say what existing subscribers pay (`existingSubscribers: keep | move`), the key on a product that is not a subscription, or an increase that moves existing subscribers (a warning: App Store Connect asks them for consent in many territories, and some lapse)."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  priceChanges:\n    - startDate: ↓2099-01-15\n      price: 5.99"),
            Example.subscription("  priceChanges:\n    - startDate: 2099-01-15\n      price: 5.99\n      existingSubscribers: ↓stay"),
            Example.subscription("  priceChanges:\n    - startDate: 2099-01-15\n      price: 5.99\n      existingSubscribers: ↓move"),
            Example.product("  priceChanges:\n    - startDate: 2099-01-15\n      price: 1.29\n      existingSubscribers: ↓keep"),
            Example.subscription(
                "  period: P1Y\n  price: 49.99\n  billingPlans:\n    - planType: monthly\n      price: 4.99\n      priceChanges:\n        - startDate: ↓2099-01-15\n          price: 5.99"
            ),
        ],
        nonTriggering: [
            Example.subscription("  priceChanges:\n    - startDate: 2099-01-15\n      price: 5.99\n      existingSubscribers: keep"),
            Example.subscription("  priceChanges:\n    - startDate: 2099-01-15\n      price: 3.99\n      existingSubscribers: move"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard !product.priceChanges.isEmpty || !product.billingPlans.isEmpty else { return }
        for schedule in product.priceSchedules { check(schedule, of: product, in: context) }
    }

    private func check(_ schedule: PriceSchedule, of product: Product, in context: CatalogLintContext) {
        var regular = schedule.price?.cents
        var territories = Dictionary(
            schedule.territoryPrices.compactMap { entry in entry.price.map { (entry.territory, $0) } }, uniquingKeysWith: { a, _ in a })
        for change in schedule.changes {
            let at = change.path / "existingSubscribers"
            if !product.isSubscription {
                if change.existingSubscribers != nil || change.existingSubscribersText != nil {
                    context.report(Self.self, "`existingSubscribers` applies to auto-renewable subscriptions only", at: at, product: product)
                }
                continue
            }
            for entry in change.existingSubscribersByTerritory where entry.choice == nil {
                context.report(
                    Self.self, "`\(entry.text)` is not a choice for \(entry.territory); write `keep` or `move`", at: entry.path, product: product)
            }
            let named = Set(change.territoryPrices.map(\.territory))
            if change.price == nil {
                for entry in change.existingSubscribersByTerritory where !named.contains(entry.territory) {
                    context.report(
                        Self.self, "\(entry.territory) has no price in this change; name only the territories it prices",
                        at: entry.path, product: product)
                }
            }
            let unnamed = named.subtracting(change.existingSubscribersByTerritory.map(\.territory))
            if let text = change.existingSubscribersText {
                context.report(
                    Self.self,
                    "`\(text)` is not a choice; write `existingSubscribers: keep` (they keep their price) "
                        + "or `move` (they pay the new price)", at: at, product: product)
            } else if change.existingSubscribers == nil, !change.existingSubscribersByTerritory.isEmpty {
                if change.price != nil || !unnamed.isEmpty {
                    context.report(
                        Self.self,
                        "say what existing subscribers pay in the territories not named here: add `others: keep` or "
                            + "`others: move`", at: at, product: product)
                }
            } else if change.existingSubscribers == nil {
                context.report(
                    Self.self,
                    "say what existing subscribers pay from \(change.startDate ?? "this date"): "
                        + "`existingSubscribers: keep` or `move`", at: change.path / "startDate", product: product)
            }
            // Which territories go up: the base (and every equalized territory) or an override.
            var raised: [String] = []
            if let cents = change.price?.cents {
                if let old = regular, cents > old { raised.append("USD \(Price(cents: old)) → \(Price(cents: cents))") }
                regular = cents
            }
            for entry in change.territoryPrices {
                guard let price = entry.price else { continue }
                if let old = territories[entry.territory], price.approximateCents > old.approximateCents {
                    let currency = Storefronts.currencies[entry.territory] ?? ""
                    raised.append("\(entry.territory) \(currency) \(old.text) → \(price.text)")
                }
                territories[entry.territory] = price
            }
            let moving = change.existingSubscribers == .move || change.existingSubscribersByTerritory.contains { $0.choice == .move }
            if moving, !raised.isEmpty {
                context.report(
                    Self.self, .warning,
                    "this increase (\(raised.joined(separator: ", "))) moves existing subscribers: "
                        + "App Store Connect asks them to agree in many territories and those who do not are not renewed; "
                        + "consider `existingSubscribers: keep`", at: at, productID: product.productID)
            }
        }
    }
}

struct OfferPriceChangeRule: ProductRule {
    static let id = "offer-price-change"
    static let severity = RuleSeverity.error
    static let rationale = "An offer must cost less than the regular price; a scheduled price cut can make a paid offer no discount at all."
    static let summary =
        "A paid subscription offer priced at or above the subscription's regular price after a scheduled price change, or at or above a territory's own price where both give one."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription(
                "  price: 4.99\n  introductoryOffer: {mode: pay-up-front, duration: P1M, price: 2.99}\n  priceChanges:\n    - startDate: ↓2099-01-15\n      price: 2.99\n      existingSubscribers: move"
            ),
            Example.subscription(
                "  price: 4.99\n  territoryPrices: {IND: 399}\n  introductoryOffer:\n    mode: pay-as-you-go\n    periods: 3\n    price: 2.99\n    territoryPrices: {IND: ↓399}"
            ),
        ],
        nonTriggering: [
            Example.subscription(
                "  price: 4.99\n  introductoryOffer: {mode: pay-up-front, duration: P1M, price: 2.99}\n  priceChanges:\n    - startDate: 2099-01-15\n      price: 5.99\n      existingSubscribers: keep"
            ),
            Example.subscription(
                "  price: 4.99\n  territoryPrices: {IND: 399}\n  introductoryOffer:\n    mode: pay-as-you-go\n    periods: 3\n    price: 2.99\n    territoryPrices: {IND: 249}"
            ),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.isSubscription, product.hasPricingDetail else { return }
        let paid = product.allOffers.filter { $0.mode == .payUpFront || $0.mode == .payAsYouGo }
        // In a territory both price by hand, today and after each change.
        var regular = Dictionary(
            product.territoryPrices.compactMap { entry in entry.price.map { (entry.territory, [$0.approximateCents]) } },
            uniquingKeysWith: { a, _ in a })
        for change in product.priceChanges {
            for entry in change.territoryPrices {
                if let price = entry.price { regular[entry.territory, default: []].append(price.approximateCents) }
            }
        }
        for offer in paid where offer.mode == .payAsYouGo || offer.duration == product.period {
            for entry in offer.territoryPrices {
                guard let price = entry.price, let lowest = regular[entry.territory]?.min(), price.approximateCents >= lowest else { continue }
                context.report(
                    Self.self,
                    "the \(offer.kind.rawValue) costs \(price.text)\(Storefronts.currencies[entry.territory].map { " \($0)" } ?? "") "
                        + "in \(entry.territory), no less than the subscription's "
                        + "own price there; an offer must be a discount", at: entry.path, product: product)
            }
        }
        for change in product.priceChanges {
            guard let regular = change.price?.cents else { continue }
            for offer in paid {
                guard let cents = offer.price?.cents else { continue }
                // A pay-up-front offer covers its whole duration; compare one period's worth only when it is one period.
                let perPeriod = offer.mode == .payAsYouGo || offer.duration == product.period
                if perPeriod && cents >= regular {
                    context.report(
                        Self.self,
                        "from \(change.startDate ?? "this date") the regular price is $\(Price(cents: regular)), "
                            + "no more than the \(offer.kind.rawValue) at $\(Price(cents: cents)); lower the offer or the change",
                        at: change.path / "startDate", product: product)
                }
            }
        }
    }
}
