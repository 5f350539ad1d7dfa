import Foundation
import TestSupport
import Testing

/// Every command reads App Store Connect as pull does: what it asked for and did not get is a note, never "none".
/// The fake answers in the shapes recorded from App Store Connect or allowed by JSON:API (prices without their
/// relationships, relationships named in `include=` answered with links only), and each case is replayed from the
/// trace it recorded, with no network.
@Suite(.showsFakeLog)
struct UnansweredReadTests {
    /// The example app pushed, then answered in `shape` (fake settings).
    static func pushed(_ shape: [String: Any]) throws -> (FakeAppStoreConnect, TemporaryDirectory, String) {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: AscSyncTests.bundleID)
        let project = try AscSyncTests.project()
        let catalog = project.file("catalog.yaml")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stderr)")
        try fake.control("POST", "settings", shape)
        return (fake, project, catalog)
    }

    /// Runs `arguments` against the fake while recording a trace, then again from the trace alone: both answer the same.
    static func recordedAndReplayed(_ fake: FakeAppStoreConnect, _ arguments: [String], in dir: TemporaryDirectory) throws -> ProcessResult {
        let trace = dir.file("trace-\(UUID().uuidString).jsonl")
        let live = try iapkit(arguments + ["--trace", trace], environment: fake.environment)
        let replayed = try iapkit(arguments + ["--replay", trace], environment: AscTraceTests.noCredentials)
        #expect(replayed.status == live.status, "\(replayed.stderr)")
        #expect(replayed.stdout == live.stdout, "the replay reads the recorded answers as they were read live")
        return live
    }

    @Test func pricesMarksWhatItCouldNotLinkAndSaysSo() throws {
        let (fake, project, catalog) = try Self.pushed(["pricesWithoutRelationships": true])
        let sheet = try Self.recordedAndReplayed(fake, ["asc", "prices", catalog, "--format", "csv"], in: project)
        #expect(sheet.status == 0, "\(sheet.stderr)")
        // RFC 4180 records end with CRLF, one Character in Swift.
        let rows = sheet.stdout.split(whereSeparator: \.isNewline).dropFirst()
        #expect(!rows.isEmpty, "a price it could not link is a row, never left out: \(sheet.stdout)\(sheet.stderr)")
        #expect(rows.allSatisfy { $0.hasSuffix(",not answered") }, "\(sheet.stdout)")
        #expect(sheet.stderr.contains("com.example.fruitstand.banana:") && sheet.stderr.contains("not answered"), "\(sheet.stderr)")

        // A price schedule asked for and answered with links only: the product's row says so.
        try fake.control("POST", "settings", ["pricesWithoutRelationships": false, "linksOnly": ["iapPriceSchedule"]])
        let linked = try Self.recordedAndReplayed(fake, ["asc", "prices", catalog, "--format", "json"], in: project)
        let prices = (try JSONSerialization.jsonObject(with: Data(linked.stdout.utf8)) as? [String: Any])?["prices"] as? [[String: Any]] ?? []
        let banana = prices.filter { $0["productId"] as? String == "com.example.fruitstand.banana" }
        #expect(banana.count == 1 && banana.first?["customerPrice"] as? String == "?", "\(banana)")
        #expect((banana.first?["unanswered"] as? String)?.contains("links only") == true, "\(banana)")
        #expect(prices.contains { $0["productId"] as? String == "com.example.fruitstand.club.monthly" && $0["unanswered"] == nil })
    }

    @Test func submitSaysNotAnsweredWhereItWasNotAnswered() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: AscSubmitTests.bundleID)
        try fake.control(
            "POST", "seed",
            ["appId": app, "appStoreVersions": [["platform": "IOS", "versionString": "1.1", "appVersionState": "PREPARE_FOR_SUBMISSION"]]])
        let (project, catalog) = try AscSubmitTests.project()
        defer { withExtendedLifetime(project) {} }
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        try fake.control("POST", "settings", ["linksOnly": ["inAppPurchaseAvailability", "iapPriceSchedule", "appStoreReviewScreenshot"]])
        let submit = try AscSubmitTests.submit(fake, catalog, ["--app-version", "1.1"])
        let map = submit.stderr.split(separator: "\n").first { $0.contains("\(AscSubmitTests.bundleID).map (MISSING_METADATA)") } ?? ""
        #expect(map.contains("its price not answered by App Store Connect"), "\(submit.stderr)")
        #expect(map.contains("its availability not answered by App Store Connect"), "\(submit.stderr)")
        #expect(map.contains("its review screenshot not answered by App Store Connect"), "\(submit.stderr)")
        #expect(!map.contains("not available in any territory") && !map.contains("no price") && !map.contains("no review screenshot"), "\(map)")
    }

    @Test func aRelationshipAskedForAndAnsweredWithLinksOnlyIsUnknownNeverNone() throws {
        let (fake, project, catalog) = try Self.pushed(["linksOnly": ["inAppPurchaseAvailability", "iapPriceSchedule", "planAvailabilities"]])
        let pulledDir = TemporaryDirectory()
        let pulled = pulledDir.file("catalog.yaml")
        let pull = try Self.recordedAndReplayed(
            fake, ["asc", "pull", "--bundle-id", AscSyncTests.bundleID, "-o", pulled, "--fresh"], in: project)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("answered its price schedule with links only"), "\(pull.stderr)")
        #expect(pull.stderr.contains("answered its plan availabilities with links only"), "\(pull.stderr)")
        let text = try String(contentsOfFile: pulled, encoding: .utf8)
        #expect(!text.contains("territories: []"), "never sold nowhere: \(text)")

        // The kept catalog plans its values as `?`, and push replaces nothing it never read unless told to.
        let plan = try Self.recordedAndReplayed(fake, ["asc", "plan", catalog, "--format", "json"], in: project)
        let changes = ((try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["changes"] as? [[String: Any]]) ?? []
        let unanswered = changes.filter { change in
            ((change["fields"] as? [String: [String: Any]]) ?? [:]).values.contains { $0["unanswered"] as? Bool == true }
        }
        #expect(!unanswered.isEmpty && unanswered.allSatisfy { $0["action"] as? String == "refused" }, "\(changes)")
        #expect(unanswered.allSatisfy { (($0["fields"] as? [String: [String: Any]]) ?? [:]).values.allSatisfy { $0["from"] is NSNull } })
        let writes = try fake.writeCount()
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 1, "\(push.stdout)\(push.stderr)")
        #expect((push.stdout + push.stderr).contains("--replace-unanswered"), "\(push.stdout)\(push.stderr)")
        #expect(try fake.writeCount() == writes, "nothing replaced unasked")
        let replaced = try AscSyncTests.push(fake, catalog, extra: ["--replace-unanswered"])
        #expect(replaced.status == 0, "\(replaced.stdout)\(replaced.stderr)")
        #expect(try fake.writeCount() > writes, "asked to, push sends the catalog's values")
    }

    @Test func aPriceChangeOverPricesNeverReadPlansFromUnknownAndIsSentOnlyWhenAsked() throws {
        let (fake, project, catalog) = try Self.pushed(["pricesWithoutRelationships": true])
        let edited = try String(contentsOfFile: catalog, encoding: .utf8).replacingOccurrences(of: "price: 1.99\n", with: "price: 2.99\n")
        try edited.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = try Self.recordedAndReplayed(fake, ["asc", "plan", catalog], in: project)
        let line = plan.stdout.split(separator: "\n").first { $0.contains("com.example.fruitstand.tokens.10") && $0.contains("price") } ?? ""
        #expect(line.contains("price ? -> \"2.99\""), "\(plan.stdout)")
        #expect(!plan.stdout.contains("(none) -> \"2.99\""), "\(plan.stdout)")
        let planFile = project.file("release.plan.json")
        let saved = try iapkit(["asc", "plan", catalog, "--out", planFile], environment: fake.environment)
        #expect(saved.status == 0 || saved.status == 1, "\(saved.stderr)")
        let refused = try iapkit(["asc", "push", "--plan", planFile, "--yes"], environment: fake.environment)
        #expect(refused.status == 1, "a plan without --replace-unanswered is not applied: \(refused.stderr)")
        let approved = try iapkit(["asc", "plan", catalog, "--out", planFile, "--replace-unanswered"], environment: fake.environment)
        #expect(approved.status == 0, "\(approved.stderr)")
        let writes = try fake.writeCount()
        let applied = try iapkit(["asc", "push", "--plan", planFile, "--yes"], environment: fake.environment)
        #expect(applied.status == 0, "the plan approved with it is sent as approved: \(applied.stdout)\(applied.stderr)")
        #expect(try fake.writeCount() > writes)
    }
}
