import Foundation
import IAPCatalog
import TestSupport
import Testing

/// `asc plan` compares the offline storefront table with App Store Connect's live answer.
@Suite(.showsFakeLog)
struct StorefrontTableTests {
    @Test func theTableSaysWhichStorefrontsPriceInUSDollars() {
        // App Store Connect prices Iceland, Argentina and Kenya in US dollars, the euro area in euros.
        #expect(Storefronts.currencies["ISL"] == "USD")
        #expect(Storefronts.currencies["ARG"] == "USD")
        #expect(Storefronts.currencies["KEN"] == "USD")
        #expect(Storefronts.currencies["DEU"] == "EUR")
        #expect(Storefronts.currencies["IND"] == "INR")
        #expect(Storefronts.codes.count == 175)
        #expect(Set(Storefronts.currencies.values).count == 43)
        #expect(Storefronts.decimals(of: "ISL") == 2, "US dollar prices have cents")
        #expect(Storefronts.decimals(of: "JPN") == 0)
    }

    @Test func planWarnsWhereAppStoreConnectPricesAStorefrontInAnotherCurrency() throws {
        let fake = try PricingSyncTests.fake()
        let dir = TemporaryDirectory()
        let catalog = try PricingSyncTests.write(PricingSyncTests.catalog(), in: dir)
        let agreeing = try iapkit(["asc", "plan", catalog, "--format", "json"], environment: fake.environment)
        #expect(agreeing.status == 0, "\(agreeing.stderr)")
        #expect(!agreeing.stderr.contains("iapkit's table"), "the fake serves the table: \(agreeing.stderr)")
        let agreed = try JSONSerialization.jsonObject(with: Data(agreeing.stdout.utf8)) as? [String: Any]
        #expect((agreed?["storefrontDifferences"] as? [Any])?.isEmpty == true)

        try fake.control("POST", "settings", ["currencies": ["ISL": "ISK", "GBR": "EUR"]])
        let differing = try iapkit(["asc", "plan", catalog, "--format", "json"], environment: fake.environment)
        #expect(differing.status == 0, "a stale table is a warning, not a failure: \(differing.stderr)")
        #expect(differing.stderr.contains("App Store Connect prices ISL in ISK; iapkit's table says USD"), "\(differing.stderr)")
        #expect(differing.stderr.contains("App Store Connect prices GBR in EUR; iapkit's table says GBP"), "\(differing.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(differing.stdout.utf8)) as? [String: Any]
        let differences = (plan?["storefrontDifferences"] as? [[String: Any]]) ?? []
        #expect(differences.map { $0["territory"] as? String } == ["GBR", "ISL"])
        #expect(differences.first?["appStoreConnect"] as? String == "EUR")
        #expect(differences.first?["table"] as? String == "GBP")

        try fake.control("POST", "settings", ["currencies": [String: String](), "storefronts": ["USA", "FRA", "JPN"]])
        let fewer = try PricingSyncTests.plan(fake, catalog)
        #expect(
            fewer.text.contains("iapkit's storefront table lists 172 storefronts App Store Connect does not sell in"),
            "\(fewer.text)")
    }
}

