import Foundation
import TestSupport
import Testing

/// A change is whole or not started: plan refuses what push would, and a spent hour is said at once, as Apple
/// counts it, with nothing sent into it.
@Suite(.showsFakeLog)
struct WholeChangeTests {
    @Test func aPriceLintRefusesIsRefusedByPlanAndASavedPlanOfItIsNotAppliable() throws {
        let (fake, _, dir, catalog) = try BaseSyncTests.pushed()
        try BaseSyncTests.edit(catalog, "price: 1.49", "price: 1.98")
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
        let line = plan.stdout.split(separator: "\n").first { $0.hasPrefix("! inAppPurchasePriceSchedule com.example.twoauthors.gems") }
        #expect(line?.contains("price: $1.98 is not a USD price point") == true, "\(plan.stdout)")
        let saved = dir.file("off-grid.plan.json")
        let out = try iapkit(["asc", "plan", catalog, "--out", saved], environment: fake.environment)
        #expect(out.status == 1, "\(out.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved))) as? [String: Any]
        #expect(root?["appliable"] as? Bool == false)
        #expect(FileManager.default.fileExists(atPath: dir.file("off-grid.plan.md")), "the whole plan's Markdown beside it")
    }

    @Test func aSpentHourWithoutRetryAfterIsExit75AtOnceAndQuotesNoRetryAfter() throws {
        let (fake, _, dir, catalog) = try BaseSyncTests.pushed()
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 0, "rateLimitRetryAfter": false])
        let started = Date()
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 75, "\(plan.stderr)")
        #expect(Date().timeIntervalSince(started) < 30, "no retries into a spent hour")
        #expect(!plan.stderr.contains("Retry-After"), "none was sent: \(plan.stderr)")
        #expect(ExitCodeTests.saysWhenToRunAgain(plan.stderr), "\(plan.stderr)")
        let answered429 = try fake.requests().filter { ($0["status"] as? Int) == 429 }.count
        #expect(answered429 == 1, "one request found the hour spent, and nothing more was sent")
        withExtendedLifetime(dir) {}
    }

    /// A plain push stopped by the hour at any point (inside a product: created, its screenshot not yet uploaded) is
    /// finished by running it again, with no option: what it created itself is its own, not "not answered".
    @Test(arguments: [12, 19, 27, 36])
    func aPlainPushStoppedByTheHourIsFinishedByRunningItAgain(budget: Int) throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: AscSyncTests.bundleID)
        let project = try AscSyncTests.project()
        let catalog = project.file("catalog.yaml")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": budget])
        let stopped = try AscSyncTests.push(fake, catalog, extra: ["--allow-partial"])
        #expect(stopped.status == 75, "\(budget): \(stopped.stderr)")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 3600])
        let resumed = try AscSyncTests.push(fake, catalog)
        #expect(resumed.status == 0, "\(budget): \(resumed.stdout)\(resumed.stderr)")
        #expect(try AscSyncTests.productIDs(fake, "inAppPurchases").count == 4)
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(budget): \(check.stdout)\(check.stderr)")
    }

    /// A product made without its availability (a push stopped inside it, a web form left half done) is on sale
    /// nowhere: with the catalog naming none (every territory), plan creates it and --check fails.
    @Test func anAvailabilityAppStoreConnectDoesNotHaveIsPlannedAsACreation() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: BaseSyncTests.bundleID)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": "com.example.twoauthors.gems", "name": "Gem Pack", "inAppPurchaseType": "CONSUMABLE",
                        "state": "MISSING_METADATA",
                        "localizations": [["locale": "en-US", "name": "Gem Pack", "description": "A handful of gems."]],
                        "prices": [["territory": "USA", "pricePoint": 10010]],
                    ]
                ],
            ])
        let dir = TemporaryDirectory()
        let gems = BaseSyncTests.catalog.components(separatedBy: "  - productId: com.example.twoauthors.coins")[0]
        let catalog = dir.write("catalog.yaml", gems.replacingOccurrences(of: "price: 1.49", with: "price: 0.99"))
        let plan = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(plan.status == 1, "on sale nowhere is a difference: \(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("+ inAppPurchaseAvailability com.example.twoauthors.gems"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("? "), "nothing left unknown: \(plan.stdout)")
    }
}
