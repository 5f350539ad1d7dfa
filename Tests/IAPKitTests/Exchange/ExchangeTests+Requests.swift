import CatalogExchange
import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// `export asc`, the server's JSON and the bundle's list, and malformed StoreKit files.
extension ExchangeTests {
    /// POSTs by path, after checking that every `${ref}` a request uses was created by an earlier request.
    static let countRequests = """
        import json, re, sys
        refs, counts = set(), {}
        for r in json.load(open(sys.argv[1])):
            assert r['method'] in ('POST', 'PATCH', 'PUT', 'DELETE'), r
            assert r['method'] in ('PUT', 'DELETE') or r['body']['data']['type'], r
            for used in re.findall(r'\\$\\{([^}]+)\\}', json.dumps(r.get('body', {})) + r['path']):
                if ':' not in used:
                    continue  # an inline resource of the same body: ${price-1}
                used = re.sub(r':[A-Z]{3}:[0-9.]+$', '', re.sub(r'^pricePoint:', '', used)).replace('.uploadOperations', '')
                assert used in refs, (used, 'used before it was created')
            if 'ref' in r: refs.add(r['ref'])
            if r['method'] == 'POST':
                counts[r['path']] = counts.get(r['path'], 0) + 1
            if r['method'] == 'PATCH':  # resources created inline, every territory in one request
                for item in r['body'].get('included', []):
                    counts['/v1/' + item['type']] = counts.get('/v1/' + item['type'], 0) + 1
        print(json.dumps(counts, sort_keys=True))
        """

    @Test func ascRequestsCreateTheExamplesInOrder() throws {
        let result = try iapkit("export", "asc", Paths.examplesCatalog, "--app-id", "1234567890", in: Paths.fixtures)
        #expect(result.status == 0, "\(result.stderr)")
        let dir = TemporaryDirectory()
        let out = try python(Self.countRequests, [dir.write("asc.json", result.stdout)])
        let counts = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Int] ?? [:]
        #expect(counts["/v2/inAppPurchases"] == 4 && counts["/v1/inAppPurchaseVersions"] == 4)
        #expect(counts["/v2/inAppPurchaseLocalizations"] == 5)
        #expect(counts["/v1/inAppPurchaseAvailabilities"] == 4 && counts["/v1/inAppPurchasePriceSchedules"] == 4)
        #expect(counts["/v1/inAppPurchaseAppStoreReviewScreenshots"] == 4)
        #expect(
            counts["/v1/subscriptionGroups"] == 1 && counts["/v1/subscriptionGroupVersions"] == 1
                && counts["/v2/subscriptionGroupLocalizations"] == 1)
        #expect(counts["/v1/subscriptions"] == 2 && counts["/v1/subscriptionVersions"] == 2 && counts["/v2/subscriptionLocalizations"] == 2)
        // Each subscription is sold, priced and offered in all 175 territories, through its standard plan.
        #expect(counts["/v1/subscriptionPlanAvailabilities"] == 2 && counts["/v1/subscriptionPrices"] == 2 * 175)
        #expect(counts["/v1/subscriptionIntroductoryOffers"] == 2 * 175 && counts["/v1/subscriptionPromotionalOffers"] == 1)
        #expect(counts["/v1/subscriptionAppStoreReviewScreenshots"] == 2)
        #expect(result.stdout.contains("${pricePoint:iap:com.example.fruitstand.banana:USA:0.99}"))
    }

    /// A yearly subscription with both billing plans, the monthly one with offers of its own.
    static let billingPlanCatalog = Example.subscription(
        """
          period: P1Y
          price: 49.99
          introductoryOffer: {mode: free-trial, duration: P1W}
          billingPlans:
            - planType: upfront
            - planType: monthly
              price: 4.99
              introductoryOffer: {mode: free-trial, duration: P1M}
              promotionalOffers:
                - {offerId: monthly.back, referenceName: Monthly back, mode: pay-as-you-go, periods: 3, price: 2.99}
        """)

    @Test func ascRequestsMakeEachBillingPlanAvailableWithItsPricesAndOffers() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", Self.billingPlanCatalog)
        dir.write("shot.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 0, "the billing-plan example lints clean: \(lint.stdout)")
        let result = try iapkit("export", "asc", catalog, "--app-id", "1234567890")
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(
            """
            import json, sys
            requests = json.load(open(sys.argv[1]))
            def attrs(path):
                posted = [r['body']['data'].get('attributes', {}) for r in requests if r['path'] == path]
                inline = [i.get('attributes', {}) for r in requests if r['method'] == 'PATCH'
                          for i in r['body'].get('included', []) if '/v1/' + i['type'] == path]
                return posted + inline
            print(sorted(a['planType'] for a in attrs('/v1/subscriptionPlanAvailabilities')))
            print(sorted(set(a.get('planType') for a in attrs('/v1/subscriptionPrices'))))
            print(sorted(set(a.get('targetSubscriptionPlanType') for a in attrs('/v1/subscriptionIntroductoryOffers'))))
            print([(a.get('targetSubscriptionPlanType'), a['offerCode']) for a in attrs('/v1/subscriptionPromotionalOffers')])
            # Each plan is priced, and offered, in every territory where the subscription is sold.
            print(len(attrs('/v1/subscriptionPrices')) == 2 * 175, len(attrs('/v1/subscriptionIntroductoryOffers')) == 2 * 175)
            """, [dir.write("asc.json", result.stdout)])
        #expect(
            out == """
                ['MONTHLY', 'UPFRONT']
                ['MONTHLY', 'UPFRONT']
                ['MONTHLY', 'UPFRONT']
                [('MONTHLY', 'monthly.back')]
                True True

                """)
        // The monthly payment is found among the subscription's USA price points by its customer price.
        #expect(result.stdout.contains("${pricePoint:subscription:com.example.app.club.monthly:USA:4.99}"))
    }

    @Test func serverJSONAndBundlePlist() throws {
        let json = try iapkit("export", "json", Paths.examplesCatalog, in: Paths.fixtures)
        let plist = try iapkit("export", "plist", Paths.examplesCatalog, in: Paths.fixtures)
        let dir = TemporaryDirectory()
        let out = try python(
            """
            import json, plistlib, sys
            d = json.load(open(sys.argv[1]))
            kiwi = next(p for p in d['products'] if p['productId'].endswith('kiwi'))
            assert kiwi['price'] == '1.99' and kiwi['currency'] == 'USD' and kiwi['familySharable'] is False
            ids = plistlib.load(open(sys.argv[2], 'rb'))
            print(len(ids), ids[0])
            """, [dir.write("c.json", json.stdout), dir.write("ids.plist", plist.stdout)])
        #expect(out == "6 com.example.fruitstand.banana\n")
    }

    @Test(arguments: [
        ("{\"products\": [", "not valid JSON"),
        ("{\"version\": {\"major\": 9, \"minor\": 0}, \"products\": [], \"subscriptionGroups\": []}", "$.version"),
        (
            "{\"version\": {\"major\": 3, \"minor\": 0}, \"products\": [{\"productID\": \"a\", \"type\": \"Gadget\", \"displayPrice\": \"0.99\"}]}",
            "$.products[0].type"
        ),
        ("{\"version\": {\"major\": 3, \"minor\": 0}, \"products\": {}}", "$.products"),
        ("[1, 2]", "$"),
    ])
    func malformedStoreKitFilesAreExitTwoWithThePath(content: String, expected: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.write("bad.storekit", content)
        let result = try iapkit("import", "storekit", path)
        #expect(result.status == 2)
        #expect(result.stderr.contains(path) && result.stderr.contains(expected), "\(result.stderr)")
    }
}
