import IAPCatalog

struct SubscriptionGroupRule: CatalogRule {
    static let id = "subscription-group"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect refuses an empty group, a repeated reference name and names over its limits."
    static let summary =
        "A group with no subscriptions, a group reference name used twice, or a group name over 75 or custom app name over 30 characters."
    static let examples = RuleExamples(
        triggering: [
            Example.catalog(
                "subscriptionGroups:\n  - ↓referenceName: Empty\n    localizations: [{locale: en-US, name: Empty}]\n    subscriptions: []\n"),
            Example.catalog(
                "subscriptionGroups:\n  - referenceName: Club\n    localizations: [{locale: en-US, name: Club, customAppName: ↓\(String(repeating: "c", count: 31))}]\n    subscriptions: []\n"
            ),
        ],
        nonTriggering: [Example.subscription("")])

    func check(_ context: CatalogLintContext) {
        var names: [String: SubscriptionGroup] = [:]
        for group in context.catalog.subscriptionGroups {
            let label = "group `\(group.referenceName ?? group.path.description)`"
            if group.subscriptions.isEmpty {
                context.report(Self.self, "\(label) has no subscriptions; add one or remove the group", at: group.path)
            }
            if let name = group.referenceName {
                if names[name] != nil {
                    context.report(
                        Self.self, "group reference name `\(name)` is used twice; group names must be unique",
                        at: group.path / "referenceName")
                }
                names[name] = group
            }
            for localization in group.localizations {
                if let name = localization.name, AppStoreTexts.exceeds(name, limit: AppStoreTexts.groupNameLimit) {
                    context.report(
                        Self.self,
                        "the \(localization.locale ?? "") name of \(label) has \(name.count) characters; "
                            + "App Store Connect allows at most \(AppStoreTexts.groupNameLimit)", at: localization.path / "name")
                }
                if let name = localization.customAppName, AppStoreTexts.exceeds(name, limit: AppStoreTexts.customAppNameLimit) {
                    context.report(
                        Self.self,
                        "custom app name has \(name.count) characters; App Store Connect allows at most \(AppStoreTexts.customAppNameLimit)",
                        at: localization.path / "customAppName")
                }
            }
        }
    }
}

/// Subscription renewal periods App Store Connect offers.
enum SubscriptionPeriods {
    static let all = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    /// Length in days (months are 30, years 365), for comparing prices over the same span.
    static func days(_ period: String) -> Double? {
        switch period {
        case "P3D": return 3
        case "P1W": return 7
        case "P2W": return 14
        case "P1M": return 30
        case "P2M": return 60
        case "P3M": return 90
        case "P6M": return 180
        case "P1Y": return 365
        default: return nil
        }
    }
}

struct SubscriptionPeriodRule: ProductRule {
    static let id = "subscription-period"
    static let severity = RuleSeverity.error
    static let rationale = "These are the only durations an auto-renewable subscription can have."
    static let summary = "A subscription's `period` is not one of P1W P1M P2M P3M P6M P1Y."
    static let examples = RuleExamples(
        triggering: [Example.subscription("  period: ↓P2W"), Example.subscription("  period: ↓monthly")],
        nonTriggering: [Example.subscription("  period: P6M")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.isSubscription, let period = product.period, !SubscriptionPeriods.all.contains(period) else { return }
        context.report(
            Self.self, "`\(period)` is not a subscription period; use one of \(SubscriptionPeriods.all.joined(separator: " "))",
            at: product.path / "period", product: product)
    }
}

struct GroupLevelRule: ProductRule {
    static let id = "group-level"
    static let severity = RuleSeverity.error
    static let rationale = "The level orders a group's subscriptions for upgrades and downgrades; every subscription needs one."
    static let summary = "A subscription's `groupLevel` is missing or below 1."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription("  groupLevel: ↓0"),
            Example.catalog(
                """
                subscriptionGroups:
                  - referenceName: Club
                    localizations: [{locale: en-US, name: Club}]
                    subscriptions:
                      - ↓{productId: com.example.app.club, referenceName: Club, period: P1M, price: 4.99}
                """),
        ],
        nonTriggering: [Example.subscription("  groupLevel: 2")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard product.isSubscription else { return }
        guard let level = product.groupLevel else {
            context.report(
                Self.self,
                "subscription \(product.productID.map { "`\($0)`" } ?? "") has no `groupLevel`; "
                    + "1 is the highest level of service in its group", at: product.path, product: product)
            return
        }
        if level < 1 {
            context.report(
                Self.self, "groupLevel \(level) is below 1; levels start at 1 (the highest)",
                at: product.path / "groupLevel", product: product)
        }
    }
}

struct HostedContentTypeRule: ProductRule {
    static let id = "hosted-content-type"
    static let severity = RuleSeverity.error
    static let rationale = "Only non-consumables could carry Apple-hosted content."
    static let summary = "`hostedContent` on anything but a non-consumable."
    static let examples = RuleExamples(
        triggering: [Example.product("  hostedContent: ↓content/com.example.app.one", type: "consumable")],
        nonTriggering: [Example.product("")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard !product.isSubscription, product.hostedContent != nil, product.type != .nonConsumable, let type = product.type else { return }
        context.report(
            Self.self, "hosted content is only for non-consumables; this product is a \(type.rawValue)",
            at: product.path / "hostedContent", product: product)
    }
}
