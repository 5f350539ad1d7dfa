import Foundation
import TestSupport
import Testing

/// One-time-use code batches carry their environment as state: a batch made for sandbox testers is pulled as
/// `environment: sandbox` and never pushed back as production codes; a catalog's sandbox batch is created as one;
/// `asc offer-codes download` marks each code's environment and leaves deactivated batches and offer codes out
/// unless asked.
@Suite(.showsFakeLog) struct CodeEnvironmentTests {
    /// A state the generator built (not iapkit), with sandbox batches beside production ones.
    static func generatedWithSandboxBatches(_ fake: FakeAppStoreConnect) throws -> (bundleID: String, seed: Int) {
        for seed in 1..<200 {
            let bundleID = "com.example.codes\(seed)"
            let app = try fake.addApp(bundleID: bundleID, name: "Codes \(seed)")
            let answer = try fake.control("POST", "generate", ["appId": app, "seed": seed]) as? [String: Any] ?? [:]
            let classes = (answer["classes"] as? [String: [String]] ?? [:]).values.flatMap { $0 }
            // Sandbox batches beside production ones, every offer code active (the declared test deactivates one).
            if classes.contains("offer-code:sandbox") && !classes.contains(where: { $0.hasSuffix("offer-code:inactive") }) {
                return (bundleID, seed)
            }
            _ = try fake.control("POST", "reset")
        }
        throw FakeAppStoreConnect.FakeError.control("no seed under 200 builds sandbox batches")
    }

    static func batches(_ fake: FakeAppStoreConnect) throws -> [[String: Any]] {
        try DeclaredStateSyncTests.attributes(fake, "subscriptionOfferCodeOneTimeUseCodes")
            + DeclaredStateSyncTests.attributes(fake, "inAppPurchaseOfferCodeOneTimeUseCodes")
    }

    @Test func sandboxBatchesArePulledAsSuchAndNeverPushedAsProductionCodes() throws {
        let fake = try FakeAppStoreConnect()
        let (bundleID, seed) = try Self.generatedWithSandboxBatches(fake)
        let out = TemporaryDirectory()
        let pulled = out.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", bundleID, "-o", pulled], environment: fake.environment)
        #expect(pull.status == 0, "seed \(seed): \(pull.stderr)")
        let text = try String(contentsOfFile: pulled, encoding: .utf8)
        let sandbox = try Self.batches(fake).filter { $0["environment"] as? String == "SANDBOX" }
        #expect(!sandbox.isEmpty)
        #expect(text.components(separatedBy: "environment: sandbox").count - 1 == sandbox.count, "seed \(seed):\n\(text)")
        #expect(!text.contains("environment: production"), "production is the default and not written")

        // The pulled catalog is what App Store Connect holds: nothing to plan, nothing written.
        let writes = try fake.writeCount()
        let check = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(check.status == 0, "seed \(seed): \(check.stdout)\(check.stderr)")
        let push = try AscSyncTests.push(fake, pulled)
        #expect(push.status == 0 && push.stdout.contains("nothing to push"), "seed \(seed): \(push.stdout)\(push.stderr)")
        #expect(try fake.writeCount() == writes)

        // Downloaded: every code of every active batch, each with its environment; all of them when asked.
        func codes(_ batches: [[String: Any]]) -> Int { batches.reduce(0) { $0 + (($1["numberOfCodes"] as? Int) ?? 0) } }
        let active = try Self.download(fake, pulled, into: out.file("codes.csv"))
        let all = try Self.download(fake, pulled, into: out.file("all.csv"), ["--include-inactive"])
        #expect(active.header == ["product", "offerCode", "environment", "expires", "active", "code"])
        #expect(active.rows.allSatisfy { $0[4] == "true" })
        #expect(active.rows.count == codes(try Self.batches(fake).filter { $0["active"] as? Bool == true }), "every active batch")
        #expect(all.rows.count == codes(try Self.batches(fake)), "every batch of every offer code the catalog declares")
        #expect(Set(all.rows.map { $0[2] }).isSubset(of: ["production", "sandbox"]) && all.rows.contains { $0[2] == "sandbox" })
        #expect(all.rows.filter { $0[2] == "sandbox" }.count == codes(sandbox))
    }

