import IAPCatalog
import IAPCore

/// The simulator's settings and its storefront's currency, and the app's policies.
extension StoreKitExporter {
    /// Xcode's simulator shows one storefront, in its currency: where the catalog prices that territory by hand (as
    /// `import storekit` does for a file of another storefront), its price stands in for the USD one.
    static func inStorefrontCurrency(_ catalog: Catalog) -> Catalog {
        guard let storefront = catalog.storeKit?.storefront, storefront != "USA" else { return catalog }
        var converted = catalog
        converted.products = catalog.products.map { inStorefrontCurrency($0, storefront: storefront) }
        converted.subscriptionGroups = catalog.subscriptionGroups.map { group in
            var group = group
            group.subscriptions = group.subscriptions.map { inStorefrontCurrency($0, storefront: storefront) }
            return group
        }
        return converted
    }

    /// One product in the storefront's currency.
    static func inStorefrontCurrency(_ product: Product, storefront: String?) -> Product {
        guard let storefront, storefront != "USA" else { return product }
        func local(_ price: Price?, _ territoryPrices: [TerritoryPrice]) -> Price? {
            territoryPrices.first { $0.territory == storefront }?.price ?? price
        }
        func offer(_ offer: Offer) -> Offer {
            var offer = offer
            offer.price = local(offer.price, offer.territoryPrices)
            return offer
        }
        func offers(_ introductory: inout Offer?, _ promotional: inout [Offer], _ codes: inout [Offer], _ winBack: inout [Offer]) {
            introductory = introductory.map(offer)
            promotional = promotional.map(offer)
            codes = codes.map(offer)
            winBack = winBack.map(offer)
        }
        var product = product
        product.price = local(product.price, product.territoryPrices)
        offers(&product.introductoryOffer, &product.promotionalOffers, &product.offerCodes, &product.winBackOffers)
        product.billingPlans = product.billingPlans.map { plan in
            var plan = plan
            plan.price = local(plan.price, plan.territoryPrices)
            offers(&plan.introductoryOffer, &plan.promotionalOffers, &plan.offerCodes, &plan.winBackOffers)
            return plan
        }
        return product
    }

    func settings(_ catalog: Catalog, into out: inout XcodeJSONWriter) {
        let locale = catalog.storeKit?.locale ?? catalog.app.primaryLocale ?? "en-US"
        out.key("settings")
        out.beginObject()
        // Xcode's StoreKit testing stands in for the sandbox: it simulates the grace period the sandbox would have.
        if let grace = catalog.billingGracePeriod {
            out.key("_billingGracePeriodEnabled")
            out.bool(grace.sandbox ?? grace.enabled ?? false)
        }
        out.field("_locale", StoreKitLocale.storeKit(fromCatalog: locale))
        out.field("_storefront", catalog.storeKit?.storefront ?? "USA")
        out.key("_timeRate")
        out.int(0)
        out.endObject()
    }

    func appPolicies(_ catalog: Catalog, into out: inout XcodeJSONWriter) {
        let primary = catalog.app.primaryLocale ?? "en-US"
        let policies = catalog.appPolicies?.policies ?? []
        out.key("appPolicies")
        out.beginObject()
        out.field("eula", catalog.appPolicies?.eula ?? "")
        out.key("policies")
        out.beginArray()
        for policy in policies.isEmpty ? [AppPolicies.Policy(path: .root, locale: primary)] : policies {
            out.beginObject()
            out.field("locale", StoreKitLocale.storeKit(fromCatalog: policy.locale ?? primary))
            out.field("policyText", policy.text ?? "")
            out.field("policyURL", policy.url ?? "")
            out.endObject()
        }
        out.endArray()
        out.endObject()
    }
}
