import AppStoreConnect
import AppStoreConnectAPI
import Foundation
import IAPCatalog
import TestSupport
import Testing

/// Prices a team set by hand in App Store Connect (here through the API directly, as its web form does, not
/// through iapkit's writers): pull writes them into the catalog, and that catalog plans with no change.
@Suite
struct HandSetPricesTests {
    typealias Schemas = Components.Schemas

    @Test func pricesSetByHandArePulledAndThePulledCatalogPlansClean() async throws {
        let fake = try PricingSyncTests.fake()
        let dir = TemporaryDirectory()
        #expect(try AscSyncTests.push(fake, try PricingSyncTests.write(PricingSyncTests.catalog(), in: dir)).status == 0)

        let asc = try AppStoreConnectClient(
            credentials: ASCCredentials(
                keyID: fake.keyID, issuerID: fake.issuerID,
                privateKeyPEM: fake.privateKeyPEM),
            serverURL: URL(string: fake.url)!)
        let app = try await asc.send { try await $0.appsGetCollection(query: .init(filterBundleId: [PricingSyncTests.bundleID])).ok.body.json }.data[
            0
        ].id
        let iap = try await asc.send { try await $0.appsInAppPurchasesV2GetToManyRelated(path: .init(id: app)).ok.body.json }.data[0].id
        let iapPoints = try await asc.allPages(
            {
                try await $0.inAppPurchasesV2PricePointsGetToManyRelated(
                    path: .init(id: iap), query: .init(filterTerritory: ["USA", "IND"], limit: 8000, include: [.territory])
                ).ok.body.json
            }, next: { $0.links.next }
        ).flatMap(\.data).map { ($0.relationships?.territory?.data?.id ?? "", $0.attributes?.customerPrice ?? "", $0.id) }
        func iapPoint(_ territory: String, _ price: String) -> String { iapPoints.first { $0.0 == territory && $0.1 == price }?.2 ?? "missing" }

        // The in-app purchase: $0.99, ₹99 by hand, and $1.29 from 2027-01-15.
        let manual: [(String, String?)] = [(iapPoint("USA", "0.99"), nil), (iapPoint("IND", "99"), nil), (iapPoint("USA", "1.29"), "2027-01-15")]
        let prices = manual.enumerated().map { index, entry in
            Schemas.InAppPurchasePriceInlineCreate(
                _type: .inAppPurchasePrices, id: "${p\(index)}", attributes: .init(startDate: entry.1),
                relationships: .init(
                    inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: iap)),
                    inAppPurchasePricePoint: .init(data: .init(_type: .inAppPurchasePricePoints, id: entry.0))))
        }
        let schedule = Schemas.InAppPurchasePriceScheduleCreateRequest(
            data: .init(
                _type: .inAppPurchasePriceSchedules,
                relationships: .init(
                    inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: iap)),
                    baseTerritory: .init(data: .init(_type: .territories, id: "USA")),
                    manualPrices: .init(data: prices.map { .init(_type: .inAppPurchasePrices, id: $0.id ?? "") }))),
            included: prices.map { .InAppPurchasePriceInlineCreate($0) })
        _ = try await asc.send { try await $0.inAppPurchasePriceSchedulesCreateInstance(body: .json(schedule)).created }

        // The subscription: R$14.90 in Brazil from now on, existing subscribers kept.
        let group = try await asc.send { try await $0.appsSubscriptionGroupsGetToManyRelated(path: .init(id: app)).ok.body.json }.data[0].id
        let subscription = try await asc.send { try await $0.subscriptionGroupsSubscriptionsGetToManyRelated(path: .init(id: group)).ok.body.json }
            .data[0].id
        let brazil =
            try await asc.allPages(
                {
                    try await $0.subscriptionsPricePointsGetToManyRelated(
                        path: .init(id: subscription),
                        query: .init(filterTerritory: ["BRA"], limit: 8000)
                    ).ok.body.json
                }, next: { $0.links.next }
            ).flatMap(\.data).first { $0.attributes?.customerPrice == "14.90" }?.id ?? "missing"
        let price = Schemas.SubscriptionPriceInlineCreate(
            _type: .subscriptionPrices, id: "${bra}", attributes: .init(preserveCurrentPrice: true),
            relationships: .init(
                subscription: .init(data: .init(_type: .subscriptions, id: subscription)),
                territory: .init(data: .init(_type: .territories, id: "BRA")),
                subscriptionPricePoint: .init(data: .init(_type: .subscriptionPricePoints, id: brazil))))
        let update = Schemas.SubscriptionUpdateRequest(
            data: .init(
                _type: .subscriptions, id: subscription, relationships: .init(prices: .init(data: [.init(_type: .subscriptionPrices, id: "${bra}")]))),
            included: [.SubscriptionPriceInlineCreate(price)])
        _ = try await asc.send { try await $0.subscriptionsUpdateInstance(path: .init(id: subscription), body: .json(update)).ok }

        try PricingSyncTests.pullAndCheck(fake, into: dir, holds: ["IND: 99", "startDate: 2027-01-15", "price: 1.29", "BRA: 14.90"])
    }
}