    @Test func aCatalogsSandboxBatchIsCreatedForSandboxAndTheDownloadSaysSo() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: DeclaredStateSyncTests.bundleID)
        let dir = TemporaryDirectory()
        let later = DeclaredStateSyncTests.day(in: 100)
        let catalog = try dir.write(
            "catalog.yaml",
            DeclaredStateSyncTests.offerCodes(
                batches:
                    "[{count: 4, expires: \(later)}, {count: 3, expires: \(later), environment: sandbox}, {count: 2, expires: \(later), active: false}]",
                custom: "[]"))
        #expect(try iapkit("lint", "catalog", catalog).status == 0)
        let plan = try DeclaredStateSyncTests.plan(fake, catalog)
        #expect(plan.stdout.contains("\"3 sandbox codes until \(later)\""), "\(plan.stdout)")
        // The deactivated batch is history the app does not hold: never made, only to be turned off.
        #expect(!plan.stdout.contains("2 codes until"), "\(plan.stdout)")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let made = try Self.batches(fake).map { "\($0["numberOfCodes"] ?? "") \($0["environment"] ?? "none")" }
        #expect(made.sorted() == ["3 SANDBOX", "4 PRODUCTION"], "\(made)")
        #expect(try AscSyncTests.push(fake, catalog).stdout.contains("nothing to push"))
        // Made active, then deactivated in place: App Store Connect keeps it, turned off.
        let active = try String(contentsOfFile: catalog, encoding: .utf8)
        try active.replacingOccurrences(of: ", active: false}", with: "}").write(toFile: catalog, atomically: true, encoding: .utf8)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        try active.write(toFile: catalog, atomically: true, encoding: .utf8)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        let kept = try Self.batches(fake).map {
            "\($0["numberOfCodes"] ?? "") \($0["environment"] ?? "none") \(($0["active"] as? Bool).map(String.init) ?? "")"
        }
        #expect(kept.sorted() == ["2 PRODUCTION false", "3 SANDBOX true", "4 PRODUCTION true"], "\(kept)")
        let writes = try fake.writeCount()
        #expect(try AscSyncTests.push(fake, catalog).stdout.contains("nothing to push"))
        #expect(try fake.writeCount() == writes)

        // The same count and day for production is another batch: App Store Connect cannot move codes between environments.
        let moved = DeclaredStateSyncTests.offerCodes(
            batches: "[{count: 4, expires: \(later)}, {count: 3, expires: \(later)}, {count: 2, expires: \(later), active: false}]",
            custom: "[]")
        try moved.write(toFile: catalog, atomically: true, encoding: .utf8)
        let movedPlan = try DeclaredStateSyncTests.plan(fake, catalog)
        #expect(movedPlan.stdout.contains("oneTimeCodes (none) -> \"3 codes until \(later)\""), "\(movedPlan.stdout)")
        #expect(movedPlan.stdout.contains("batch of 3 sandbox codes until \(later)"), "\(movedPlan.stdout)")

        let codes = try Self.download(fake, catalog, into: dir.file("codes.csv"))
        #expect(codes.rows.filter { $0[2] == "sandbox" }.count == 3 && codes.rows.filter { $0[2] == "production" }.count == 4, "\(codes.rows)")
        #expect(codes.summary.contains("7 codes (4 production, 3 sandbox) of 2 batches"), "\(codes.summary)")
        let all = try Self.download(fake, catalog, into: dir.file("all.csv"), ["--include-inactive"])
        #expect(all.rows.count == 9 && all.rows.filter { $0[4] == "false" }.count == 2, "\(all.rows)")
        #expect(all.summary.contains("9 codes (6 production, 3 sandbox) of 3 batches"), "\(all.summary)")

        let wrong = DeclaredStateSyncTests.offerCodes(batches: "[{count: 4, expires: \(later), environment: testflight}]", custom: "[]")
        try wrong.write(toFile: catalog, atomically: true, encoding: .utf8)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 1 && lint.stdout.contains("environment `testflight` names no environment"), "\(lint.stdout)")
    }

    static func download(
        _ fake: FakeAppStoreConnect, _ catalog: String, into file: String, _ extra: [String] = []
    ) throws
        -> (header: [String], rows: [[String]], summary: String)
    {
        let result = try iapkit(["asc", "offer-codes", "download", catalog, "-o", file] + extra, environment: fake.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return (lines.first ?? [], Array(lines.dropFirst()), result.stderr)
    }
}
