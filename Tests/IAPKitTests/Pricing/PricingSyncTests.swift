import Foundation
import IAPCatalog
import TestSupport
import Testing

/// Territory prices, scheduled changes and price sheets, end to end against the project's fake App Store Connect,
/// whose price points follow each territory's currency (INR whole rupees ending in 9, JPY in tens, BRL ending in .90).
@Suite(.showsFakeLog)
struct PricingSyncTests {
    static let bundleID = "com.example.prices"
    static let today = "2026-11-23"

    static func catalog(iap: String = "", subscription: String = "", more: String = "") -> String {
        """
        schemaVersion: 1
        app:
          bundleId: \(bundleID)
          primaryLocale: en-US
        products:
          - productId: com.example.prices.gems
            referenceName: Gems
            type: consumable
            price: 0.99
        \(iap)
            localizations:
              - locale: en-US
                name: Gems
                description: A handful of gems.
        subscriptionGroups:
          - referenceName: Club
            localizations:
              - locale: en-US
                name: Club
            subscriptions:
              - productId: com.example.prices.club.monthly
                referenceName: Club Monthly
                period: P1M
                groupLevel: 1
                price: 4.99
        \(subscription)
                localizations:
                  - locale: en-US
                    name: Club Monthly
                    description: Every month.
        \(more)
        """
    }

    static func fake() throws -> FakeAppStoreConnect {
        let fake = try FakeAppStoreConnect(pageSize: 50)
        _ = try fake.addApp(bundleID: bundleID)
        try fake.control("POST", "settings", ["today": today])
        return fake
    }

    static func write(_ text: String, in dir: TemporaryDirectory, as name: String = "catalog.yaml") throws -> String {
        try text.write(toFile: dir.file(name), atomically: true, encoding: .utf8)
        return dir.file(name)
    }

    static func plan(_ fake: FakeAppStoreConnect, _ catalog: String) throws -> (status: Int32, text: String) {
        let result = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        return (result.status, result.stdout + result.stderr)
    }

    /// Pulls the app into a new catalog, checks it holds `lines`, and that it plans with no change.
    static func pullAndCheck(
        _ fake: FakeAppStoreConnect, into dir: TemporaryDirectory, holds lines: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let pulled = dir.file("pulled.yaml")
        let pull = try iapkit(["asc", "pull", "-o", pulled, "--force", "--bundle-id", bundleID], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)", sourceLocation: sourceLocation)
        let yaml = try String(contentsOfFile: pulled, encoding: .utf8)
        for line in lines { #expect(yaml.contains(line), "\(line) in\n\(yaml)", sourceLocation: sourceLocation) }
        let check = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
    }

    static func prices(_ fake: FakeAppStoreConnect) throws -> [[String: Any]] {
        try AscSyncTests.resources(fake, "subscriptionPrices")
    }

    static let overrides = """
            territoryPrices:
              IND: 99
              JPN: 160
            priceChanges:
              - startDate: 2027-01-15
                price: 1.29
                territoryPrices:
                  IND: 129
        """
    static let subscriptionChanges = """
                territoryPrices:
                  BRA: 14.90
                priceChanges:
                  - startDate: 2027-01-15
                    price: 5.99
                    territoryPrices:
                      IND: 499
                    existingSubscribers: keep
        """

    @Test func territoryPricesAndAScheduledIncreaseArePushedAndPlannedAgainWithNoChange() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        let catalog = try Self.write(Self.catalog(iap: Self.overrides, subscription: Self.subscriptionChanges), in: dir)
        #expect(try iapkit("lint", "catalog", catalog).status == 0)

        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stderr)")
        // The scheduled subscription prices start on the day and keep existing subscribers on their price.
        let scheduled = try Self.prices(fake).filter { ($0["attributes"] as? [String: Any])?["startDate"] as? String == "2027-01-15" }
        #expect(scheduled.count == Territories.count - 1, "every territory but BRA, which keeps its own price")
        #expect(scheduled.allSatisfy { ($0["attributes"] as? [String: Any])?["preserved"] as? Bool == true })

        let writes = try fake.writeCount()
        let again = try Self.plan(fake, catalog)
        #expect(again.status == 0 && again.text.contains("0 to create, 0 to update"), "\(again.text)")
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        #expect(try fake.writeCount() == writes, "a scheduled change is never written twice")

