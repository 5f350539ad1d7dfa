"""The fake's own request contract, used when Apple's OpenAPI document is not available.

Written by hand from the project's IAP facts (enums, required attributes, relationship targets).
It is deliberately strict: every attribute and relationship a request may carry is listed, and
anything else is refused the way App Store Connect refuses unknown attributes.
"""

IAP_TYPES = ["CONSUMABLE", "NON_CONSUMABLE", "NON_RENEWING_SUBSCRIPTION"]
OFFER_DURATIONS = ["THREE_DAYS", "ONE_WEEK", "TWO_WEEKS", "ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS",
                   "SIX_MONTHS", "ONE_YEAR"]
OFFER_MODES = ["PAY_AS_YOU_GO", "PAY_UP_FRONT", "FREE_TRIAL"]
PLAN_TYPES = ["MONTHLY", "UPFRONT"]
SUBSCRIPTION_PERIODS = ["ONE_WEEK", "ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"]
CUSTOMER_ELIGIBILITIES = ["NEW", "EXISTING", "EXPIRED"]
IAP_CUSTOMER_ELIGIBILITIES = ["NON_SPENDER", "ACTIVE_SPENDER", "CHURNED_SPENDER"]
OFFER_ELIGIBILITIES = ["STACK_WITH_INTRO_OFFERS", "REPLACE_INTRO_OFFERS"]
PLATFORMS = ["IOS", "MAC_OS", "TV_OS", "VISION_OS"]
OFFER_CODE_ENVIRONMENTS = ["PRODUCTION", "SANDBOX"]
GRACE_DURATIONS = ["THREE_DAYS", "SIXTEEN_DAYS", "TWENTY_EIGHT_DAYS"]
GRACE_RENEWAL_TYPES = ["ALL_RENEWALS", "PAID_TO_PAID_ONLY"]
# API 4.5: a subscription's multiseat purchases for organizations (Subscription, SubscriptionUpdateRequest; not
# SubscriptionCreateRequest) and the markets they are offered in.
MULTI_SEAT_STATUSES = ["ENABLED", "DISABLED"]
MARKETS = ["APPLE_SCHOOL", "APP_STORE", "APPLE_BUSINESS"]
VERSION_STATES = ["PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "ACCEPTED",
                  "APPROVED", "REPLACED_WITH_NEW_VERSION", "REJECTED", "DEVELOPER_REJECTED"]

# Type specs: "string", "boolean", "integer", "date", a list (enum), ("array", spec),
# ("object", {key: spec}), ("null", spec) for a nullable value.
S, B, I, D = "string", "boolean", "integer", "date"


def N(spec):
    return ("null", spec)


INT_RANGE = ("object", {"minimum": I, "maximum": I})


def body(type_, attrs=None, required=(), rels=None, required_rels=(), update=False, included=None,
         included_required=None):
    """rels: name -> (target type, "one" | "many"); included: type -> (attrs, rels); included_required: type ->
    required attributes of that included type."""
    return {"type": type_, "attrs": attrs, "required": list(required), "rels": rels,
            "required_rels": list(required_rels), "update": update, "included": included or {},
            "included_required": included_required or {}}


def linkages(type_):
    """A body of resource linkages, `{"data": [{"type", "id"}]}` (to-many relationship requests)."""
    return {"linkages": type_, "included": {}}


PRICE_REL = {"territory": ("territories", "one"), "subscriptionPricePoint": ("subscriptionPricePoints", "one")}


def offer_code_bodies(owner):
    """An offer code's codes, the same requests for subscriptions' and in-app purchases' (`owner` the type prefix):
    batches of one-time use codes, custom codes, and deactivating the offer code and its codes."""
    offer = owner + "OfferCodes"
    batches, custom = owner + "OfferCodeOneTimeUseCodes", owner + "OfferCodeCustomCodes"
    return {
        offer + "_updateInstance": body(offer, {"active": N(B)}, update=True),
        batches + "_createInstance": body(
            batches, {"numberOfCodes": I, "expirationDate": D, "environment": N(OFFER_CODE_ENVIRONMENTS)},
            ["numberOfCodes", "expirationDate"], {"offerCode": (offer, "one")}, ["offerCode"]),
        batches + "_updateInstance": body(batches, {"active": N(B)}, update=True),
        custom + "_createInstance": body(
            custom, {"customCode": S, "numberOfCodes": I, "expirationDate": N(D)}, ["numberOfCodes", "customCode"],
            {"offerCode": (offer, "one")}, ["offerCode"]),
        custom + "_updateInstance": body(custom, {"active": N(B)}, update=True)}


