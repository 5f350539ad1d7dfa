import Foundation
import TestSupport
import Testing

/// `asc reprice` against the fake App Store Connect: a bulk change edits only the price lines of the products it
/// names, each value on its territory's grid as the fake answers it, and plans and pushes exactly those changes.
@Suite(.showsFakeLog)
struct RepriceSyncTests {
    static let bundleID = "com.example.studio"
    static let territories = ["GBR", "DEU", "FRA", "JPN", "IND", "BRA", "CAN", "AUS", "MEX", "KOR", "CHN", "TUR", "ZAF", "SWE", "CHE"]

    /// The fake's USD grid, paid points only, in order.
    static func usdPoints() throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.repository + "/Tests/FakeAppStoreConnect/usd-price-points.json"))
        let points = ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["points"] as? [[String: Any]]) ?? []
        return points.compactMap { $0["usd"] as? String }.filter { $0 != "0.00" }
    }

    /// An in-app purchase as App Store Connect holds it: a USD price and, by hand, each territory at another point.
    static func consumable(_ id: String, usd: String, local: String) -> [String: Any] {
        [
            "productId": id, "name": id, "inAppPurchaseType": "CONSUMABLE",
            "localizations": [["locale": "en-US", "name": "Gems", "description": "A pack of gems"]],
            "prices": [["usd": usd]] + territories.map { ["territory": $0, "usd": local] },
            "availability": ["territories": ["USA"] + territories, "availableInNewTerritories": true],
        ]
    }

    /// 60 gem packs and 5 coin packs, each priced in USD and by hand in 15 territories, pulled into a catalog.
    static func pulledStudio() throws -> (FakeAppStoreConnect, TemporaryDirectory, String) {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: bundleID, name: "Studio")
        let points = try usdPoints()
        var products = (1...60).map { n in consumable("com.example.studio.gems\(n)", usd: points[8 + n % 40], local: points[14 + n % 40]) }
        products += (1...5).map { n in consumable("com.example.studio.coins\(n)", usd: points[8 + n], local: points[14 + n]) }
        try fake.control("POST", "seed", ["appId": app, "inAppPurchases": products])
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        return (fake, dir, catalog)
    }

    static func plan(_ fake: FakeAppStoreConnect, _ catalog: String) throws -> [[String: Any]] {
        let result = try iapkit(["asc", "plan", catalog, "--format", "json"], environment: fake.environment)
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        #expect(json != nil, "\(result.stdout)\(result.stderr)")
        return ((json?["changes"] as? [[String: Any]]) ?? []).filter { $0["action"] as? String != "unchanged" }
    }

    /// Every value the edit changed, checked in Python against the fake's own grid (its synthetic territory prices),
    /// rounded as the command says: the nearest point to the price times 1.1 (in exact decimals), ties upward, never kept
    /// or lowered.
    static let expectedOnTheGrid = """
        import json, sys, yaml
        from decimal import Decimal
        sys.path.insert(0, sys.argv[1])
        from fakeasc.reference import synthetic_price, USD_POINTS
        old, new = (yaml.safe_load(open(p)) for p in sys.argv[2:4])
        usd = [u for _, u in USD_POINTS if float(u) > 0]
        def grid(t):
            return sorted({Decimal(u) if t == 'USA' else Decimal(synthetic_price(t, u)) for u in usd})
        def expected(t, price):
            # Exact decimals: 0.95 + 10% is 1.045, as far from 1.00 as from 1.09, and a tie goes up.
            points, now = grid(t), Decimal(str(price))
            target = now * Decimal('1.1')
            best = min(points, key=lambda p: (abs(p - target), -p))
            return best if best > now else min(p for p in points if p > now)
        wrong, changed = [], 0
        for a, b in zip(old['products'], new['products']):
            pid, matched = a['productId'], a['productId'].startswith('com.example.studio.gems')
            pairs = [('USA', a['price'], b['price'])] + [(t, a['territoryPrices'][t], b['territoryPrices'][t]) for t in a['territoryPrices']]
            for t, before, after in pairs:
                want = expected(t, before) if matched else Decimal(str(before))
                if Decimal(str(after)) != want:
                    wrong.append('%s %s: %s -> %s, expected %s' % (pid, t, before, after, want))
                changed += Decimal(str(after)) != Decimal(str(before))
        print(json.dumps({'wrong': wrong, 'changed': changed}))
        """

    @Test func aBulkIncreaseEditsOnlyPriceLinesPlansExactlyThoseChangesAndPushesThem() throws {
        let (fake, dir, catalog) = try Self.pulledStudio()
        defer { withExtendedLifetime(dir) {} }
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0, "pulled, the catalog plans clean")
        let before = try String(contentsOfFile: catalog, encoding: .utf8)
        let reprice = try iapkit(["asc", "reprice", catalog, "--product", "com.example.studio.gems*", "--by", "10%"], environment: fake.environment)
        #expect(reprice.status == 0, "\(reprice.stdout)\(reprice.stderr)")
        #expect(reprice.stdout.contains("60 products repriced (+10%)"), "\(reprice.stdout)")
        let after = try String(contentsOfFile: catalog, encoding: .utf8)

        // Line for line: the same lines, and each that differs a price of a gem pack with only its number changed.
        let old = before.components(separatedBy: "\n"), new = after.components(separatedBy: "\n")
        #expect(old.count == new.count)
        var product = "", differing = 0
        let number = /\d+(\.\d+)?/
        for (a, b) in zip(old, new) {
            if let id = a.firstMatch(of: /productId: (\S+)/) { product = String(id.1) }
            guard a != b else { continue }
            differing += 1
            #expect(product.hasPrefix("com.example.studio.gems"), "\(product): \(a) -> \(b)")
            #expect(a.replacing(number, with: "N") == b.replacing(number, with: "N"), "\(a) -> \(b)")
            #expect(a.contains("price") || a.firstMatch(of: #/^\s+[A-Z]{3}: /#) != nil || a.contains("territoryPrices"), "\(a)")
        }
        #expect(differing > 0)
        let check = try Self.python(
            Self.expectedOnTheGrid, [Paths.repository + "/Tests/FakeAppStoreConnect", Self.dir(catalog) + "/before.yaml", catalog], before: before)
        let answer = (try? JSONSerialization.jsonObject(with: Data(check.utf8))) as? [String: Any]
        #expect((answer?["wrong"] as? [String]) == [], "\(check)")
        #expect((answer?["changed"] as? Int) == 60 * 16, "every gem pack's 16 prices changed: \(check)")

        // The plan: one price schedule change per gem pack, and nothing else.
        let changes = try Self.plan(fake, catalog)
        #expect(changes.count == 60, "\(changes.map { "\($0["resource"] ?? "") \($0["productId"] ?? "")" })")
        #expect(changes.allSatisfy { $0["resource"] as? String == "inAppPurchasePriceSchedule" && $0["action"] as? String == "update" })
        #expect(Set(changes.compactMap { $0["productId"] as? String }) == Set((1...60).map { "com.example.studio.gems\($0)" }))

        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let again = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(again.status == 0, "pushed, the repriced catalog plans clean: \(again.stdout)\(again.stderr)")
    }

    static func dir(_ file: String) -> String { (file as NSString).deletingLastPathComponent }

    /// Runs the check with the catalog as it was before the edit written beside it.
    static func python(_ script: String, _ arguments: [String], before: String) throws -> String {
        try before.write(toFile: arguments[1], atomically: true, encoding: .utf8)
        return try TestSupport.python(script, arguments)
    }

    /// A small app: two gem packs priced in the USA and by hand in India, one with an offer code at 0.99.
    static func small() throws -> (FakeAppStoreConnect, TemporaryDirectory, String) {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: bundleID, name: "Studio")
        let dir = TemporaryDirectory()
        let catalog = dir.write(
            "catalog.yaml",
            """
            schemaVersion: 1
            app:
              bundleId: com.example.studio
              primaryLocale: en-US
            products:
              - productId: com.example.studio.gems1
                referenceName: Gems 1
                type: consumable
                price: 1.99  # the launch price
                localizations:
                  - {locale: en-US, name: Gems, description: A pack of gems.}
                offerCodes:
                  - referenceName: Launch gems
                    price: 0.99
              - productId: com.example.studio.gems2
                referenceName: Gems 2
                type: consumable
                price: 2.99
                localizations:
                  - {locale: en-US, name: Gems, description: A pack of gems.}

            """)
        return (fake, dir, catalog)
    }

    @Test func diffPrintsTheChangeAndDryRunWritesNothing() throws {
        let (fake, dir, catalog) = try Self.small()
        defer { withExtendedLifetime(dir) {} }
        let before = try String(contentsOfFile: catalog, encoding: .utf8)
        let result = try iapkit(
            ["asc", "reprice", catalog, "--product", "com.example.studio.gems2", "--steps", "-1", "--diff", "--dry-run"],
            environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("--- a/\(catalog)\n+++ b/\(catalog)\n@@ "), "\(result.stdout)")
        #expect(result.stdout.contains("\n-    price: 2.99\n+    price: 2.95\n"), "\(result.stdout)")
        #expect(result.stderr.contains("not written: --dry-run"))
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == before)
    }

    /// Lowering gems1 below its offer code's price is an error lint would report: nothing is written, exit 1, the
    /// finding located in the catalog.
    @Test func anEditLintWouldRefuseIsNotWritten() throws {
        let (fake, dir, catalog) = try Self.small()
        defer { withExtendedLifetime(dir) {} }
        let before = try String(contentsOfFile: catalog, encoding: .utf8)
        let result = try iapkit(["asc", "reprice", catalog, "--product", "com.example.studio.*", "--by=-60%"], environment: fake.environment)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("catalog.yaml:") && result.stderr.contains("is not below the product's"), "\(result.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == before)
    }

    /// `--from`: the new prices go in a change of that day, which plan shows as that day's change and push writes.
    @Test func aDatedChangeIsPlannedForItsDayAndPushed() throws {
        let (fake, dir, catalog) = try Self.small()
        defer { withExtendedLifetime(dir) {} }
        #expect(try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment).status == 0)
        let result = try iapkit(
            ["asc", "reprice", catalog, "--product", "com.example.studio.gems2", "--steps", "2", "--from", "2027-03-01"],
            environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(
            text.contains("    price: 2.99\n") && text.contains("    priceChanges:\n      - startDate: 2027-03-01\n        price: 3.09\n"), "\(text)")
        let changes = try Self.plan(fake, catalog)
        #expect(changes.count == 1 && changes.first?["productId"] as? String == "com.example.studio.gems2", "\(changes)")
        #expect((changes.first?["detail"] as? String)?.contains("from 2027-03-01") == true, "\(changes)")
        #expect(try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment).status == 0)
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0)
    }

    @Test func badInputIsExitTwoWithWhatIsWrong() throws {
        let (fake, dir, catalog) = try Self.small()
        defer { withExtendedLifetime(dir) {} }
        let none = try iapkit(["asc", "reprice", catalog, "--product", "com.example.other.*", "--by", "10%"], environment: fake.environment)
        #expect(none.status == 2 && none.stderr.contains("`--product com.example.other.*`") && none.stderr.contains("catalog.yaml"), "\(none.stderr)")
        let percent = try iapkit(["asc", "reprice", catalog, "--product", "com.example.studio.*", "--by", "10"], environment: fake.environment)
        #expect(percent.status == 2 && percent.stderr.contains("--by takes a percentage"), "\(percent.stderr)")
        let past = try iapkit(
            ["asc", "reprice", catalog, "--product", "com.example.studio.*", "--by", "10%", "--from", "2020-01-01"], environment: fake.environment)
        #expect(past.status == 2 && past.stderr.contains("is not after App Store Connect's today"), "\(past.stderr)")
        let grid = try iapkit(["asc", "reprice", catalog, "--product", "com.example.studio.*", "--to", "1.98"], environment: fake.environment)
        #expect(grid.status == 2 && grid.stderr.contains("the nearest are 1.95 and 1.99"), "\(grid.stderr)")
    }
}
