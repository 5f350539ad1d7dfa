import Foundation
import TestSupport
import Testing

/// A change of hundreds of products against the fake's hourly budget, counted as a rolling hour: whole or not
/// started, and a saved plan the hour interrupted is finished by the same command, each price written once.
@Suite(.showsFakeLog)
struct LargeChangeTests {
    static let bundleID = "com.example.studio"
    /// Four hand-set territories: every product's price points for them come in one page (the fake renders each).
    static let territories = ["GBR", "DEU", "JPN", "IND"]
    /// Past any day the fake calls today: a scheduled price.
    static let changeDay = "2031-06-01"

    /// Each territory's price on the fake's grid at the point of `usd`, keyed by territory.
    static func territoryPrices(usd: String) throws -> [String: String] {
        let lines = try python(
            """
            import sys
            sys.path.insert(0, sys.argv[1])
            from fakeasc.reference import synthetic_price
            for t in sys.argv[3:]:
                print('%s %s' % (t, synthetic_price(t, sys.argv[2])))
            """, [Paths.repository + "/Tests/FakeAppStoreConnect", usd] + territories)
        return Dictionary(
            uniqueKeysWithValues: lines.split(separator: "\n").map { line in
                let parts = line.split(separator: " ")
                return (String(parts[0]), String(parts[1]))
            })
    }

    /// A manual price as the fake holds it: its product, territory, days (empty for none), the USD point it is at
    /// and its price in the territory's currency.
    struct HeldPrice {
        var product, territory, start, end, usd, local: String
    }

    /// Every manual price of the app's in-app purchases, read from the fake's own state, not through iapkit.
    static func manualPrices(_ fake: FakeAppStoreConnect) throws -> [HeldPrice] {
        let state = try JSONSerialization.data(withJSONObject: try fake.control("GET", "state"))
        let dir = TemporaryDirectory()
        let out = try python(
            """
            import json, sys
            sys.path.insert(0, sys.argv[1])
            from fakeasc.reference import decode_price_point, synthetic_price, USD_BY_ID
            res = json.load(open(sys.argv[2]))["resources"]
            products = {r["id"]: r["attributes"]["productId"] for r in res.get("inAppPurchases", [])}
            for price in res.get("inAppPurchasePrices", []):
                point = decode_price_point(price["relationships"]["inAppPurchasePricePoint"]["data"]["id"])
                a, usd = price["attributes"], USD_BY_ID[int(point["p"])]
                print(" ".join([products[point["s"]], point["t"], a.get("startDate") or "-", a.get("endDate") or "-", usd,
                                synthetic_price(point["t"], usd)]))
            """, [Paths.repository + "/Tests/FakeAppStoreConnect", dir.write("state.json", String(decoding: state, as: UTF8.self))])
        return out.split(separator: "\n").map { line in
            let f = line.split(separator: " ").map { $0 == "-" ? "" : String($0) }
            return HeldPrice(product: f[0], territory: f[1], start: f[2], end: f[3], usd: f[4], local: f[5])
        }
    }

    /// Per product ID, each territory's manual prices as `start:USD point` ("now" for no start).
    static func heldPrices(_ fake: FakeAppStoreConnect) throws -> [String: [String: [String]]] {
        var held: [String: [String: [String]]] = [:]
        for price in try manualPrices(fake) {
            held[price.product, default: [:]][price.territory, default: []].append("\(price.start.isEmpty ? "now" : price.start):\(price.usd)")
        }
        return held.mapValues { $0.mapValues { $0.sorted() } }
    }

    /// 200 consumables as App Store Connect holds them (made on its web pages): USD 0.99, hand-set in 4
    /// territories at the 1.29 point, sold in those 5.
    static func seededStudio(_ fake: FakeAppStoreConnect, count: Int = 200) throws {
        let app = try fake.addApp(bundleID: bundleID)
        let products: [[String: Any]] = (1...count).map { n in
            [
                "productId": "\(bundleID).gems\(n)", "name": "Gems \(n)", "inAppPurchaseType": "CONSUMABLE",
                "localizations": [["locale": "en-US", "name": "Gems \(n)", "description": "A pack of gems."]],
                "prices": [["territory": "USA", "usd": "0.99"]] + territories.map { ["territory": $0, "usd": "1.29"] },
                "availability": ["territories": ["USA"] + territories, "availableInNewTerritories": false],
            ]
        }
        _ = try fake.control("POST", "seed", ["appId": app, "inAppPurchases": products])
    }

