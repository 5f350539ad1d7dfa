"""The shape of the fake's data: where each resource type lives (for `links.self`) and its relationships — what
`include=` can name and where the related records are found."""

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
    "subscriptionOfferCodeOneTimeUseCodes": "/v1/subscriptionOfferCodeOneTimeUseCodes",
    "subscriptionOfferCodeCustomCodes": "/v1/subscriptionOfferCodeCustomCodes",
    "inAppPurchaseOfferCodes": "/v1/inAppPurchaseOfferCodes", "inAppPurchaseOfferPrices": "/v1/inAppPurchaseOfferPrices",
    "inAppPurchaseOfferCodeOneTimeUseCodes": "/v1/inAppPurchaseOfferCodeOneTimeUseCodes",
    "inAppPurchaseOfferCodeCustomCodes": "/v1/inAppPurchaseOfferCodeCustomCodes",
    "winBackOffers": "/v1/winBackOffers", "winBackOfferPrices": "/v1/winBackOfferPrices",
    "subscriptionAppStoreReviewScreenshots": "/v1/subscriptionAppStoreReviewScreenshots",
    "inAppPurchaseImages": "/v1/inAppPurchaseImages", "subscriptionImages": "/v1/subscriptionImages",
    "backgroundAssets": "/v1/backgroundAssets", "backgroundAssetVersions": "/v1/backgroundAssetVersions",
    "backgroundAssetUploadFiles": "/v1/backgroundAssetUploadFiles", "reviewSubmissions": "/v1/reviewSubmissions",
    "reviewSubmissionItems": "/v1/reviewSubmissionItems",
    "subscriptionGracePeriods": "/v1/subscriptionGracePeriods", "promotedPurchases": "/v1/promotedPurchases",
    "appStoreVersions": "/v1/appStoreVersions",
    "backgroundAssetVersionInternalBetaReleases": "/v1/backgroundAssetVersionInternalBetaReleases",
    "backgroundAssetVersionExternalBetaReleases": "/v1/backgroundAssetVersionExternalBetaReleases",
    "backgroundAssetVersionAppStoreReleases": "/v1/backgroundAssetVersionAppStoreReleases",
}

# Types with two forms in API 4.4.1 (v1 and v2 promotional images): the operation picks the form an answer shows.
FORMED_TYPES = ("inAppPurchaseImages", "subscriptionImages")

# Child lists the control API's state shows as linkage (an API answer shows them only when include= names them).
RENDERED_KIDS = {
    "inAppPurchaseVersions": ["localizations"], "subscriptionVersions": ["localizations"],
    "subscriptionGroupVersions": ["localizations"], "inAppPurchasePriceSchedules": ["manualPrices"],
    "subscriptionPromotionalOffers": ["prices"], "subscriptionOfferCodes": ["prices"], "winBackOffers": ["prices"],
}


class Rel:
    """A relationship: `many` or not, and where its records come from:
    ("rel",) the record's stored linkage; ("kids", list) a child list; ("slot", name) a to-one child;
    ("parent",) the record's parent; ("latest", list) that list of the record's latest version;
    ("lookup", method) the record the service's method finds for it (a relationship stored on the other side);
    ("none",) a relationship App Store Connect has that the fake doesn't model (always empty)."""
    __slots__ = ("many", "source")

    def __init__(self, many, *source):
        self.many, self.source = many, source


def one(*source):
    return Rel(False, *source)


def many(*source):
    return Rel(True, *source)


STORED_ONE, STORED_MANY, PARENT, NONE_ONE, NONE_MANY = one("rel"), many("rel"), one("parent"), one("none"), many("none")
PROMOTED = one("lookup", "promoted_purchase_of")  # the promoted purchase names its product
IMAGES = many("slot", "image")  # a product's promotional image (at most one)
VERSION_IMAGE = one("lookup", "version_image")  # the product's image, when it was made for this version
PRICED = {"territory": STORED_ONE, "subscriptionPricePoint": STORED_ONE}

# Relationships the fake keeps to walk its own records but never shows: Apple's document does not give the type them.
UNSHOWN_RELATIONSHIPS = {"inAppPurchasePriceSchedules": {"inAppPurchase"}}

