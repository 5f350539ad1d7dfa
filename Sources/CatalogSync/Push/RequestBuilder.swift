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

/// Ids a request needs that App Store Connect hands out: resources created earlier in the push, and price points.
/// `push` answers with real ids it looked up; `export asc` with `${…}` placeholders.
public protocol IDResolver: Sendable {
    func id(_ ref: ResourceRef) -> String
    /// The price point of `product` (an in-app purchase or a subscription) for `cents` USD, in `territory`
    /// (USA itself, or the equalization of the USA point).
    func pricePoint(product: ResourceRef, subscription: Bool, cents: Int, territory: String) -> String
}

/// The one place that knows the App Store Connect requests each operation sends, in order.
public enum RequestBuilder {
    typealias Schemas = Components.Schemas

    /// Every request an operation sends, except the upload of a screenshot's bytes and what depends on answers
    /// (the executor finishes those: it reads the reservation's upload operations and commits with the checksum).
    public static func requests(for operation: Operation, resolver: some IDResolver) -> [StoreRequest] {
        switch operation {
        case let .createInAppPurchase(_, app, record):
            return [.createInAppPurchase(.init(data: .init(
                _type: .inAppPurchases,
                attributes: .init(name: record.referenceName, productId: record.productID,
                                  inAppPurchaseType: Schemas.InAppPurchaseType(rawValue: Vocabulary.apiProductType(record.type) ?? "") ?? .consumable,
                                  reviewNote: record.reviewNote, familySharable: record.familySharable),
                relationships: .init(app: .init(data: .init(_type: .apps, id: app))))))]
        case let .updateInAppPurchase(product, name, note, sharable):
            let id = resolver.id(product)
            return [.updateInAppPurchase(id: id, .init(data: .init(
                _type: .inAppPurchases, id: id, attributes: .init(name: name, reviewNote: note, familySharable: sharable))))]
        case let .ensureInAppPurchaseVersion(_, product):
            return [.createInAppPurchaseVersion(.init(data: .init(
                _type: .inAppPurchaseVersions,
                relationships: .init(inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: resolver.id(product)))))))]
        case let .createInAppPurchaseLocalization(version, localization):
            return [.createInAppPurchaseLocalization(.init(data: .init(
                _type: .inAppPurchaseLocalizations,
                attributes: .init(name: localization.name, locale: localization.locale, description: localization.description),
                relationships: .init(version: .init(data: .init(_type: .inAppPurchaseVersions, id: resolver.id(version)))))))]
        case let .updateInAppPurchaseLocalization(id, localization):
            return [.updateInAppPurchaseLocalization(id: id, .init(data: .init(
                _type: .inAppPurchaseLocalizations, id: id,
                attributes: .init(name: localization.name, description: localization.description))))]
        case let .setInAppPurchaseAvailability(product, availability):
            return [.createInAppPurchaseAvailability(.init(data: .init(
                _type: .inAppPurchaseAvailabilities,
                attributes: .init(availableInNewTerritories: availability.availableInNewTerritories),
                relationships: .init(
                    inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: resolver.id(product))),
                    availableTerritories: .init(data: availability.territories.map { .init(_type: .territories, id: $0) })))))]
        case let .setInAppPurchasePrice(product, cents):
            let productID = resolver.id(product)
            let local = "${price-1}"
            let point = resolver.pricePoint(product: product, subscription: false, cents: cents, territory: Vocabulary.baseTerritory)
            return [.createInAppPurchasePriceSchedule(.init(
                data: .init(_type: .inAppPurchasePriceSchedules, relationships: .init(
                    inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: productID)),
                    baseTerritory: .init(data: .init(_type: .territories, id: Vocabulary.baseTerritory)),
                    manualPrices: .init(data: [.init(_type: .inAppPurchasePrices, id: local)]))),
                included: [.InAppPurchasePriceInlineCreate(.init(
                    _type: .inAppPurchasePrices, id: local, attributes: .init(startDate: nil),
                    relationships: .init(inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: productID)),
                                         inAppPurchasePricePoint: .init(data: .init(_type: .inAppPurchasePricePoints, id: point)))))]))]
        case let .uploadInAppPurchaseScreenshot(product, screenshot, replacing):
            var requests: [StoreRequest] = replacing.map { [.deleteInAppPurchaseScreenshot(id: $0)] } ?? []
            requests.append(.createInAppPurchaseScreenshot(.init(data: .init(
                _type: .inAppPurchaseAppStoreReviewScreenshots,
                attributes: .init(fileSize: screenshot.size, fileName: screenshot.fileName),
                relationships: .init(inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: resolver.id(product))))))))
            return requests

        case let .createGroup(_, app, name):
            return [.createGroup(.init(data: .init(
                _type: .subscriptionGroups, attributes: .init(referenceName: name),
                relationships: .init(app: .init(data: .init(_type: .apps, id: app))))))]
        case let .ensureGroupVersion(_, group):
            return [.createGroupVersion(.init(data: .init(
                _type: .subscriptionGroupVersions,
                relationships: .init(subscriptionGroup: .init(data: .init(_type: .subscriptionGroups, id: resolver.id(group)))))))]
        case let .createGroupLocalization(version, localization):
            return [.createGroupLocalization(.init(data: .init(
                _type: .subscriptionGroupLocalizations,
                attributes: .init(name: localization.name, customAppName: localization.customAppName, locale: localization.locale),
                relationships: .init(version: .init(data: .init(_type: .subscriptionGroupVersions, id: resolver.id(version)))))))]
        case let .updateGroupLocalization(id, localization):
            return [.updateGroupLocalization(id: id, .init(data: .init(
                _type: .subscriptionGroupLocalizations, id: id,
                attributes: .init(name: localization.name, customAppName: localization.customAppName))))]

        case let .createSubscription(_, group, record):
            return [.createSubscription(.init(data: .init(
                _type: .subscriptions,
                attributes: .init(name: record.referenceName, productId: record.productID, familySharable: record.familySharable,
                                  subscriptionPeriod: record.period.flatMap(Vocabulary.apiDuration).flatMap {
                                      Schemas.SubscriptionCreateRequest.DataPayload.AttributesPayload.SubscriptionPeriodPayload(rawValue: $0)
                                  },
                                  reviewNote: record.reviewNote, groupLevel: record.groupLevel),
                relationships: .init(group: .init(data: .init(_type: .subscriptionGroups, id: resolver.id(group)))))))]
        case let .updateSubscription(subscription, name, note, sharable, level):
            let id = resolver.id(subscription)
            return [.updateSubscription(id: id, .init(data: .init(
                _type: .subscriptions, id: id,
                attributes: .init(name: name, familySharable: sharable, reviewNote: note, groupLevel: level))))]
        case let .ensureSubscriptionVersion(_, subscription):
            return [.createSubscriptionVersion(.init(data: .init(
                _type: .subscriptionVersions,
                relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: resolver.id(subscription)))))))]
        case let .createSubscriptionLocalization(version, localization):
            return [.createSubscriptionLocalization(.init(data: .init(
                _type: .subscriptionLocalizations,
                attributes: .init(name: localization.name, locale: localization.locale, description: localization.description),
                relationships: .init(version: .init(data: .init(_type: .subscriptionVersions, id: resolver.id(version)))))))]
        case let .updateSubscriptionLocalization(id, localization):
            return [.updateSubscriptionLocalization(id: id, .init(data: .init(
                _type: .subscriptionLocalizations, id: id,
                attributes: .init(name: localization.name, description: localization.description))))]
        case let .setSubscriptionAvailability(subscription, existing, availability, planType):
            let territories = availability.territories.map {
                Schemas.SubscriptionPlanAvailabilityCreateRequest.DataPayload.RelationshipsPayload.AvailableTerritoriesPayload.DataPayloadPayload(
                    _type: .territories, id: $0)
            }
            if let existing {
                return [.updatePlanAvailability(id: existing, .init(data: .init(
                    _type: .subscriptionPlanAvailabilities, id: existing,
                    attributes: .init(availableInNewTerritories: availability.availableInNewTerritories),
                    relationships: .init(availableTerritories: .init(data: availability.territories.map { .init(_type: .territories, id: $0) })))))]
            }
            return [.createPlanAvailability(.init(data: .init(
                _type: .subscriptionPlanAvailabilities,
                attributes: .init(availableInNewTerritories: availability.availableInNewTerritories,
                                  planType: Schemas.SubscriptionPlanType(rawValue: planType) ?? .upfront),
                relationships: .init(
                    availableTerritories: .init(data: territories),
                    subscription: .init(data: .init(_type: .subscriptions, id: resolver.id(subscription)))))))]
        case let .setSubscriptionPrices(subscription, cents, territories, planType):
            let id = resolver.id(subscription)
            return territories.map { territory in
                .createSubscriptionPrice(.init(data: .init(
                    _type: .subscriptionPrices,
                    attributes: .init(preserveCurrentPrice: false, planType: planType.flatMap(Schemas.SubscriptionPlanType.init(rawValue:))),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: id)),
                        territory: .init(data: .init(_type: .territories, id: territory)),
                        subscriptionPricePoint: .init(data: .init(
                            _type: .subscriptionPricePoints,
                            id: resolver.pricePoint(product: subscription, subscription: true, cents: cents, territory: territory)))))))
            }
        case let .deleteIntroductoryOffers(ids):
            return ids.map { .deleteIntroductoryOffer(id: $0) }
        case let .createIntroductoryOffers(subscription, offer, territories):
            let id = resolver.id(subscription)
            return territories.map { territory in
                .createIntroductoryOffer(.init(data: .init(
                    _type: .subscriptionIntroductoryOffers,
                    attributes: .init(duration: duration(offer), offerMode: mode(offer), numberOfPeriods: offer.periods,
                                      targetSubscriptionPlanType: plan(offer)),
                    relationships: .init(
                        subscription: .init(data: .init(_type: .subscriptions, id: id)),
                        territory: .init(data: .init(_type: .territories, id: territory)),
                        subscriptionPricePoint: offer.priceCents.map { cents in
                            .init(data: .init(_type: .subscriptionPricePoints,
                                              id: resolver.pricePoint(product: subscription, subscription: true, cents: cents, territory: territory)))
                        }))))
            }
        case let .createPromotionalOffer(subscription, offer, territories):
            let prices = offerPrices(offer, subscription: subscription, territories: territories, resolver: resolver)
            return [.createPromotionalOffer(.init(
                data: .init(
                    _type: .subscriptionPromotionalOffers,
                    attributes: .init(duration: duration(offer), name: offer.referenceName ?? offer.identifier ?? "",
                                      numberOfPeriods: offer.periods, offerCode: offer.identifier ?? "", offerMode: mode(offer),
                                      targetSubscriptionPlanType: plan(offer)),
                    relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: resolver.id(subscription))),
                                         prices: .init(data: prices.map { .init(_type: .subscriptionPromotionalOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(_type: .subscriptionPromotionalOfferPrices, id: price.local, relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        subscriptionPricePoint: .init(data: .init(_type: .subscriptionPricePoints, id: price.point))))
                }))]
        case let .createOfferCode(subscription, offer, territories):
            let prices = offerPrices(offer, subscription: subscription, territories: territories, resolver: resolver)
            return [.createOfferCode(.init(
                data: .init(
                    _type: .subscriptionOfferCodes,
                    attributes: .init(name: offer.identifier ?? "",
                                      customerEligibilities: (offer.eligibilities ?? ["NEW"]).compactMap(Schemas.SubscriptionCustomerEligibility.init(rawValue:)),
                                      offerEligibility: Schemas.SubscriptionOfferEligibility(rawValue: offer.offerEligibility ?? "") ?? .replaceIntroOffers,
                                      duration: duration(offer), offerMode: mode(offer), numberOfPeriods: offer.periods,
                                      targetSubscriptionPlanType: plan(offer)),
                    relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: resolver.id(subscription))),
                                         prices: .init(data: prices.map { .init(_type: .subscriptionOfferCodePrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(_type: .subscriptionOfferCodePrices, id: price.local, relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        subscriptionPricePoint: .init(data: .init(_type: .subscriptionPricePoints, id: price.point))))
                }))]
        case let .createWinBackOffer(subscription, offer, territories):
            let prices = offerPrices(offer, subscription: subscription, territories: territories, resolver: resolver)
            return [.createWinBackOffer(.init(
                data: .init(
                    _type: .winBackOffers,
                    attributes: .init(referenceName: offer.referenceName ?? offer.identifier ?? "", offerId: offer.identifier ?? "",
                                      duration: duration(offer), offerMode: mode(offer), periodCount: offer.periods,
                                      customerEligibilityPaidSubscriptionDurationInMonths: WinBackDefaults.paidMonths,
                                      customerEligibilityTimeSinceLastSubscribedInMonths: .init(minimum: WinBackDefaults.lapsedMonths.lowerBound,
                                                                                                  maximum: WinBackDefaults.lapsedMonths.upperBound),
                                      startDate: WinBackDefaults.startDate(), priority: .normal,
                                      targetSubscriptionPlanType: plan(offer)),
                    relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: resolver.id(subscription))),
                                         prices: .init(data: prices.map { .init(_type: .winBackOfferPrices, id: $0.local) }))),
                included: prices.map { price in
                    .init(_type: .winBackOfferPrices, id: price.local, relationships: .init(
                        territory: .init(data: .init(_type: .territories, id: price.territory)),
                        subscriptionPricePoint: .init(data: .init(_type: .subscriptionPricePoints, id: price.point))))
                }))]
        case let .uploadSubscriptionScreenshot(subscription, screenshot, replacing):
            var requests: [StoreRequest] = replacing.map { [.deleteSubscriptionScreenshot(id: $0)] } ?? []
            requests.append(.createSubscriptionScreenshot(.init(data: .init(
                _type: .subscriptionAppStoreReviewScreenshots,
                attributes: .init(fileSize: screenshot.size, fileName: screenshot.fileName),
                relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: resolver.id(subscription))))))))
            return requests
        }
    }

    /// The commit that ends a screenshot upload: `uploaded` with the MD5 App Store Connect checks the bytes against.
    public static func screenshotCommit(id: String, subscription: Bool, checksum: String) -> StoreRequest {
        subscription
            ? .commitSubscriptionScreenshot(id: id, .init(data: .init(
                _type: .subscriptionAppStoreReviewScreenshots, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true))))
            : .commitInAppPurchaseScreenshot(id: id, .init(data: .init(
                _type: .inAppPurchaseAppStoreReviewScreenshots, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true))))
    }

    static func duration(_ offer: OfferRecord) -> Schemas.SubscriptionOfferDuration {
        Schemas.SubscriptionOfferDuration(rawValue: offer.duration) ?? .oneMonth
    }

    static func plan(_ offer: OfferRecord) -> Schemas.SubscriptionPlanType? {
        offer.planType.flatMap(Schemas.SubscriptionPlanType.init(rawValue:))
    }

    static func mode(_ offer: OfferRecord) -> Schemas.SubscriptionOfferMode {
        Schemas.SubscriptionOfferMode(rawValue: offer.mode) ?? .freeTrial
    }

    /// An offer's price in every territory: the USA point and its equalizations. Free trials have none.
    static func offerPrices(_ offer: OfferRecord, subscription: ResourceRef, territories: [String],
                            resolver: some IDResolver) -> [(local: String, territory: String, point: String)] {
        guard let cents = offer.priceCents else { return [] }
        return territories.enumerated().map { index, territory in
            ("${price-\(index + 1)}", territory,
             resolver.pricePoint(product: subscription, subscription: true, cents: cents, territory: territory))
        }
    }
}

/// The eligibility App Store Connect requires of a win-back offer and the catalog does not say: customers who paid
/// at least one month and lapsed between 1 and 24 months ago, normal priority, starting the day it is created.
public enum WinBackDefaults {
    public static let paidMonths = 1
    public static let lapsedMonths = 1...24

    static func startDate() -> String {
        HTTPDate.day(Date())
    }
}
