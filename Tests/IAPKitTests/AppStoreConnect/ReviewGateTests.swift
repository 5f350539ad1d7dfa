import Foundation
import TestSupport
import Testing

/// Writes App Store Connect takes only for products App Review approved (`ReviewGate`): a win-back offer, and an
/// in-app purchase offer code's production codes and custom codes. Plan shows them waiting (`…`), push does all the
/// rest and exits 0, and the first push after the approval sends exactly them.
@Suite(.showsFakeLog) struct ReviewGateTests {
    static let bundleID = "com.example.gates"
    static let club = bundleID + ".club"
    static let gems = bundleID + ".gems"

    /// A subscription and an in-app purchase ready for review, never approved, made outside iapkit.
    static func seeded() throws -> (FakeAppStoreConnect, String) {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: bundleID)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": gems, "name": "Gems", "inAppPurchaseType": "CONSUMABLE", "state": "READY_TO_SUBMIT",
                        "localizations": [["locale": "en-US", "name": "Gems", "description": "A pile of gems"]],
                        "prices": [["territory": "USA", "usd": "0.99"]], "baseTerritory": "USA",
                        "availability": ["territories": ["USA", "FRA"], "availableInNewTerritories": false],
                    ]
                ],
                "subscriptionGroups": [
                    [
                        "referenceName": "Club", "localizations": [["locale": "en-US", "name": "Club"]],
                        "subscriptions": [
                            [
                                "productId": club, "name": "Club Monthly", "subscriptionPeriod": "ONE_MONTH", "groupLevel": 1,
                                "state": "READY_TO_SUBMIT",
                                "localizations": [["locale": "en-US", "name": "Club", "description": "Every month"]],
                                "prices": [["territory": "USA", "usd": "4.99"]],
                            ]
                        ],
                    ]
                ],
            ])
        return (fake, app)
    }

    /// Inserts `block` after the line naming `productID`, at that product's key indentation.
    static func insert(_ block: [String], after productID: String, in text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.contains("productId: \(productID)") }) else { return text }
        let indent = String(repeating: " ", count: lines[index].prefix { $0 == " " || $0 == "-" }.count)
        lines.insert(contentsOf: block.map { indent + $0 }, at: index + 1)
        return lines.joined(separator: "\n")
    }

    @Test func gatedWritesWaitForApprovalWhileEverythingElseIsPushed() throws {
        let (fake, app) = try Self.seeded()
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let later = DeclaredStateSyncTests.day(in: 90)
        var text = try String(contentsOfFile: catalog, encoding: .utf8)
        text = Self.insert(
            ["winBackOffers:", "  - offerId: back", "    referenceName: Welcome back", "    mode: free-trial", "    duration: P1M"],
            after: Self.club, in: text)
        text = Self.insert(
            [
                "offerCodes:", "  - referenceName: Launch", "    price: 0", "    eligibility: [non-spender]",
                "    oneTimeCodes: [{count: 5, expires: \(later)}, {count: 3, expires: \(later), environment: sandbox}]",
                "    customCodes: [{code: GEMS31, count: 20}]",
            ],
            after: Self.gems, in: text)
        // And work that waits for nothing: a new localization of the subscription.
        text = text.replacingOccurrences(of: "description: Every month", with: "description: Every month, fresh")
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        #expect(try iapkit("lint", "catalog", catalog).status == 0)

        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(
            plan.stdout.contains("… winBackOffer \(Self.club) [back]") && plan.stdout.contains("only for a subscription App Review has approved"),
            "\(plan.stdout)")
        #expect(
            plan.stdout.contains("… inAppPurchaseOfferCode \(Self.gems) [Launch]: oneTimeCodes (none) -> \"5 codes until \(later)\""),
            "\(plan.stdout)")
        #expect(
            plan.stdout.contains("+ inAppPurchaseOfferCode \(Self.gems) [Launch]") && plan.stdout.contains("\"3 sandbox codes until \(later)\""),
            "\(plan.stdout)")
        #expect(plan.stdout.contains("3 waiting for App Review") == false && plan.stdout.contains("2 waiting for App Review"), "\(plan.stdout)")
        // The localization is still to push: with the base the first push recorded, it is the catalog's change, pending,
        // which --check does not count (the nightly job's drift check).
        let pending = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(pending.status == 0 && pending.stdout.contains("[pending: the catalog's change]"), "\(pending.stdout)")

        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(push.stdout.contains("2 changes wait for App Review"), "\(push.stdout)")
        #expect(try AscSyncTests.resources(fake, "winBackOffers").isEmpty)
        let batches = try DeclaredStateSyncTests.attributes(fake, "inAppPurchaseOfferCodeOneTimeUseCodes").map {
            "\($0["numberOfCodes"] ?? "") \($0["environment"] ?? "")"
        }
        #expect(batches == ["3 SANDBOX"], "\(batches)")
        #expect(try AscSyncTests.resources(fake, "inAppPurchaseOfferCodeCustomCodes").isEmpty)
        // Only what waits is left: --check passes, and push again sends nothing.
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0)
        let writes = try fake.writeCount()
        let again = try AscSyncTests.push(fake, catalog)
        #expect(again.status == 0 && again.stdout.contains("nothing to push now"), "\(again.stderr)")
        #expect(try fake.writeCount() == writes)

        // App Review approves both; the next push sends what waited, and then nothing is left.
        _ = try fake.control("POST", "approve", ["appId": app, "productIds": [Self.club, Self.gems]])
        let after = try AscSyncTests.push(fake, catalog)
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        #expect(try AscSyncTests.resources(fake, "winBackOffers").count == 1)
        let made = try DeclaredStateSyncTests.attributes(fake, "inAppPurchaseOfferCodeOneTimeUseCodes").map {
            "\($0["numberOfCodes"] ?? "") \($0["environment"] ?? "")"
        }
        #expect(made.sorted() == ["3 SANDBOX", "5 PRODUCTION"], "\(made)")
        #expect(try AscSyncTests.resources(fake, "inAppPurchaseOfferCodeCustomCodes").count == 1)
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0 && !check.stdout.contains("…"), "\(check.stdout)")
    }
}
