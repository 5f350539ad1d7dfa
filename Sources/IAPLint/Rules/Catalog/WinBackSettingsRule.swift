import IAPCatalog

/// A win-back offer's eligibility, priority, promotion and dates, checked as App Store Connect checks them.
struct WinBackSettingsRule: ProductRule {
    static let id = "win-back-settings"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect offers only these choices for eligibility, priority and promotion, and a win-back offer must run at least 3 days."
    static let summary =
        "A win-back offer whose eligibility months are not App Store Connect's choices (paid 1–24, 36, 48 or 60; "
        + "lapsed 1–24, in order; a wait of 2–24), whose priority or promotion is not one it has, or whose dates are not days or "
        + "give it fewer than 3 days."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, eligibility: {paidMonths: ↓30}}"),
            Example.subscription(
                "  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, eligibility: {↓lapsedMonths: {min: 12, max: 3}}}"),
            Example.subscription("  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, priority: ↓urgent}"),
            Example.subscription(
                "  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, startDate: 2031-05-01, endDate: ↓2031-04-01}"),
            Example.subscription(
                "  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, startDate: 2031-05-01, endDate: ↓2031-05-02}"),
            Example.subscription("  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, eligibility: {monthsBetweenOffers: ↓1}}"),
        ],
        nonTriggering: [
            Example.subscription(
                "  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M, eligibility: {paidMonths: 36},\n"
                    + "       startDate: 2031-05-01, endDate: 2031-05-03}"),
            Example.subscription(
                "  winBackOffers:\n    - {offerId: back, referenceName: Come back, mode: free-trial, duration: P1M,\n"
                    + "       eligibility: {paidMonths: 6, lapsedMonths: {min: 2, max: 24}, monthsBetweenOffers: 3},\n"
                    + "       priority: high, promotion: app-store, startDate: 2031-05-01, endDate: 2031-06-30}"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.isSubscription else { return }
        for offer in product.winBackOffers + product.billingPlans.flatMap(\.winBackOffers) { check(offer, of: product, in: context) }
    }

    private func check(_ offer: Offer, of product: Product, in context: CatalogLintContext) {
        let settings = offer.winBack
        let eligibility = offer.path / "eligibility"
        let name = offer.offerID.map { "win-back offer `\($0)`" } ?? "this win-back offer"
        func months(_ value: Int?, _ key: String, at path: CatalogPath, _ what: String, allowed: [Int], _ choices: String) {
            guard let value, !allowed.contains(value) else { return }
            context.report(Self.self, "\(name): \(what) is \(value) months; App Store Connect takes \(choices)", at: path / key, product: product)
        }
        months(
            settings.paidMonths, "paidMonths", at: eligibility, "the paid subscription duration", allowed: WinBackSettings.paidMonths,
            "1 to 24, 36, 48 or 60")
        months(
            settings.monthsBetweenOffers, "monthsBetweenOffers", at: eligibility, "the wait between offers",
            allowed: Array(WinBackSettings.monthsBetweenOffers), "2 to 24")
        let lapsed = eligibility / "lapsedMonths"
        for (value, key, what) in [
            (settings.lapsedMinimum, "min", "the shortest time since the subscription lapsed"),
            (settings.lapsedMaximum, "max", "the longest time since the subscription lapsed"),
        ] {
            months(value, key, at: lapsed, what, allowed: Array(WinBackSettings.lapsedMonths), "1 to 24")
        }
        if let minimum = settings.lapsedMinimum, let maximum = settings.lapsedMaximum, minimum > maximum {
            context.report(
                Self.self, "\(name): `lapsedMonths` runs from \(minimum) down to \(maximum); give the smaller number as `min`",
                at: lapsed, product: product)
        }
        if let priority = settings.priority, !WinBackSettings.priorities.contains(priority) {
            context.report(
                Self.self, "\(name): `priority: \(priority)` is not a priority; use `high` or `normal`",
                at: offer.path / "priority", product: product)
        }
        if let promotion = settings.promotion, !WinBackSettings.promotions.contains(promotion) {
            context.report(
                Self.self,
                "\(name): `promotion: \(promotion)` is not a choice; use `app-store` (the App Store "
                    + "shows the offer) or `none`", at: offer.path / "promotion", product: product)
        }
        var days: [String: Int] = [:]
        for (key, text) in [("startDate", settings.startDate), ("endDate", settings.endDate)] {
            guard let text else { continue }
            guard let day = CalendarDay.parse(text) else {
                context.report(
                    Self.self, "\(name): `\(key): \(text)` is not a day; write it as YYYY-MM-DD",
                    at: offer.path / key, product: product)
                continue
            }
            days[key] = day
        }
        if let start = days["startDate"], let end = days["endDate"] {
            let length = CalendarDay.ordinal(end) - CalendarDay.ordinal(start) + 1
            if length < 1 {
                context.report(
                    Self.self, "\(name) ends on \(settings.endDate ?? "") before it starts on \(settings.startDate ?? "")",
                    at: offer.path / "endDate", product: product)
            } else if length < WinBackSettings.minimumDays {
                context.report(
                    Self.self,
                    "\(name) runs \(length) day\(length == 1 ? "" : "s"); App Store Connect needs at least "
                        + "\(WinBackSettings.minimumDays), its first and last day counted", at: offer.path / "endDate", product: product)
            }
        }
    }
}