BODIES = {
    "inAppPurchasesV2_createInstance": body(
        "inAppPurchases",
        {"name": S, "productId": S, "inAppPurchaseType": IAP_TYPES, "reviewNote": N(S), "familySharable": N(B)},
        ["productId", "name", "inAppPurchaseType"], {"app": ("apps", "one")}, ["app"]),
    "inAppPurchasesV2_updateInstance": body(
        "inAppPurchases", {"name": N(S), "reviewNote": N(S), "familySharable": N(B)}, update=True),
    "inAppPurchaseVersions_createInstance": body(
        "inAppPurchaseVersions", None, (), {"inAppPurchase": ("inAppPurchases", "one")}, ["inAppPurchase"]),
    "inAppPurchaseLocalizationsV2_createInstance": body(
        "inAppPurchaseLocalizations", {"name": S, "locale": S, "description": N(S)}, ["name", "locale"],
        {"version": ("inAppPurchaseVersions", "one")}, ["version"]),
    "inAppPurchaseLocalizationsV2_updateInstance": body(
        "inAppPurchaseLocalizations", {"name": N(S), "description": N(S)}, update=True),
    "inAppPurchaseAvailabilities_createInstance": body(
        "inAppPurchaseAvailabilities", {"availableInNewTerritories": B}, ["availableInNewTerritories"],
        {"inAppPurchase": ("inAppPurchases", "one"), "availableTerritories": ("territories", "many")},
        ["inAppPurchase", "availableTerritories"]),
    "inAppPurchasePriceSchedules_createInstance": body(
        "inAppPurchasePriceSchedules", None, (),
        {"inAppPurchase": ("inAppPurchases", "one"), "baseTerritory": ("territories", "one"),
         "manualPrices": ("inAppPurchasePrices", "many")},
        ["inAppPurchase", "manualPrices", "baseTerritory"],
        included={"inAppPurchasePrices": ({"startDate": N(D), "endDate": N(D)},
                                          {"inAppPurchaseV2": ("inAppPurchases", "one"),
                                           "inAppPurchasePricePoint": ("inAppPurchasePricePoints", "one")}),
                  "territories": (None, None)}),
    "inAppPurchaseAppStoreReviewScreenshots_createInstance": body(
        "inAppPurchaseAppStoreReviewScreenshots", {"fileSize": I, "fileName": S}, ["fileName", "fileSize"],
        {"inAppPurchaseV2": ("inAppPurchases", "one")}, ["inAppPurchaseV2"]),
    "inAppPurchaseAppStoreReviewScreenshots_updateInstance": body(
        "inAppPurchaseAppStoreReviewScreenshots", {"sourceFileChecksum": N(S), "uploaded": N(B)}, update=True),
    "subscriptionGroups_createInstance": body(
        "subscriptionGroups", {"referenceName": S}, ["referenceName"], {"app": ("apps", "one")}, ["app"]),
    "subscriptionGroups_updateInstance": body("subscriptionGroups", {"referenceName": N(S)}, update=True),
    "subscriptionGroupVersions_createInstance": body(
        "subscriptionGroupVersions", None, (), {"subscriptionGroup": ("subscriptionGroups", "one")},
        ["subscriptionGroup"]),
    "subscriptionGroupLocalizationsV2_createInstance": body(
        "subscriptionGroupLocalizations", {"name": S, "customAppName": N(S), "locale": S}, ["name", "locale"],
        {"version": ("subscriptionGroupVersions", "one")}, ["version"]),
    "subscriptionGroupLocalizationsV2_updateInstance": body(
        "subscriptionGroupLocalizations", {"name": N(S), "customAppName": N(S)}, update=True),
    "subscriptions_createInstance": body(
        "subscriptions",
        {"name": S, "productId": S, "familySharable": N(B), "subscriptionPeriod": N(SUBSCRIPTION_PERIODS),
         "reviewNote": N(S), "groupLevel": N(I)},
        ["productId", "name"], {"group": ("subscriptionGroups", "one")}, ["group"]),
    "subscriptions_updateInstance": body(
        "subscriptions",
        {"name": N(S), "familySharable": N(B), "subscriptionPeriod": N(SUBSCRIPTION_PERIODS), "reviewNote": N(S),
         "groupLevel": N(I), "multiSeatStatus": N(MULTI_SEAT_STATUSES), "marketSettings": N(("array", MARKETS))},
        rels={"introductoryOffers": ("subscriptionIntroductoryOffers", "many"),
              "promotionalOffers": ("subscriptionPromotionalOffers", "many"),
              "prices": ("subscriptionPrices", "many")}, update=True,
        # the inline creates (SubscriptionPriceInlineCreate, ...IntroductoryOfferInlineCreate, ...PromotionalOffer...)
        included={"subscriptionPrices": ({"startDate": N(D), "preserveCurrentPrice": N(B), "planType": N(PLAN_TYPES)},
                                         {"subscription": ("subscriptions", "one"), **PRICE_REL}),
                  "subscriptionIntroductoryOffers": (
                      {"startDate": N(D), "endDate": N(D), "duration": OFFER_DURATIONS, "offerMode": OFFER_MODES,
                       "numberOfPeriods": I, "targetSubscriptionPlanType": N(PLAN_TYPES)},
                      {"subscription": ("subscriptions", "one"), **PRICE_REL}),
                  "subscriptionPromotionalOffers": (
                      {"duration": OFFER_DURATIONS, "name": S, "numberOfPeriods": I, "offerCode": S,
                       "offerMode": OFFER_MODES, "targetSubscriptionPlanType": N(PLAN_TYPES)},
                      {"subscription": ("subscriptions", "one"),
                       "prices": ("subscriptionPromotionalOfferPrices", "many")})},
        included_required={"subscriptionIntroductoryOffers": ["duration", "numberOfPeriods", "offerMode"],
                           "subscriptionPromotionalOffers": ["duration", "offerCode", "name", "numberOfPeriods",
                                                             "offerMode"]}),
    "subscriptions_introductoryOffers_deleteToManyRelationship": linkages("subscriptionIntroductoryOffers"),
    "subscriptionVersions_createInstance": body(
        "subscriptionVersions", None, (), {"subscription": ("subscriptions", "one")}, ["subscription"]),
    "subscriptionLocalizationsV2_createInstance": body(
        "subscriptionLocalizations", {"name": S, "locale": S, "description": N(S)}, ["name", "locale"],
        {"version": ("subscriptionVersions", "one")}, ["version"]),
    "subscriptionLocalizationsV2_updateInstance": body(
        "subscriptionLocalizations", {"name": N(S), "description": N(S)}, update=True),
    "subscriptionPlanAvailabilities_createInstance": body(
        "subscriptionPlanAvailabilities", {"availableInNewTerritories": N(B), "planType": PLAN_TYPES}, ["planType"],
        {"availableTerritories": ("territories", "many"), "subscription": ("subscriptions", "one")},
        ["availableTerritories", "subscription"]),
    "subscriptionPlanAvailabilities_updateInstance": body(
        "subscriptionPlanAvailabilities", {"availableInNewTerritories": N(B)},
        rels={"availableTerritories": ("territories", "many")}, update=True),
    "subscriptionPrices_createInstance": body(
        "subscriptionPrices", {"startDate": N(D), "preserveCurrentPrice": N(B), "planType": PLAN_TYPES}, (),
        {"subscription": ("subscriptions", "one"), **PRICE_REL}, ["subscription", "subscriptionPricePoint"]),
    "subscriptionIntroductoryOffers_createInstance": body(
        "subscriptionIntroductoryOffers",
        {"startDate": N(D), "endDate": N(D), "duration": OFFER_DURATIONS, "offerMode": OFFER_MODES,
         "numberOfPeriods": I, "targetSubscriptionPlanType": PLAN_TYPES},
        ["duration", "numberOfPeriods", "offerMode"], {"subscription": ("subscriptions", "one"), **PRICE_REL},
        ["subscription"]),
    "subscriptionPromotionalOffers_createInstance": body(
        "subscriptionPromotionalOffers",
        {"duration": OFFER_DURATIONS, "name": S, "numberOfPeriods": I, "offerCode": S, "offerMode": OFFER_MODES,
         "targetSubscriptionPlanType": PLAN_TYPES},
        ["duration", "offerCode", "name", "numberOfPeriods", "offerMode"],
        {"subscription": ("subscriptions", "one"), "prices": ("subscriptionPromotionalOfferPrices", "many")},
        ["subscription", "prices"], included={"subscriptionPromotionalOfferPrices": (None, PRICE_REL)}),
    "subscriptionPromotionalOffers_updateInstance": body(
        "subscriptionPromotionalOffers", None, rels={"prices": ("subscriptionPromotionalOfferPrices", "many")},
        update=True, included={"subscriptionPromotionalOfferPrices": (None, PRICE_REL)}),
    "subscriptionOfferCodes_createInstance": body(
        "subscriptionOfferCodes",
        {"name": S, "customerEligibilities": ("array", CUSTOMER_ELIGIBILITIES), "offerEligibility": OFFER_ELIGIBILITIES,
         "duration": OFFER_DURATIONS, "offerMode": OFFER_MODES, "numberOfPeriods": I, "autoRenewEnabled": N(B),
         "targetSubscriptionPlanType": PLAN_TYPES},
        ["duration", "offerEligibility", "name", "numberOfPeriods", "offerMode", "customerEligibilities"],
        {"subscription": ("subscriptions", "one"), "prices": ("subscriptionOfferCodePrices", "many")},
        ["subscription", "prices"], included={"subscriptionOfferCodePrices": (None, PRICE_REL)}),
    **offer_code_bodies("subscription"),
    # In-app purchases' offer codes: priced per territory at the purchase's own points, and their codes.
    "inAppPurchaseOfferCodes_createInstance": body(
        "inAppPurchaseOfferCodes", {"name": S, "customerEligibilities": ("array", IAP_CUSTOMER_ELIGIBILITIES)},
        ["name", "customerEligibilities"],
        {"inAppPurchase": ("inAppPurchases", "one"), "prices": ("inAppPurchaseOfferPrices", "many")},
        ["inAppPurchase", "prices"],
        included={"inAppPurchaseOfferPrices": (None, {"territory": ("territories", "one"),
                                                      "pricePoint": ("inAppPurchasePricePoints", "one")})}),
    **offer_code_bodies("inAppPurchase"),
    "winBackOffers_createInstance": body(
        "winBackOffers",
        {"referenceName": S, "offerId": S, "duration": OFFER_DURATIONS, "offerMode": OFFER_MODES, "periodCount": I,
         "customerEligibilityPaidSubscriptionDurationInMonths": I,
         "customerEligibilityTimeSinceLastSubscribedInMonths": INT_RANGE,
         "customerEligibilityWaitBetweenOffersInMonths": N(I), "startDate": D, "endDate": N(D),
         "priority": ["HIGH", "NORMAL"], "promotionIntent": N(["NOT_PROMOTED", "USE_AUTO_GENERATED_ASSETS"]),
         "targetSubscriptionPlanType": PLAN_TYPES},
        ["duration", "customerEligibilityTimeSinceLastSubscribedInMonths", "periodCount", "offerId", "offerMode",
         "priority", "customerEligibilityPaidSubscriptionDurationInMonths", "startDate", "referenceName"],
        {"subscription": ("subscriptions", "one"), "prices": ("winBackOfferPrices", "many")},
        ["subscription", "prices"], included={"winBackOfferPrices": (None, PRICE_REL)}),
    "winBackOffers_updateInstance": body(
        "winBackOffers",
        {"customerEligibilityPaidSubscriptionDurationInMonths": N(I),
         "customerEligibilityTimeSinceLastSubscribedInMonths": N(INT_RANGE),
         "customerEligibilityWaitBetweenOffersInMonths": N(I), "startDate": N(D), "endDate": N(D),
         "priority": N(["HIGH", "NORMAL"]), "promotionIntent": N(["NOT_PROMOTED", "USE_AUTO_GENERATED_ASSETS"])},
        update=True),
    "subscriptionAppStoreReviewScreenshots_createInstance": body(
        "subscriptionAppStoreReviewScreenshots", {"fileSize": I, "fileName": S}, ["fileName", "fileSize"],
        {"subscription": ("subscriptions", "one")}, ["subscription"]),
    "subscriptionAppStoreReviewScreenshots_updateInstance": body(
        "subscriptionAppStoreReviewScreenshots", {"sourceFileChecksum": N(S), "uploaded": N(B)}, update=True),
    # Promotional images: the v1 form names the product and commits with a checksum, the v2 form names a version.
    "inAppPurchaseImages_createInstance": body(
        "inAppPurchaseImages", {"fileSize": I, "fileName": S}, ["fileName", "fileSize"],
        {"inAppPurchase": ("inAppPurchases", "one")}, ["inAppPurchase"]),
    "inAppPurchaseImages_updateInstance": body(
        "inAppPurchaseImages", {"sourceFileChecksum": N(S), "uploaded": N(B)}, update=True),
    "inAppPurchaseImagesV2_createInstance": body(
        "inAppPurchaseImages", {"fileSize": I, "fileName": S}, ["fileName", "fileSize"],
        {"version": ("inAppPurchaseVersions", "one")}, ["version"]),
    "inAppPurchaseImagesV2_updateInstance": body("inAppPurchaseImages", {"uploaded": N(B)}, update=True),
    "subscriptionImages_createInstance": body(
        "subscriptionImages", {"fileSize": I, "fileName": S}, ["fileName", "fileSize"],
        {"subscription": ("subscriptions", "one")}, ["subscription"]),
    "subscriptionImages_updateInstance": body(
        "subscriptionImages", {"sourceFileChecksum": N(S), "uploaded": N(B)}, update=True),
    "subscriptionImagesV2_createInstance": body(
        "subscriptionImages", {"fileSize": I, "fileName": S}, ["fileName", "fileSize"],
        {"version": ("subscriptionVersions", "one")}, ["version"]),
    "subscriptionImagesV2_updateInstance": body("subscriptionImages", {"uploaded": N(B)}, update=True),
    # The app's Billing Grace Period and its promoted purchases.
    "subscriptionGracePeriods_updateInstance": body(
        "subscriptionGracePeriods",
        {"optIn": N(B), "sandboxOptIn": N(B), "duration": N(GRACE_DURATIONS), "renewalType": N(GRACE_RENEWAL_TYPES)},
        update=True),
    "promotedPurchases_createInstance": body(
        "promotedPurchases", {"visibleForAllUsers": B, "enabled": N(B)}, ["visibleForAllUsers"],
        {"app": ("apps", "one"), "inAppPurchaseV2": ("inAppPurchases", "one"), "subscription": ("subscriptions", "one")},
        ["app"]),
    "promotedPurchases_updateInstance": body(
        "promotedPurchases", {"visibleForAllUsers": N(B), "enabled": N(B)}, update=True),
    "apps_promotedPurchases_replaceToManyRelationship": linkages("promotedPurchases"),
    # Background assets (asset packs) and review submissions.
    "backgroundAssets_createInstance": body(
        "backgroundAssets", {"assetPackIdentifier": S}, ["assetPackIdentifier"], {"app": ("apps", "one")}, ["app"]),
    "backgroundAssetVersions_createInstance": body(
        "backgroundAssetVersions", None, (), {"backgroundAsset": ("backgroundAssets", "one")}, ["backgroundAsset"]),
    "backgroundAssetUploadFiles_createInstance": body(
        "backgroundAssetUploadFiles", {"assetType": ["ASSET", "MANIFEST"], "fileName": S, "fileSize": I},
        ["fileName", "fileSize", "assetType"], {"backgroundAssetVersion": ("backgroundAssetVersions", "one")},
        ["backgroundAssetVersion"]),
    "backgroundAssetUploadFiles_updateInstance": body(
        "backgroundAssetUploadFiles",
        {"sourceFileChecksum": N(S), "uploaded": N(B),
         "sourceFileChecksums": N(("object", {"file": ("object", {"hash": S, "algorithm": ["MD5", "SHA_256"]}),
                                              "composite": ("object", {"hash": S, "algorithm": ["MD5"]})}))},
        update=True),
    "reviewSubmissions_createInstance": body(
        "reviewSubmissions", {"platform": N(PLATFORMS)}, (), {"app": ("apps", "one")}, ["app"]),
    "reviewSubmissions_updateInstance": body(
        "reviewSubmissions", {"platform": N(PLATFORMS), "submitted": N(B), "canceled": N(B)}, update=True),
    "reviewSubmissionItems_createInstance": body(
        "reviewSubmissionItems", None, (),
        {"reviewSubmission": ("reviewSubmissions", "one"), "appStoreVersion": ("appStoreVersions", "one"),
         "backgroundAssetVersion": ("backgroundAssetVersions", "one"),
         "inAppPurchaseVersion": ("inAppPurchaseVersions", "one"), "subscriptionVersion": ("subscriptionVersions", "one"),
         "subscriptionGroupVersion": ("subscriptionGroupVersions", "one")},
        ["reviewSubmission"]),
}

