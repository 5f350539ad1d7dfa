import Foundation
import TestSupport
import Testing

/// App Store Connect as it answers (docs/asc.md, "What pull and plan guarantee"): linkage only for what a request names in
/// `include=`, none inside `included`, `null` for absent values, in-app purchases made before 2023 with no
/// availability relationship. The fake answers in these shapes in every test; each case here is one that once went
/// wrong. Where a case needs an answer the fake does not send to iapkit's requests (prices without their territory
/// or point, a product ID listed twice, a promoted purchase that names no product), the test writes it into the trace
/// of a pull from the fake, in the shapes recorded from Apple's server, and replays it with `--replay`.
@Suite(.showsFakeLog) struct AnswerShapeTests {
    static let bundleID = "com.example.shapes"
    static let coins = bundleID + ".coins"
    static let gems = bundleID + ".gems"

    /// Two consumables priced from China: coins also by hand in Japan, sold in China, Japan and the USA; gems made
    /// before 2023 (no availability), priced in China alone.
    static func seeded() throws -> FakeAppStoreConnect {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: bundleID)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": coins, "name": "Coins", "inAppPurchaseType": "CONSUMABLE",
                        "localizations": [["locale": "en-US", "name": "Coins", "description": "A bag of coins"]],
                        "prices": [["territory": "CHN", "pricePoint": 10010], ["territory": "JPN", "pricePoint": 10012]], "baseTerritory": "CHN",
                        "availability": ["territories": ["CHN", "JPN", "USA"], "availableInNewTerritories": false],
                    ],
                    [
                        "productId": gems, "name": "Gems", "inAppPurchaseType": "CONSUMABLE",
                        "localizations": [["locale": "en-US", "name": "Gems", "description": "A bag of gems"]],
                        "prices": [["territory": "CHN", "pricePoint": 10020]], "baseTerritory": "CHN",
                        "availableInAllTerritories": true,
                    ],
                ],
            ])
        return fake
    }

    static func pull(_ fake: FakeAppStoreConnect?, into folder: TemporaryDirectory, _ extra: [String] = []) throws -> ProcessResult {
        try iapkit(
            ["asc", "pull", "--bundle-id", bundleID, "-o", folder.file("catalog.yaml")] + extra,
            environment: fake?.environment ?? AscTraceTests.noCredentials)
    }

    static func plan(_ fake: FakeAppStoreConnect, _ catalog: String, _ extra: [String] = []) throws -> (json: [String: Any], status: Int32) {
        let result = try iapkit(["asc", "plan", catalog, "--format", "json"] + extra, environment: fake.environment)
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        #expect(json != nil, "\(result.stdout)\(result.stderr)")
        return (json ?? [:], result.status)
    }

    static func changes(_ plan: [String: Any], _ productID: String, _ resource: String) -> [[String: Any]] {
        ((plan["changes"] as? [[String: Any]]) ?? []).filter { $0["productId"] as? String == productID && $0["resource"] as? String == resource }
    }

    static func fields(_ change: [String: Any]?) -> [String: [String: Any]] {
        (change?["fields"] as? [String: [String: Any]]) ?? [:]
    }

    /// The line number of the first line of `text` holding `needle` after the line holding `after`.
    static func line(of needle: String, after: String, in text: String) -> Int? {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.contains(after) }) else { return nil }
        return lines[start...].firstIndex(where: { $0.contains(needle) }).map { $0 + 1 }
    }

    /// Case 1: the base territory is asked for (the schedule read with `include=baseTerritory`) where the manual
    /// prices are in more than one territory, and is their territory where they are in one; an edit of the base
    /// territory's price is planned and pushed; a USD price added keeps China as the base; only the catalog moves it.
    @Test func aBaseTerritoryIsReadAndEveryPriceEditShows() throws {
        let fake = try Self.seeded()
        let out = TemporaryDirectory()
        let pull = try Self.pull(fake, into: out)
        #expect(pull.status == 0, "\(pull.stderr)")
        let pulled = out.file("catalog.yaml")
        var text = try String(contentsOfFile: pulled, encoding: .utf8)
        let coinsBlock = text.components(separatedBy: "- productId: ").first { $0.hasPrefix(Self.coins) } ?? ""
        let gemsBlock = text.components(separatedBy: "- productId: ").first { $0.hasPrefix(Self.gems) } ?? ""
        #expect(coinsBlock.contains("baseTerritory: CHN") && gemsBlock.contains("baseTerritory: CHN"), "\(text)")
        // The base territory of coins was asked for with include=, never taken from an absent linkage.
        let reads = try fake.requests().filter { ($0["operation"] as? String) == "inAppPurchasesV2_iapPriceSchedule_getToOneRelated" }
        #expect(reads.count == 1 && reads.allSatisfy { ($0["include"] as? [String]) == ["baseTerritory"] }, "\(reads)")
        #expect(try Self.plan(fake, pulled, ["--check"]).status == 0)

        // China's price of coins raised to the grid price gems have there.
        let gemsPrice = try #require(gemsBlock.firstMatch(of: #/CHN: ([0-9.]+)/#)?.1)
        let coinsPrice = try #require(coinsBlock.firstMatch(of: #/CHN: ([0-9.]+)/#)?.1)
        #expect(gemsPrice != coinsPrice)
        text = text.replacingOccurrences(of: "    CHN: \(coinsPrice)\n", with: "    CHN: \(gemsPrice)\n")
        try text.write(toFile: pulled, atomically: true, encoding: .utf8)
        let (edited, status) = try Self.plan(fake, pulled)
        #expect(status == 0)
        let schedule = Self.changes(edited, Self.coins, "inAppPurchasePriceSchedule").first
        #expect(Self.fields(schedule)["CHN"]?["to"] as? String == String(gemsPrice), "\(edited)")
        #expect(Self.fields(schedule)["baseTerritory"] == nil)
        let chinaLine = try #require(Self.line(of: "CHN: \(gemsPrice)", after: Self.coins, in: text))
        #expect((schedule?["location"] as? String)?.contains(".yaml:\(chinaLine):") == true, "\(schedule ?? [:])")
        #expect(((edited["budget"] as? [String: Any])?["requests"] as? Int ?? 0) > 0)
        let push = try iapkit(["asc", "push", pulled, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(try Self.plan(fake, pulled, ["--check"]).status == 0)
        let state = try fake.control("GET", "state") as? [String: Any]
        let schedules = ((state?["resources"] as? [String: Any])?["inAppPurchasePriceSchedules"] as? [[String: Any]]) ?? []
        #expect(
            schedules.allSatisfy {
                (($0["relationships"] as? [String: Any])?["baseTerritory"] as? [String: Any]).flatMap { $0["data"] as? [String: Any] }?["id"]
                    as? String == "CHN"
            },
            "\(schedules)")

        // A USD price added: the plan shows it, and China stays the base, as the catalog says.
        text = text.replacingOccurrences(
            of: "  referenceName: Coins\n  type: consumable\n", with: "  referenceName: Coins\n  type: consumable\n  price: 3.99\n")
        try text.write(toFile: pulled, atomically: true, encoding: .utf8)
        let withUSD = Self.changes(try Self.plan(fake, pulled).json, Self.coins, "inAppPurchasePriceSchedule").first
        #expect(Self.fields(withUSD)["price"]?["to"] as? String == "3.99", "\(withUSD ?? [:])")
        #expect(Self.fields(withUSD)["baseTerritory"] == nil)

        // Only the catalog moves the base territory, and the plan names it, at its line.
        text = text.replacingOccurrences(of: "  price: 3.99\n  baseTerritory: CHN\n", with: "  price: 3.99\n  baseTerritory: JPN\n")
        try text.write(toFile: pulled, atomically: true, encoding: .utf8)
        let moved = Self.changes(try Self.plan(fake, pulled).json, Self.coins, "inAppPurchasePriceSchedule").first
        #expect(
            Self.fields(moved)["baseTerritory"]?["from"] as? String == "CHN" && Self.fields(moved)["baseTerritory"]?["to"] as? String == "JPN",
            "\(moved ?? [:])")
        let baseLine = try #require(Self.line(of: "baseTerritory: JPN", after: Self.coins, in: text))
        #expect((moved?["location"] as? String)?.contains(".yaml:\(baseLine):") == true, "\(moved ?? [:])")
    }

    /// Case 2: an in-app purchase answered with no availability relationship (made before 2023) is pulled with no
    /// availability and a note, planned as `?`, never as sold nowhere; naming territories plans them from `?`.
    @Test func aPurchaseWithNoAvailabilityAnsweredIsUnknownNotNowhere() throws {
        let fake = try Self.seeded()
        let out = TemporaryDirectory()
        let pull = try Self.pull(fake, into: out)
        #expect(pull.status == 0)
        #expect(pull.stderr.contains("\(Self.gems): App Store Connect answered no availability"), "\(pull.stderr)")
        var text = try String(contentsOfFile: out.file("catalog.yaml"), encoding: .utf8)
        let gemsBlock = try #require(text.range(of: "- productId: \(Self.gems)")).lowerBound
        #expect(!text[gemsBlock...].contains("availability:"))
        #expect(text.contains("# iapkit asc pull: App Store Connect answered no availability"))
        #expect(try iapkit("lint", "catalog", out.file("catalog.yaml")).status == 0)

        let (plan, status) = try Self.plan(fake, out.file("catalog.yaml"))
        #expect(status == 0)
        let availability = Self.changes(plan, Self.gems, "inAppPurchaseAvailability")
        #expect(availability.count == 1 && availability.first?["action"] as? String == "unmanaged", "\(availability)")

        text = text.replacingOccurrences(
            of: "    description: A bag of gems\n", with: "    description: A bag of gems\n  availability:\n    territories: [USA]\n")
        try text.write(toFile: out.file("catalog.yaml"), atomically: true, encoding: .utf8)
        // Planned from `?`, and refused: push replaces what it never read only when told to.
        let named = Self.changes(try Self.plan(fake, out.file("catalog.yaml")).json, Self.gems, "inAppPurchaseAvailability")
        let refused = named.first { $0["action"] as? String == "refused" }
        #expect(
            Self.fields(refused)["territories"]?["unanswered"] as? Bool == true && Self.fields(refused)["territories"]?["to"] as? String == "1",
            "\(named)")
        #expect((refused?["reason"] as? String)?.contains("--replace-unanswered") == true, "\(named)")
        let textPlan = try iapkit(["asc", "plan", out.file("catalog.yaml")], environment: fake.environment)
        #expect(textPlan.stdout.contains("territories ? -> \"1\""), "\(textPlan.stdout)")
        let replacing = Self.changes(
            try Self.plan(fake, out.file("catalog.yaml"), ["--replace-unanswered"]).json, Self.gems, "inAppPurchaseAvailability")
        let create = replacing.first { $0["action"] as? String == "create" }
        #expect(Self.fields(create)["territories"]?["unanswered"] as? Bool == true, "\(replacing)")
    }

    /// Rewrites a trace's answers with Python's json: `script` gets each entry as `entry` (its operation, its answer
    /// in `entry["responseBody"]["json"]`) and changes it in place.
    static func rewrite(_ trace: String, to output: String, _ script: String) throws {
        _ = try python(
            """
            import json, sys
            out = []
            for line in open(sys.argv[1], encoding="utf-8"):
                entry = json.loads(line)
                body = (entry.get("responseBody") or {}).get("json")
            \(script.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                out.append(json.dumps(entry))
            open(sys.argv[2], "w", encoding="utf-8").write("\\n".join(out) + "\\n")
            """, [trace, output])
    }

    /// Cases 3 and 4: prices answered without their territory or point (as a list read without `include=` answers
    /// them) are a note, never the USA's and never free: a paid win-back offer's, and an in-app purchase's.
    @Test func pricesWithoutTheirLinkageAreNotesNeverDefaults() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: DeclaredStateSyncTests.bundleID)
        let paid = """
                      - offerId: back_paid
                        referenceName: Paid welcome back
                        mode: pay-as-you-go
                        periods: 2
                        price: 2.99
            """
        let project = TemporaryDirectory()
        let catalog = project.write("catalog.yaml", DeclaredStateSyncTests.catalog(winBack: paid, grace: nil, promoted: nil))
        let push = try DeclaredStateSyncTests.pushApproving(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let traced = TemporaryDirectory()
        let live = try iapkit(
            [
                "asc", "pull", "--bundle-id", DeclaredStateSyncTests.bundleID, "-o", traced.file("live/catalog.yaml"),
                "--trace", traced.file("pull.jsonl"),
            ], environment: fake.environment)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(try String(contentsOfFile: traced.file("live/catalog.yaml"), encoding: .utf8).contains("offerId: back_paid"))
        try Self.rewrite(
            traced.file("pull.jsonl"), to: traced.file("shapes.jsonl"),
            """
            if entry["operation"] in ("winBackOffers_prices_getToManyRelated", "inAppPurchasePriceSchedules_manualPrices_getToManyRelated"):
                for item in body["data"]:
                    item.pop("relationships", None)
            """)
        let replayed = try iapkit(
            [
                "asc", "pull", "--bundle-id", DeclaredStateSyncTests.bundleID, "-o", traced.file("replayed/catalog.yaml"),
                "--replay", traced.file("shapes.jsonl"),
            ], environment: AscTraceTests.noCredentials)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("the prices of back_paid without their territories or price points"), "\(replayed.stderr)")
        #expect(replayed.stderr.contains("without its territory or price point"), "\(replayed.stderr)")
        let text = try String(contentsOfFile: traced.file("replayed/catalog.yaml"), encoding: .utf8)
        #expect(!text.contains("offerId: back_paid") && !text.contains("price: free"), "\(text)")
        #expect(try iapkit("lint", "catalog", traced.file("replayed/catalog.yaml")).status != 2)
    }

    /// Case 5: a list that answers one product ID twice, and a promoted purchase that names no product, are warned of;
    /// the pulled catalog keeps the first product and lints.
    @Test func aProductIDAnsweredTwiceAndAPromotedPurchaseWithoutItsProductAreWarnedOf() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: DeclaredStateSyncTests.bundleID)
        let project = TemporaryDirectory()
        let catalog = project.write("catalog.yaml", DeclaredStateSyncTests.catalog(grace: nil))
        #expect(try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment).status == 0)
        let traced = TemporaryDirectory()
        let live = try iapkit(
            [
                "asc", "pull", "--bundle-id", DeclaredStateSyncTests.bundleID, "-o", traced.file("live/catalog.yaml"),
                "--trace", traced.file("pull.jsonl"),
            ], environment: fake.environment)
        #expect(live.status == 0, "\(live.stderr)")
        try Self.rewrite(
            traced.file("pull.jsonl"), to: traced.file("shapes.jsonl"),
            """
            if entry["operation"] == "apps_inAppPurchasesV2_getToManyRelated":
                twin = json.loads(json.dumps(body["data"][0]))
                twin["id"] = "6499999999"
                body["data"].append(twin)
            if entry["operation"] == "apps_promotedPurchases_getToManyRelated":
                body["data"][0]["relationships"] = {"inAppPurchaseV2": {}, "subscription": {}}
            """)
        let replayed = try iapkit(
            [
                "asc", "pull", "--bundle-id", DeclaredStateSyncTests.bundleID, "-o", traced.file("replayed/catalog.yaml"),
                "--replay", traced.file("shapes.jsonl"),
            ], environment: AscTraceTests.noCredentials)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("answered this product ID twice"), "\(replayed.stderr)")
        #expect(replayed.stderr.contains("1 promoted purchase that names no product"), "\(replayed.stderr)")
        let lint = try iapkit("lint", "catalog", traced.file("replayed/catalog.yaml"))
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    /// Case 6: a localization the catalog lists after the others (as `localizations import` appends one) is
    /// located at its own line, and an edit of one field at that field's line.
    @Test func aPlanLineIsAtTheLineOfTheValueItShows() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: DeclaredStateSyncTests.bundleID)
        let project = TemporaryDirectory()
        var text = DeclaredStateSyncTests.catalog(grace: nil, promoted: nil).replacingOccurrences(
            of: "      - {locale: en-US, name: Gems, description: A pile of gems.}\n",
            with:
                "      - {locale: en-US, name: Gems, description: A pile of gems.}\n      - {locale: fr-FR, name: Gemmes, description: Des gemmes.}\n"
                + "      - locale: de-DE\n        name: Edelsteine\n        description: Ein Haufen Edelsteine.\n")
        let catalog = project.write("catalog.yaml", text)
        #expect(try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment).status == 0)
        text = text.replacingOccurrences(of: "name: Edelsteine\n", with: "name: Juwelen\n")
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let (plan, _) = try Self.plan(fake, catalog)
        let edit = Self.changes(plan, DeclaredStateSyncTests.bundleID + ".gems", "inAppPurchaseLocalization").first
        #expect(edit?["path"] as? String == "products[0].localizations[2].name", "\(edit ?? [:])")
        let nameLine = try #require(Self.line(of: "name: Juwelen", after: "locale: de-DE", in: text))
        #expect((edit?["location"] as? String)?.contains(".yaml:\(nameLine):") == true, "\(edit ?? [:])")
    }
}
