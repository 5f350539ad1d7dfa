import IAPCatalog

struct IntroOfferRule: ProductRule {
    static let id = "intro-offer"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect allows only certain durations for each offer mode and refuses an offer that costs no less than the subscription."
    static let summary =
        "An introductory offer App Store Connect would refuse: a mode or duration not allowed for that mode, periods out of range, a missing or non-discount price, a price on a free trial, or an offer on anything but an auto-renewable subscription."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  introductoryOffer:\n    mode: free-trial\n    duration: ↓P5D"),
            Example.subscription("  introductoryOffer:\n    mode: free-trial\n    duration: P1W\n    price: ↓0.99"),
            Example.subscription("  introductoryOffer:\n    mode: pay-as-you-go\n    periods: ↓13\n    price: 0.99"),
            Example.subscription("  introductoryOffer:\n    mode: pay-up-front\n    duration: P1M\n    price: ↓4.99"),
            Example.product("  ↓introductoryOffer:\n    mode: free-trial\n    duration: P1W"),
        ],
        nonTriggering: [
            Example.subscription("  introductoryOffer:\n    mode: free-trial\n    duration: P3D"),
            Example.subscription("  introductoryOffer:\n    mode: pay-as-you-go\n    periods: 3\n    price: 0.99"),
            Example.subscription("  introductoryOffer:\n    mode: pay-up-front\n    duration: P3M\n    price: 9.99"),
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        if !product.isSubscription, product.misplacedOfferKeys.contains("introductoryOffer") {
            context.report(
                Self.self,
                "introductory offers exist only for auto-renewable subscriptions; "
                    + "move this product into `subscriptionGroups` or remove the offer",
                at: product.path / "introductoryOffer", product: product)
        }
        guard product.isSubscription, let offer = product.introductoryOffer else { return }
        OfferChecks.check(offer, of: product, rule: Self.self, in: context)
    }
}

struct PromotionalOfferRule: ProductRule {
    static let id = "promotional-offer"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect keeps at most 10 promotional offers per subscription, each with its own id, which your server signs offers with."
    static let summary =
        "More than 10 promotional offers on a subscription, an offer id used twice, or an offer that fails the introductory-offer checks."
    static let maximumCount = 10
    static let examples = RuleExamples(
        triggering: [
            Example.subscription(
                "  promotionalOffers:\n    - {offerId: a, mode: free-trial, duration: P1W}\n    - {offerId: ↓a, mode: free-trial, duration: P2W}"),
            Example.subscription("  promotionalOffers:\n    - {offerId: a, mode: pay-as-you-go, periods: 2, price: ↓5.99}"),
            Example.subscription(
                "  ↓promotionalOffers:\n" + (1...11).map { "    - {offerId: o\($0), mode: free-trial, duration: P1W}" }.joined(separator: "\n")),
        ],
        nonTriggering: [
            Example.subscription(
                "  promotionalOffers:\n    - {offerId: a, mode: free-trial, duration: P1W}\n    - {offerId: b, mode: pay-as-you-go, periods: 2, price: 2.99}"
            )
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        if !product.isSubscription, product.misplacedOfferKeys.contains("promotionalOffers") {
            context.report(
                Self.self, "promotional offers exist only for auto-renewable subscriptions",
                at: product.path / "promotionalOffers", product: product)
        }
        guard product.isSubscription, !product.promotionalOffers.isEmpty else { return }
        if product.promotionalOffers.count > Self.maximumCount {
            context.report(
                Self.self,
                "\(product.promotionalOffers.count) promotional offers; App Store Connect allows at most "
                    + "\(Self.maximumCount) per subscription", at: product.path / "promotionalOffers", product: product)
        }
        OfferIdentifiers.checkUnique(product.promotionalOffers, of: product, rule: Self.self, in: context)
        for offer in product.promotionalOffers { OfferChecks.check(offer, of: product, rule: Self.self, in: context) }
    }
}

struct OfferCodeRule: ProductRule {
    static let id = "offer-code"
    static let severity = RuleSeverity.error
    static let rationale = "An offer code must say who may redeem it, and it is an offer like any other."
    static let summary = "An offer code with no eligible customers, or one that fails the introductory-offer checks."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, ↓eligibility: []}"),
            Example.subscription("  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: ↓P4M, eligibility: [new]}"),
        ],
        nonTriggering: [
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new, expired], stackable: true}")
        ])

    func check(_ product: Product, in context: CatalogLintContext) {
        // An in-app purchase's offer codes are `iap-offer-code`'s.
        if product.isSubscription {
            for offer in product.offerCodes {
                if let eligibility = offer.eligibility, eligibility.isEmpty {
                    context.report(
                        Self.self,
                        "offer code \(offer.referenceName.map { "`\($0)`" } ?? "") is for no one; "
                            + "list at least one of new, existing, expired", at: offer.path / "eligibility", product: product)
                }
                OfferChecks.check(offer, of: product, rule: Self.self, in: context)
            }
        }
    }
}

