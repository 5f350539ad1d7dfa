@testable import CatalogSync
import Testing

/// Each product list names in `include=` the union of what its resource kinds read from it, and the list operation
/// documents every name (the typed include drops a name it does not know, which would leave a kind without its data).
@Suite struct ListRelationTests {
    @Test func everyRelationAKindReadsIsOneTheListDocumentsAndIsAskedFor() {
        let inAppPurchase = listRelations(InAppPurchaseKinds.all)
        #expect(inAppPurchase == ["inAppPurchaseAvailability", "iapPriceSchedule", "appStoreReviewScreenshot", "images", "offerCodes"])
        #expect(StoreReader.inAppPurchaseIncludes.map(\.rawValue) == inAppPurchase)
        let subscription = listRelations(SubscriptionKinds.all)
        #expect(
            subscription == [
                "planAvailabilities", "introductoryOffers", "promotionalOffers", "offerCodes", "winBackOffers",
                "appStoreReviewScreenshot", "images",
            ])
        #expect(StoreReader.subscriptionIncludes.map(\.rawValue) == subscription)
    }
}
