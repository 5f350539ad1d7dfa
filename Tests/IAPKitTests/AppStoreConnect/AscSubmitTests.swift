import Foundation
import TestSupport
import Testing

/// `iapkit asc submit` for products: an app's first in-app purchase goes to review with an app version, what keeps
/// a product from review is named with its catalog line, and a second submit finds everything in review.
@Suite(.showsFakeLog)
struct AscSubmitTests {
    static let bundleID = "com.example.review"

    /// One in-app purchase with everything App Store Connect needs, and one without a review screenshot.
    static func project() throws -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("review"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.examples + "/review/club.png", toPath: dir.file("review/shot.png"))
        let catalog = try dir.write(
            "catalog.yaml",
            """
            schemaVersion: 1
            app:
              bundleId: \(bundleID)
              primaryLocale: en-US
            products:
              - productId: \(bundleID).gems
                referenceName: Gems
                type: consumable
                price: 0.99
                localizations:
                  - {locale: en-US, name: Gems, description: A pile of gems.}
                review:
                  note: Tap Store, then Gems.
                  screenshot: review/shot.png
              - productId: \(bundleID).map
                referenceName: Map
                type: non-consumable
                price: 2.99
                localizations:
                  - {locale: en-US, name: Map, description: The whole map.}

            """)
        return (dir, catalog)
    }

    static func submit(_ fake: FakeAppStoreConnect, _ catalog: String, _ extra: [String] = []) throws -> ProcessResult {
        try iapkit(["asc", "submit", catalog, "--with-iaps", "--yes"] + extra, environment: fake.environment)
    }

    @Test func theFirstInAppPurchaseGoesWithTheAppVersionAndASecondSubmitFindsItInReview() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: Self.bundleID)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "appStoreVersions": [
                    ["platform": "IOS", "versionString": "1.0", "appVersionState": "READY_FOR_DISTRIBUTION"],
                    ["platform": "IOS", "versionString": "1.1", "appVersionState": "PREPARE_FOR_SUBMISSION"],
                ],
            ])
        let (project, catalog) = try Self.project()
        defer { withExtendedLifetime(project) {} }
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stderr)")

        // Without the app version: refused before anything is created, naming the versions that can go.
        let refused = try Self.submit(fake, catalog)
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("first in-app purchase or subscription with a new app version"), "\(refused.stderr)")
        #expect(refused.stderr.contains("1.1 (PREPARE_FOR_SUBMISSION)") && !refused.stderr.contains("1.0 ("), "\(refused.stderr)")
        #expect(try AscSyncTests.resources(fake, "reviewSubmissions").isEmpty)
        // The map has no review screenshot: named with its catalog line and what to do.
        #expect(
            refused.stderr.contains(
                "catalog.yaml:15:5: in-app purchase \(Self.bundleID).map (MISSING_METADATA): no review screenshot: "
                    + "add `review.screenshot`"), "\(refused.stderr)")

        let shipped = try Self.submit(fake, catalog, ["--app-version", "1.0"])
        #expect(shipped.status == 2 && shipped.stderr.contains("1.0 is READY_FOR_DISTRIBUTION and cannot go to review"), "\(shipped.stderr)")

        let submitted = try Self.submit(fake, catalog, ["--app-version", "1.1"])
        #expect(submitted.status == 0, "\(submitted.stdout)\(submitted.stderr)")
        #expect(submitted.stderr.contains("+ in-app purchase \(Self.bundleID).gems") && submitted.stderr.contains("+ app version 1.1"))
        let items = try AscSyncTests.resources(fake, "reviewSubmissionItems")
        let kinds = items.flatMap { (($0["relationships"] as? [String: Any]) ?? [:]).keys.filter { $0 != "reviewSubmission" } }.sorted()
        #expect(kinds == ["appStoreVersion", "inAppPurchaseVersion"], "\(items)")

        // Everything ready is in review now: a second submit says so and succeeds without sending anything.
        let writes = try fake.writeCount()
        let again = try Self.submit(fake, catalog)
        #expect(again.status == 2, "the map still lacks its screenshot: \(again.stderr)")
        let settledCatalog = try String(contentsOfFile: catalog, encoding: .utf8)
            .replacingOccurrences(
                of: "  - productId: \(Self.bundleID).map\n    referenceName: Map\n    type: non-consumable\n"
                    + "    price: 2.99\n    localizations:\n      - {locale: en-US, name: Map, description: The whole map.}\n",
                with: "")
        try settledCatalog.write(toFile: catalog, atomically: true, encoding: .utf8)
        let settled = try Self.submit(fake, catalog)
        #expect(settled.status == 0, "\(settled.stdout)\(settled.stderr)")
        #expect(settled.stdout.contains("Nothing to submit"), "\(settled.stdout)")
        #expect(settled.stderr.contains("\(Self.bundleID).gems (WAITING_FOR_REVIEW): already in review"), "\(settled.stderr)")
        #expect(!settled.stderr.contains("asc push"), "a settled submit does not ask for a push: \(settled.stderr)")
        #expect(try fake.writeCount() == writes)
    }

    @Test func aProductAppStoreConnectLacksPartsOfIsExplainedFromBothSides() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: Self.bundleID)
        // App Store Connect has the map without a price or text; the catalog has both, so a push is the fix.
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": "\(Self.bundleID).map", "name": "Map", "inAppPurchaseType": "NON_CONSUMABLE", "state": "MISSING_METADATA",
                    ]
                ],
            ])
        let (project, catalog) = try Self.project()
        defer { withExtendedLifetime(project) {} }
        let result = try Self.submit(fake, catalog)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("in-app purchase \(Self.bundleID).gems: not in App Store Connect yet (run `iapkit asc push`)"),
            "\(result.stderr)")
        #expect(result.stderr.contains("no localization in App Store Connect; the catalog has one (run `iapkit asc push`)"), "\(result.stderr)")
        #expect(result.stderr.contains("no price in App Store Connect; the catalog has one"), "\(result.stderr)")
        #expect(result.stderr.contains("no review screenshot: add `review.screenshot`"), "\(result.stderr)")
    }
}
