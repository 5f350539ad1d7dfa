import Foundation
import TestSupport
import Testing

/// Asset packs through `iapkit asc plan | push | submit` against the fake App Store Connect: three packs pushed
/// once, a changed file giving exactly one new version, a failed processing reported and replaced, review
/// submissions with the processed versions.
@Suite(.showsFakeLog) struct AscAssetPackTests {
    static let bundleID = "com.example.packs"

    struct Setup {
        let fake: FakeAppStoreConnect
        let project: TemporaryDirectory
        var catalog: String { project.file("catalog.yaml") }
        var log: String { project.file("tool.log") }

        @discardableResult
        func package() throws -> ProcessResult {
            let result = try iapkit(
                ["package", "--catalog", catalog, "--asset-packs", "--output", project.file("build")],
                environment: AssetPackFixture.toolEnvironment(log: log))
            #expect(result.status == 0, "\(result.stderr)")
            return result
        }

        func push() throws -> ProcessResult { try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment) }

        func versions() throws -> [[String: Any]] { try AscSyncTests.resources(fake, "backgroundAssetVersions") }

        /// Each pack's versions as "number state", by identifier (the pack named by its archive, `ID-DIGEST.aar`).
        func packVersions() throws -> [String: [String]] {
            var fileNames: [String: String] = [:]
            for file in try AscSyncTests.resources(fake, "backgroundAssetUploadFiles") {
                fileNames[file["id"] as? String ?? ""] = (file["attributes"] as? [String: Any])?["fileName"] as? String
            }
            var result: [String: [String]] = [:]
            for version in try versions() {
                let asset = ((version["relationships"] as? [String: Any])?["assetFile"] as? [String: Any])?["data"] as? [String: Any]
                let fileName = fileNames[asset?["id"] as? String ?? ""] ?? "?"
                let name = String(fileName.dropLast(".aar".count + 65))
                let attributes = version["attributes"] as? [String: Any] ?? [:]
                result[name, default: []].append("\(attributes["version"] as? String ?? "?") \(attributes["state"] as? String ?? "?")")
            }
            return result.mapValues { $0.sorted() }
        }
    }

    static func setUp() throws -> Setup {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: bundleID)
        return Setup(fake: fake, project: try AssetPackFixture.project())
    }

    @Test func threePacksArePushedOnceAndAChangedFileGivesExactlyOneNewVersion() throws {
        let setup = try Self.setUp()
        try setup.package()
        let plan = try AscSyncTests.planJSON(setup.fake, setup.catalog)
        let created = AscSyncTests.changes(plan, "create").compactMap { change -> String? in
            guard let resource = change["resource"] as? String, resource.hasPrefix("backgroundAsset") else { return nil }
            return "\(resource) \(change["detail"] as? String ?? "")"
        }
        #expect(
            created == [
                "backgroundAsset intro", "backgroundAssetVersion intro", "backgroundAsset tutorial",
                "backgroundAssetVersion tutorial", "backgroundAsset level1", "backgroundAssetVersion level1",
            ])

        let first = try setup.push()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try setup.packVersions() == ["intro": ["1 COMPLETE"], "tutorial": ["1 COMPLETE"], "level1": ["1 COMPLETE"]])
        // The archive went up under a name carrying the content digest the lock records, after its manifest.
        let files = try AscSyncTests.resources(setup.fake, "backgroundAssetUploadFiles")
        let out = try python(
            """
            import json, sys
            files, lock = json.loads(sys.argv[1]), json.load(open(sys.argv[2]))
            names = sorted(f['attributes']['assetType'] + ' ' + f['attributes']['fileName'] for f in files)
            expected = sorted(['ASSET %s-%s.aar' % (k, v['contentDigest'].split(':')[1]) for k, v in lock['assetPacks'].items()]
                              + ['MANIFEST %s.json' % k for k in lock['assetPacks']])
            assert names == expected, (names, expected)
            assert all(f['attributes']['assetDeliveryState']['state'] == 'COMPLETE' for f in files)
            print(len(files))
            """, [String(decoding: try JSONSerialization.data(withJSONObject: files), as: UTF8.self), setup.project.file("iapkit.lock")])
        #expect(out == "6\n")

        // Planned again with no change: nothing to do, and a push writes nothing.
        let check = try iapkit(["asc", "plan", setup.catalog, "--check"], environment: setup.fake.environment)
        #expect(check.status == 0, "\(check.stdout)")
        let writes = try setup.fake.writeCount()
        let second = try setup.push()
        #expect(second.status == 0 && second.stdout.contains("nothing to push"), "\(second.stderr)")
        #expect(try setup.fake.writeCount() == writes)

        // One file changed: exactly one new version, of that pack, shown with both digests.
        try Data("tiles, changed\n".utf8).write(to: URL(fileURLWithPath: setup.project.file("packs/level1/Levels/1/tiles.bin")))
        let text = try iapkit(["asc", "plan", setup.catalog], environment: setup.fake.environment)
        let lines = text.stdout.split(separator: "\n").filter { $0.contains("backgroundAsset") }
        #expect(lines.count == 2 && lines[0].hasPrefix("~ backgroundAssetVersion [level1]: content digest \""), "\(text.stdout)")
        // The archive is stale until packaged again: plan says so as a refused change, and push refuses before
        // writing anything.
        #expect(lines.last?.hasPrefix("! backgroundAssetVersion [level1] (no archive matches the pack's content") == true, "\(text.stdout)")
        let stale = try setup.push()
        #expect(stale.status == 1 && stale.stderr.contains("iapkit package --catalog"), "\(stale.stderr)")
        #expect(try setup.fake.writeCount() == writes)
        try setup.package()
        let third = try setup.push()
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try setup.packVersions() == ["intro": ["1 COMPLETE"], "tutorial": ["1 COMPLETE"], "level1": ["1 COMPLETE", "2 COMPLETE"]])
        #expect(try AscSyncTests.resources(setup.fake, "backgroundAssetUploadFiles").count == 8)
        #expect(try iapkit(["asc", "plan", setup.catalog, "--check"], environment: setup.fake.environment).status == 0)
    }

    /// App Store Connect keeps a pack's archives, not its folder: a pull keeps the packs the catalog beside it
    /// declares and names every pack no catalog declares.
    @Test func pullNamesTheAssetPacksItCannotPull() throws {
        let setup = try Self.setUp()
        try setup.package()
        #expect(try setup.push().status == 0)
        let elsewhere = TemporaryDirectory()
        let bare = try iapkit(
            ["asc", "pull", "--bundle-id", Self.bundleID, "-o", elsewhere.file("catalog.yaml")],
            environment: setup.fake.environment)
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(
            bare.stderr.contains("App Store Connect has 3 asset packs the catalog does not declare (intro, level1, tutorial)"),
            "\(bare.stderr)")
        let beside = try iapkit(
            ["asc", "pull", "-o", setup.project.file("pulled.yaml"), "--catalog", setup.catalog],
            environment: setup.fake.environment)
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stderr.contains("are kept as they are") && !beside.stderr.contains("does not declare"), "\(beside.stderr)")
    }

    @Test func aMissingArchiveStopsPushBeforeItWrites() throws {
        let setup = try Self.setUp()
        try setup.package()
        try FileManager.default.removeItem(atPath: setup.project.file("build/level1.aar"))
        // plan says it first, as a refused change, so a CI plan catches it before the push job.
        let plan = try iapkit(["asc", "plan", setup.catalog, "--check"], environment: setup.fake.environment)
        #expect(plan.status == 1)
        #expect(plan.stdout.contains("! backgroundAssetVersion [level1] (no archive matches the pack's content"), "\(plan.stdout)")
        let json = try iapkit(["asc", "plan", setup.catalog, "--format", "json"], environment: setup.fake.environment)
        let refused = try python(
            """
            import json, sys
            d = json.load(open(sys.argv[1]))
            print(d['summary']['refused'], [c['detail'] for c in d['changes'] if c['action'] == 'refused'])
            """, [setup.project.write("plan.json", json.stdout)])
        #expect(refused == "1 ['level1']\n")
        let push = try setup.push()
        // Push refuses it as it refuses every refused change: exit 1, the plan's line naming the pack, nothing written.
        #expect(push.status == 1, "\(push.stderr)")
        #expect(push.stderr.contains("! backgroundAssetVersion [level1] (no archive matches the pack's content"), "\(push.stderr)")
        #expect(push.stderr.contains("1 change App Store Connect would refuse (marked !)"), "\(push.stderr)")
        #expect(try setup.fake.writeCount() == 0)
    }

    @Test func aFailedProcessingIsReportedAndTheNextPushReplacesIt() throws {
        let setup = try Self.setUp()
        try setup.package()
        try setup.fake.control("POST", "settings", ["backgroundAssetProcessing": "FAILED"])
        let failed = try setup.push()
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("could not process version 1 of asset pack intro"), "\(failed.stderr)")
        #expect(failed.stderr.contains("a new version replaces the failed one"))
        try setup.fake.control("POST", "settings", ["backgroundAssetProcessing": "COMPLETE"])
        let plan = try iapkit(["asc", "plan", setup.catalog], environment: setup.fake.environment)
        #expect(plan.stdout.contains("+ backgroundAssetVersion [intro]: content digest (none) -> "), "\(plan.stdout)")
        #expect(plan.stdout.contains("version 1 failed in App Store Connect; a new version replaces it"))
        let resumed = try setup.push()
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try setup.packVersions() == ["intro": ["1 FAILED", "2 COMPLETE"], "tutorial": ["1 COMPLETE"], "level1": ["1 COMPLETE"]])
        #expect(try iapkit(["asc", "plan", setup.catalog, "--check"], environment: setup.fake.environment).status == 0)
    }

    @Test func submitSendsTheProcessedVersionsAndCancelsWhenAnItemFails() throws {
        let setup = try Self.setUp()
        try setup.package()
        #expect(try setup.push().status == 0)
        // The second item's creation fails: the submission is cancelled, not left half filled.
        try setup.fake.control(
            "POST", "faults",
            [
                [
                    "method": "POST", "pathPattern": "^/v1/reviewSubmissionItems$", "status": 500,
                    "count": 1, "when": "before", "afterNthMatch": 2,
                ]
            ])
        let broken = try iapkit(["asc", "submit", setup.catalog, "--yes"], environment: setup.fake.environment)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("the submission was cancelled"), "\(broken.stderr)")
        #expect(
            try AscSyncTests.resources(setup.fake, "reviewSubmissions").map { ($0["attributes"] as? [String: Any])?["state"] as? String }
                == ["CANCELING"])
        try setup.fake.control("POST", "faults", [[String: Any]]())
        let submitted = try iapkit(["asc", "submit", setup.catalog, "--yes"], environment: setup.fake.environment)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stderr.contains("+ asset pack level1 version 1"))
        // App Store Connect links no pack to a product: submit says that what unlocks the pack is not going to review.
        #expect(
            submitted.stderr.contains(
                "warning: asset pack level1 version 1 goes to review, but com.example.packs.level1, whose purchase unlocks it, is not submitted ("),
            "\(submitted.stderr)")
        #expect(submitted.stderr.contains("iapkit asc submit --with-iaps"))
        #expect(!submitted.stderr.contains("asset pack intro version 1 goes to review, but"), "a pack no purchase unlocks needs nothing")
        let states = try AscSyncTests.resources(setup.fake, "reviewSubmissions").compactMap {
            ($0["attributes"] as? [String: Any])?["state"] as? String
        }
        #expect(states.sorted() == ["CANCELING", "WAITING_FOR_REVIEW"])
        let items = try AscSyncTests.resources(setup.fake, "reviewSubmissionItems")
        #expect(items.count == 4, "one item before the failure, three after")
    }

    @Test func submitWithIapsAddsTheCatalogsProductsReadyToSubmit() throws {
        let setup = try Self.setUp()
        // The app's first in-app purchase goes to review with an app version.
        try setup.fake.control(
            "POST", "seed",
            [
                "bundleId": Self.bundleID,
                "appStoreVersions": [
                    ["platform": "IOS", "versionString": "2.0", "appVersionState": "PREPARE_FOR_SUBMISSION"]
                ],
            ])
        // App Store Connect already has the catalog's product, ready to submit, and another one the catalog lacks.
        let ready: [String: Any] = [
            "inAppPurchaseType": "NON_CONSUMABLE", "state": "READY_TO_SUBMIT",
            "versionState": "PREPARE_FOR_SUBMISSION", "prices": [["territory": "USA", "usd": "1.99"]],
        ]
        try setup.fake.control(
            "POST", "seed",
            [
                "bundleId": Self.bundleID,
                "inAppPurchases": [
                    ready.merging([
                        "productId": "com.example.packs.level1", "name": "Level One",
                        "localizations": [["locale": "en-US", "name": "Level One", "description": "The forest level."]],
                    ]) { $1 },
                    ready.merging([
                        "productId": "com.example.packs.other", "name": "Other",
                        "localizations": [["locale": "en-US", "name": "Other", "description": "Not in the catalog."]],
                    ]) { $1 },
                ],
            ])
        try setup.package()
        #expect(try setup.push().status == 0)
        let submitted = try iapkit(
            ["asc", "submit", setup.catalog, "--with-iaps", "--app-version", "2.0", "--yes"],
            environment: setup.fake.environment)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stderr.contains("+ in-app purchase com.example.packs.level1"), "\(submitted.stderr)")
        #expect(!submitted.stderr.contains("whose purchase unlocks it"), "the product that unlocks the pack goes to review with it")
        #expect(!submitted.stderr.contains("com.example.packs.other"))
        let items = try AscSyncTests.resources(setup.fake, "reviewSubmissionItems")
        let kinds = items.flatMap { (($0["relationships"] as? [String: Any]) ?? [:]).keys.filter { $0 != "reviewSubmission" } }.sorted()
        #expect(
            kinds == [
                "appStoreVersion", "backgroundAssetVersion", "backgroundAssetVersion", "backgroundAssetVersion",
                "inAppPurchaseVersion",
            ], "\(items)")
        // Submitted once, the packs are on their way to the App Store: a second submit has nothing to send.
        let again = try iapkit(["asc", "submit", setup.catalog, "--yes"], environment: setup.fake.environment)
        #expect(again.status == 0 && again.stdout.contains("Nothing to submit"), "\(again.stdout)\(again.stderr)")
        #expect(
            again.stderr.contains("asset pack level1 version 1: already on its way to the App Store (WAITING_FOR_REVIEW)"),
            "\(again.stderr)")
    }

    @Test func aPackForTestFlightOnlyStaysOutOfReview() throws {
        let setup = try Self.setUp()
        let text = try String(contentsOfFile: setup.catalog, encoding: .utf8)
        let marked = text.replacingOccurrences(of: "  - id: tutorial\n", with: "  - id: tutorial\n    release: testflight\n")
        #expect(marked != text, "the fixture declares the tutorial pack as `  - id: tutorial`")
        try marked.write(toFile: setup.catalog, atomically: true, encoding: .utf8)
        try setup.package()
        #expect(try setup.push().status == 0)
        let submitted = try iapkit(["asc", "submit", setup.catalog, "--yes"], environment: setup.fake.environment)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(
            submitted.stderr.contains("asset pack tutorial version 1: for TestFlight testers only (`release: testflight`)"),
            "\(submitted.stderr)")
        #expect(!submitted.stderr.contains("+ asset pack tutorial"))
        #expect(try AscSyncTests.resources(setup.fake, "reviewSubmissionItems").count == 2)
    }
}
