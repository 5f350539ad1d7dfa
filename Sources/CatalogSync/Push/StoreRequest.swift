import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCatalog
import IAPCore

/// One App Store Connect request as the generated types spell it. `push` sends it through the client; `export asc`
/// writes it as `{"method", "path", "body", "ref"}`. `RequestBuilder` is the one place that shapes them.
public enum StoreRequest: Sendable {
    public typealias Schemas = Components.Schemas

    case createInAppPurchase(Schemas.InAppPurchaseV2CreateRequest)
    case updateInAppPurchase(id: String, Schemas.InAppPurchaseV2UpdateRequest)
    case createInAppPurchaseVersion(Schemas.InAppPurchaseVersionCreateRequest)
    case createInAppPurchaseLocalization(Schemas.InAppPurchaseLocalizationV2CreateRequest)
    case updateInAppPurchaseLocalization(id: String, Schemas.InAppPurchaseLocalizationV2UpdateRequest)
    case createInAppPurchaseAvailability(Schemas.InAppPurchaseAvailabilityCreateRequest)
    case createInAppPurchasePriceSchedule(Schemas.InAppPurchasePriceScheduleCreateRequest)
    case createInAppPurchaseScreenshot(Schemas.InAppPurchaseAppStoreReviewScreenshotCreateRequest)
    case commitInAppPurchaseScreenshot(id: String, Schemas.InAppPurchaseAppStoreReviewScreenshotUpdateRequest)
    case deleteInAppPurchaseScreenshot(id: String)
    case createGroup(Schemas.SubscriptionGroupCreateRequest)
    case createGroupVersion(Schemas.SubscriptionGroupVersionCreateRequest)
    case createGroupLocalization(Schemas.SubscriptionGroupLocalizationV2CreateRequest)
    case updateGroupLocalization(id: String, Schemas.SubscriptionGroupLocalizationV2UpdateRequest)
    case createSubscription(Schemas.SubscriptionCreateRequest)
    case updateSubscription(id: String, Schemas.SubscriptionUpdateRequest)
    case createSubscriptionVersion(Schemas.SubscriptionVersionCreateRequest)
    case createSubscriptionLocalization(Schemas.SubscriptionLocalizationV2CreateRequest)
    case updateSubscriptionLocalization(id: String, Schemas.SubscriptionLocalizationV2UpdateRequest)
    case createPlanAvailability(Schemas.SubscriptionPlanAvailabilityCreateRequest)
    case updatePlanAvailability(id: String, Schemas.SubscriptionPlanAvailabilityUpdateRequest)
    case createSubscriptionPrice(Schemas.SubscriptionPriceCreateRequest)
    case createIntroductoryOffer(Schemas.SubscriptionIntroductoryOfferCreateRequest)
    case deleteIntroductoryOffer(id: String)
    case createPromotionalOffer(Schemas.SubscriptionPromotionalOfferCreateRequest)
    case createOfferCode(Schemas.SubscriptionOfferCodeCreateRequest)
    case createWinBackOffer(Schemas.WinBackOfferCreateRequest)
    case createSubscriptionScreenshot(Schemas.SubscriptionAppStoreReviewScreenshotCreateRequest)
    case commitSubscriptionScreenshot(id: String, Schemas.SubscriptionAppStoreReviewScreenshotUpdateRequest)
    case deleteSubscriptionScreenshot(id: String)

    public var method: String {
        switch self {
        case .updateInAppPurchase, .updateInAppPurchaseLocalization, .commitInAppPurchaseScreenshot, .updateGroupLocalization,
             .updateSubscription, .updateSubscriptionLocalization, .updatePlanAvailability, .commitSubscriptionScreenshot:
            return "PATCH"
        case .deleteInAppPurchaseScreenshot, .deleteIntroductoryOffer, .deleteSubscriptionScreenshot:
            return "DELETE"
        default:
            return "POST"
        }
    }