RELATIONSHIPS = {
    "apps": {"inAppPurchasesV2": many("kids", "inAppPurchases"), "subscriptionGroups": many("kids", "subscriptionGroups"),
             "subscriptionGracePeriod": one("slot", "gracePeriod"), "promotedPurchases": many("kids", "promotedPurchases"),
             "appStoreVersions": many("kids", "appStoreVersions")},
    "appStoreVersions": {
        "app": PARENT, "appStoreVersionLocalizations": NONE_MANY, "build": NONE_ONE,
        "appStoreVersionPhasedRelease": NONE_ONE, "gameCenterAppVersion": NONE_ONE, "routingAppCoverage": NONE_ONE,
        "appStoreReviewDetail": NONE_ONE, "appStoreVersionSubmission": NONE_ONE, "appClipDefaultExperience": NONE_ONE,
        "appStoreVersionExperiments": NONE_MANY, "appStoreVersionExperimentsV2": NONE_MANY,
        "alternativeDistributionPackage": NONE_ONE},
    "inAppPurchases": {
        "versions": many("kids", "versions"), "inAppPurchaseLocalizations": many("latest", "localizations"),
        "inAppPurchaseAvailability": one("slot", "availability"), "iapPriceSchedule": one("slot", "priceSchedule"),
        "appStoreReviewScreenshot": one("slot", "screenshot"), "content": NONE_ONE, "promotedPurchase": PROMOTED,
        "images": IMAGES, "offerCodes": many("kids", "offerCodes")},
    "inAppPurchaseVersions": {"inAppPurchase": PARENT, "localizations": many("kids", "localizations"),
                              "image": VERSION_IMAGE, "images": many("lookup", "version_image")},
    "inAppPurchaseLocalizations": {"version": PARENT},
    "inAppPurchaseAvailabilities": {"availableTerritories": STORED_MANY},
    "inAppPurchasePriceSchedules": {"inAppPurchase": PARENT, "baseTerritory": STORED_ONE,
                                    "manualPrices": many("kids", "manualPrices"), "automaticPrices": NONE_MANY},
    "inAppPurchasePrices": {"inAppPurchasePricePoint": STORED_ONE, "territory": STORED_ONE},
    "inAppPurchasePricePoints": {"territory": STORED_ONE},
    "inAppPurchaseAppStoreReviewScreenshots": {"inAppPurchaseV2": PARENT},
    "subscriptionGroups": {"subscriptions": many("kids", "subscriptions"), "versions": many("kids", "versions"),
                           "subscriptionGroupLocalizations": many("latest", "localizations")},
    "subscriptionGroupVersions": {"subscriptionGroup": PARENT, "localizations": many("kids", "localizations")},
    "subscriptionGroupLocalizations": {"version": PARENT},
    "subscriptions": {
        "group": STORED_ONE, "versions": many("kids", "versions"),
        "subscriptionLocalizations": many("latest", "localizations"),
        "appStoreReviewScreenshot": one("slot", "screenshot"), "introductoryOffers": many("kids", "introductoryOffers"),
        "promotionalOffers": many("kids", "promotionalOffers"), "offerCodes": many("kids", "offerCodes"),
        "prices": many("kids", "prices"), "winBackOffers": many("kids", "winBackOffers"),
        "planAvailabilities": many("kids", "planAvailabilities"), "promotedPurchase": PROMOTED,
        "subscriptionAvailability": NONE_ONE, "images": IMAGES},
    "subscriptionVersions": {"subscription": PARENT, "localizations": many("kids", "localizations"),
                             "image": VERSION_IMAGE, "images": many("lookup", "version_image")},
    "subscriptionLocalizations": {"version": PARENT},
    "subscriptionPlanAvailabilities": {"availableTerritories": STORED_MANY},
    "subscriptionPrices": PRICED,
    "subscriptionPricePoints": {"territory": STORED_ONE},
    "subscriptionIntroductoryOffers": dict(PRICED, subscription=PARENT),
    "subscriptionPromotionalOffers": {"subscription": PARENT, "prices": many("kids", "prices")},
    "subscriptionPromotionalOfferPrices": PRICED,
    "subscriptionOfferCodes": {"subscription": PARENT, "prices": many("kids", "prices"),
                               "oneTimeUseCodes": many("kids", "oneTimeUseCodes"),
                               "customCodes": many("kids", "customCodes")},
    # Their offer code is a stored linkage, as the create names it (answered when include= names it).
    "subscriptionOfferCodeOneTimeUseCodes": {"offerCode": STORED_ONE},
    "subscriptionOfferCodeCustomCodes": {"offerCode": STORED_ONE},
    "subscriptionOfferCodePrices": PRICED,
    # In-app purchases' offer codes: no relationship back to the purchase, and their codes only the actors who made
    # and deactivated them (App Store Connect's people, which the fake doesn't model).
    "inAppPurchaseOfferCodes": {"prices": many("kids", "prices"), "oneTimeUseCodes": many("kids", "oneTimeUseCodes"),
                                "customCodes": many("kids", "customCodes")},
    "inAppPurchaseOfferPrices": {"territory": STORED_ONE, "pricePoint": STORED_ONE},
    "inAppPurchaseOfferCodeOneTimeUseCodes": {"createdByActor": NONE_ONE, "deactivatedByActor": NONE_ONE},
    "inAppPurchaseOfferCodeCustomCodes": {"createdByActor": NONE_ONE, "deactivatedByActor": NONE_ONE},
    "winBackOffers": {"prices": many("kids", "prices")},
    "winBackOfferPrices": PRICED,
    "subscriptionAppStoreReviewScreenshots": {"subscription": PARENT},
    # The product, a stored linkage of the v1 form (answered when include= names it).
    "inAppPurchaseImages": {"inAppPurchase": STORED_ONE}, "subscriptionImages": {"subscription": STORED_ONE},
    # A pack's versions on the App Store and in internal testing: the newest with a live release of that kind.
    "backgroundAssets": {"app": PARENT, "versions": many("kids", "versions"),
                         "appStoreVersion": one("lookup", "pack_app_store_version"),
                         "internalBetaVersion": one("lookup", "pack_internal_beta_version"),
                         "externalBetaVersion": NONE_ONE},
    "backgroundAssetVersions": {"backgroundAsset": PARENT, "assetFile": STORED_ONE, "manifestFile": STORED_ONE,
                                "internalBetaRelease": STORED_ONE, "externalBetaRelease": NONE_ONE,
                                "appStoreRelease": STORED_ONE},
    "backgroundAssetVersionInternalBetaReleases": {"backgroundAssetVersion": PARENT},
    "backgroundAssetVersionExternalBetaReleases": {"backgroundAssetVersion": PARENT},
    "backgroundAssetVersionAppStoreReleases": {"backgroundAssetVersion": PARENT},
    "reviewSubmissions": {"app": PARENT, "items": many("kids", "items")},
    "promotedPurchases": {"inAppPurchaseV2": STORED_ONE, "subscription": STORED_ONE},
}

# include= on a to-many relationship: linkages shown when the request has no limit[...] for it, and the most.
INCLUDED_DEFAULT_LIMIT = 10
INCLUDED_MAX_LIMIT = 50
