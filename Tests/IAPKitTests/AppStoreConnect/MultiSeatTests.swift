import Foundation
import IAPCatalog
import TestSupport
import Testing

/// API 4.5's multiseat settings of a subscription (`multiSeatStatus`, `marketSettings`) as declared state: pulled as
/// App Store Connect holds them, each change planned at its line and sent alone in a `PATCH`, a new subscription
/// created and then updated (the create request cannot carry them), and a family-shared subscription refused before
/// anything is written.
@Suite(.showsFakeLog) struct MultiSeatTests {
    static let markets: [String: SubscriptionMarket] = [
        "APP_STORE": .appStore, "APPLE_BUSINESS": .appleBusiness, "APPLE_SCHOOL": .appleSchool,
    ]

    /// The fake's own record of each subscription's multiseat settings, by product ID (nil for `null`).
    static func held(_ fake: FakeAppStoreConnect) throws -> [String: (status: String?, markets: [String]?)] {
        var result: [String: (status: String?, markets: [String]?)] = [:]
        for resource in try AscSyncTests.resources(fake, "subscriptions") {
            let attributes = resource["attributes"] as? [String: Any] ?? [:]
            guard let productID = attributes["productId"] as? String else { continue }
            result[productID] = (attributes["multiSeatStatus"] as? String, attributes["marketSettings"] as? [String])
        }
        return result
    }

