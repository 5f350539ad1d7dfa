import AppStoreConnect
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

/// Reads what App Store Connect holds for an app into a `StoreSnapshot`: every in-app purchase and subscription
/// group with what the catalog holds of them. Costs one list request per page plus a fixed number per product
/// (and per offer).
public struct StoreReader: Sendable {
    public let asc: AppStoreConnectClient
    /// Page size for list requests (App Store Connect allows up to 200).
    public var pageSize = 200

    public init(asc: AppStoreConnectClient) { self.asc = asc }

    typealias Schemas = Components.Schemas

    /// The app with this bundle ID.
    public func app(bundleID: String) async throws(SyncError) -> StoreApp {
        let response = try await read("finding the app \(bundleID)") {
            try await $0.appsGetCollection(query: .init(filterBundleId: [bundleID])).ok.body.json
        }
        guard let app = response.data.first(where: { $0.attributes?.bundleId == bundleID }) ?? response.data.first else {
            throw .appNotFound(bundleID: bundleID)
        }
        return StoreApp(id: app.id, bundleID: app.attributes?.bundleId ?? bundleID)
    }

    /// Every territory App Store Connect sells in, sorted.
    public func territories() async throws(SyncError) -> [String] {
        let size = pageSize
        let pages = try await pages("listing territories") {
            try await $0.territoriesGetCollection(query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }
        return pages.flatMap { $0.data.map(\.id) }.sorted()
    }

    /// Everything the catalog can hold of the app.
    public func snapshot(app: StoreApp) async throws(SyncError) -> StoreSnapshot {
        let territories = try await territories()
        var snapshot = StoreSnapshot(app: app, territories: territories)
        let size = pageSize
        let purchases = try await pages("listing in-app purchases") {
            try await $0.appsInAppPurchasesV2GetToManyRelated(path: .init(id: app.id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }
        for purchase in purchases.flatMap(\.data) {
            if let product = try await inAppPurchase(purchase) { snapshot.inAppPurchases.append(product) }
        }
        let groups = try await pages("listing subscription groups") {
            try await $0.appsSubscriptionGroupsGetToManyRelated(path: .init(id: app.id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }
        for group in groups.flatMap(\.data) {
            snapshot.groups.append(try await self.group(group))
        }
        return snapshot
    }

    // MARK: In-app purchases

    func inAppPurchase(_ purchase: Schemas.InAppPurchaseV2) async throws(SyncError) -> StoreProduct? {
        guard let attributes = purchase.attributes, let productID = attributes.productId,
              let type = attributes.inAppPurchaseType.flatMap({ Vocabulary.productType(api: $0.rawValue) })
        else { return nil }
        let id = purchase.id
        let context = "reading in-app purchase \(productID)"
        var ids = ProductIDs(resource: id)
        var record = ProductRecord(productID: productID, referenceName: attributes.name ?? productID, type: type,
                                   familySharable: attributes.familySharable ?? false,
                                   reviewNote: attributes.reviewNote.flatMap { $0.isEmpty ? nil : $0 })
        let size = pageSize

        let versions = try await pages(context) {
            try await $0.inAppPurchasesV2VersionsGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        if let current = Self.currentVersion(versions.map { ($0.id, $0.attributes?.version, $0.attributes?.state?.rawValue) }) {
            ids.version = current.id
            ids.versionEditable = current.editable
            let localizations = try await pages(context) {
                try await $0.inAppPurchaseVersionsLocalizationsGetToManyRelated(path: .init(id: current.id), query: .init(limit: size)).ok.body.json
            } next: { $0.links.next }.flatMap(\.data)
            for localization in localizations {
                guard let locale = localization.attributes?.locale else { continue }
                record.localizations.append(LocalizationRecord(locale: locale, name: localization.attributes?.name ?? "",
                                                               description: localization.attributes?.description))
                ids.localizations[locale] = localization.id
            }
            record.localizations.sort { $0.locale < $1.locale }
        }

        if let availability = try await optional(context, {
            try await $0.inAppPurchasesV2InAppPurchaseAvailabilityGetToOneRelated(path: .init(id: id)).ok.body.json.data
        }) {
            ids.availability = availability.id
            let territories = try await pages(context) {
                try await $0.inAppPurchaseAvailabilitiesAvailableTerritoriesGetToManyRelated(path: .init(id: availability.id), query: .init(limit: size)).ok.body.json
            } next: { $0.links.next }.flatMap { $0.data.map(\.id) }
            record.availability = AvailabilityRecord(territories: territories,
                                                     availableInNewTerritories: availability.attributes?.availableInNewTerritories ?? false)
        }

        if let schedule = try await optional(context, {
            try await $0.inAppPurchasesV2IapPriceScheduleGetToOneRelated(path: .init(id: id)).ok.body.json.data
        }) {
            let prices = try await pages(context) {
                try await $0.inAppPurchasePriceSchedulesManualPricesGetToManyRelated(
                    path: .init(id: schedule.id),
                    query: .init(filterTerritory: [Vocabulary.baseTerritory], limit: size, include: [.inAppPurchasePricePoint, .territory])
                ).ok.body.json
            } next: { $0.links.next }
            var points: [String: String] = [:]
            for page in prices {
                for item in page.included ?? [] {
                    if case let .inAppPurchasePricePoints(point) = item { points[point.id] = point.attributes?.customerPrice }
                }
            }
            // The current manual price: one without an end date.
            let current = prices.flatMap(\.data).first { $0.attributes?.endDate == nil } ?? prices.flatMap(\.data).first
            if let pointID = current?.relationships?.inAppPurchasePricePoint?.data?.id, let text = points[pointID] {
                record.priceCents = Price(text: text)?.cents
            }
        }

        if let screenshot = try await optional(context, {
            try await $0.inAppPurchasesV2AppStoreReviewScreenshotGetToOneRelated(path: .init(id: id)).ok.body.json.data
        }) {
            ids.screenshot = screenshot.id
            ids.screenshotURL = Self.downloadURL(screenshot.attributes?.imageAsset, fileName: screenshot.attributes?.fileName)
            if let checksum = screenshot.attributes?.sourceFileChecksum, screenshot.attributes?.assetDeliveryState?.state?.rawValue != "FAILED" {
                record.screenshot = ScreenshotRecord(fileName: screenshot.attributes?.fileName ?? "screenshot", checksum: checksum.lowercased())
            }
        }
        return StoreProduct(record: record, ids: ids, state: attributes.state?.rawValue)
    }

    /// The full-size image of an asset: its template with the width, height and the file's own format filled in.
    static func downloadURL(_ asset: Components.Schemas.ImageAsset?, fileName: String?) -> String? {
        guard let asset, let template = asset.templateUrl else { return nil }
        let format = (fileName.map { Path.pathExtension($0).lowercased() }).flatMap { $0 == "jpeg" ? "jpg" : ($0.isEmpty ? nil : $0) } ?? "png"
        return template.replacingAll("{w}", with: String(asset.width ?? 0))
            .replacingAll("{h}", with: String(asset.height ?? 0))
            .replacingAll("{f}", with: format)
    }

    /// The version whose localizations count: the one still being edited, else the newest.
    static func currentVersion(_ versions: [(id: String, number: Int?, state: String?)]) -> (id: String, editable: Bool)? {
        let editableStates: Set<String> = ["PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "REJECTED", "DEVELOPER_REJECTED"]
        if let editable = versions.filter({ editableStates.contains($0.state ?? "") }).max(by: { ($0.number ?? 0) < ($1.number ?? 0) }) {
            return (editable.id, true)
        }
        return versions.max { ($0.number ?? 0) < ($1.number ?? 0) }.map { ($0.id, false) }
    }

    // MARK: Groups and subscriptions

    func group(_ group: Schemas.SubscriptionGroup) async throws(SyncError) -> StoreGroup {
        let name = group.attributes?.referenceName ?? group.id
        let context = "reading subscription group \(name)"
        let id = group.id
        let size = pageSize
        var result = StoreGroup(record: GroupRecord(referenceName: name), id: id)
        let versions = try await pages(context) {
            try await $0.subscriptionGroupsVersionsGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        if let current = Self.currentVersion(versions.map { ($0.id, $0.attributes?.version, $0.attributes?.state?.rawValue) }) {
            result.version = current.id
            result.versionEditable = current.editable
            let localizations = try await pages(context) {
                try await $0.subscriptionGroupVersionsLocalizationsGetToManyRelated(path: .init(id: current.id), query: .init(limit: size)).ok.body.json
            } next: { $0.links.next }.flatMap(\.data)
            for localization in localizations {
                guard let locale = localization.attributes?.locale else { continue }
                result.record.localizations.append(LocalizationRecord(locale: locale, name: localization.attributes?.name ?? "",
                                                                      customAppName: localization.attributes?.customAppName))
                result.localizations[locale] = localization.id
            }
            result.record.localizations.sort { $0.locale < $1.locale }
        }
        let subscriptions = try await pages(context) {
            try await $0.subscriptionGroupsSubscriptionsGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        for subscription in subscriptions {
            if let product = try await self.subscription(subscription) { result.subscriptions.append(product) }
        }
        return result
    }

    func subscription(_ subscription: Schemas.Subscription) async throws(SyncError) -> StoreProduct? {
        guard let attributes = subscription.attributes, let productID = attributes.productId else { return nil }
        let id = subscription.id
        let context = "reading subscription \(productID)"
        let size = pageSize
        var ids = ProductIDs(resource: id)
        var record = ProductRecord(productID: productID, referenceName: attributes.name ?? productID, type: .autoRenewableSubscription,
                                   familySharable: attributes.familySharable ?? false,
                                   reviewNote: attributes.reviewNote.flatMap { $0.isEmpty ? nil : $0 },
                                   period: attributes.subscriptionPeriod.flatMap { Vocabulary.isoDuration($0.rawValue) },
                                   groupLevel: attributes.groupLevel)

        let versions = try await pages(context) {
            try await $0.subscriptionsVersionsGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        if let current = Self.currentVersion(versions.map { ($0.id, $0.attributes?.version, $0.attributes?.state?.rawValue) }) {
            ids.version = current.id
            ids.versionEditable = current.editable
            let localizations = try await pages(context) {
                try await $0.subscriptionVersionsLocalizationsGetToManyRelated(path: .init(id: current.id), query: .init(limit: size)).ok.body.json
            } next: { $0.links.next }.flatMap(\.data)
            for localization in localizations {
                guard let locale = localization.attributes?.locale else { continue }
                record.localizations.append(LocalizationRecord(locale: locale, name: localization.attributes?.name ?? "",
                                                               description: localization.attributes?.description))
                ids.localizations[locale] = localization.id
            }
            record.localizations.sort { $0.locale < $1.locale }
        }

        // Availability per billing plan: the standard (up-front) plan, and the monthly plan when there is one.
        let plans = try await pages(context) {
            try await $0.subscriptionsPlanAvailabilitiesGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        var monthly = MonthlyPlanRecord()
        var hasMonthly = false
        for plan in plans {
            let planID = plan.id
            let territories = try await pages(context) {
                try await $0.subscriptionPlanAvailabilitiesAvailableTerritoriesGetToManyRelated(path: .init(id: planID), query: .init(limit: size)).ok.body.json
            } next: { $0.links.next }.flatMap { $0.data.map(\.id) }
            let availability = AvailabilityRecord(territories: territories,
                                                  availableInNewTerritories: plan.attributes?.availableInNewTerritories ?? false)
            if plan.attributes?.planType?.rawValue == "MONTHLY" {
                hasMonthly = true
                monthly.availability = availability
                ids.monthlyAvailability = plan.id
            } else {
                record.availability = availability
                ids.availability = plan.id
            }
        }

        // Prices: the USD price from the USA price point, and which territories have one, per plan.
        let prices = try await pages(context) {
            try await $0.subscriptionsPricesGetToManyRelated(path: .init(id: id), query: .init(limit: size, include: [.subscriptionPricePoint, .territory])).ok.body.json
        } next: { $0.links.next }
        var pricePoints: [String: String] = [:]
        for page in prices {
            for item in page.included ?? [] {
                if case let .subscriptionPricePoints(point) = item { pricePoints[point.id] = point.attributes?.customerPrice }
            }
        }
        var priced: [String: Set<String>] = [:]
        for price in prices.flatMap(\.data) {
            let plan = price.attributes?.planType?.rawValue ?? "UPFRONT"
            guard let territory = price.relationships?.territory?.data?.id else { continue }
            priced[plan, default: []].insert(territory)
            if territory == Vocabulary.baseTerritory, let point = price.relationships?.subscriptionPricePoint?.data?.id,
               let cents = pricePoints[point].flatMap({ Price(text: $0)?.cents }) {
                if plan == "MONTHLY" { monthly.priceCents = cents } else { record.priceCents = cents }
            }
        }
        if let upfront = priced["UPFRONT"] { record.pricedTerritories = upfront.sorted() }
        if let monthlyTerritories = priced["MONTHLY"] {
            monthly.pricedTerritories = monthlyTerritories.sorted()
            hasMonthly = true
        }

        try await offers(subscriptionID: id, context: context, record: &record, ids: &ids, monthly: &monthly)
        // Offers name their plan only when the subscription lists billing plans (prices always carry one).
        var namesPlans = record.promotionalOffers.contains { $0.planType != nil } || record.introductoryOffer?.planType != nil
        if hasMonthly || monthly.introductoryOffer != nil || !monthly.promotionalOffers.isEmpty {
            record.monthlyPlan = monthly
            namesPlans = true
        }
        record.namesPlans = namesPlans

        if let screenshot = try await optional(context, {
            try await $0.subscriptionsAppStoreReviewScreenshotGetToOneRelated(path: .init(id: id)).ok.body.json.data
        }) {
            ids.screenshot = screenshot.id
            ids.screenshotURL = Self.downloadURL(screenshot.attributes?.imageAsset, fileName: screenshot.attributes?.fileName)
            if let checksum = screenshot.attributes?.sourceFileChecksum, screenshot.attributes?.assetDeliveryState?.state?.rawValue != "FAILED" {
                record.screenshot = ScreenshotRecord(fileName: screenshot.attributes?.fileName ?? "screenshot", checksum: checksum.lowercased())
            }
        }
        return StoreProduct(record: record, ids: ids, state: attributes.state?.rawValue)
    }

    func offers(subscriptionID id: String, context: String, record: inout ProductRecord, ids: inout ProductIDs,
                monthly: inout MonthlyPlanRecord) async throws(SyncError) {
        let size = pageSize
        // Introductory offers: one resource per territory; the USA one gives the terms and the USD price.
        let intros = try await pages(context) {
            try await $0.subscriptionsIntroductoryOffersGetToManyRelated(path: .init(id: id), query: .init(limit: size, include: [.territory, .subscriptionPricePoint])).ok.body.json
        } next: { $0.links.next }
        var introPoints: [String: String] = [:]
        for page in intros {
            for item in page.included ?? [] {
                if case let .subscriptionPricePoints(point) = item { introPoints[point.id] = point.attributes?.customerPrice }
            }
        }
        // Grouped by the billing plan they target; the USA offer of each gives the terms and the USD price.
        let introOffers = Dictionary(grouping: intros.flatMap(\.data)) { $0.attributes?.targetSubscriptionPlanType?.rawValue ?? "" }
        for (plan, offers) in introOffers {
            var covered: [String] = []
            for offer in offers {
                guard let territory = offer.relationships?.territory?.data?.id else { continue }
                if plan == "MONTHLY" { ids.monthlyIntroductoryOffers[territory] = offer.id } else { ids.introductoryOffers[territory] = offer.id }
                covered.append(territory)
            }
            guard let base = offers.first(where: { $0.relationships?.territory?.data?.id == Vocabulary.baseTerritory }) ?? offers.first,
                  let attributes = base.attributes, let mode = attributes.offerMode?.rawValue, let duration = attributes.duration?.rawValue
            else { continue }
            let price = (base.relationships?.subscriptionPricePoint?.data?.id).flatMap { introPoints[$0] }.flatMap { Price(text: $0)?.cents }
            let offer = OfferRecord(kind: .introductory, mode: mode, duration: duration, periods: attributes.numberOfPeriods ?? 1,
                                    priceCents: mode == "FREE_TRIAL" ? nil : price, planType: plan.isEmpty ? nil : plan)
            if plan == "MONTHLY" {
                monthly.introductoryOffer = offer
                monthly.introductoryOfferTerritories = covered.sorted()
            } else {
                record.introductoryOffer = offer
                record.introductoryOfferTerritories = covered.sorted()
            }
        }

        let promotional = try await pages(context) {
            try await $0.subscriptionsPromotionalOffersGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        for offer in promotional {
            guard let attributes = offer.attributes, let code = attributes.offerCode, let mode = attributes.offerMode?.rawValue,
                  let duration = attributes.duration?.rawValue else { continue }
            let offerID = offer.id
            let price = try await baseTerritoryPrice(context) {
                try await $0.subscriptionPromotionalOffersPricesGetToManyRelated(
                    path: .init(id: offerID), query: .init(filterTerritory: [Vocabulary.baseTerritory], limit: size, include: [.subscriptionPricePoint])
                ).ok.body.json
            }
            ids.promotionalOffers[code] = offer.id
            let plan = attributes.targetSubscriptionPlanType?.rawValue
            let promotion = OfferRecord(kind: .promotional, identifier: code, referenceName: attributes.name, mode: mode,
                                      duration: duration, periods: attributes.numberOfPeriods ?? 1,
                                      priceCents: mode == "FREE_TRIAL" ? nil : price, planType: plan)
            if plan == "MONTHLY" { monthly.promotionalOffers.append(promotion) } else { record.promotionalOffers.append(promotion) }
        }

        let codes = try await pages(context) {
            try await $0.subscriptionsOfferCodesGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        for offer in codes {
            guard let attributes = offer.attributes, let name = attributes.name, let mode = attributes.offerMode?.rawValue,
                  let duration = attributes.duration?.rawValue else { continue }
            let offerID = offer.id
            let price = try await baseTerritoryPrice(context) {
                try await $0.subscriptionOfferCodesPricesGetToManyRelated(
                    path: .init(id: offerID), query: .init(filterTerritory: [Vocabulary.baseTerritory], limit: size, include: [.subscriptionPricePoint])
                ).ok.body.json
            }
            ids.offerCodes[name] = offer.id
            record.offerCodes.append(OfferRecord(kind: .offerCode, identifier: name, referenceName: name, mode: mode, duration: duration,
                                                 periods: attributes.numberOfPeriods ?? 1, priceCents: mode == "FREE_TRIAL" ? nil : price,
                                                 eligibilities: attributes.customerEligibilities?.map(\.rawValue),
                                                 offerEligibility: attributes.offerEligibility?.rawValue,
                                                 planType: attributes.targetSubscriptionPlanType?.rawValue))
        }

        let winBacks = try await pages(context) {
            try await $0.subscriptionsWinBackOffersGetToManyRelated(path: .init(id: id), query: .init(limit: size)).ok.body.json
        } next: { $0.links.next }.flatMap(\.data)
        for offer in winBacks {
            guard let attributes = offer.attributes, let offerID = attributes.offerId, let mode = attributes.offerMode?.rawValue,
                  let duration = attributes.duration?.rawValue else { continue }
            let resource = offer.id
            let price = try await baseTerritoryPrice(context) {
                try await $0.winBackOffersPricesGetToManyRelated(
                    path: .init(id: resource), query: .init(filterTerritory: [Vocabulary.baseTerritory], limit: size, include: [.subscriptionPricePoint])
                ).ok.body.json
            }
            ids.winBackOffers[offerID] = offer.id
            record.winBackOffers.append(OfferRecord(kind: .winBack, identifier: offerID, referenceName: attributes.referenceName,
                                                    mode: mode, duration: duration, periods: attributes.periodCount ?? 1,
                                                    priceCents: mode == "FREE_TRIAL" ? nil : price,
                                                    planType: attributes.targetSubscriptionPlanType?.rawValue))
        }
    }

    /// The USD price of an offer, from its USA price and that price's point.
    func baseTerritoryPrice<Page: OfferPricePage>(_ context: String,
                                                  _ fetch: @escaping @Sendable (Client) async throws -> Page) async throws(SyncError) -> Int? {
        let pages = try await pages(context, fetch) { $0.nextLink }
        let points = Dictionary(pages.flatMap(\.pricePoints).compactMap { id, price in price.map { (id, $0) } },
                                uniquingKeysWith: { a, _ in a })
        return pages.lazy.flatMap(\.pricePointIDs).first.flatMap { points[$0] }.flatMap { Price(text: $0)?.cents }
    }

    // MARK: Calls

    func read<Result>(_ context: String, _ call: (Client) async throws -> Result) async throws(SyncError) -> Result {
        do { return try await asc.send(call) } catch { throw .read(context: context, error: error) }
    }

    func pages<Page: Sendable>(_ context: String, _ first: @escaping @Sendable (Client) async throws -> Page,
                               next: @escaping @Sendable (Page) -> String?) async throws(SyncError) -> [Page] {
        do { return try await asc.allPages(first, next: next) } catch { throw .read(context: context, error: error) }
    }

    /// A to-one relationship that may not exist yet (App Store Connect answers 404, or no data).
    func optional<Result>(_ context: String, _ call: (Client) async throws -> Result?) async throws(SyncError) -> Result? {
        do {
            return try await asc.send(call)
        } catch {
            if case let .api(status, _) = error, status == 404 { return nil }
            throw .read(context: context, error: error)
        }
    }
}

/// A page of an offer's prices (promotional, offer code, win-back): which price points they use, and those points'
/// customer prices from `included`.
protocol OfferPricePage: Sendable {
    var pricePointIDs: [String] { get }
    var pricePoints: [(String, String?)] { get }
    var nextLink: String? { get }
}

extension Components.Schemas.SubscriptionPromotionalOfferPricesResponse: OfferPricePage {
    var pricePointIDs: [String] { data.compactMap { $0.relationships?.subscriptionPricePoint?.data?.id } }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

extension Components.Schemas.SubscriptionOfferCodePricesResponse: OfferPricePage {
    var pricePointIDs: [String] { data.compactMap { $0.relationships?.subscriptionPricePoint?.data?.id } }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}

extension Components.Schemas.WinBackOfferPricesResponse: OfferPricePage {
    var pricePointIDs: [String] { data.compactMap { $0.relationships?.subscriptionPricePoint?.data?.id } }
    var pricePoints: [(String, String?)] {
        (included ?? []).compactMap { if case let .subscriptionPricePoints(point) = $0 { (point.id, point.attributes?.customerPrice) } else { nil } }
    }
    var nextLink: String? { links.next }
}
