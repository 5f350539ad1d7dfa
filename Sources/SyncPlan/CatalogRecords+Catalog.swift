import Crypto
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
                        period: subscription.period, groupLevel: subscription.groupLevel,
                        pricedTerritories: priced,
                        introductoryOffer: intro,
                        introductoryOfferTerritories: intro == nil
                            ? nil : (subscription.introductoryOffer?.territories?.sorted() ?? priced ?? availability.territories),
                        promotionalOffers: subscription.promotionalOffers.compactMap { offer($0, .promotional) },
                        offerCodes: subscription.offerCodes.compactMap { offer($0, .offerCode) },
                        winBackOffers: subscription.winBackOffers.compactMap { offer($0, .winBack) },
                        path: subscription.path))
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

    static func offerRecord(_ offer: Offer, kind: OfferRecord.Kind, subscriptionPeriod: String?, planType: String? = nil) -> OfferRecord? {
        guard let terms = Vocabulary.terms(of: offer, subscriptionPeriod: subscriptionPeriod) else { return nil }
        let identifier: String?
        switch kind {
        case .introductory: identifier = nil
        case .offerCode, .inAppPurchaseOfferCode: identifier = offer.referenceName
        case .promotional, .winBack: identifier = offer.offerID
        }
        var record = OfferRecord(
            kind: kind, identifier: identifier, referenceName: offer.referenceName ?? offer.offerID, mode: terms.mode,
            duration: terms.duration, periods: terms.periods, priceCents: offer.mode == .freeTrial ? nil : offer.price?.cents,
            eligibilities: offer.eligibility.map { $0.map(\.apiValue) },
            offerEligibility: kind == .offerCode ? ((offer.stackable ?? false) ? "STACK_WITH_INTRO_OFFERS" : "REPLACE_INTRO_OFFERS") : nil,
            planType: planType)
        if offer.mode != .freeTrial { record.territoryPrices = ProductRecord.territoryPrices(offer.territoryPrices) }
        if kind != .introductory { record.territories = offer.territories.map { Array(Set($0)).sorted() } }
        if kind == .winBack { record.winBack = WinBackRecord(offer.winBack) }
        if kind == .offerCode { record.codes = OfferCodesRecord(offer) }
        return record
    }

    /// An in-app purchase's offer code: its price (0 is free) and customers, every customer when it names none.
    static func inAppPurchaseOfferCode(_ offer: Offer) -> OfferRecord? {
        guard let name = offer.referenceName else { return nil }
        var record = OfferRecord(
            kind: .inAppPurchaseOfferCode, identifier: name, referenceName: name, mode: "", duration: "", periods: 0,
            priceCents: offer.price?.cents,
            eligibilities: (offer.eligibility ?? OfferEligibility.inAppPurchaseCustomers).map(\.apiValue))
        record.territoryPrices = ProductRecord.territoryPrices(offer.territoryPrices)
        record.codes = OfferCodesRecord(offer)
        return record
    }
}

extension ScreenshotRecord {
    /// Reads a review screenshot and computes the MD5 App Store Connect checks uploads against. Only regular files
    /// are read, so a path that names a FIFO or a device cannot make the command hang.
    public init(file path: String) throws(IAPKitError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .io(path: path, reason: "review screenshot does not exist") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, reason: "review screenshot is not a regular file") }
        guard info.st_size <= Self.maximumBytes else {
            throw .io(path: path, reason: "review screenshot is larger than \(Self.maximumBytes / 1_000_000) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, reason: "cannot be read") }
        let digest = Insecure.MD5.hash(data: data).map { Format.hex($0, width: 2) }.joined()
        self.init(fileName: Path.lastComponent(path), checksum: digest, path: path, size: data.count)
    }

    /// Screenshots are a few megabytes; anything far larger is not a screenshot.
    public static let maximumBytes: Int64 = 50_000_000
}

extension WinBackRecord {
    /// The catalog's settings, absent ones at App Store Connect's usual choices.
    public init(_ settings: WinBackSettings) {
        self.init()
        if let months = settings.paidMonths { paidMonths = months }
        if let minimum = settings.lapsedMinimum { lapsedMinimum = minimum }
        if let maximum = settings.lapsedMaximum { lapsedMaximum = maximum }
        monthsBetweenOffers = settings.monthsBetweenOffers
        if settings.priority == "high" { priority = "HIGH" }
        if settings.promotion == "app-store" { promotionIntent = "USE_AUTO_GENERATED_ASSETS" }
        startDate = settings.startDate.flatMap(CalendarDay.parse)
        endDate = settings.endDate.flatMap(CalendarDay.parse)
    }

    /// The inverse: only what differs from the usual choices is written.
    public var settings: WinBackSettings {
        let usual = WinBackRecord()
        var settings = WinBackSettings()
        if paidMonths != usual.paidMonths { settings.paidMonths = paidMonths }
        if lapsedMinimum != usual.lapsedMinimum || lapsedMaximum != usual.lapsedMaximum {
            settings.lapsedMinimum = lapsedMinimum
            settings.lapsedMaximum = lapsedMaximum
        }
        settings.monthsBetweenOffers = monthsBetweenOffers
        if priority == "HIGH" { settings.priority = "high" }
        if promotionIntent == "USE_AUTO_GENERATED_ASSETS" { settings.promotion = "app-store" }
        settings.startDate = startDate.map(CalendarDay.format)
        settings.endDate = endDate.map(CalendarDay.format)
        return settings
    }
}

extension OfferCodesRecord {
    /// The catalog's offer code: active unless it says not, its batches and custom codes (absent flags: active).
    public init(_ offer: Offer) {
        self.init(
            active: offer.active ?? true,
            batches: offer.oneTimeCodes?.compactMap { batch in
                guard let count = batch.count, let expires = batch.expires.flatMap(CalendarDay.parse) else { return nil }
                return Batch(count: count, expires: expires, active: batch.active ?? true, environment: batch.environment ?? .production)
            },
            custom: offer.customCodes?.compactMap { code in
                guard let text = code.code, let count = code.count else { return nil }
                return Custom(code: text, count: count, expires: code.expires.flatMap(CalendarDay.parse), active: code.active ?? true)
            })
    }

    /// Writes the record into a pulled offer code: only what is not the default.
    public func apply(to offer: inout Offer) {
        offer.active = active ? nil : false
        // Lists App Store Connect has none of are left out, so a pulled catalog manages only what exists.
        offer.oneTimeCodes = batches.flatMap { $0.isEmpty ? nil : $0 }?.map { batch in
            // Production is the catalog's default; an environment App Store Connect did not answer is left out, with its note.
            OneTimeCodeBatch(
                path: .root, count: batch.count, expires: CalendarDay.format(batch.expires), active: batch.active ? nil : false,
                environment: batch.environment == .sandbox ? .sandbox : nil)
        }
        offer.customCodes = custom.flatMap { $0.isEmpty ? nil : $0 }?.map { code in
            CustomOfferCode(
                path: .root, code: code.code, count: code.count, expires: code.expires.map(CalendarDay.format),
                active: code.active ? nil : false)
        }
    }
}