struct WinBackOfferRule: ProductRule {
    static let id = "win-back-offer"
    static let severity = RuleSeverity.error
    static let rationale = "Each win-back offer is found by its id, and it is an offer like any other."
    static let summary = "A win-back offer with an id used twice, or one that fails the introductory-offer checks."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription(
                "  winBackOffers:\n    - {offerId: back, mode: free-trial, duration: P1M}\n    - {offerId: ↓back, mode: free-trial, duration: P1W}")
        ],
        nonTriggering: [Example.subscription("  winBackOffers:\n    - {offerId: back, referenceName: Come back, mode: free-trial, duration: P1M}")])

    func check(_ product: Product, in context: CatalogLintContext) {
        if !product.isSubscription, product.misplacedOfferKeys.contains("winBackOffers") {
            context.report(
                Self.self, "win-back offers exist only for auto-renewable subscriptions",
                at: product.path / "winBackOffers", product: product)
        }
        guard product.isSubscription, !product.winBackOffers.isEmpty else { return }
        OfferIdentifiers.checkUnique(product.winBackOffers, of: product, rule: Self.self, in: context)
        for offer in product.winBackOffers { OfferChecks.check(offer, of: product, rule: Self.self, in: context) }
    }
}

enum OfferIdentifiers {
    static func checkUnique<R: RuleDescribing>(_ offers: [Offer], of product: Product, rule: R.Type, in context: CatalogLintContext) {
        var seen = Set<String>()
        for offer in offers {
            guard let id = offer.offerID else { continue }
            if !seen.insert(id).inserted {
                context.report(
                    rule, "offer id `\(id)` is used twice on this subscription; offer ids must be unique",
                    at: offer.path / "offerId", product: product)
            }
        }
    }
}

struct AppPoliciesRule: CatalogRule {
    static let id = "app-policies"
    static let severity = RuleSeverity.error
    static let rationale = "The policy links are shown to customers in the App Store; App Store Connect takes only its locales and web addresses."
    static let summary = "An app policy with a locale App Store Connect does not accept, listed twice, or a URL that is not http(s)."
    static let examples = RuleExamples(
        triggering: [
            Example.catalog("appPolicies:\n  policies:\n    - {locale: en-US, url: ↓example.com/privacy}\n"),
            Example.catalog("appPolicies:\n  policies:\n    - {locale: ↓english, url: \"https://example.com/privacy\"}\n"),
        ],
        nonTriggering: [
            Example.catalog("appPolicies:\n  eula: Terms apply.\n  policies:\n    - {locale: en-US, url: \"https://example.com/privacy\"}\n")
        ])

    func check(_ context: CatalogLintContext) {
        guard let policies = context.catalog.appPolicies else { return }
        var seen = Set<String>()
        for policy in policies.policies {
            if let locale = policy.locale {
                if let message = AppStoreTexts.localeProblem(locale) { context.report(Self.self, message, at: policy.path / "locale") }
                if !seen.insert(locale).inserted {
                    context.report(Self.self, "a policy for \(locale) is listed twice", at: policy.path / "locale")
                }
            }
            if let url = policy.url, !url.isEmpty, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
                context.report(Self.self, "policy URL `\(url)` must start with https://", at: policy.path / "url")
            }
        }
    }
}