        // After the start date App Store Connect's today has the new prices; the same catalog still plans no change.
        try fake.control("POST", "settings", ["today": "2027-02-01"])
        let later = try Self.plan(fake, catalog)
        #expect(later.status == 0 && later.text.contains("0 to create, 0 to update"), "\(later.text)")
    }

    /// A scheduled subscription price set by hand at exactly what the new USD price equalizes to (GBR 5.15 for 5.99 on
    /// the fake's grid) reads back as equalized. It is in place all the same: plan has nothing to send, a pull keeps
    /// the catalog's line, and a fresh pull (which cannot tell) writes the change without it and plans clean too.
    @Test func aScheduledHandSetPriceAtItsEqualizationPlansNoChangeAndPullKeepsIt() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        let handSet = Self.subscriptionChanges.replacingOccurrences(of: "IND: 499", with: "IND: 499\n              GBR: 5.15")
        let catalog = try Self.write(Self.catalog(subscription: handSet), in: dir)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        let gbr = try Self.prices(fake).filter {
            ($0["attributes"] as? [String: Any])?["startDate"] as? String == "2027-01-15"
                && (($0["relationships"] as? [String: Any])?["territory"] as? [String: Any]).flatMap {
                    ($0["data"] as? [String: Any])?["id"] as? String
                } == "GBR"
        }
        #expect(gbr.count == 1, "App Store Connect holds GBR's scheduled price")

        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let after = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(
            after.contains("        territoryPrices:\n              IND: 499\n              GBR: 5.15\n"), "pull keeps the hand-set line:\n\(after)")

        let fresh = dir.file("pulled.yaml")
        #expect(try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", fresh], environment: fake.environment).status == 0)
        let pulled = try String(contentsOfFile: fresh, encoding: .utf8)
        #expect(pulled.contains("IND: 499") && !pulled.contains("GBR: 5.15"), "read as equalized:\n\(pulled)")
        let again = try iapkit(["asc", "plan", fresh, "--check"], environment: fake.environment)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    @Test func aChangedTerritoryPriceIsPlannedPerTerritoryWithWhatSubscribersSee() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        let catalog = try Self.write(Self.catalog(iap: Self.overrides, subscription: Self.subscriptionChanges), in: dir)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        let changed = Self.subscriptionChanges.replacingOccurrences(of: "IND: 499", with: "IND: 529")
            .replacingOccurrences(of: "BRA: 14.90", with: "BRA: 19.90")
        let edited = try Self.write(Self.catalog(iap: Self.overrides, subscription: changed), in: dir)
        let plan = try Self.plan(fake, edited)
        #expect(plan.status == 0)
        #expect(
            plan.text.contains(#"~ subscriptionPrices com.example.prices.club.monthly [1 territory price]: BRA "14.90" -> "19.90""#), "\(plan.text)")
        #expect(plan.text.contains(#"[from 2027-01-15, existing subscribers keep their price]: IND "499" -> "529" INR"#), "\(plan.text)")
        #expect(try AscSyncTests.push(fake, edited).status == 0)
        #expect(try Self.plan(fake, edited).text.contains("0 to create, 0 to update"))
    }

    @Test func aPriceATerritoryDoesNotOfferIsRefusedNamingItsNeighbours() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        #expect(try AscSyncTests.push(fake, try Self.write(Self.catalog(), in: dir)).status == 0)
        let wrong = try Self.write(Self.catalog(iap: "    territoryPrices:\n      IND: 100\n"), in: dir)
        let plan = try Self.plan(fake, wrong)
        #expect(plan.status == 1, "a plan App Store Connect would refuse fails: \(plan.text)")
        #expect(plan.text.contains("! inAppPurchasePriceSchedule com.example.prices.gems"), "\(plan.text)")
        #expect(plan.text.contains("IND has no price point of 100 INR; the nearest are 99 and 109"), "\(plan.text)")
        let push = try AscSyncTests.push(fake, wrong)
        #expect(push.status != 0)
    }

    /// A consumable cannot be free: a price below a territory's lowest is called that, naming the lowest, and the free
    /// point is never offered as the nearest, by plan (the grid read through the product) or by push (the grid read
    /// through the first product it creates).
    @Test func aPriceBelowATerritorysLowestNamesItAndNeverOffersFree() throws {
        let wrong = Self.catalog(iap: "    territoryPrices:\n      IND: 5\n      JPN: 5\n")
        let first = try Self.fake()
        let dir = TemporaryDirectory()
        let push = try AscSyncTests.push(first, try Self.write(wrong, in: dir))
        #expect(push.status == 1, "\(push.stderr)")
        let refusals = push.stderr.split(separator: "\n").filter { $0.contains("has no price point") }
        #expect(
            refusals.contains { $0.hasSuffix("com.example.prices.gems: IND has no price point of 5 INR; the lowest there is 29 INR") },
            "\(push.stderr)")
        #expect(
            refusals.contains { $0.hasSuffix("com.example.prices.gems: JPN has no price point of 5 JPY; the lowest there is 40 JPY") },
            "\(push.stderr)")

        let fake = try Self.fake()
        #expect(try AscSyncTests.push(fake, try Self.write(Self.catalog(), in: dir)).status == 0)
        let plan = try Self.plan(fake, try Self.write(wrong, in: dir))
        #expect(plan.status == 1, "\(plan.text)")
        #expect(
            plan.text.contains(
                "IND has no price point of 5 INR; the lowest there is 29 INR; JPN has no price point of 5 JPY; the lowest there is 40 JPY"),
            "\(plan.text)")
        #expect(!plan.text.contains("nearest"), "free is never a nearest price of a consumable: \(plan.text)")
    }

    /// An app's first in-app purchase and first subscription: no product gives access to a grid when plan runs, so
    /// plan says the prices are unchecked, and push creates the first product of each kind, checks every unchecked
    /// price against the grid read through it, and writes nothing else when one is off the grid.
    @Test func theFirstProductsPricesAreCheckedBeforeAnyOtherWrite() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        let wrong = try Self.write(
            Self.catalog(
                iap: "    territoryPrices:\n      IND: 100\n",
                subscription: "        territoryPrices:\n          BRA: 15\n"), in: dir)
        let plan = try Self.plan(fake, wrong)
        #expect(plan.status == 0, "\(plan.text)")
        // Each kind says how its prices will be checked, then one line per price.
        let lines = plan.text.split(separator: "\n").map(String.init)
        for (kind, price, product) in [("in-app purchases", "IND 100", "gems"), ("subscriptions", "BRA 15", "club.monthly")] {
            let head = lines.firstIndex { $0.hasPrefix("unchecked: 1 territory price of \(kind): ") && $0.contains("push creates the first one") }
            #expect(
                head.map { lines[$0 + 1].hasPrefix("  \(price)") && lines[$0 + 1].contains(" (com.example.prices.\(product))  at ") } == true,
                "\(plan.text)")
        }

        // One run checks both kinds: the first product of each is created, then every price is checked, one line each.
        let push = try AscSyncTests.push(fake, wrong)
        #expect(push.status == 1, "\(push.stderr)")
        let refusals = push.stderr.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains("has no price point") }
        #expect(refusals.count == 2, "\(push.stderr)")
        #expect(refusals.contains { $0.hasSuffix("com.example.prices.gems: IND has no price point of 100 INR; the nearest are 99 and 109") })
        #expect(refusals.contains { $0.contains("com.example.prices.club.monthly: BRA has no price point of 15.00 BRL") })
        #expect(push.stderr.contains("stopped before any other write"), "\(push.stderr)")
        // Only the products that gave access to the grids were written (and the group the subscription needs): no localization.
        #expect(try AscSyncTests.resources(fake, "inAppPurchases").count == 1)
        #expect(try AscSyncTests.resources(fake, "subscriptions").count == 1)
        #expect(try AscSyncTests.resources(fake, "subscriptionGroups").count == 1)
        #expect(try AscSyncTests.resources(fake, "inAppPurchaseLocalizations").isEmpty)
        #expect(try AscSyncTests.resources(fake, "subscriptionLocalizations").isEmpty)

        // Fixed, the next plan checks the in-app purchase's price against the grid now readable; push finishes.
        let fixed = try Self.write(
            Self.catalog(
                iap: "    territoryPrices:\n      IND: 99\n",
                subscription: "        territoryPrices:\n          BRA: 14.90\n"), in: dir)
        let again = try Self.plan(fake, fixed)
        #expect(!again.text.contains("unchecked:"), "both grids are readable now: \(again.text)")
        let pushed = try AscSyncTests.push(fake, fixed)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try Self.plan(fake, fixed).text.contains("0 to create, 0 to update"))
    }

    /// A subscription group and its first subscription are created first; an off-grid subscription price stops push there.
    @Test func theFirstSubscriptionsPriceIsCheckedAfterItsGroupAndItAlone() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        let wrong = try Self.write(Self.catalog(subscription: "        territoryPrices:\n          BRA: 15\n"), in: dir)
        let push = try AscSyncTests.push(fake, wrong)
        #expect(push.status == 1, "\(push.stderr)")
        #expect(push.stderr.contains("BRA has no price point of 15.00 BRL"), "\(push.stderr)")
        #expect(push.stderr.contains("`create subscription group Club` and `create subscription com.example.prices.club.monthly`"), "\(push.stderr)")
        #expect(try AscSyncTests.resources(fake, "subscriptions").count == 1)
        #expect(try AscSyncTests.resources(fake, "subscriptionGroups").count == 1)
        // The in-app purchase, with no hand-set price, is not written: it comes after the check in the plan's order.
        #expect(try AscSyncTests.resources(fake, "inAppPurchases").isEmpty)
        #expect(try AscSyncTests.resources(fake, "subscriptionLocalizations").isEmpty)
    }

    @Test func aPriceSheetRoundTripsThroughAppStoreConnectAndPull() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        try "territory,price,startDate\nIND,99,\nJPN,160,\nBRA,5.90,\nIND,129,2027-01-15\n"
            .write(toFile: dir.file("gems-prices.csv"), atomically: true, encoding: .utf8)
        let catalog = try Self.write(Self.catalog(iap: "    priceSheet: gems-prices.csv\n"), in: dir)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        #expect(try Self.plan(fake, catalog).text.contains("0 to create, 0 to update"))

        // Pull writes what App Store Connect holds into a catalog that knows no sheet; it plans clean.
        try Self.pullAndCheck(fake, into: dir, holds: ["IND: 99", "JPN: 160", "BRA: 5.90", "startDate: 2027-01-15", "IND: 129"])
    }

    @Test func aPriceSheetRowIsReportedAtItsLineInTheSheet() throws {
        let dir = TemporaryDirectory()
        try "territory,price,startDate\nIND,99,\nXYZ,5,\nJPN,150.5,\n".write(toFile: dir.file("p.csv"), atomically: true, encoding: .utf8)
        let catalog = try Self.write(Self.catalog(iap: "    priceSheet: p.csv\n    territoryPrices: {IND: 109}\n"), in: dir)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("p.csv:3:1") && lint.stdout.contains("`XYZ` is not an App Store territory"), "\(lint.stdout)")
        #expect(lint.stdout.contains("p.csv:4:1") && lint.stdout.contains("territory-price-decimals"), "\(lint.stdout)")
        #expect(lint.stdout.contains("p.csv:2:1") && lint.stdout.contains("IND is priced twice"), "\(lint.stdout)")
    }

    @Test func offersAndBillingPlansTakeTerritoryPricesAndTheMonthlyPlanItsOwnSchedule() throws {
        let fake = try Self.fake()
        let dir = TemporaryDirectory()
        let subscription = """
                    introductoryOffer:
                      mode: pay-as-you-go
                      periods: 3
                      price: 2.99
                      territoryPrices: {IND: 249}
                    promotionalOffers:
                      - offerId: club_back
                        mode: pay-as-you-go
                        periods: 2
                        price: 2.49
                        territoryPrices: {BRA: 9.90}
            """
        let yearly = """
                  - productId: com.example.prices.club.yearly
                    referenceName: Club Yearly
                    period: P1Y
                    groupLevel: 1
                    price: 49.99
                    billingPlans:
                      - planType: upfront
                      - planType: monthly
                        price: 4.99
                        territoryPrices: {IND: 449}
                        priceChanges:
                          - startDate: 2027-03-01
                            price: 5.49
                            existingSubscribers: keep
                    localizations:
                      - locale: en-US
                        name: Club Yearly
                        description: Every year.
            """
        let catalog = try Self.write(Self.catalog(subscription: subscription, more: yearly), in: dir)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 0, "\(lint.stdout)")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stderr)")
        let again = try Self.plan(fake, catalog)
        #expect(again.text.contains("0 to create, 0 to update"), "\(again.text)")

        let monthlyScheduled = try Self.prices(fake).filter {
            let attributes = $0["attributes"] as? [String: Any]
            return attributes?["planType"] as? String == "MONTHLY" && attributes?["startDate"] as? String == "2027-03-01"
        }
        #expect(monthlyScheduled.count == Territories.count - 1, "every territory but IND, which keeps its own monthly price")

        try Self.pullAndCheck(fake, into: dir, holds: ["IND: 249", "BRA: 9.90", "IND: 449", "startDate: 2027-03-01"])
    }

    @Test func theStorefrontTableIsTheOneTheFakeServes() throws {
        let out = try python(
            """
            import json, sys
            sys.path.insert(0, sys.argv[1])
            from fakeasc.territories import CURRENCY
            from fakeasc.reference import ZERO_DECIMAL
            print(json.dumps({"currencies": CURRENCY, "whole": sorted(ZERO_DECIMAL)}))
            """, [Paths.repository + "/Tests/FakeAppStoreConnect"])
        let fake = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        #expect(fake?["currencies"] as? [String: String] == Storefronts.currencies)
        #expect(Set(fake?["whole"] as? [String] ?? []) == Storefronts.wholeNumberCurrencies)
    }
}

/// The storefronts the tests' catalogs sell in: every one.
enum Territories {
    static var count: Int { Storefronts.codes.count }
}