# Query parameters each read accepts besides limit, cursor and fields[...]: filters (name -> allowed values or None
# for free text) and include values; as Apple's document lists them for these operations.
VERSION_FILTER = {"state": VERSION_STATES}
SUBSCRIPTION_STATES = ["MISSING_METADATA", "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "DEVELOPER_ACTION_NEEDED",
                       "PENDING_BINARY_APPROVAL", "APPROVED", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE",
                       "REJECTED"]
BACKGROUND_ASSET_VERSION_STATES = ["AWAITING_UPLOAD", "PROCESSING", "FAILED", "COMPLETE"]
IAP_STATES = SUBSCRIPTION_STATES[:1] + ["WAITING_FOR_UPLOAD", "PROCESSING_CONTENT"] + SUBSCRIPTION_STATES[1:]
PROMOTED_INCLUDES = ["inAppPurchaseV2", "subscription"]
ACTORS = ["createdByActor", "deactivatedByActor"]  # who made and deactivated an in-app purchase offer code's codes
APP_STORE_VERSION_STATES = [
    "ACCEPTED", "DEVELOPER_REMOVED_FROM_SALE", "DEVELOPER_REJECTED", "IN_REVIEW", "INVALID_BINARY", "METADATA_REJECTED",
    "PENDING_APPLE_RELEASE", "PENDING_CONTRACT", "PENDING_DEVELOPER_RELEASE", "PREPARE_FOR_SUBMISSION",
    "PREORDER_READY_FOR_SALE", "PROCESSING_FOR_APP_STORE", "READY_FOR_REVIEW", "READY_FOR_SALE", "REJECTED",
    "REMOVED_FROM_SALE", "WAITING_FOR_EXPORT_COMPLIANCE", "WAITING_FOR_REVIEW", "REPLACED_WITH_NEW_VERSION",
    "NOT_APPLICABLE"]
