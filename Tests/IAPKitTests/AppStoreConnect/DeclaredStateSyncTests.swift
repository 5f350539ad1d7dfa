import Foundation
import TestSupport
import Testing

/// The app-level and offer state a catalog declares beyond products (win-back offers in full, the Billing Grace
/// Period, promoted purchases) through push, plan and pull against the project's fake App Store Connect.
@Suite(.showsFakeLog)
struct DeclaredStateSyncTests {
    static let bundleID = "com.example.declared"

    static func catalog(winBack: String = Self.winBack, grace: String? = Self.grace, promoted: String? = Self.promoted) -> String {
        """
        schemaVersion: 1
        app:
          bundleId: \(bundleID)
          primaryLocale: en-US
        products:
          - productId: \(bundleID).gems
            referenceName: Gems
            type: consumable
            price: 0.99
            localizations:
              - {locale: en-US, name: Gems, description: A pile of gems.}
          - productId: \(bundleID).map
            referenceName: Map
            type: non-consumable
            price: 2.99
            localizations:
              - {locale: en-US, name: Map, description: The whole map.}
        subscriptionGroups:
          - referenceName: Club
            localizations:
              - {locale: en-US, name: Club}
            subscriptions:
              - productId: \(bundleID).club
                referenceName: Club Monthly
                period: P1M
                groupLevel: 1
                price: 4.99
                localizations:
                  - {locale: en-US, name: Club Monthly, description: Every month.}
                winBackOffers:
        \(winBack)
        """ + (grace.map { "\n" + $0 } ?? "") + (promoted.map { "\n" + $0 } ?? "") + "\n"
    }

    static let winBack = """
                  - offerId: back_free
                    referenceName: Welcome back
                    mode: free-trial
                    duration: P1M
                    eligibility:
                      paidMonths: 6
                      lapsedMonths: {min: 2, max: 12}
                      monthsBetweenOffers: 3
                    priority: high
                    promotion: app-store
                    endDate: 2099-12-31
                  - offerId: back_plain
                    referenceName: Plain welcome back
                    mode: free-trial
                    duration: P1W
        """

    static let grace = """
        billingGracePeriod:
          enabled: true
          sandbox: true
          duration: P28D
          renewals: paid-to-paid
        """

    static let promoted = """
        promotedPurchases:
          - productId: \(bundleID).club
          - productId: \(bundleID).map
            visible: false
          - productId: \(bundleID).gems
            enabled: false
        """

    static func attributes(_ fake: FakeAppStoreConnect, _ type: String) throws -> [[String: Any]] {
        try AscSyncTests.resources(fake, type).compactMap { $0["attributes"] as? [String: Any] }
    }

    /// A push of products new to App Store Connect, then, when writes waited for App Review (win-back offers, an
    /// in-app purchase's production codes), App Review's approval (the fake's control) and the push that sends them.
    static func pushApproving(_ fake: FakeAppStoreConnect, _ catalog: String, extra: [String] = []) throws -> ProcessResult {
        let first = try AscSyncTests.push(fake, catalog, extra: extra)
        guard first.status == 0, first.stdout.contains("for App Review") else { return first }
        _ = try fake.control("POST", "approve", [String: Any]())
        let second = try AscSyncTests.push(fake, catalog)
        return ProcessResult(status: second.status, stdout: first.stdout + second.stdout, stderr: first.stderr + second.stderr)
    }

    static func plan(_ fake: FakeAppStoreConnect, _ catalog: String) throws -> ProcessResult {
        try iapkit(["asc", "plan", catalog], environment: fake.environment)
    }

    @Test func aCatalogWithEveryDeclaredKindPushesPlansCleanPullsBackEqualAndPushesNothingTwice() throws {
        let fake = try FakeAppStoreConnect()
        let source = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog())
        #expect(try iapkit("lint", "catalog", catalog).status == 0)