    public var path: String {
        switch self {
        case .createInAppPurchase: return "/v2/inAppPurchases"
        case let .updateInAppPurchase(id, _): return "/v2/inAppPurchases/\(id)"
        case .createInAppPurchaseVersion: return "/v1/inAppPurchaseVersions"
        case .createInAppPurchaseLocalization: return "/v2/inAppPurchaseLocalizations"
        case let .updateInAppPurchaseLocalization(id, _): return "/v2/inAppPurchaseLocalizations/\(id)"
        case .createInAppPurchaseAvailability: return "/v1/inAppPurchaseAvailabilities"
        case .createInAppPurchasePriceSchedule: return "/v1/inAppPurchasePriceSchedules"
        case .createInAppPurchaseScreenshot: return "/v1/inAppPurchaseAppStoreReviewScreenshots"
        case let .commitInAppPurchaseScreenshot(id, _), let .deleteInAppPurchaseScreenshot(id):
            return "/v1/inAppPurchaseAppStoreReviewScreenshots/\(id)"
        case .createGroup: return "/v1/subscriptionGroups"
        case .createGroupVersion: return "/v1/subscriptionGroupVersions"
        case .createGroupLocalization: return "/v2/subscriptionGroupLocalizations"
        case let .updateGroupLocalization(id, _): return "/v2/subscriptionGroupLocalizations/\(id)"
        case .createSubscription: return "/v1/subscriptions"
        case let .updateSubscription(id, _): return "/v1/subscriptions/\(id)"
        case .createSubscriptionVersion: return "/v1/subscriptionVersions"
        case .createSubscriptionLocalization: return "/v2/subscriptionLocalizations"
        case let .updateSubscriptionLocalization(id, _): return "/v2/subscriptionLocalizations/\(id)"
        case .createPlanAvailability: return "/v1/subscriptionPlanAvailabilities"
        case let .updatePlanAvailability(id, _): return "/v1/subscriptionPlanAvailabilities/\(id)"
        case .createSubscriptionPrice: return "/v1/subscriptionPrices"
        case .createIntroductoryOffer: return "/v1/subscriptionIntroductoryOffers"
        case let .deleteIntroductoryOffer(id): return "/v1/subscriptionIntroductoryOffers/\(id)"
        case .createPromotionalOffer: return "/v1/subscriptionPromotionalOffers"
        case .createOfferCode: return "/v1/subscriptionOfferCodes"
        case .createWinBackOffer: return "/v1/winBackOffers"
        case .createSubscriptionScreenshot: return "/v1/subscriptionAppStoreReviewScreenshots"
        case let .commitSubscriptionScreenshot(id, _), let .deleteSubscriptionScreenshot(id):
            return "/v1/subscriptionAppStoreReviewScreenshots/\(id)"
        }
    }

    /// The request document, encoded the way the client sends it; nil for DELETE.
    public var body: (any Encodable & Sendable)? {
        switch self {
        case let .createInAppPurchase(body): return body
        case let .updateInAppPurchase(_, body): return body
        case let .createInAppPurchaseVersion(body): return body
        case let .createInAppPurchaseLocalization(body): return body
        case let .updateInAppPurchaseLocalization(_, body): return body
        case let .createInAppPurchaseAvailability(body): return body
        case let .createInAppPurchasePriceSchedule(body): return body
        case let .createInAppPurchaseScreenshot(body): return body
        case let .commitInAppPurchaseScreenshot(_, body): return body
        case let .createGroup(body): return body
        case let .createGroupVersion(body): return body
        case let .createGroupLocalization(body): return body
        case let .updateGroupLocalization(_, body): return body
        case let .createSubscription(body): return body
        case let .updateSubscription(_, body): return body
        case let .createSubscriptionVersion(body): return body
        case let .createSubscriptionLocalization(body): return body
        case let .updateSubscriptionLocalization(_, body): return body
        case let .createPlanAvailability(body): return body
        case let .updatePlanAvailability(_, body): return body
        case let .createSubscriptionPrice(body): return body
        case let .createIntroductoryOffer(body): return body
        case let .createPromotionalOffer(body): return body
        case let .createOfferCode(body): return body
        case let .createWinBackOffer(body): return body
        case let .createSubscriptionScreenshot(body): return body
        case let .commitSubscriptionScreenshot(_, body): return body
        case .deleteInAppPurchaseScreenshot, .deleteIntroductoryOffer, .deleteSubscriptionScreenshot: return nil
        }
    }

    /// The body as ordered JSON (keys sorted), for `export asc`.
    public func jsonBody() -> JSONValue? {
        guard let body else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(body), let value = try? JSONValue.parse(data) else { return nil }
        return value
    }
}