    /// The pulled catalog with every price raised (USD 1.29, each territory at its 1.49 point), and every fourth
    /// product's USD price raised again from `changeDay`.
    static func raised(_ pulled: String) throws -> String {
        let from = try territoryPrices(usd: "1.29"), to = try territoryPrices(usd: "1.49")
        var parts = pulled.components(separatedBy: "\n- productId: ")
        for index in parts.indices.dropFirst() {
            var lines = parts[index].components(separatedBy: "\n")
            for line in lines.indices {
                if lines[line].hasSuffix("price: 0.99") {
                    lines[line] = lines[line].replacingOccurrences(of: "0.99", with: "1.29")
                    if index % 4 == 0 {
                        let indent = String(lines[line].prefix { $0 == " " })
                        lines[line] += "\n\(indent)priceChanges:\n\(indent)  - {startDate: \(changeDay), price: 1.49}"
                    }
                }
                for territory in territories {
                    lines[line] = lines[line].replacingOccurrences(of: "\(territory): \(from[territory]!)", with: "\(territory): \(to[territory]!)")
                }
            }
            parts[index] = lines.joined(separator: "\n")
        }
        return parts.joined(separator: "\n- productId: ")
    }

    @Test func aSavedPlanOf200PriceChangesInterruptedByTheHourIsFinishedByTheSameCommand() throws {
        let fake = try FakeAppStoreConnect()
        try Self.seededStudio(fake)
        try fake.control("POST", "settings", ["rateLimit": 100_000])
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let pulled = try String(contentsOfFile: catalog, encoding: .utf8)
        let edited = try Self.raised(pulled)
        #expect(edited != pulled)
        try edited.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = dir.file("plan.json")
        let planned = try iapkit(["asc", "plan", catalog, "--out", plan], environment: fake.environment)
        #expect(planned.status == 0, "\(planned.stdout)\(planned.stderr)")
        let changes = planned.stdout.split(separator: "\n").filter { $0.hasPrefix("~ ") || $0.hasPrefix("+ ") || $0.hasPrefix("- ") }
        #expect(changes.count == 250 && changes.allSatisfy { $0.hasPrefix("~ inAppPurchasePriceSchedule ") }, "\(planned.stdout)")
        // The saved plan's Markdown beside it is the whole plan, an artifact; the comment is cut to fit.
        let comment = try iapkit(["asc", "plan", catalog, "--format", "markdown"], environment: fake.environment)
        #expect(comment.stdout.count <= 65_536 && comment.stdout.contains("plan.md") == false, "\(comment.stdout.count) characters")

        // Whole or not started: an hour that cannot pay for the plan writes nothing.
        try fake.control("DELETE", "requests")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 1200])
        let refused = try SavedPlanTests.pushPlan(fake, plan)
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was written"), "\(refused.stderr)")
        #expect(try fake.writeCount() == 0)
        let reads = try fake.requests().count
        #expect(reads < 20, "nor read in detail what it could not then write: \(reads) requests")

        // Started anyway, it stops part-way; with the hour back, the same command finishes exactly the rest.
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 1200])
        let partial = try iapkit(["asc", "push", "--plan", plan, "--yes", "--allow-partial"], environment: fake.environment)
        #expect(partial.status == 75, "\(partial.stderr)")
        #expect(partial.stderr.contains("push --plan"), "the advice names the saved plan: \(partial.stderr)")
        let writtenFirst = try Self.scheduleWrites(fake)
        #expect(writtenFirst > 0 && writtenFirst < 200, "\(writtenFirst) schedules written before the hour ran out")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 3600])
        let resumed = try iapkit(["asc", "push", "--plan", plan, "--yes", "--allow-partial"], environment: fake.environment)
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(try Self.scheduleWrites(fake) == 200, "each product's schedule written once")

        let to = try Self.territoryPrices(usd: "1.49")
        let held = try Self.heldPrices(fake)
        #expect(held.count == 200)
        for n in 1...200 {
            let product = held["\(Self.bundleID).gems\(n)"] ?? [:]
            let usa = n % 4 == 0 ? ["\(Self.changeDay):1.49", "now:1.29"] : ["now:1.29"]
            #expect(product["USA"] == usa, "gems\(n): \(product["USA"] ?? [])")
            for territory in Self.territories where product[territory] != ["now:1.49"] {
                Issue.record("gems\(n) \(territory): \(product[territory] ?? []), planned \(to[territory]!)")
            }
        }
        // Run again, the completed plan sends nothing; the catalog plans clean.
        let again = try SavedPlanTests.pushPlan(fake, plan)
        let writes = try Self.scheduleWrites(fake)
        #expect(again.status == 0 && writes == 200, "\(again.stderr)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    static func scheduleWrites(_ fake: FakeAppStoreConnect) throws -> Int {
        try fake.requests().filter {
            ($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/v1/inAppPurchasePriceSchedules"
                && ($0["status"] as? Int) == 201
        }.count
    }
}
