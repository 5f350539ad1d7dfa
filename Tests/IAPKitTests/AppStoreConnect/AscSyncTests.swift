import Foundation
import TestSupport
import Testing

/// `iapkit asc pull | plan | push` end to end against the project's fake App Store Connect on loopback. Each test
/// starts its own fake, so they run side by side.
@Suite(.showsFakeLog)
struct AscSyncTests {
    static let bundleID = "com.example.fruitstand"

    /// A copy of examples/ (catalog, content, screenshots) to push from.
    static func project() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        for item in ["catalog.yaml", "content", "review"] {
            try FileManager.default.copyItem(atPath: Paths.examples + "/" + item, toPath: dir.file(item))
        }
        return dir
    }

    static func push(_ fake: FakeAppStoreConnect, _ catalog: String, extra: [String] = []) throws -> ProcessResult {
        try iapkit(["asc", "push", catalog, "--yes"] + extra, environment: fake.environment)
    }

    static func planJSON(_ fake: FakeAppStoreConnect, _ catalog: String) throws -> [String: Any] {
        let result = try iapkit(["asc", "plan", catalog, "--format", "json"], environment: fake.environment)
        let plan = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        // A plan with a change App Store Connect would refuse is exit 1, any other exit 0.
        let refused = (plan["summary"] as? [String: Int])?["refused"] ?? 0
        #expect(result.status == (refused > 0 ? 1 : 0), "\(result.stderr)")
        return plan
    }

    static func changes(_ plan: [String: Any], _ action: String) -> [[String: Any]] {
        ((plan["changes"] as? [[String: Any]]) ?? []).filter { $0["action"] as? String == action }
    }

    static func resources(_ fake: FakeAppStoreConnect, _ type: String) throws -> [[String: Any]] {
        let state = try fake.control("GET", "state") as? [String: Any]
        if let list = state?[type] as? [[String: Any]] { return list }
        if let byID = state?[type] as? [String: Any] { return byID.values.compactMap { $0 as? [String: Any] } }
        let resources = state?["resources"] as? [String: Any]
        if let list = resources?[type] as? [[String: Any]] { return list }
        return (resources?[type] as? [String: Any])?.values.compactMap { $0 as? [String: Any] } ?? []
    }

    static func productIDs(_ fake: FakeAppStoreConnect, _ type: String) throws -> [String] {
        try resources(fake, type).compactMap { ($0["attributes"] as? [String: Any])?["productId"] as? String }.sorted()
    }

    @Test func pushFromEmptyCreatesEverythingAndASecondPushWritesNothing() throws {
        let fake = try FakeAppStoreConnect(pageSize: 20)
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let catalog = project.file("catalog.yaml")

        let first = try Self.push(fake, catalog)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Pushed:"))
        #expect(
            try Self.productIDs(fake, "inAppPurchases") == [
                "com.example.fruitstand.banana", "com.example.fruitstand.kiwi", "com.example.fruitstand.seasonpass",
                "com.example.fruitstand.tokens.10",
            ])
        #expect(try Self.productIDs(fake, "subscriptions").count == 2)
        // Every subscription has a price in every territory, equalized from the USA point.
        let territories = try Self.resources(fake, "territories").count
        #expect(try Self.resources(fake, "subscriptionPrices").count == 2 * max(territories, 175))
        #expect(try Self.resources(fake, "inAppPurchaseAppStoreReviewScreenshots").count == 4)

        let writes = try fake.writeCount()
        let second = try Self.push(fake, catalog)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("nothing to push"))
        #expect(try fake.writeCount() == writes, "a push right after a push sends no write request")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func planShowsUpdatesRefusalsAndUnmanagedProducts() throws {
        let fake = try FakeAppStoreConnect()
        let appID = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let catalog = project.file("catalog.yaml")
        #expect(try Self.push(fake, catalog).status == 0)
        try fake.control(
            "POST", "seed",
            [
                "appId": appID,
                "inAppPurchases": [
                    [
                        "productId": "com.example.fruitstand.legacy", "name": "Legacy Gems", "inAppPurchaseType": "CONSUMABLE",
                        "localizations": [["locale": "en-US", "name": "Gems", "description": "A bag of gems"]],
                    ]
                ],
            ])

        var text = try String(contentsOfFile: catalog, encoding: .utf8)
        text = text.replacingOccurrences(of: "name: Pack Banane", with: "name: Pack de bananes")
        text = text.replacingOccurrences(of: "    type: consumable\n    price: 1.99", with: "    type: non-consumable\n    price: 1.99")
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)

        let plan = try Self.planJSON(fake, catalog)
        let updates = Self.changes(plan, "update")
        let rename = updates.first { $0["resource"] as? String == "inAppPurchaseLocalization" }
        #expect(rename?["productId"] as? String == "com.example.fruitstand.banana")
        let fields = rename?["fields"] as? [String: [String: Any]]
        #expect(fields?["name"]?["from"] as? String == "Pack Banane" && fields?["name"]?["to"] as? String == "Pack de bananes")
        #expect((rename?["location"] as? String)?.hasSuffix(".yaml:20:15") == true, "\(rename ?? [:])")
        let refused = Self.changes(plan, "refused")
        #expect(
            refused.contains {
                $0["productId"] as? String == "com.example.fruitstand.tokens.10"
                    && (($0["fields"] as? [String: Any])?["type"]) != nil
            })
        #expect(Self.changes(plan, "unmanaged").contains { $0["productId"] as? String == "com.example.fruitstand.legacy" })
        let summary = plan["summary"] as? [String: Int]
        #expect(summary?["refused"] == 1 && (summary?["update"] ?? 0) >= 1 && summary?["unmanaged"] == 1)

        let text2 = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(
            text2.stdout.contains("~ inAppPurchaseLocalization com.example.fruitstand.banana [fr-FR]: name \"Pack Banane\" -> \"Pack de bananes\""))
        #expect(text2.stdout.contains("! inAppPurchase com.example.fruitstand.tokens.10"))
        #expect(text2.stdout.contains("? inAppPurchase com.example.fruitstand.legacy"))
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 1)
        // A refused change stops push before it writes anything; the legacy product is never deleted.
        let writes = try fake.writeCount()
        let push = try Self.push(fake, catalog)
        #expect(
            push.status == 1 && push.stderr.contains("App Store Connect would refuse")
                && push.stderr.contains("! inAppPurchase com.example.fruitstand.tokens.10"))
        #expect(try fake.writeCount() == writes)
        #expect(try Self.productIDs(fake, "inAppPurchases").contains("com.example.fruitstand.legacy"))
    }

    @Test func aPushThatFailsMidwayIsFinishedByRunningItAgain() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let catalog = project.file("catalog.yaml")
        // The second subscription is created, but the answer is lost: the nasty case.
        try fake.control(
            "POST", "faults",
            [
                [
                    "method": "POST", "pathPattern": "^/v1/subscriptions$", "status": 500,
                    "count": 1, "when": "after", "afterNthMatch": 2,
                ]
            ])
        let failed = try Self.push(fake, catalog)
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("create subscription com.example.fruitstand.club.yearly"), "\(failed.stderr)")
        #expect(failed.stderr.contains("run push again"))
        // After the error: what reached App Store Connect, what is left, and that push again finishes it.
        #expect(failed.stderr.contains("Written to App Store Connect: "), "\(failed.stderr)")
        #expect(failed.stderr.contains("Left: ") && failed.stderr.contains("Run `iapkit asc push` again to finish"), "\(failed.stderr)")
        try fake.control("POST", "faults", [[String: Any]]())
        let resumed = try Self.push(fake, catalog)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.productIDs(fake, "subscriptions") == ["com.example.fruitstand.club.monthly", "com.example.fruitstand.club.yearly"])
        #expect(try Self.resources(fake, "subscriptionGroups").count == 1)
        let writes = try fake.writeCount()
        #expect(try Self.push(fake, catalog).status == 0)
        #expect(try fake.writeCount() == writes)
    }

    @Test func rateLimitsAndServerErrorsAreRetried() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        // A storm of 429s on reads and on writes (POST is safe to repeat after a 429: nothing was created), and 5xx on
        // reads, each within the retry policy's attempts.
        try fake.control(
            "POST", "faults",
            [
                ["method": "*", "pathPattern": "/", "status": 429, "count": 4, "retryAfter": 0, "when": "before", "afterNthMatch": 3],
                [
                    "method": "POST", "pathPattern": "^/v2/inAppPurchases$", "status": 429, "count": 3, "retryAfter": 1, "when": "before",
                    "afterNthMatch": 2,
                ],
                ["method": "GET", "pathPattern": "/v2/inAppPurchases/", "status": 503, "count": 3, "when": "before"],
            ])
        let result = try Self.push(fake, project.file("catalog.yaml"))
        #expect(result.status == 0, "\(result.stderr)")
        let statuses = try fake.requests().compactMap { $0["status"] as? Int }
        #expect(statuses.filter { $0 == 429 }.count == 7 && statuses.filter { $0 == 503 }.count == 3)
        #expect(try Self.productIDs(fake, "inAppPurchases").count == 4)
    }

    @Test func anExpiredTokenIsRenewed() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        // Tokens older than a second are refused, and each answer takes 50 ms: the push (about 75 requests) outlives
        // its first token however fast the machine is.
        try fake.control("POST", "settings", ["maxTokenAgeSeconds": 1, "latencyMs": 50])
        let project = try Self.project()
        let result = try Self.push(fake, project.file("catalog.yaml"))
        #expect(result.status == 0, "\(result.stderr)")
        let statuses = try fake.requests().compactMap { $0["status"] as? Int }
        #expect(statuses.contains(401), "the token did expire during the push")
        #expect(try Self.productIDs(fake, "inAppPurchases").count == 4)
    }

    @Test func pullThenPlanShowsNoChange() throws {
        let fake = try FakeAppStoreConnect(pageSize: 30)
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        #expect(try Self.push(fake, project.file("catalog.yaml")).status == 0)
        let out = TemporaryDirectory()
        let pulled = out.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", Self.bundleID], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let yaml = try String(contentsOfFile: pulled, encoding: .utf8)
        #expect(yaml.contains("productId: com.example.fruitstand.banana") && yaml.contains("name: Pack Banane"))
        #expect(FileManager.default.fileExists(atPath: out.file("review/com.example.fruitstand.banana.png")))
        let lint = try iapkit("lint", "catalog", pulled)
        #expect(lint.status == 0, "\(lint.stdout)")
        let check = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let writes = try fake.writeCount()
        #expect(try Self.push(fake, pulled).status == 0)
        #expect(try fake.writeCount() == writes)
    }

    @Test func exportAscListsTheWritesAPushToAnEmptyAppSends() throws {
        let fake = try FakeAppStoreConnect()
        let appID = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let catalog = project.file("catalog.yaml")
        let export = try iapkit("export", "asc", catalog, "--app-id", appID)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Self.push(fake, catalog).status == 0)
        let exported = (try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]]) ?? []
        let sent = try fake.requests().filter { ($0["write"] as? Bool) == true && ($0["status"] as? Int ?? 0) < 300 }
        // Ids differ (placeholders against real ids) and an upload may be split in parts: compare the shapes.
        func shape(_ method: String, _ path: String) -> String {
            if method == "PUT" { return "PUT upload" }
            let parts = path.split(separator: "/").map(String.init)
            return method + " /" + parts.prefix(2).joined(separator: "/") + (parts.count > 2 ? "/{id}" : "")
        }
        func collapse(_ shapes: [String]) -> [String] {
            shapes.enumerated().filter { $0.offset == 0 || !($0.element == "PUT upload" && shapes[$0.offset - 1] == "PUT upload") }.map(\.element)
        }
        let expected = collapse(exported.map { shape($0["method"] as? String ?? "", $0["path"] as? String ?? "") })
        let actual = collapse(sent.map { shape($0["method"] as? String ?? "", $0["path"] as? String ?? "") })
        #expect(expected == actual)
        // Prices and introductory offers go in bulk: one request for every territory.
        #expect(expected.count <= 80)
        #expect(export.stdout.contains("${pricePoint:iap:com.example.fruitstand.banana:USA:0.99}"))
    }

    @Test func credentialsAreRequiredAndTheKeyNeverReachesAnyOutput() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let catalog = project.file("catalog.yaml")
        let missing = try iapkit(
            ["asc", "plan", catalog],
            environment: [
                "ASC_API_URL": fake.url, "ASC_KEY_ID": "", "ASC_ISSUER_ID": "",
                "ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": "",
            ])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("ASC_KEY_ID") && missing.stderr.contains("ASC_PRIVATE_KEY"))

        let secretLines = fake.privateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        var environment = fake.environment
        environment["ASC_PRIVATE_KEY_PATH"] = ""
        environment["ASC_PRIVATE_KEY"] = fake.privateKeyPEM
        var outputs: [ProcessResult] = []
        outputs.append(try iapkit(["asc", "push", catalog, "--yes"], environment: environment))
        outputs.append(try iapkit(["asc", "plan", catalog, "--format", "json"], environment: environment))
        var wrongIssuer = environment
        wrongIssuer["ASC_ISSUER_ID"] = "00000000-0000-0000-0000-000000000000"
        let refused = try iapkit(["asc", "plan", catalog], environment: wrongIssuer)
        #expect(refused.status == 2 && refused.stderr.contains("401"))
        outputs.append(refused)
        var broken = environment
        broken["ASC_PRIVATE_KEY"] = fake.privateKeyPEM.replacingOccurrences(of: "A", with: "B")
        outputs.append(try iapkit(["asc", "plan", catalog], environment: broken))
        #expect(outputs.last!.status == 2 && outputs.last!.stderr.contains("ASC_PRIVATE_KEY does not hold"), "\(outputs.last!.stderr)")
        // A secret stored on one line, its line breaks written as the two characters \n, is read as the PEM it is.
        var oneLine = environment
        oneLine["ASC_PRIVATE_KEY"] = fake.privateKeyPEM.replacingOccurrences(of: "\n", with: "\\n")
        outputs.append(try iapkit(["asc", "plan", catalog], environment: oneLine))
        #expect(outputs.last!.status == 0, "\(outputs.last!.stderr)")
        #expect(outputs[0].status == 0, "\(outputs[0].stderr)")
        for output in outputs {
            for line in secretLines where line.count > 8 {
                #expect(!output.stdout.contains(line) && !output.stderr.contains(line))
            }
        }
    }

    // MARK: The request budget

    @Test func theExamplesFirstPushStaysWithinItsRequestBudget() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let result = try Self.push(fake, project.file("catalog.yaml"))
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try fake.requests()
        #expect(requests.count <= 120, "the first push of the example sent \(requests.count) requests")
        // Prices of every territory went in one PATCH per subscription; none was posted one by one.
        #expect(!requests.contains { $0["method"] as? String == "POST" && $0["path"] as? String == "/v1/subscriptionPrices" })
        #expect(try Self.resources(fake, "subscriptionPrices").count >= 2 * 175)
        #expect(try Self.resources(fake, "subscriptionIntroductoryOffers").count >= 2 * 175)
        let plan = try iapkit(["asc", "plan", project.file("catalog.yaml"), "--check"], environment: fake.environment)
        #expect(plan.status == 0, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("Push would send no request."))
    }

    @Test func aNewSubscriptionEverywhereWithAnOfferTenLocalizationsAndAScreenshotTakesAtMostTwentyRequests() throws {
        let fake = try FakeAppStoreConnect()
        let appID = try fake.addApp(bundleID: Self.bundleID)
        try fake.control(
            "POST", "seed",
            [
                "appId": appID,
                "subscriptionGroups": [
                    [
                        "referenceName": "Fruit Club",
                        "localizations": [["locale": "en-US", "name": "Fruit Club"]],
                    ]
                ],
            ])
        let project = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: Paths.examples + "/review", toPath: project.file("review"))
        let locales = ["en-US", "de-DE", "fr-FR", "es-ES", "it", "ja", "ko", "nl-NL", "pt-BR", "sv"]
        let localizations = locales.map { "          - {locale: \($0), name: Club Monthly, description: A new fruit pack every month.}" }
        let catalog = project.write(
            "catalog.yaml",
            """
            schemaVersion: 1
            app: {bundleId: \(Self.bundleID), primaryLocale: en-US}
            subscriptionGroups:
              - referenceName: Fruit Club
                localizations: [{locale: en-US, name: Fruit Club}]
                subscriptions:
                  - productId: com.example.fruitstand.club.monthly
                    referenceName: Club Monthly
                    period: P1M
                    groupLevel: 1
                    price: 4.99
                    introductoryOffer: {mode: free-trial, duration: P1W}
                    review: {note: Open the Club tab., screenshot: review/club.png}
                    localizations:
            \(localizations.joined(separator: "\n"))

            """)
        try fake.control("DELETE", "requests")
        let result = try Self.push(fake, catalog)
        #expect(result.status == 0, "\(result.stderr)")
        // The push's own requests: what it writes and the price points it looks up, after the plan's reads.
        let requests = Array(try fake.requests().drop { $0["method"] as? String == "GET" })
        #expect(requests.count <= 20, "\(requests.count) requests: \(requests.map { "\($0["method"] ?? "") \($0["path"] ?? "")" })")
        #expect(try Self.resources(fake, "subscriptionPrices").count == 175)
        #expect(try Self.resources(fake, "subscriptionLocalizations").count == 10)
    }

    @Test func aPushThroughAStormOf429sFinishesAndLeavesTheCatalogInPlace() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        // Two requests in five are refused with 429 and `Retry-After: 1`: about a third of all answers, retries included.
        try fake.control(
            "POST", "faults",
            (0..<40).flatMap { index in
                [2, 4].map { offset in
                    [
                        "method": "*", "pathPattern": "/", "status": 429, "count": 1, "retryAfter": 1, "when": "before",
                        "afterNthMatch": 5 * index + offset,
                    ]
                }
            })
        let result = try Self.push(fake, project.file("catalog.yaml"))
        #expect(result.status == 0, "\(result.stderr)")
        let statuses = try fake.requests().compactMap { $0["status"] as? Int }
        let refused = statuses.filter { $0 == 429 }.count
        #expect(refused >= 20 && Double(refused) / Double(statuses.count) > 0.25, "\(refused) of \(statuses.count) answers were 429")
        try fake.control("POST", "faults", [[String: Any]]())
        let check = try iapkit(["asc", "plan", project.file("catalog.yaml"), "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aPushStopsAtTheHourlyBudgetWithExit75AndTheNextRunFinishes() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        let catalog = project.file("catalog.yaml")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 25])
        // Whole or not started: the hour cannot pay for the push, so nothing is written.
        let refused = try Self.push(fake, catalog)
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was written") && refused.stderr.contains("--allow-partial"), "\(refused.stderr)")
        #expect(try Self.productIDs(fake, "inAppPurchases").isEmpty)
        // Asked to start anyway, it writes what the hour pays for and stops between two operations.
        let stopped = try Self.push(fake, catalog, extra: ["--allow-partial"])
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("hourly request budget") && stopped.stderr.contains("operations left"))
        #expect(stopped.stdout.contains("Push would send about"), "the plan is the report, on standard output")
        let statuses = try fake.requests().compactMap { $0["status"] as? Int }
        #expect(!statuses.contains(429), "the push paced itself: it never ran into the limit")
        let before = try Self.productIDs(fake, "inAppPurchases")
        #expect(!before.isEmpty && before.count < 4, "part of the work was done: \(before)")

        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 3600])
        let resumed = try Self.push(fake, catalog)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.productIDs(fake, "inAppPurchases").count == 4)
        #expect(try Self.productIDs(fake, "subscriptions").count == 2)
        #expect(try Self.resources(fake, "inAppPurchaseLocalizations").count == 5, "nothing was created twice")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}
