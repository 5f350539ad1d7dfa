import Foundation
import TestSupport
import Testing

/// What plan says it will read after the lists ("reading 4 in detail: about 31 requests") is within a tenth of what
/// it then sends: the budget check before reading, and the wait it asks for, rest on that figure.
@Suite(.showsFakeLog)
struct ReadEstimateTests {
    /// Plans `catalog` and compares the estimate with the requests sent after the lists.
    static func expectEstimateHolds(_ fake: FakeAppStoreConnect, catalog: String, _ what: String) throws {
        try fake.control("DELETE", "requests")
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 0 || plan.status == 1, "\(what): \(plan.stderr)")
        let estimate = try #require(
            plan.stderr.firstMatch(of: /in detail: about (\d+) requests?/).flatMap { Int($0.1) }, "\(what): \(plan.stderr)")
        let sent = try AscScopeTests.paths(fake).filter { !AscScopeTests.isListRead($0) }.count
        // A tenth of what is sent, and at least one request either way on a small app.
        #expect(abs(sent - estimate) * 10 <= max(sent, 10), "\(what): about \(estimate) estimated, \(sent) sent")
    }

    @Test func onTheExample() throws {
        let (fake, project) = try AscScopeTests.pushedExamples()
        try Self.expectEstimateHolds(fake, catalog: project.file("catalog.yaml"), "the example")
    }

    /// Generated states: prices scheduled and in some territories, offers, offer codes and their codes, legacy
    /// purchases; each pulled, then planned against its own app.
    @Test(arguments: [3, 11, 27, 42])
    func onAGeneratedState(seed: Int) throws {
        let harness = try Harness(openAPI: nil)
        let generated = try harness.generate(seed: seed)
        let folder = TemporaryDirectory()
        let catalog = folder.file("catalog.yaml")
        let pull = try iapkit(
            ["asc", "pull", "--bundle-id", generated.source.bundleID, "-o", catalog], environment: harness.fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        // The fake answers within Apple's document (and what App Store Connect is recorded sending beyond it).
        #expect(!pull.stderr.contains("sent attributes this iapkit does not know"), "\(pull.stderr)")
        try Self.expectEstimateHolds(harness.fake, catalog: catalog, "seed \(seed)")
    }

    /// A studio's catalog: consumables priced in USD and by hand in 15 territories. What push says it sends (its
    /// plan's reads, then its writes with their price points) is within a tenth of what it sends, to an empty app and
    /// for a price change of every product.
    @Test func pushEstimatesHoldWithHandSetTerritories() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: "com.example.studio")
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        for usd in ["0.99", "1.29"] {
            // Each territory's price as the fake's grid has it for the USD price.
            let prices = try python(
                """
                import sys
                sys.path.insert(0, sys.argv[1])
                from fakeasc.reference import synthetic_price
                territories = ['GBR', 'DEU', 'FRA', 'JPN', 'IND', 'BRA', 'CAN', 'AUS', 'MEX', 'KOR', 'CHN', 'TUR', 'ZAF', 'SWE', 'CHE']
                print(', '.join('%s: %s' % (t, synthetic_price(t, sys.argv[2])) for t in territories), end='')
                """, [Paths.repository + "/Tests/FakeAppStoreConnect", usd])
            let products = (1...12).map { n in
                """
                  - productId: com.example.studio.gems\(n)
                    referenceName: Gems \(n)
                    type: consumable
                    price: \(usd)
                    territoryPrices: {\(prices)}
                    localizations:
                      - {locale: en-US, name: Gems \(n), description: A pack of gems.}
                """
            }
            let text =
                "schemaVersion: 1\napp:\n  bundleId: com.example.studio\n  primaryLocale: en-US\nproducts:\n" + products.joined(separator: "\n")
                + "\n"
            try text.write(toFile: catalog, atomically: true, encoding: .utf8)
            try fake.control("DELETE", "requests")
            let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
            #expect(push.status == 0, "\(usd): \(push.stdout)\(push.stderr)")
            let reads = push.stderr.firstMatch(of: /in detail: about (\d+) requests?/).flatMap { Int($0.1) } ?? 0
            let writes = try #require(push.stdout.firstMatch(of: /Push would send about (\d+) requests?/).flatMap { Int($0.1) }, "\(push.stdout)")
            let sent = try AscScopeTests.paths(fake).filter { !AscScopeTests.isListRead($0) }.count
            #expect(abs(sent - reads - writes) * 10 <= max(sent, 10), "\(usd): about \(reads) + \(writes) estimated, \(sent) sent")
        }
    }
}
