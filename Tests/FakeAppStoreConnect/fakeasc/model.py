"""The shape of the fake's data: where each resource type lives (for `links.self`) and which child lists are
rendered as relationship data."""

TYPE_PATH = {
    "apps": "/v1/apps", "territories": "/v1/territories", "inAppPurchases": "/v2/inAppPurchases",
    "inAppPurchaseVersions": "/v1/inAppPurchaseVersions", "inAppPurchaseLocalizations": "/v2/inAppPurchaseLocalizations",
    "inAppPurchaseAvailabilities": "/v1/inAppPurchaseAvailabilities",
    "inAppPurchasePriceSchedules": "/v1/inAppPurchasePriceSchedules", "inAppPurchasePrices": "/v1/inAppPurchasePrices",
    "inAppPurchasePricePoints": "/v1/inAppPurchasePricePoints",
    "inAppPurchaseAppStoreReviewScreenshots": "/v1/inAppPurchaseAppStoreReviewScreenshots",
    "subscriptionGroups": "/v1/subscriptionGroups", "subscriptionGroupVersions": "/v1/subscriptionGroupVersions",
    "subscriptionGroupLocalizations": "/v2/subscriptionGroupLocalizations", "subscriptions": "/v1/subscriptions",
    "subscriptionVersions": "/v1/subscriptionVersions", "subscriptionLocalizations": "/v2/subscriptionLocalizations",
    "subscriptionPlanAvailabilities": "/v1/subscriptionPlanAvailabilities", "subscriptionPrices": "/v1/subscriptionPrices",
    "subscriptionPricePoints": "/v1/subscriptionPricePoints",
    "subscriptionIntroductoryOffers": "/v1/subscriptionIntroductoryOffers",
    "subscriptionPromotionalOffers": "/v1/subscriptionPromotionalOffers",
    "subscriptionPromotionalOfferPrices": "/v1/subscriptionPromotionalOfferPrices",
    "subscriptionOfferCodes": "/v1/subscriptionOfferCodes", "subscriptionOfferCodePrices": "/v1/subscriptionOfferCodePrices",
    "winBackOffers": "/v1/winBackOffers", "winBackOfferPrices": "/v1/winBackOfferPrices",
    "subscriptionAppStoreReviewScreenshots": "/v1/subscriptionAppStoreReviewScreenshots",
}

# Child lists rendered as relationship data (so `include=` has something to point at).
RENDERED_KIDS = {
    "inAppPurchaseVersions": ["localizations"], "subscriptionVersions": ["localizations"],
    "subscriptionGroupVersions": ["localizations"], "inAppPurchasePriceSchedules": ["manualPrices"],
    "subscriptionPromotionalOffers": ["prices"], "subscriptionOfferCodes": ["prices"], "winBackOffers": ["prices"],
}

# Relationship names that point at the record's parent.
PARENT_NAMES = ("inAppPurchase", "inAppPurchaseV2", "subscription", "subscriptionGroup", "group", "version")
