/// Every rule iapkit knows, in the order they run and are documented.
public enum RuleRegistry {
    public static let catalogRules: [any CatalogRule.Type] =
        [
            SchemaVersionRule.self, ControlCharacterRule.self, BundleIDRule.self, ProductIDFormatRule.self, ProductIDDuplicateRule.self,
            ProductIDRetiredRule.self, ProductIDPrefixRule.self, ReferenceNameRule.self, TypeRule.self, PriceRule.self, PriceFreeRule.self,
            BaseTerritoryRule.self, PricedTerritoriesRule.self,
            TerritoryPriceCodeRule.self, TerritoryPriceDuplicateRule.self, TerritoryPriceAvailabilityRule.self,
            TerritoryPriceDecimalsRule.self, TerritoryPriceEqualizationRule.self, PriceChangeDateRule.self, SaleRule.self,
            PriceChangeSubscribersRule.self,
            OfferPriceChangeRule.self,
            LocalizationMissingRule.self, LocaleRule.self, DisplayNameRule.self, DescriptionRule.self,
            FamilySharingRule.self, MultiSeatRule.self, ReviewNoteRule.self, ReviewScreenshotRule.self, PromotionalImageRule.self,
            SubscriptionGroupRule.self,
            SubscriptionPeriodRule.self, GroupLevelRule.self, IntroOfferRule.self, PromotionalOfferRule.self,
            OfferCodeRule.self, InAppPurchaseOfferCodeRule.self, OfferCodeCodesRule.self, WinBackOfferRule.self, WinBackSettingsRule.self,
            BillingPlanRule.self, AppPoliciesRule.self, BillingGracePeriodRule.self,
            PromotedPurchaseRule.self, HostedContentTypeRule.self,
        ] + assetPackRules + [DisableCommentRule.self]

    /// The rules over the catalog's asset packs (run with the catalog rules, after them).
    public static let assetPackRules: [any CatalogRule.Type] = [
        AssetPackIDRule.self, AssetPackCountRule.self, AssetPackFilesRule.self, AssetPackOverlapRule.self,
        AssetPackUnlockRule.self, AssetPackPolicyRule.self, AssetPackReleaseRule.self, AssetPackPlatformRule.self, AssetPackSizeRule.self,
        AssetPackContentRule.self,
    ]

    /// The rules whose errors make exported JSON wrong (with the loader's `schema` findings), or that no exported
    /// XML (XLIFF, property lists) can carry.
    public static let structuralRules: [any CatalogRule.Type] = [
        SchemaVersionRule.self, ControlCharacterRule.self, TypeRule.self, ProductIDFormatRule.self, ProductIDDuplicateRule.self,
    ]

    public static let contentRules: [any ContentRule.Type] = [
        ContentFolderRule.self, ContentInfoRule.self, ContentIDMismatchRule.self, ContentFolderNameRule.self, ContentVersionRule.self,
        ContentSizeRule.self, ContentExecutableRule.self, ContentLinkRule.self, ContentNameRule.self, ContentJunkRule.self,
        ContentVersionUnchangedRule.self, ContentVersionLowerRule.self, ContentNewProductRule.self,
    ]

    /// Every rule, in the order they are documented: reading the input first, then the catalog, then content.
    public static var described: [any RuleDescribing.Type] {
        [UnreadableInputRule.self, SchemaRule.self] + catalogRules.map { $0 as any RuleDescribing.Type }
            + contentRules.map { $0 as any RuleDescribing.Type }
    }

    /// Every rule id with its summary, for reports (SARIF lists them all).
    public static var all: [(id: String, summary: String)] { described.map { ($0.id, $0.summary) } }

    /// The rule with this id, or nil.
    public static func rule(_ id: String) -> (any RuleDescribing.Type)? { described.first { $0.id == id } }

    /// Where a rule is documented: its section of docs/lint-rules.md.
    public static func documentationURL(_ id: String) -> String {
        "https://github.com/iapkit/iapkit/blob/main/docs/lint-rules.md#\(id)"
    }
}
