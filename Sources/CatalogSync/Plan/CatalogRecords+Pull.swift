import IAPCatalog
import IAPCore

extension CatalogRecords {
    /// A catalog holding these records, as `asc pull` writes it. Availability equal to "every territory and new
    /// ones" is left out, as the catalog's default; screenshots are named by the file names `pull` downloads them to.
    public func catalog(
        bundleID: String, allTerritories: [String], screenshotPaths: [String: String] = [:],
        imagePaths: [String: String] = [:]
    ) -> Catalog {
        let everywhere = AvailabilityRecord(territories: allTerritories, availableInNewTerritories: true)
        var catalog = Catalog(file: "catalog.yaml")
        catalog.app = App(bundleID: bundleID, primaryLocale: primaryLocale)
        catalog.products = inAppPurchases.map { record in
            product(record, everywhere: everywhere, screenshot: screenshotPaths[record.productID], image: imagePaths[record.productID])
        }
        catalog.subscriptionGroups = groups.map { group in
            SubscriptionGroup(
                path: .root, referenceName: group.referenceName,
                localizations: group.localizations.map {
                    Localization(
                        path: .root, locale: $0.locale, name: $0.name,
                        customAppName: $0.customAppName)
                },
                subscriptions: group.subscriptions.map { record in
                    product(
                        record, everywhere: everywhere, screenshot: screenshotPaths[record.productID],
                        image: imagePaths[record.productID])
                })
        }
        catalog.billingGracePeriod = gracePeriod?.catalogEntry
        if let promoted = promotedPurchases, !promoted.isEmpty { catalog.promotedPurchases = promoted.map(\.catalogEntry) }
        return catalog
    }

    /// en-US when any product has it, else the locale most products have.
    var primaryLocale: String {
        let locales = allProducts.flatMap { $0.localizations.map(\.locale) } + groups.flatMap { $0.localizations.map(\.locale) }
        if locales.contains("en-US") || locales.isEmpty { return "en-US" }
        let counts = Dictionary(locales.map { ($0, 1) }, uniquingKeysWith: +)
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first!.key
    }

    func product(_ record: ProductRecord, everywhere: AvailabilityRecord, screenshot: String?, image: String? = nil) -> Product {
        var product = Product(
            path: .root, productID: record.productID, referenceName: record.referenceName, type: record.type,
            price: record.priceCents.map { Price(cents: $0) },
            familySharable: record.familySharable ? true : nil,
            localizations: record.localizations.map {
                Localization(path: .root, locale: $0.locale, name: $0.name, description: $0.description)
            })
        if record.isSubscription { SubscriptionKind.write(record.subscription, into: &product) }
        // Hand-set territory prices and scheduled changes, so pull → plan shows no change for prices set on the web.
        product.territoryPrices = Self.territoryPriceList(record.territoryPrices)
        product.priceChanges = Self.changeList(record.priceChanges, subscription: record.isSubscription)
        product.sales = SaleRecord.catalogList(record.sales)
        product.baseTerritory = record.baseTerritory
        if record.isSubscription, let priced = record.pricedTerritories {
            // Written only where it is not what the rest of the product implies.
            var implied = product
            implied.pricedTerritories = nil
            let sold = record.availability ?? everywhere
            let impliedRight = CatalogRecords.pricedTerritories(implied, sold: sold, everywhere: everywhere.territories) == priced.sorted()
            // Without a USD price the list is written unless the subscription is sold only where it is priced: lint
            // (`price`) takes territory prices alone as every territory's otherwise, as it does for other products.
            let soldOnlyWherePriced = record.availability != nil && sold != everywhere && Set(sold.territories).isSubset(of: priced)
            if !impliedRight || (record.priceCents == nil && !soldOnlyWherePriced), !priced.isEmpty {
                product.pricedTerritories = priced.count == everywhere.territories.count ? .all : .only(priced.sorted())
            }
        }
        product.promotionalImage = image
        if record.reviewNote != nil || screenshot != nil {
            product.review = Review(path: .root, note: record.reviewNote, screenshot: screenshot)
        }
        if let availability = record.availability, availability != everywhere {
            product.availability = Availability(
                path: .root, territories: availability.territories,
                availableInNewTerritories: availability.availableInNewTerritories)
        }
        product.introductoryOffer = record.introductoryOffer.map { offer($0, subscriptionPeriod: record.period) }
        if let covered = record.introductoryOfferTerritories, product.introductoryOffer != nil {
            let implied = record.pricedTerritories ?? (record.availability ?? everywhere).territories
            if covered.sorted() != implied.sorted() { product.introductoryOffer?.territories = covered.sorted() }
        }
        // An offer set where a new one would be (every territory the product is priced or sold in) names none.
        let offerTerritories = (record.pricedTerritories ?? (record.availability ?? everywhere).territories).sorted()
        func pulled(_ record: OfferRecord, period: String?) -> Offer {
            var pulled = offer(record, subscriptionPeriod: period)
            if let territories = record.territories, territories != offerTerritories {
                pulled.territories = territories
            }
            return pulled
        }
        product.promotionalOffers = record.promotionalOffers.map { pulled($0, period: record.period) }
        product.offerCodes = record.offerCodes.map { pulled($0, period: record.period) }
        product.winBackOffers = record.winBackOffers.map { pulled($0, period: record.period) }
        if record.namesPlans || record.monthlyPlan != nil {
            product.billingPlans = [BillingPlan(path: .root, type: .upfront)]
            if let monthly = record.monthlyPlan {
                product.billingPlans.append(
                    BillingPlan(
                        path: .root, type: .monthly, price: monthly.priceCents.map { Price(cents: $0) },
                        introductoryOffer: monthly.introductoryOffer.map { offer($0, subscriptionPeriod: "P1M") },
                        promotionalOffers: monthly.promotionalOffers.map { offer($0, subscriptionPeriod: "P1M") }))
                product.billingPlans[1].territoryPrices = Self.territoryPriceList(monthly.territoryPrices)
                product.billingPlans[1].priceChanges = Self.changeList(monthly.priceChanges, subscription: true)
            }
        }
        return product
    }

    static func territoryPriceList(_ prices: [String: String]) -> [TerritoryPrice] {
        prices.sorted { $0.key < $1.key }.map { territory, price in
            TerritoryPrice(path: .root, territory: territory, price: Price(text: LocalPrice.display(price, territory: territory)))
        }
    }

    static func changeList(_ changes: [PriceChangeRecord], subscription: Bool) -> [PriceChange] {
        changes.map { change in
            var result = PriceChange(
                path: .root, startDate: change.date, price: change.priceCents.map { Price(cents: $0) },
                territoryPrices: territoryPriceList(change.territoryPrices))
            if subscription {
                result.existingSubscribers = (change.keepsExistingSubscribers ?? true) ? .keep : .move
                result.existingSubscribersByTerritory = change.territoryChoices.sorted { $0.key < $1.key }.map { territory, keeps in
                    TerritoryChoice(path: .root, territory: territory, choice: keeps ? .keep : .move, text: keeps ? "keep" : "move")
                }
            }
            return result
        }
    }
}
