import Foundation
import TestSupport
import Testing

/// Plans in proportion to the change: `--product` and `--changed-since` read in detail only what they name, push
/// writes nothing outside them, and a plan the hour's request budget cannot pay for stops before its detail reads.
@Suite(.showsFakeLog)
struct AscScopeTests {
    static let bundleID = AscSyncTests.bundleID
    static let banana = "com.example.fruitstand.banana"
    static let kiwi = "com.example.fruitstand.kiwi"

    /// The examples pushed to a new fake, and a project whose catalog then changes banana's and kiwi's names.
    static func pushedExamples() throws -> (FakeAppStoreConnect, TemporaryDirectory) {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: bundleID)
        let project = try AscSyncTests.project()
        let pushed = try AscSyncTests.push(fake, project.file("catalog.yaml"))
        #expect(pushed.status == 0, "\(pushed.stderr)")
        try fake.control("DELETE", "requests")
        return (fake, project)
    }

    static func rename(_ project: TemporaryDirectory, _ pairs: [(String, String)]) throws {
        var text = try String(contentsOfFile: project.file("catalog.yaml"), encoding: .utf8)
        for (old, new) in pairs {
            #expect(text.contains(old), "the examples hold \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(toFile: project.file("catalog.yaml"), atomically: true, encoding: .utf8)
    }

    static let bananaName = ("name: Pack Banane", "name: Pack de bananes")
    static let kiwiName = ("referenceName: Kiwi", "referenceName: Kiwi Box")

    /// The paths of the requests the fake saw since the last clear.
    static func paths(_ fake: FakeAppStoreConnect) throws -> [String] {
        try fake.requests().compactMap { ($0["path"] as? String) ?? ($0["url"] as? String) }
    }

    /// Requests that read one product in detail (its versions, territories, prices, offers).
    static func detailReads(_ paths: [String]) -> [String] {
        paths.filter { path in
            !path.hasPrefix("/v1/subscriptionGroups/")
                && ["/versions", "/availableTerritories", "/manualPrices", "/prices", "/introductoryOffers"].contains { path.contains($0) }
        }
    }

    @Test func aProductScopedPlanReadsAndPushesOnlyThatProduct() throws {
        let (fake, project) = try Self.pushedExamples()
        try Self.rename(project, [Self.bananaName, Self.kiwiName])
        let catalog = project.file("catalog.yaml")

        let full = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(full.stdout.contains(Self.banana) && full.stdout.contains(Self.kiwi), "\(full.stdout)")
        let fullReads = Self.detailReads(try Self.paths(fake)).count
        try fake.control("DELETE", "requests")

        let scoped = try iapkit(["asc", "plan", catalog, "--product", "*.banana"], environment: fake.environment)
        #expect(scoped.status == 0, "\(scoped.stderr)")
        #expect(scoped.stdout.contains(Self.banana) && !scoped.stdout.contains(Self.kiwi), "\(scoped.stdout)")
        #expect(scoped.stderr.contains("reading 1 in detail"), "\(scoped.stderr)")
        let scopedReads = Self.detailReads(try Self.paths(fake)).count
        #expect(scopedReads > 0 && scopedReads * 4 < fullReads, "one product's reads (\(scopedReads)) of \(fullReads)")

        // Push writes nothing outside the scope: kiwi's change is still to do afterwards.
        let pushed = try AscSyncTests.push(fake, catalog, extra: ["--product", Self.banana])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let after = try iapkit(["asc", "plan", catalog, "--format", "json"], environment: fake.environment)
        let plan = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any] ?? [:]
        let pending = AscSyncTests.changes(plan, "update").compactMap { $0["productId"] as? String }
        #expect(pending == [Self.kiwi], "\(after.stdout)")
    }

    @Test func aPlanChangedSinceARevisionReadsOnlyTheChangedProducts() throws {
        let (fake, project) = try Self.pushedExamples()
        let git = { (arguments: [String]) throws -> ProcessResult in
            try run("/usr/bin/env", ["git", "-C", project.path, "-c", "user.name=iapkit", "-c", "user.email=ci@example.com"] + arguments)
        }
        #expect(try git(["init", "-q"]).status == 0)
        #expect(try git(["add", "catalog.yaml"]).status == 0)
        #expect(try git(["commit", "-q", "-m", "catalog"]).status == 0)
        try Self.rename(project, [Self.bananaName])
        let catalog = project.file("catalog.yaml")

        let result = try iapkit(["asc", "plan", catalog, "--changed-since", "HEAD"], environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Pack de bananes"), "\(result.stdout)")
        #expect(result.stderr.contains("reading 1 in detail"), "\(result.stderr)")
        let reads = Self.detailReads(try Self.paths(fake))
        #expect(!reads.isEmpty && reads.count <= 6, "\(reads)")

        // Nothing changed since the working tree: nothing is read in detail, and the lists still are.
        try fake.control("DELETE", "requests")
        #expect(try git(["commit", "-q", "-am", "renamed"]).status == 0)
        // (App Store Connect still has the old name: the nightly full plan says so, a pull request's plan does not.)
        let none = try iapkit(["asc", "plan", catalog, "--changed-since", "HEAD", "--check"], environment: fake.environment)
        #expect(none.status == 0, "\(none.stdout)")
        #expect(none.stderr.contains("reading 0 in detail"), "\(none.stderr)")
        #expect(Self.detailReads(try Self.paths(fake)).isEmpty)

        let unknown = try iapkit(["asc", "plan", catalog, "--changed-since", "no-such-revision"], environment: fake.environment)
        #expect(unknown.status == 2 && unknown.stderr.contains("no-such-revision"), "\(unknown.stderr)")
    }

    @Test func aPlanTheHourCannotPayForStopsAfterTheListsWithExit75() throws {
        let (fake, project) = try Self.pushedExamples()
        let catalog = project.file("catalog.yaml")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 12])
        let stopped = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("nothing was read past the product lists"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("--changed-since") && stopped.stderr.contains("--wait"), "\(stopped.stderr)")
        let paths = try Self.paths(fake)
        #expect(Self.detailReads(paths).isEmpty, "\(paths)")
        #expect(!paths.isEmpty && paths.count <= 8, "only the lists: \(paths)")

        // With --wait it paces the reads instead: it says it waits for the budget, and is stopped once it has said so.
        let said = try Self.stopped(["asc", "plan", catalog, "--wait"], fake, project, onceItSays: "hourly budget")
        #expect(said.contains("waiting about") && said.contains("hourly budget"), "\(said)")
    }

    /// Runs iapkit with `arguments` until its standard error says `text` (or two minutes pass), expects it still
    /// running then (waiting, not failed), stops it and returns what it said.
    static func stopped(
        _ arguments: [String], _ fake: FakeAppStoreConnect, _ project: TemporaryDirectory, onceItSays text: String
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(fake.environment) { $1 }
        let errorFile = project.file("wait.err")
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        func said() -> String { (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(120)
        while !said().contains(text) && process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(process.isRunning, "\(arguments) ended instead of waiting: \(said())")
        process.terminate()
        process.waitUntilExit()
        try errors.close()
        return said()
    }

    /// The requests that list: the app, the storefronts, the products and the groups.
    static func isListRead(_ path: String) -> Bool {
        path == "/v1/apps" || path == "/v1/territories" || path.hasSuffix("/inAppPurchasesV2")
            || path.hasSuffix("/subscriptionGroups") || path.hasSuffix("/subscriptions")
    }

    @Test func aFullPlanReadsOnlyTheCatalogsProductsInDetail() throws {
        let (fake, project) = try Self.pushedExamples()
        // The catalog without kiwi: App Store Connect alone has it.
        _ = try python(
            """
            import sys, yaml
            path = sys.argv[1]
            catalog = yaml.safe_load(open(path))
            catalog["products"] = [p for p in catalog["products"] if p["productId"] != sys.argv[2]]
            yaml.safe_dump(catalog, open(path, "w"), allow_unicode=True, sort_keys=False)
            """, [project.file("catalog.yaml"), Self.kiwi])
        let result = try iapkit(["asc", "plan", project.file("catalog.yaml")], environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("? inAppPurchase \(Self.kiwi)"), "\(result.stdout)")
        #expect(result.stderr.contains("Read the lists of 6 products; reading 5 in detail"), "\(result.stderr)")
        let kiwiID =
            try AscSyncTests.resources(fake, "inAppPurchases")
            .first { ($0["attributes"] as? [String: Any])?["productId"] as? String == Self.kiwi }?["id"] as? String
        let kiwiReads = try Self.paths(fake).filter { path in kiwiID.map { path.contains("/\($0)/") } ?? false }
        #expect(kiwiID != nil && kiwiReads.isEmpty, "\(kiwiReads)")
    }

    @Test func anEmptyAppsEstimateIsWhatItSends() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try AscSyncTests.project()
        let result = try iapkit(["asc", "plan", project.file("catalog.yaml")], environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let estimate = try #require(
            result.stderr.firstMatch(of: /in detail: about (\d+) requests?/).flatMap { Int($0.1) },
            "\(result.stderr)")
        let sent = try Self.paths(fake).filter { !Self.isListRead($0) }
        #expect(estimate == sent.count, "estimated \(estimate), sent \(sent)")
    }

    @Test func theEstimateIsWithinTenPercentOfTheReadsSent() throws {
        let (fake, project) = try Self.pushedExamples()
        let result = try iapkit(["asc", "plan", project.file("catalog.yaml")], environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let estimate = try #require(
            result.stderr.firstMatch(of: /in detail: about (\d+) requests?/).flatMap { Int($0.1) },
            "\(result.stderr)")
        let detailPaths = try Self.paths(fake).filter { !Self.isListRead($0) }
        let detail = detailPaths.count
        #expect(
            detail > 10 && abs(estimate - detail) <= max(1, detail / 10),
            "estimated \(estimate), sent \(detail): \(detailPaths)")
    }
}
