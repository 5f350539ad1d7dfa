/// Every rule iapkit knows, in the order they run and are documented.
public enum RuleRegistry {
    public static let catalogRules: [any CatalogRule.Type] = [
        SchemaVersionRule.self, ControlCharacterRule.self, BundleIDRule.self, ProductIDFormatRule.self, ProductIDDuplicateRule.self,
        ProductIDRetiredRule.self, ProductIDPrefixRule.self, ReferenceNameRule.self, TypeRule.self, PriceRule.self, PriceFreeRule.self,
        BaseTerritoryRule.self, PricedTerritoriesRule.self,
        TerritoryPriceCodeRule.self, TerritoryPriceDuplicateRule.self, TerritoryPriceAvailabilityRule.self,
        TerritoryPriceDecimalsRule.self, PriceChangeDateRule.self, PriceChangeSubscribersRule.self, OfferPriceChangeRule.self,
        LocalizationMissingRule.self, LocaleRule.self, DisplayNameRule.self, DescriptionRule.self,
        FamilySharingRule.self, ReviewNoteRule.self, ReviewScreenshotRule.self, PromotionalImageRule.self, SubscriptionGroupRule.self,
        SubscriptionPeriodRule.self, GroupLevelRule.self, IntroOfferRule.self, PromotionalOfferRule.self,
        OfferCodeRule.self, InAppPurchaseOfferCodeRule.self, OfferCodeCodesRule.self, WinBackOfferRule.self, WinBackSettingsRule.self, BillingPlanRule.self, AppPoliciesRule.self, BillingGracePeriodRule.self,
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
        ContentFolderRule.self, ContentInfoRule.self, ContentIDMismatchRule.self, ContentVersionRule.self,
        ContentSizeRule.self, ContentExecutableRule.self, ContentLinkRule.self, ContentNameRule.self, ContentJunkRule.self,
        ContentVersionUnchangedRule.self, ContentNewProductRule.self,
    ]

    /// Every rule id with its summary, for reports (SARIF lists them all) and documentation.
    public static var all: [(id: String, summary: String)] {
        [(UnreadableInputRule.id, UnreadableInputRule.summary), (SchemaRule.id, SchemaRule.summary)]
            + catalogRules.map { ($0.id, $0.summary) } + contentRules.map { ($0.id, $0.summary) }
    }
}