APP_VERSION_STATES = [
    "ACCEPTED", "DEVELOPER_REJECTED", "IN_REVIEW", "INVALID_BINARY", "METADATA_REJECTED", "PENDING_APPLE_RELEASE",
    "PENDING_DEVELOPER_RELEASE", "PREPARE_FOR_SUBMISSION", "PROCESSING_FOR_DISTRIBUTION", "READY_FOR_DISTRIBUTION",
    "READY_FOR_REVIEW", "REJECTED", "REPLACED_WITH_NEW_VERSION", "WAITING_FOR_EXPORT_COMPLIANCE", "WAITING_FOR_REVIEW"]
APP_STORE_VERSION_INCLUDES = [
    "app", "appStoreVersionLocalizations", "build", "appStoreVersionPhasedRelease", "gameCenterAppVersion",
    "routingAppCoverage", "appStoreReviewDetail", "appStoreVersionSubmission", "appClipDefaultExperience",
    "appStoreVersionExperiments", "appStoreVersionExperimentsV2", "alternativeDistributionPackage"]
QUERIES = {
    "apps_getCollection": ({"bundleId": None, "name": None, "sku": None, "id": None}, []),
    "territories_getCollection": ({}, []),
    "apps_inAppPurchasesV2_getToManyRelated": (
        {"productId": None, "name": None, "inAppPurchaseType": IAP_TYPES, "state": IAP_STATES},
        ["inAppPurchaseLocalizations", "content", "appStoreReviewScreenshot", "promotedPurchase", "iapPriceSchedule",
         "inAppPurchaseAvailability", "images", "offerCodes", "versions"]),
    "apps_subscriptionGroups_getToManyRelated": (
        {"referenceName": None, "subscriptions.state": SUBSCRIPTION_STATES},
        ["subscriptions", "subscriptionGroupLocalizations", "versions"]),
    "subscriptionGroups_subscriptions_getToManyRelated": (
        {"productId": None, "name": None, "state": SUBSCRIPTION_STATES},
        ["subscriptionLocalizations", "appStoreReviewScreenshot", "group", "introductoryOffers", "promotionalOffers",
         "offerCodes", "prices", "promotedPurchase", "subscriptionAvailability", "winBackOffers", "images",
         "planAvailabilities", "versions"]),
    "subscriptionGroups_versions_getToManyRelated": (VERSION_FILTER, ["subscriptionGroup", "localizations"]),
    "subscriptionGroupVersions_localizations_getToManyRelated": ({}, ["version"]),
    "inAppPurchasesV2_versions_getToManyRelated": (VERSION_FILTER, ["inAppPurchase", "image", "images", "localizations"]),
    "inAppPurchaseVersions_localizations_getToManyRelated": ({}, ["version"]),
    "subscriptions_versions_getToManyRelated": (VERSION_FILTER, ["subscription", "image", "images", "localizations"]),
    "subscriptionVersions_localizations_getToManyRelated": ({}, ["version"]),
    "inAppPurchasesV2_inAppPurchaseAvailability_getToOneRelated": ({}, ["availableTerritories"]),
    "inAppPurchaseAvailabilities_availableTerritories_getToManyRelated": ({}, []),
    "inAppPurchasesV2_iapPriceSchedule_getToOneRelated": ({}, ["baseTerritory", "manualPrices", "automaticPrices"]),
    "inAppPurchasePriceSchedules_manualPrices_getToManyRelated": (
        {"territory": None}, ["inAppPurchasePricePoint", "territory"]),
    "inAppPurchasePriceSchedules_automaticPrices_getToManyRelated": (
        {"territory": None}, ["inAppPurchasePricePoint", "territory"]),
    "inAppPurchasesV2_pricePoints_getToManyRelated": ({"territory": None}, ["territory"]),
    "inAppPurchasePricePoints_equalizations_getToManyRelated": ({"territory": None, "inAppPurchaseV2": None}, ["territory"]),
    "inAppPurchasesV2_appStoreReviewScreenshot_getToOneRelated": ({}, ["inAppPurchaseV2"]),
    "subscriptions_pricePoints_getToManyRelated": (
        {"territory": None, "upfrontPricePointId": None, "planType": PLAN_TYPES}, ["territory"]),
    "subscriptionPricePoints_equalizations_getToManyRelated": (
        {"territory": None, "subscription": None, "upfrontPricePointId": None, "planType": PLAN_TYPES}, ["territory"]),
    "subscriptions_prices_getToManyRelated": (
        {"territory": None, "planType": PLAN_TYPES, "subscriptionPricePoint": None},
        ["territory", "subscriptionPricePoint"]),
    "subscriptions_introductoryOffers_getToManyRelated": (
        {"territory": None}, ["subscription", "territory", "subscriptionPricePoint"]),
    "subscriptions_promotionalOffers_getToManyRelated": ({"territory": None}, ["subscription", "prices"]),
    "subscriptionPromotionalOffers_prices_getToManyRelated": (
        {"territory": None}, ["territory", "subscriptionPricePoint"]),
    "subscriptions_offerCodes_getToManyRelated": (
        {"territory": None}, ["subscription", "oneTimeUseCodes", "customCodes", "prices"]),
    "subscriptionOfferCodes_prices_getToManyRelated": ({"territory": None}, ["territory", "subscriptionPricePoint"]),
    "subscriptionOfferCodes_getInstance": ({}, ["subscription", "oneTimeUseCodes", "customCodes", "prices"]),
    "subscriptionOfferCodes_oneTimeUseCodes_getToManyRelated": ({}, ["offerCode"]),
    "subscriptionOfferCodes_customCodes_getToManyRelated": ({}, ["offerCode"]),
    "subscriptionOfferCodeOneTimeUseCodes_getInstance": ({}, ["offerCode"]),
    "subscriptionOfferCodeOneTimeUseCodes_values_getToOneRelated": ({}, []),
    "subscriptionOfferCodeCustomCodes_getInstance": ({}, ["offerCode"]),
    "inAppPurchasesV2_offerCodes_getToManyRelated": ({"territory": None}, ["oneTimeUseCodes", "customCodes", "prices"]),
    "inAppPurchaseOfferCodes_getInstance": ({}, ["oneTimeUseCodes", "customCodes", "prices"]),
    "inAppPurchaseOfferCodes_prices_getToManyRelated": ({"territory": None}, ["territory", "pricePoint"]),
    "inAppPurchaseOfferCodes_oneTimeUseCodes_getToManyRelated": ({}, ACTORS),
    "inAppPurchaseOfferCodes_customCodes_getToManyRelated": ({}, ACTORS),
    "inAppPurchaseOfferCodeOneTimeUseCodes_getInstance": ({}, ACTORS),
    "inAppPurchaseOfferCodeOneTimeUseCodes_values_getToOneRelated": ({}, []),
    "inAppPurchaseOfferCodeCustomCodes_getInstance": ({}, ACTORS),
    "subscriptions_winBackOffers_getToManyRelated": ({}, ["prices"]),
    "winBackOffers_prices_getToManyRelated": ({"territory": None}, ["territory", "subscriptionPricePoint"]),
    "subscriptions_planAvailabilities_getToManyRelated": ({}, ["availableTerritories"]),
    "subscriptionPlanAvailabilities_availableTerritories_getToManyRelated": ({}, []),
    "subscriptions_appStoreReviewScreenshot_getToOneRelated": ({}, ["subscription"]),
    "apps_backgroundAssets_getToManyRelated": (
        {"archived": ["true", "false"], "assetPackIdentifier": None, "versions.locale": None,
         "versions.platforms": PLATFORMS}, ["app", "appStoreVersion", "internalBetaVersion", "externalBetaVersion"]),
    "backgroundAssets_versions_getToManyRelated": (
        {"locale": None, "platforms": PLATFORMS, "state": BACKGROUND_ASSET_VERSION_STATES, "version": None,
         "internalBetaRelease.state": None, "externalBetaRelease.state": None, "appStoreRelease.state": None},
        ["backgroundAsset", "internalBetaRelease", "externalBetaRelease", "appStoreRelease", "assetFile", "manifestFile"]),
    "backgroundAssetVersions_getInstance": (
        {}, ["backgroundAsset", "internalBetaRelease", "externalBetaRelease", "appStoreRelease", "assetFile", "manifestFile"]),
    "backgroundAssetVersions_backgroundAssetUploadFiles_getToManyRelated": ({}, []),
    "apps_subscriptionGracePeriod_getToOneRelated": ({}, []),
    "subscriptionGracePeriods_getInstance": ({}, []),
    "apps_promotedPurchases_getToManyRelated": ({}, PROMOTED_INCLUDES),
    "apps_promotedPurchases_getToManyRelationship": ({}, []),
    "promotedPurchases_getInstance": ({}, PROMOTED_INCLUDES),
    "inAppPurchasesV2_promotedPurchase_getToOneRelated": ({}, PROMOTED_INCLUDES),
    "subscriptions_promotedPurchase_getToOneRelated": ({}, PROMOTED_INCLUDES),
    # Promotional images.
    "inAppPurchasesV2_images_getToManyRelated": ({}, ["inAppPurchase"]),
    "subscriptions_images_getToManyRelated": ({}, ["subscription"]),
    "inAppPurchaseImages_getInstance": ({}, ["inAppPurchase"]),
    "subscriptionImages_getInstance": ({}, ["subscription"]),
    "inAppPurchaseImagesV2_getInstance": ({}, []),
    "subscriptionImagesV2_getInstance": ({}, []),
    # App Store versions (for review) and asset pack releases.
    "apps_appStoreVersions_getToManyRelated": (
        {"platform": PLATFORMS, "versionString": None, "appStoreState": APP_STORE_VERSION_STATES,
         "appVersionState": APP_VERSION_STATES, "id": None}, APP_STORE_VERSION_INCLUDES),
    "appStoreVersions_getInstance": ({}, APP_STORE_VERSION_INCLUDES),
    "backgroundAssetVersionInternalBetaReleases_getInstance": ({}, ["backgroundAssetVersion"]),
    "backgroundAssetVersionExternalBetaReleases_getInstance": ({}, ["backgroundAssetVersion"]),
    "backgroundAssetVersionAppStoreReleases_getInstance": ({}, ["backgroundAssetVersion"]),
}
# The to-many includes whose linkage count a `limit[name]` (1...50) sets, per operation, as the document lists them.
INCLUDE_LIMITS = {
    "apps_inAppPurchasesV2_getToManyRelated": ["inAppPurchaseLocalizations", "images", "offerCodes", "versions"],
    "apps_subscriptionGroups_getToManyRelated": ["subscriptions", "subscriptionGroupLocalizations", "versions"],
    "subscriptionGroups_subscriptions_getToManyRelated": [
        "subscriptionLocalizations", "introductoryOffers", "promotionalOffers", "offerCodes", "prices", "winBackOffers",
        "images", "planAvailabilities", "versions"],
    "subscriptionGroups_versions_getToManyRelated": ["localizations"],
    "inAppPurchasesV2_versions_getToManyRelated": ["images", "localizations"],
    "subscriptions_versions_getToManyRelated": ["images", "localizations"],
    "inAppPurchasesV2_inAppPurchaseAvailability_getToOneRelated": ["availableTerritories"],
    "inAppPurchasesV2_iapPriceSchedule_getToOneRelated": ["manualPrices", "automaticPrices"],
    "subscriptions_promotionalOffers_getToManyRelated": ["prices"],
    "subscriptions_offerCodes_getToManyRelated": ["oneTimeUseCodes", "customCodes", "prices"],
    "subscriptionOfferCodes_getInstance": ["oneTimeUseCodes", "customCodes", "prices"],
    "inAppPurchasesV2_offerCodes_getToManyRelated": ["oneTimeUseCodes", "customCodes", "prices"],
    "inAppPurchaseOfferCodes_getInstance": ["oneTimeUseCodes", "customCodes", "prices"],
    "subscriptions_winBackOffers_getToManyRelated": ["prices"],
    "subscriptions_planAvailabilities_getToManyRelated": ["availableTerritories"],
    "apps_appStoreVersions_getToManyRelated": [
        "appStoreVersionLocalizations", "appStoreVersionExperiments", "appStoreVersionExperimentsV2"],
    "appStoreVersions_getInstance": [
        "appStoreVersionLocalizations", "appStoreVersionExperiments", "appStoreVersionExperimentsV2"],
}
INCLUDE_LIMIT_MAX = 50
# Price point lists are long; App Store Connect lets them be read in bigger pages.
BIG_LIMIT_OPS = {"inAppPurchasesV2_pricePoints_getToManyRelated", "subscriptions_pricePoints_getToManyRelated",
                 "subscriptionPricePoints_equalizations_getToManyRelated",
                 "inAppPurchasePricePoints_equalizations_getToManyRelated"}

