import Foundation
import TestSupport
import Testing

/// What App Store Connect's update requests can change is changed in place, and what it leaves at its defaults is
/// not taken for a catalog's omission: a promotional offer's prices (same offer id, so the app's server keeps
/// signing it), and a Billing Grace Period that is off.
@Suite(.showsFakeLog) struct InPlaceChangeTests {
    /// A state the generator built, with a paid promotional offer.
    static func generated(_ fake: FakeAppStoreConnect, with wanted: String) throws -> (bundleID: String, seed: Int) {
        for seed in 1..<200 {
            let bundleID = "com.example.inplace\(seed)"
            let app = try fake.addApp(bundleID: bundleID, name: "In place \(seed)")
            let answer = try fake.control("POST", "generate", ["appId": app, "seed": seed]) as? [String: Any] ?? [:]
            let classes = (answer["classes"] as? [String: [String]] ?? [:]).values.flatMap { $0 } + (answer["appClasses"] as? [String] ?? [])
            if classes.contains(wanted) { return (bundleID, seed) }
            _ = try fake.control("POST", "reset")
        }
        throw FakeAppStoreConnect.FakeError.control("no seed under 200 builds \(wanted)")
    }

    @Test func aPromotionalOffersPriceChangesInPlaceUnderTheSameID() throws {
        let fake = try FakeAppStoreConnect()
        let (bundleID, seed) = try Self.generated(fake, with: "promotional:paid")
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "seed \(seed): \(pull.stderr)")
        var lines = try String(contentsOfFile: catalog, encoding: .utf8).components(separatedBy: "\n")
        // The paid promotional offer's own `price:` line (its mode is pay-as-you-go).
        guard let mode = lines.firstIndex(where: { $0.contains("mode: pay-as-you-go") && $0.contains("- ") == false }),
            let priceLine = lines[mode...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("price: ") })
        else {
            Issue.record("seed \(seed): no paid offer in\n\(lines.joined(separator: "\n"))")
            return
        }
        let before = try #require(lines[priceLine].split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
        let after = before == "0.39" ? "0.49" : "0.39"
        lines[priceLine] = lines[priceLine].replacingOccurrences(of: "price: \(before)", with: "price: \(after)")
        try lines.joined(separator: "\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        let offersBefore = try AscSyncTests.resources(fake, "subscriptionPromotionalOffers").compactMap { $0["id"] as? String }.sorted()

        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(
            plan.stdout.contains("~ subscriptionPromotionalOffer") && plan.stdout.contains("price \"\(before)\" -> \"\(after)\""),
            "seed \(seed): \(plan.stdout)")
        #expect(plan.stdout.contains("catalog.yaml:\(priceLine + 1):"), "the change is located at the price: \(plan.stdout)")
        #expect(!plan.stdout.contains("! subscriptionPromotionalOffer"), "seed \(seed): \(plan.stdout)")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "seed \(seed): \(push.stdout)\(push.stderr)")
        let patches = try fake.requests().filter { ($0["operation"] as? String) == "subscriptionPromotionalOffers_updateInstance" }
        #expect(patches.count == 1, "\(patches)")
        let offersAfter = try AscSyncTests.resources(fake, "subscriptionPromotionalOffers").compactMap { $0["id"] as? String }.sorted()
        #expect(offersAfter == offersBefore, "the same offers, none made anew")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "seed \(seed): \(check.stdout)\(check.stderr)")
    }

    @Test func aGracePeriodThatIsOffIsNotListedWhateverItsSettings() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: "com.example.grace")
        let dir = TemporaryDirectory()
        let catalog = try dir.write(
            "catalog.yaml",
            """
            schemaVersion: 1
            app:
              bundleId: com.example.grace
              primaryLocale: en-US
            products:
              - productId: com.example.grace.coins
                referenceName: Coins
                type: consumable
                price: 0.99
                localizations:
                  - {locale: en-US, name: Coins, description: A bag of coins.}

            """)
        for (settings, listed) in [
            (["optIn": false, "sandboxOptIn": false], false),
            (["optIn": false, "sandboxOptIn": false, "duration": "THREE_DAYS", "renewalType": "PAID_TO_PAID_ONLY"], false),
            (["optIn": false, "sandboxOptIn": true], true), (["optIn": true, "sandboxOptIn": false], true),
        ] {
            try fake.control("POST", "seed", ["appId": app, "subscriptionGracePeriod": settings])
            let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.stdout.contains("? subscriptionGracePeriod") == listed, "\(settings): \(plan.stdout)")
        }
    }
}