        let push = try Self.pushApproving(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let grace = try Self.attributes(fake, "subscriptionGracePeriods").first
        #expect(grace?["optIn"] as? Bool == true && grace?["sandboxOptIn"] as? Bool == true)
        #expect(grace?["duration"] as? String == "TWENTY_EIGHT_DAYS" && grace?["renewalType"] as? String == "PAID_TO_PAID_ONLY")
        let offers = try Self.attributes(fake, "winBackOffers")
        let free = offers.first { $0["offerId"] as? String == "back_free" }
        #expect(free?["customerEligibilityPaidSubscriptionDurationInMonths"] as? Int == 6)
        #expect((free?["customerEligibilityTimeSinceLastSubscribedInMonths"] as? [String: Any])?["maximum"] as? Int == 12)
        #expect(free?["customerEligibilityWaitBetweenOffersInMonths"] as? Int == 3)
        #expect(free?["priority"] as? String == "HIGH" && free?["promotionIntent"] as? String == "USE_AUTO_GENERATED_ASSETS")
        #expect(free?["endDate"] as? String == "2099-12-31")
        let plain = offers.first { $0["offerId"] as? String == "back_plain" }
        #expect(plain?["customerEligibilityPaidSubscriptionDurationInMonths"] as? Int == 1 && plain?["priority"] as? String == "NORMAL")

        let writes = try fake.writeCount()
        let again = try AscSyncTests.push(fake, catalog)
        #expect(again.status == 0 && again.stdout.contains("nothing to push"), "\(again.stdout)\(again.stderr)")
        #expect(try fake.writeCount() == writes, "a push right after a push sends no write request")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // Pulled back: the same declarations, and pushing them to another app gives the same managed state.
        let pulled = dir.file("pulled.yaml")
        let pull = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", Self.bundleID], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let yaml = try String(contentsOfFile: pulled, encoding: .utf8)
        for text in [
            "billingGracePeriod:", "duration: P28D", "renewals: paid-to-paid", "promotedPurchases:", "visible: false",
            "enabled: false", "paidMonths: 6", "monthsBetweenOffers: 3", "priority: high", "promotion: app-store",
            "endDate: 2099-12-31",
        ] {
            #expect(yaml.contains(text), "pulled catalog lacks `\(text)`:\n\(yaml)")
        }
        #expect(!yaml.contains("win-back offers' customer eligibility"), "pull no longer calls eligibility unmanaged")
        let promotedOrder = yaml.components(separatedBy: "promotedPurchases:").last ?? ""
        let club = promotedOrder.range(of: "\(Self.bundleID).club"), gems = promotedOrder.range(of: "\(Self.bundleID).gems")
        #expect(club != nil && gems != nil && club!.lowerBound < gems!.lowerBound, "the pulled order is App Store Connect's")
        #expect(try iapkit("lint", "catalog", pulled).status == 0)
        let pulledCheck = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(pulledCheck.status == 0, "\(pulledCheck.stdout)\(pulledCheck.stderr)")

        let target = try fake.addApp(bundleID: Self.bundleID + ".copy", name: "Copy")
        let copy = try dir.write(
            "copy.yaml", yaml.replacingOccurrences(of: "bundleId: \(Self.bundleID)\n", with: "bundleId: \(Self.bundleID).copy\n"))
        let copyPush = try Self.pushApproving(fake, copy)
        #expect(copyPush.status == 0, "\(copyPush.stderr)")
        let sourceView = try fake.control("POST", "managed", ["appId": source]) as? [String: Any]
        let targetView = try fake.control("POST", "managed", ["appId": target]) as? [String: Any]
        #expect(
            sourceView != nil && NSDictionary(dictionary: sourceView ?? [:]).isEqual(to: targetView ?? [:]),
            "managed views differ:\n\(sourceView ?? [:])\n\(targetView ?? [:])")
    }

    @Test func changesAreUpdatedInPlaceAndWhatAppStoreConnectCannotChangeIsRefused() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog())
        #expect(try Self.pushApproving(fake, catalog).status == 0)

        // Settings change in place; the list is reordered, one entry dropped, one hidden.
        let changed = Self.catalog(
            winBack: Self.winBack.replacingOccurrences(of: "priority: high", with: "priority: normal")
                .replacingOccurrences(of: "endDate: 2099-12-31", with: "endDate: 2099-06-30"),
            grace: Self.grace.replacingOccurrences(of: "P28D", with: "P3D"),
            promoted: """
                promotedPurchases:
                  - productId: \(Self.bundleID).gems
                  - productId: \(Self.bundleID).club
                    visible: false
                """)
        try changed.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = try Self.plan(fake, catalog)
        #expect(plan.status == 0, "\(plan.stderr)")
        for line in [
            "~ winBackOffer \(Self.bundleID).club [back_free]: endDate \"2099-12-31\" -> \"2099-06-30\", priority \"HIGH\" -> \"NORMAL\"",
            "~ subscriptionGracePeriod: duration \"TWENTY_EIGHT_DAYS\" -> \"THREE_DAYS\"",
            "~ promotedPurchase [\(Self.bundleID).map]: promoted \"true\" -> \"false\"",
            "~ promotedPurchase [\(Self.bundleID).club]: visibleForAllUsers \"true\" -> \"false\"",
            "~ promotedPurchase [\(Self.bundleID).gems]: enabled \"false\" -> \"true\"",
            "~ promotedPurchases [order]",
        ] {
            #expect(plan.stdout.contains(line), "plan lacks `\(line)`:\n\(plan.stdout)")
        }
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let promoted = try AscSyncTests.resources(fake, "promotedPurchases")
        #expect(promoted.count == 2)

        // What App Store Connect keeps: an end date once set, and an offer's terms.
        let refused = Self.catalog(
            winBack: Self.winBack.replacingOccurrences(of: "            endDate: 2099-12-31\n", with: "")
                .replacingOccurrences(of: "duration: P1W", with: "duration: P2W"),
            grace: nil, promoted: nil)
        try refused.write(toFile: catalog, atomically: true, encoding: .utf8)
        let refusal = try Self.plan(fake, catalog)
        #expect(refusal.stdout.contains("! winBackOffer \(Self.bundleID).club [back_free]"), "\(refusal.stdout)")
        #expect(refusal.stdout.contains("keeps an end date once set"), "\(refusal.stdout)")
        #expect(refusal.stdout.contains("! winBackOffer \(Self.bundleID).club [back_plain]: duration"), "\(refusal.stdout)")
        // Left out of the catalog, the grace period and the promoted list are App Store Connect's and shown as such.
        #expect(refusal.stdout.contains("? subscriptionGracePeriod"), "\(refusal.stdout)")
        #expect(refusal.stdout.contains("? promotedPurchase [\(Self.bundleID).gems]"), "\(refusal.stdout)")
    }

    @Test func anOfferThatHasStartedCannotMoveItsStart() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog(grace: nil, promoted: nil))
        #expect(try Self.pushApproving(fake, catalog).status == 0)
        let moved = Self.catalog(
            winBack: Self.winBack.replacingOccurrences(of: "priority: high", with: "priority: high\n            startDate: 2099-01-01"),
            grace: nil, promoted: nil)
        try moved.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = try Self.plan(fake, catalog)
        #expect(plan.stdout.contains("! winBackOffer \(Self.bundleID).club [back_free]: startDate \"started\" -> \"2099-01-01\""), "\(plan.stdout)")
        #expect(plan.stdout.contains("the offer has started"), "\(plan.stdout)")
    }

    /// Removal from sale is catalog state; deletion happens only with `--prune`, only where App Store Connect allows
    /// it, and shows as `-` in the plan first.
    @Test func pruneDeletesOnlyWhatWasNeverSubmittedAndOnlyWhenAsked() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog(grace: nil, promoted: nil))
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": "\(Self.bundleID).old", "name": "Old", "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED",
                        "versionState": "APPROVED", "localizations": [["locale": "en-US", "name": "Old", "description": "An old pack."]],
                        "prices": [["territory": "USA", "usd": "0.99"]],
                    ]
                ],
            ])
        // The map leaves the catalog: listed without --prune, deleted with it; the approved product is never deleted.
        let without = Self.catalog(grace: nil, promoted: nil).replacingOccurrences(
            of: """
                  - productId: \(Self.bundleID).map
                    referenceName: Map
                    type: non-consumable
                    price: 2.99
                    localizations:
                      - {locale: en-US, name: Map, description: The whole map.}

                """, with: "")
        #expect(!without.contains(".map"))
        try without.write(toFile: catalog, atomically: true, encoding: .utf8)
        let listed = try Self.plan(fake, catalog)
        #expect(listed.stdout.contains("? inAppPurchase \(Self.bundleID).map"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("- inAppPurchase"), "\(listed.stdout)")
        let pushWithout = try AscSyncTests.push(fake, catalog)
        #expect(pushWithout.status == 0 && pushWithout.stdout.contains("nothing to push"), "\(pushWithout.stderr)")
        #expect(try AscSyncTests.productIDs(fake, "inAppPurchases").contains("\(Self.bundleID).map"))

        let pruning = try iapkit(["asc", "plan", catalog, "--prune"], environment: fake.environment)
        #expect(pruning.stdout.contains("- inAppPurchase \(Self.bundleID).map ["), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("retiredProductIds"), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("? inAppPurchase \(Self.bundleID).old [APPROVED]"), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("deletes only products never sent to review"), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("1 to delete"), "\(pruning.stdout)")
        let json = try iapkit(["asc", "plan", catalog, "--prune", "--format", "json"], environment: fake.environment)
        let summary = ((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary?["delete"] as? Int == 1, "\(json.stdout)")

        let pruned = try AscSyncTests.push(fake, catalog, extra: ["--prune"])
        #expect(pruned.status == 0, "\(pruned.stdout)\(pruned.stderr)")
        let left = try AscSyncTests.productIDs(fake, "inAppPurchases")
        #expect(!left.contains("\(Self.bundleID).map") && left.contains("\(Self.bundleID).old") && left.contains("\(Self.bundleID).gems"))
        let after = try iapkit(["asc", "plan", catalog, "--prune"], environment: fake.environment)
        #expect(!after.stdout.contains("- inAppPurchase"), "\(after.stdout)")
    }

}