# Attributes of response resources the builtin contract checks (each may also be `null`, as App Store Connect answers
# an attribute it holds no value for; attributes not listed are let through, as the document's schemas let them):
# the API 4.5 Subscription.
SUBSCRIPTION_ATTRIBUTES = {
    "name": S, "productId": S, "familySharable": B, "state": S, "subscriptionPeriod": SUBSCRIPTION_PERIODS,
    "reviewNote": S, "groupLevel": I, "multiSeatStatus": MULTI_SEAT_STATUSES, "marketSettings": ("array", MARKETS)}
RESOURCE_ATTRIBUTES = {"subscriptions": SUBSCRIPTION_ATTRIBUTES}

# The values `fields[TYPE]` takes, for the types listed (other `fields[...]` are accepted unchecked): the 4.5
# document's fields[subscriptions], the 4.4.1 names with marketSettings and multiSeatStatus.
FIELDS = {"subscriptions": [
    "name", "productId", "familySharable", "state", "subscriptionPeriod", "reviewNote", "groupLevel",
    "subscriptionLocalizations", "appStoreReviewScreenshot", "group", "introductoryOffers", "promotionalOffers",
    "offerCodes", "prices", "pricePoints", "promotedPurchase", "subscriptionAvailability", "winBackOffers", "images",
    "planAvailabilities", "versions", "marketSettings", "multiSeatStatus"]}
