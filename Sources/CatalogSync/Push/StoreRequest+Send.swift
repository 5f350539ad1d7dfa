import AppStoreConnect
import AppStoreConnectAPI

extension StoreRequest {
    /// Sends the request through the generated client; returns the id of the resource it created, if any.
    func send(_ asc: AppStoreConnectClient) async throws(ASCError) -> String? {
        switch self {
        case let .createInAppPurchase(body):
            return try await asc.send { try await $0.inAppPurchasesV2CreateInstance(body: .json(body)).created.body.json.data.id }
        case let .updateInAppPurchase(id, body):
            _ = try await asc.send { try await $0.inAppPurchasesV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
        case let .createInAppPurchaseVersion(body):
            return try await asc.send { try await $0.inAppPurchaseVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createInAppPurchaseLocalization(body):
            return try await asc.send { try await $0.inAppPurchaseLocalizationsV2CreateInstance(body: .json(body)).created.body.json.data.id }
        case let .updateInAppPurchaseLocalization(id, body):
            _ = try await asc.send { try await $0.inAppPurchaseLocalizationsV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
        case let .createInAppPurchaseAvailability(body):
            return try await asc.send { try await $0.inAppPurchaseAvailabilitiesCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createInAppPurchasePriceSchedule(body):
            return try await asc.send { try await $0.inAppPurchasePriceSchedulesCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createInAppPurchaseScreenshot(body):
            return try await asc.send {
                try await $0.inAppPurchaseAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data.id
            }
        case let .commitInAppPurchaseScreenshot(id, body):
            _ = try await asc.send {
                try await $0.inAppPurchaseAppStoreReviewScreenshotsUpdateInstance(path: .init(id: id), body: .json(body)).ok
            }
        case let .deleteInAppPurchaseScreenshot(id):
            _ = try await asc.send { try await $0.inAppPurchaseAppStoreReviewScreenshotsDeleteInstance(path: .init(id: id)).noContent }
        case let .createGroup(body):
            return try await asc.send { try await $0.subscriptionGroupsCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createGroupVersion(body):
            return try await asc.send { try await $0.subscriptionGroupVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createGroupLocalization(body):
            return try await asc.send {
                try await $0.subscriptionGroupLocalizationsV2CreateInstance(body: .json(body)).created.body.json.data.id
            }
        case let .updateGroupLocalization(id, body):
            _ = try await asc.send { try await $0.subscriptionGroupLocalizationsV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
        case let .createSubscription(body):
            return try await asc.send { try await $0.subscriptionsCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .updateSubscription(id, body):
            _ = try await asc.send { try await $0.subscriptionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        case let .createSubscriptionVersion(body):
            return try await asc.send { try await $0.subscriptionVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createSubscriptionLocalization(body):
            return try await asc.send { try await $0.subscriptionLocalizationsV2CreateInstance(body: .json(body)).created.body.json.data.id }
        case let .updateSubscriptionLocalization(id, body):
            _ = try await asc.send { try await $0.subscriptionLocalizationsV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
        case let .createPlanAvailability(body):
            return try await asc.send { try await $0.subscriptionPlanAvailabilitiesCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .updatePlanAvailability(id, body):
            _ = try await asc.send { try await $0.subscriptionPlanAvailabilitiesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        case let .createSubscriptionPrice(body):
            return try await asc.send { try await $0.subscriptionPricesCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createIntroductoryOffer(body):
            return try await asc.send { try await $0.subscriptionIntroductoryOffersCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .deleteIntroductoryOffer(id):
            _ = try await asc.send { try await $0.subscriptionIntroductoryOffersDeleteInstance(path: .init(id: id)).noContent }
        case let .createPromotionalOffer(body):
            return try await asc.send { try await $0.subscriptionPromotionalOffersCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createOfferCode(body):
            return try await asc.send { try await $0.subscriptionOfferCodesCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createWinBackOffer(body):
            return try await asc.send { try await $0.winBackOffersCreateInstance(body: .json(body)).created.body.json.data.id }
        case let .createSubscriptionScreenshot(body):
            return try await asc.send {
                try await $0.subscriptionAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data.id
            }
        case let .commitSubscriptionScreenshot(id, body):
            _ = try await asc.send {
                try await $0.subscriptionAppStoreReviewScreenshotsUpdateInstance(path: .init(id: id), body: .json(body)).ok
            }
        case let .deleteSubscriptionScreenshot(id):
            _ = try await asc.send { try await $0.subscriptionAppStoreReviewScreenshotsDeleteInstance(path: .init(id: id)).noContent }
        }
        return nil
    }
}