/// `iapkit asc prices` and `export json` read back what a push wrote.
@Suite(.showsFakeLog)
struct PriceSheetTests {
    @Test func thePriceSheetListsEveryTerritoryNowAndAtEachChangeWithProceeds() throws {
        let fake = try PricingSyncTests.fake()
        let dir = TemporaryDirectory()
        let catalog = try PricingSyncTests.write(
            PricingSyncTests.catalog(
                iap: PricingSyncTests.overrides,
                subscription: PricingSyncTests.subscriptionChanges), in: dir)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        let result = try iapkit(["asc", "prices", catalog, "--format", "csv", "-o", dir.file("prices.csv")], environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        // Read with Python's csv module, independently of the writer. Today's prices are from App Store Connect's
        // today, a date like every other row's.
        let summary = try python(
            """
            import csv, json, sys
            rows = list(csv.DictReader(open(sys.argv[1], newline="")))
            now = sys.argv[2]
            def find(product, territory, when):
                return [r for r in rows if r["productId"] == product and r["territory"] == territory and r["from"] == when]
            gems, club = "com.example.prices.gems", "com.example.prices.club.monthly"
            print(json.dumps({
                "columns": list(rows[0].keys()),
                "dates": all(len(r["from"]) == 10 and r["from"][4] == "-" and r["from"] >= now for r in rows),
                "territories": len({r["territory"] for r in rows if r["productId"] == gems and r["from"] == now}),
                "gemsIndiaNow": find(gems, "IND", now)[0]["customerPrice"],
                "gemsIndiaLater": find(gems, "IND", "2027-01-15")[0]["customerPrice"],
                "gemsUsaLater": find(gems, "USA", "2027-01-15")[0]["customerPrice"],
                "gemsIndiaSet": find(gems, "IND", now)[0]["set"],
                "gemsFranceSet": find(gems, "FRA", now)[0]["set"],
                "clubBrazil": find(club, "BRA", now)[0]["customerPrice"],
                "clubBrazilSet": find(club, "BRA", now)[0]["set"],
                "clubIndiaLater": find(club, "IND", "2027-01-15")[0]["customerPrice"],
                "proceeds": all(r["proceeds"] for r in rows),
                "clubPlan": find(club, "BRA", now)[0]["plan"],
                "japanProceeds": find(gems, "JPN", now)[0]["proceeds"],
                "usaProceeds": find(gems, "USA", now)[0]["proceeds"],
            }))
            """, [dir.file("prices.csv"), PricingSyncTests.today])
        let sheet = try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any] ?? [:]
        #expect(sheet["columns"] as? [String] == ["productId", "plan", "territory", "currency", "from", "until", "customerPrice", "proceeds", "set"])
        #expect(sheet["dates"] as? Bool == true, "every row's from is a date, today's or later: \(summary)")
        #expect(sheet["territories"] as? Int == Storefronts.codes.count)
        #expect(sheet["gemsIndiaNow"] as? String == "99" && sheet["gemsIndiaLater"] as? String == "129")
        #expect(sheet["gemsUsaLater"] as? String == "1.29")
        #expect(sheet["gemsIndiaSet"] as? String == "by hand" && sheet["gemsFranceSet"] as? String == "equalized")
        #expect(sheet["clubBrazil"] as? String == "14.90" && sheet["clubBrazilSet"] as? String == "by hand")
        #expect(sheet["clubIndiaLater"] as? String == "499")
        #expect(sheet["proceeds"] as? Bool == true)
        // A subscription without billing plans names no plan; proceeds in the territory's decimals (yen are whole).
        #expect(sheet["clubPlan"] as? String == "", "\(summary)")
        #expect((sheet["japanProceeds"] as? String).map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } == true, "\(summary)")
        #expect((sheet["usaProceeds"] as? String)?.split(separator: ".").last?.count == 2, "\(summary)")

        let json = try iapkit(["asc", "prices", catalog, "--format", "json"], environment: fake.environment)
        #expect(json.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let prices = (parsed?["prices"] as? [[String: Any]]) ?? []
        #expect(prices.count > 2 * Storefronts.codes.count)
        // JSON has the same `from`, and keeps `startDate` null for today's price.
        let today = prices.filter { $0["startDate"] is NSNull }
        #expect(!today.isEmpty && today.allSatisfy { $0["from"] as? String == PricingSyncTests.today }, "\(prices.prefix(2))")
        #expect(prices.filter { $0["startDate"] is String }.allSatisfy { $0["from"] as? String == $0["startDate"] as? String })
    }