    /// The subscriptions of a catalog file, by product ID.
    static func subscriptions(_ file: String) throws -> [String: Product] {
        let catalog = try CatalogLoader.load(data: Data(contentsOf: URL(fileURLWithPath: file)), file: file, findings: { _ in })
        let products = catalog.subscriptionGroups.flatMap(\.subscriptions)
        return Dictionary(products.compactMap { product in product.productID.map { ($0, product) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Every push's requests to create and update subscriptions, from its trace: (operation, attributes sent).
    static func subscriptionWrites(_ trace: String) throws -> [(operation: String, attributes: [String: Any])] {
        try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").compactMap { line in
            let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            guard let operation = entry["operation"] as? String,
                ["subscriptions_createInstance", "subscriptions_updateInstance"].contains(operation)
            else { return nil }
            let body = (entry["requestBody"] as? [String: Any])?["json"] as? [String: Any]
            let data = body?["data"] as? [String: Any]
            return (operation, data?["attributes"] as? [String: Any] ?? [:])
        }
    }

    @Test(arguments: [
        "subscription:multiseat-on", "subscription:multiseat-off", "subscription:multiseat-some-markets",
        "subscription:multiseat-family-shared", "subscription:multiseat-unset",
    ])
    func aPullWritesTheSettingsAsAppStoreConnectHoldsThem(_ wanted: String) throws {
        let fake = try FakeAppStoreConnect()
        let (bundleID, seed) = try InPlaceChangeTests.generated(fake, with: wanted)
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "seed \(seed): \(pull.stderr)")
        let pulled = try Self.subscriptions(catalog)
        let held = try Self.held(fake)
        #expect(!pulled.isEmpty && pulled.count == held.count, "seed \(seed)")
        var sawClass = false
        for (productID, truth) in held {
            let product = try #require(pulled[productID], "seed \(seed): \(productID) pulled")
            #expect(product.multiSeat == truth.status.map { $0 == "ENABLED" }, "seed \(seed): \(productID) \(truth)")
            let markets = truth.markets.map { names in SubscriptionMarket.allCases.filter { names.compactMap { Self.markets[$0] }.contains($0) } }
            #expect(product.markets == markets, "seed \(seed): \(productID) \(truth)")
            if wanted.hasSuffix("unset"), truth.status == nil { sawClass = true }
            if wanted.hasSuffix("family-shared"), product.familySharable == true, product.multiSeat == false { sawClass = true }
            if wanted.hasSuffix("-on"), product.multiSeat == true { sawClass = true }
            if wanted.hasSuffix("-off"), product.multiSeat == false, product.familySharable != true { sawClass = true }
            if wanted.hasSuffix("some-markets"), let markets = product.markets, markets.count < SubscriptionMarket.allCases.count {
                sawClass = true
            }
        }
        #expect(sawClass, "seed \(seed) builds \(wanted): \(held)")
        // What was pulled is what App Store Connect holds: nothing to change.
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "seed \(seed): \(check.stdout)\(check.stderr)")
    }

    @Test func aOneFieldEditIsPlannedAtItsLineAndSentAloneInOnePatch() throws {
        let fake = try FakeAppStoreConnect()
        let (bundleID, seed) = try InPlaceChangeTests.generated(fake, with: "subscription:multiseat-on")
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "seed \(seed): \(pull.stderr)")
        var lines = try String(contentsOfFile: catalog, encoding: .utf8).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "multiSeat: true" })
        let productID = try #require(
            lines[..<line].last { $0.contains("productId: ") }?.components(separatedBy: "productId: ").last?
                .trimmingCharacters(in: .whitespaces))
        lines[line] = lines[line].replacingOccurrences(of: "multiSeat: true", with: "multiSeat: false")
        try lines.joined(separator: "\n").write(toFile: catalog, atomically: true, encoding: .utf8)

        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        let change = plan.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("~ ") || $0.hasPrefix("+ ") || $0.hasPrefix("! ") }
        #expect(change.count == 1, "seed \(seed): \(plan.stdout)")
        #expect(
            change.first?.hasPrefix("~ subscription \(productID): multiSeat \"true\" -> \"false\"  at ") == true
                && change.first?.contains("catalog.yaml:\(line + 1):") == true,
            "seed \(seed): the change is at the key's line \(line + 1): \(plan.stdout)")
        let trace = dir.file("push.jsonl")
        let push = try AscSyncTests.push(fake, catalog, extra: ["--trace", trace])
        #expect(push.status == 0, "seed \(seed): \(push.stdout)\(push.stderr)")
        let writes = try Self.subscriptionWrites(trace)
        #expect(writes.count == 1 && writes[0].operation == "subscriptions_updateInstance", "\(writes)")
        #expect(writes.first.map { $0.attributes as NSDictionary } == ["multiSeatStatus": "DISABLED"] as NSDictionary, "\(writes)")
        #expect(try Self.held(fake)[productID]?.status == "DISABLED")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "seed \(seed): \(check.stdout)\(check.stderr)")
    }

    static func catalog(_ subscription: String) -> String {
        """
        schemaVersion: 1
        app:
          bundleId: com.example.seats
          primaryLocale: en-US
        subscriptionGroups:
          - referenceName: Team
            localizations:
              - {locale: en-US, name: Team}
            subscriptions:
              - productId: com.example.seats.monthly
                referenceName: Team Monthly
                period: P1M
                groupLevel: 1
                price: 9.99
        \(subscription.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
                localizations:
                  - {locale: en-US, name: Team Monthly, description: Seats for the whole team.}

        """
    }

    @Test func aNewSubscriptionIsCreatedThenUpdatedWithWhatTheCreateCannotCarry() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: "com.example.seats")
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog("multiSeat: false\nmarkets: [appleSchool, appStore]"))
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.stdout.contains("multiSeat (none) -> \"false\", markets (none) -> \"[appStore, appleSchool]\""), "\(plan.stdout)")
        let trace = dir.file("push.jsonl")
        let push = try AscSyncTests.push(fake, catalog, extra: ["--trace", trace])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let writes = try Self.subscriptionWrites(trace).filter { !$0.attributes.isEmpty }
        #expect(writes.map(\.operation) == ["subscriptions_createInstance", "subscriptions_updateInstance"], "\(writes)")
        #expect(writes.first.map { Set($0.attributes.keys).isDisjoint(with: ["multiSeatStatus", "marketSettings"]) } == true)
        #expect(
            writes.last.map { $0.attributes as NSDictionary }
                == ["multiSeatStatus": "DISABLED", "marketSettings": ["APP_STORE", "APPLE_SCHOOL"]] as NSDictionary, "\(writes)")
        let held = try Self.held(fake)["com.example.seats.monthly"]
        #expect(held?.status == "DISABLED" && held?.markets.map(Set.init) == ["APP_STORE", "APPLE_SCHOOL"])
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// A catalog kept before multiseat existed names neither key: the first pull shows what App Store Connect holds
    /// (multiseat on by default since September 2026) as two added keys per subscription, and nothing else moves.
    @Test func aPullOverACatalogWithoutMultiseatAddsWhatAppStoreConnectHolds() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: AscSyncTests.bundleID)
        let project = try AscSyncTests.project()
        let catalog = project.file("catalog.yaml")
        let kept = try String(contentsOfFile: catalog, encoding: .utf8).components(separatedBy: "\n")
            .filter { !$0.hasSuffix("multiSeat: false") && !$0.hasSuffix("markets: [appStore]") }.joined(separator: "\n")
        try kept.write(toFile: catalog, atomically: true, encoding: .utf8)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let diff = try run("/usr/bin/env", ["diff", "-u", "-", catalog], input: Data(kept.utf8)).stdout
        let changed = PullEditTests.changedLines(diff)
        #expect(changed.allSatisfy { $0.hasPrefix("+") } && changed.count == 6, "\(diff)")
        let pulled = try Self.subscriptions(catalog)
        #expect(pulled.count == 2 && pulled.values.allSatisfy { $0.multiSeat == false && $0.markets == [.appStore] }, "\(diff)")
    }

    /// Lint cannot tell offline whether App Store Connect already holds both (see the next test), so it warns; plan,
    /// which reads App Store Connect, refuses making it, and push writes nothing.
    @Test func aFamilySharedSubscriptionInSeatsIsRefusedBeforeAnyWrite() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: "com.example.seats")
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog("familySharable: true\nmultiSeat: true"))
        let lint = try iapkit(["lint", "catalog", catalog])
        #expect(lint.status == 0)
        let output = lint.stdout + lint.stderr
        #expect(output.contains("catalog.yaml:16:20: warning:") && output.contains("[multiseat-family-sharing]"), "\(output)")
        let rule = try iapkit(["lint", "rules", "multiseat-family-sharing"])
        #expect(rule.stdout.contains("Apple's documentation of the subscription update request"), "the rule names its source: \(rule.stdout)")
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
        #expect(
            plan.stdout.contains("! subscription com.example.seats.monthly: multiSeat (none) -> \"true\"")
                && plan.stdout.contains("App Store Connect turns multiseat off for a family-shared subscription"), "\(plan.stdout)")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 1, "\(push.stdout)\(push.stderr)")
        #expect(try fake.writeCount() == 0, "nothing is written")
    }

    /// A family-shared subscription App Store Connect holds in seats (a server that let both be set, before the rule
    /// that turns multiseat off beside Family Sharing): pull writes both, and the pulled catalog plans and pushes
    /// with no change. What App Store Connect holds and the catalog keeps is never refused; making it still is.
    @Test func aFamilySharedSubscriptionAppStoreConnectHoldsInSeatsIsPulledAndPlansWithNoChange() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: "com.example.seats")
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog("familySharable: true"))
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        try fake.control("POST", "settings", ["multiSeatFamilyRule": false])
        try fake.webEdit(app: app, [["multiSeat": "com.example.seats.monthly", "status": "ENABLED"]])
        #expect(try Self.held(fake)["com.example.seats.monthly"]?.status == "ENABLED")

        let pulled = dir.file("pulled.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", "com.example.seats", "-o", pulled], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let subscription = try #require(try Self.subscriptions(pulled)["com.example.seats.monthly"])
        #expect(subscription.familySharable == true && subscription.multiSeat == true)
        let check = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(!check.stdout.contains("! subscription"), "\(check.stdout)")
        // Lint warns (it cannot know App Store Connect holds both); push, which lints every rule, writes nothing.
        let lint = try iapkit(["lint", "catalog", pulled])
        #expect(lint.status == 0 && lint.stdout.contains("[multiseat-family-sharing]"), "\(lint.stdout)")
        let writes = try fake.writeCount()
        let push = try AscSyncTests.push(fake, pulled)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(try fake.writeCount() == writes, "nothing to write")

        // A subscription App Store Connect holds with multiseat off is still refused the change.
        let other = try dir.write("other.yaml", Self.catalog("familySharable: true\nmultiSeat: true"))
        try fake.webEdit(app: app, [["multiSeat": "com.example.seats.monthly", "status": "DISABLED"]])
        let refused = try iapkit(["asc", "plan", other], environment: fake.environment)
        #expect(
            refused.status == 1 && refused.stdout.contains("! subscription com.example.seats.monthly: multiSeat \"false\" -> \"true\""),
            "\(refused.stdout)")
    }
}
