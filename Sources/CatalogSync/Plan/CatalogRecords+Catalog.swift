import IAPCatalog
import IAPCore

extension CatalogRecords {
    /// What the reviewed catalog asks App Store Connect to hold. Products the catalog cannot describe fully
    /// (no product ID, no type) are left out: `push` lints first and refuses such a catalog.
    ///
    /// - Parameters:
    ///   - territories: every territory App Store Connect sells in; products without an `availability` key are
    ///     sold in all of them and in new ones.
    ///   - baseDirectory: the catalog's folder, against which review screenshot paths are read.
    public init(
        catalog: Catalog, territories: [String], baseDirectory: String,
        unreadableScreenshots: UnreadableScreenshots = .fail
    ) throws(IAPKitError) {
        let everywhere = AvailabilityRecord(territories: territories, availableInNewTerritories: true)
        func image(_ product: Product) throws(IAPKitError) -> ScreenshotRecord? {
            guard let relative = product.promotionalImage, !relative.isEmpty else { return nil }
            let path = relative.hasPrefix("/") ? relative : Path.join(baseDirectory, relative)
            do { return try ScreenshotRecord(file: path) } catch {
                if unreadableScreenshots == .skip { return nil }
                throw error
            }
        }
        func screenshot(_ product: Product) throws(IAPKitError) -> ScreenshotRecord? {
            guard let relative = product.review?.screenshot, !relative.isEmpty else { return nil }
            let path = relative.hasPrefix("/") ? relative : Path.join(baseDirectory, relative)
            do { return try ScreenshotRecord(file: path) } catch {
                if unreadableScreenshots == .skip { return nil }
                throw error
            }
        }
        func localizations(_ list: [Localization]) -> [LocalizationRecord] {
            list.enumerated().compactMap { position, localization in
                guard let locale = localization.locale else { return nil }
                return LocalizationRecord(
                    locale: locale, name: localization.name ?? "", description: localization.description,
                    customAppName: localization.customAppName, position: position)
            }.sorted { $0.locale < $1.locale }
        }
        inAppPurchases = []
        for product in catalog.products {
            guard let id = product.productID, let type = product.type else { continue }
            inAppPurchases.append(
                ProductRecord(
                    productID: id, referenceName: product.referenceName ?? id, type: type,
                    familySharable: product.familySharable ?? false, reviewNote: product.review?.note,
                    localizations: localizations(product.localizations),
                    availability: Self.availability(product, everywhere: everywhere),
                    priceCents: product.resolvedPriceCents, screenshot: try screenshot(product),
                    path: product.path))
            inAppPurchases[inAppPurchases.count - 1].setPricing(from: product)
            inAppPurchases[inAppPurchases.count - 1].image = try image(product)
            inAppPurchases[inAppPurchases.count - 1].availabilityDeclared = product.availability != nil
            inAppPurchases[inAppPurchases.count - 1].baseTerritory = product.baseTerritory.flatMap { $0 == Vocabulary.baseTerritory ? nil : $0 }
            inAppPurchases[inAppPurchases.count - 1].offerCodes = product.offerCodes.compactMap(Self.inAppPurchaseOfferCode)
        }
        groups = []
        for group in catalog.subscriptionGroups {
            guard let name = group.referenceName else { continue }
            var subscriptions: [ProductRecord] = []
            for subscription in group.subscriptions {
                guard let id = subscription.productID else { continue }
                let availability = Self.availability(subscription, everywhere: everywhere)
                // With billing plans listed, every price and offer names the plan it belongs to.
                let namesPlans = !subscription.billingPlans.isEmpty
                let offer = { (offer: Offer, kind: OfferRecord.Kind) -> OfferRecord? in
                    Self.offerRecord(offer, kind: kind, subscriptionPeriod: subscription.period, planType: namesPlans ? "UPFRONT" : nil)
                }
                let intro = subscription.introductoryOffer.flatMap { offer($0, .introductory) }
                let priced = Self.pricedTerritories(subscription, sold: availability, everywhere: territories)
                subscriptions.append(
                    ProductRecord(
                        productID: id, referenceName: subscription.referenceName ?? id, type: .autoRenewableSubscription,
                        familySharable: subscription.familySharable ?? false, reviewNote: subscription.review?.note,
                        localizations: localizations(subscription.localizations), availability: availability,
                        priceCents: subscription.resolvedPriceCents, screenshot: try screenshot(subscription),
                        pricedTerritories: priced,
                        introductoryOffer: intro,
                        introductoryOfferTerritories: intro == nil
                            ? nil : (subscription.introductoryOffer?.territories?.sorted() ?? priced ?? availability.territories),
                        promotionalOffers: subscription.promotionalOffers.compactMap { offer($0, .promotional) },
                        offerCodes: subscription.offerCodes.compactMap { offer($0, .offerCode) },
                        winBackOffers: subscription.winBackOffers.compactMap { offer($0, .winBack) },
                        path: subscription.path))
                subscriptions[subscriptions.count - 1].subscription = SubscriptionKind.attributes(of: subscription)
                subscriptions[subscriptions.count - 1].namesPlans = namesPlans
                subscriptions[subscriptions.count - 1].image = try image(subscription)
                subscriptions[subscriptions.count - 1].setPricing(from: subscription)
                if let monthly = subscription.billingPlans.first(where: { $0.type == .monthly && $0.enabled != false }) {
                    let monthlyOffer = { (offer: Offer, kind: OfferRecord.Kind) -> OfferRecord? in
                        // A monthly plan's pay-as-you-go offers renew monthly, whatever the subscription's period.
                        Self.offerRecord(offer, kind: kind, subscriptionPeriod: "P1M", planType: "MONTHLY")
                    }
                    let intro = monthly.introductoryOffer.flatMap { monthlyOffer($0, .introductory) }
                    subscriptions[subscriptions.count - 1].monthlyPlan = MonthlyPlanRecord(
                        availability: availability, priceCents: monthly.price?.cents,
                        pricedTerritories: monthly.price?.cents == nil ? nil : availability.territories,
                        introductoryOffer: intro, introductoryOfferTerritories: intro == nil ? nil : availability.territories,
                        promotionalOffers: monthly.promotionalOffers.compactMap { monthlyOffer($0, .promotional) })
                    subscriptions[subscriptions.count - 1].monthlyPlan?.territoryPrices = ProductRecord.territoryPrices(monthly.territoryPrices)
                    subscriptions[subscriptions.count - 1].monthlyPlan?.priceChanges = ProductRecord.changes(monthly.priceChanges, subscription: true)
                }
            }
            groups.append(
                GroupRecord(
                    referenceName: name, localizations: localizations(group.localizations),
                    subscriptions: subscriptions, path: group.path))
        }
        gracePeriod = catalog.billingGracePeriod.map(GracePeriodRecord.init)
        promotedPurchases = catalog.promotedPurchases.map { $0.compactMap(PromotedRecord.init) }
    }

    /// Where a subscription has prices: as the catalog lists them, else where it is sold when it has a USD price,
    /// else where it names a territory price.
    static func pricedTerritories(_ subscription: Product, sold: AvailabilityRecord, everywhere: [String]) -> [String]? {
        switch subscription.pricedTerritories {
        case .all?: return everywhere.sorted()
        case let .only(list)?: return list.sorted()
        case nil:
            if subscription.resolvedPriceCents != nil { return sold.territories }
            let named = subscription.territoryPrices.map(\.territory)
            return named.isEmpty ? nil : Array(Swift.Set(named)).sorted()
        }
    }

    /// `export asc` writes requests before every screenshot exists; `push` needs them all.
    public enum UnreadableScreenshots: Sendable { case fail, skip }

    static func availability(_ product: Product, everywhere: AvailabilityRecord) -> AvailabilityRecord {
        guard let availability = product.availability else { return everywhere }
        return AvailabilityRecord(
            territories: availability.territories ?? everywhere.territories,
            availableInNewTerritories: availability.availableInNewTerritories ?? (availability.territories == nil))
    }
}