    /// `--product` narrows the sheet to the products its patterns match, as `asc plan --product` matches them, and
    /// reads only their prices.
    @Test func theSheetOfSomeProductsReadsOnlyTheirPrices() throws {
        let fake = try PricingSyncTests.fake()
        let dir = TemporaryDirectory()
        let catalog = try PricingSyncTests.write(
            PricingSyncTests.catalog(iap: PricingSyncTests.overrides, subscription: PricingSyncTests.subscriptionChanges), in: dir)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        func sheet(_ arguments: [String]) throws -> (products: Set<String>, paths: [String], stderr: String) {
            try fake.control("DELETE", "requests")
            let result = try iapkit(["asc", "prices", catalog, "--format", "json"] + arguments, environment: fake.environment)
            #expect(result.status == 0, "\(result.stderr)")
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let products = Set(((parsed?["prices"] as? [[String: Any]]) ?? []).compactMap { $0["productId"] as? String })
            return (products, try AscScopeTests.paths(fake), result.stderr)
        }
        let club = try sheet(["--product", "com.example.prices.club.*"])
        #expect(club.products == ["com.example.prices.club.monthly"])
        #expect(!club.paths.contains { $0.contains("/v1/inAppPurchasePriceSchedules/") }, "no in-app purchase's prices are read: \(club.paths)")
        #expect(club.paths.contains { $0.hasPrefix("/v1/subscriptions/") && $0.hasSuffix("/prices") }, "\(club.paths)")

        let gems = try sheet(["--product", "com.example.prices.gems"])
        #expect(gems.products == ["com.example.prices.gems"])
        #expect(!gems.paths.contains { $0.hasPrefix("/v1/subscriptions/") && $0.hasSuffix("/prices") }, "\(gems.paths)")

        let both = try sheet(["--product", "com.example.prices.gems", "--product", "*.monthly"])
        #expect(both.products == ["com.example.prices.gems", "com.example.prices.club.monthly"])

        let none = try sheet(["--product", "com.example.other.*"])
        #expect(none.products.isEmpty)
        #expect(none.stderr.contains("matches `com.example.other.*`"), "\(none.stderr)")
    }

    @Test func exportJSONCarriesEachTerritorysPriceWhereTheCatalogGivesOne() throws {
        let dir = TemporaryDirectory()
        let catalog = try PricingSyncTests.write(
            PricingSyncTests.catalog(
                iap: PricingSyncTests.overrides,
                subscription: PricingSyncTests.subscriptionChanges), in: dir)
        let result = try iapkit("export", "json", catalog, "-o", dir.file("server.json"))
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(
            """
            import json, sys
            doc = json.load(open(sys.argv[1]))
            gems = doc["products"][0]
            club = doc["subscriptionGroups"][0]["subscriptions"][0]
            print(json.dumps([gems["territoryPrices"]["IND"], gems["territoryPrices"]["JPN"], gems["priceChanges"][0],
                              club["priceChanges"][0]["existingSubscribers"]]))
            """, [dir.file("server.json")])
        let values = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [Any] ?? []
        #expect(values.first as? [String: String] == ["price": "99", "currency": "INR"])
        #expect((values[1] as? [String: String])?["currency"] == "JPY")
        let change = values[2] as? [String: Any]
        #expect(change?["startDate"] as? String == "2027-01-15" && change?["price"] as? String == "1.29")
        #expect(values.last as? String == "keep")
    }
}

/// A price sheet is read only from inside the catalog's folder, and a bad one is a located finding, not a crash.
@Suite(.showsFakeLog)
struct PriceSheetInputTests {
    @Test(arguments: [
        ("../outside.csv", "must be a relative path inside the catalog's folder"),
        ("/etc/passwd", "must be a relative path inside the catalog's folder"),
        ("missing.csv", "does not exist"),
        ("no-header.csv", "needs a header row with the columns `territory,price`"),
        ("comma.csv", "write the decimal separator as a point"),
    ])
    func aBadPriceSheetIsAFindingAtTheKey(sheet: String, message: String) throws {
        let dir = TemporaryDirectory()
        try "IND,99\n".write(toFile: dir.file("no-header.csv"), atomically: true, encoding: .utf8)
        try "territory,price\nBRA,\"14,90\"\n".write(toFile: dir.file("comma.csv"), atomically: true, encoding: .utf8)
        let catalog = try PricingSyncTests.write(PricingSyncTests.catalog(iap: "    priceSheet: \(sheet)\n"), in: dir)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains(message), "\(lint.stdout)")
        #expect(lint.stdout.contains("catalog.yaml:10:") || lint.stdout.contains("comma.csv:2:1"), "\(lint.stdout)")
    }
}
