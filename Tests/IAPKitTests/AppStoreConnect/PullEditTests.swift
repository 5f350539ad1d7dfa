import Foundation
import TestSupport
import Testing

/// `asc pull` over a catalog a team keeps: what changed in App Store Connect comes back as an edit of the catalog's
/// own text, shown first with `--diff`, and no product leaves it without being named.
@Suite(.showsFakeLog)
struct PullEditTests {
    static let bundleID = "com.example.pulledit"

    /// Kept by hand: four-space indentation, keys in its own order, comments, a tier for a price, a flow list, a
    /// retired ID and hosted content App Store Connect knows nothing of.
    static let keptCatalog = """
        # The catalog, kept by hand and reviewed.
        schemaVersion: 1
        app:
            bundleId: com.example.pulledit
            primaryLocale: en-US
        # Never sell these again.
        retiredProductIds: [com.example.pulledit.cherry]
        products:
            # Our best seller.
            - type: non-consumable
              productId: com.example.pulledit.banana
              referenceName: Banana Pack
              tier: 1          # $0.99
              localizations:
                  - locale: en-US
                    name: Banana Pack     # the name on the shelf
                    description: A ripe banana photo pack.
              hostedContent: content/com.example.pulledit.banana
            - productId: com.example.pulledit.tokens
              referenceName: Ten Tokens
              type: consumable
              price: 1.99
              localizations:
                  - {locale: en-US, name: Ten Tokens, description: Spend tokens on single photos.}

        """

    /// An app with the kept catalog pushed to it, then changed as its web pages would: a price, a name, a new
    /// localization, a product added and one approved.
    static func changedInAppStoreConnect() throws -> (FakeAppStoreConnect, TemporaryDirectory, String) {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: bundleID)
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", keptCatalog)
        let content = try iapkit("new-content", "com.example.pulledit.banana", "--output", dir.file("content"))
        #expect(content.status == 0, "\(content.stderr)")
        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let edits: [[String: String]] = [
            ["price": "com.example.pulledit.tokens", "usd": "2.99"],
            ["rename": "com.example.pulledit.banana", "locale": "en-US", "name": "Banana Bunch"],
            ["addLocalization": "com.example.pulledit.banana", "locale": "fr-FR", "name": "Pack Banane", "description": "Des bananes mûres."],
        ]
        try fake.webEdit(app: app, edits)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": "com.example.pulledit.kiwi", "name": "Kiwi Levels", "inAppPurchaseType": "NON_CONSUMABLE",
                        "localizations": [["locale": "en-US", "name": "Kiwi Levels", "description": "Levels in a kiwi orchard."]],
                        "prices": [["territory": "USA", "pricePoint": 10010]],
                        "availability": ["territories": ["USA"], "availableInNewTerritories": false],
                    ]
                ],
            ])
        try fake.control("POST", "approve", ["appId": app, "productIds": ["com.example.pulledit.banana"]])
        return (fake, dir, catalog)
    }

    /// The lines a diff adds and removes, without its headers.
    static func changedLines(_ diff: String) -> [String] {
        diff.split(separator: "\n").map(String.init).filter {
            ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
        }
    }

    @Test func pullOverAKeptCatalogChangesOnlyWhatChangedAndShowsItFirst() throws {
        let (fake, dir, catalog) = try Self.changedInAppStoreConnect()
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))

        let summary = dir.file("summary.md")
        let preview = try iapkit(
            ["asc", "pull", "-o", catalog, "--diff"], environment: fake.environment.merging(["GITHUB_STEP_SUMMARY": summary]) { $1 })
        #expect(preview.status == 1, "\(preview.stderr)")
        let page = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(page.contains("```diff\n" + preview.stdout + "```"), "a CI job shows the diff on its page: \(page)")
        try FileManager.default.removeItem(atPath: summary)
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before, "--diff writes nothing")
        #expect(!FileManager.default.fileExists(atPath: dir.file("review")), "--diff leaves no image behind")

        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stdout.contains("3 values changed") || pull.stdout.contains("values changed"), "\(pull.stdout)")
        #expect(pull.stdout.contains("1 product added") && pull.stdout.contains("1 localization added"), "\(pull.stdout)")
        let after = try String(contentsOfFile: catalog, encoding: .utf8)
        let diff = try run("/usr/bin/env", ["diff", "-u", "-", catalog], input: before).stdout
        #expect(Self.changedLines(diff) == Self.changedLines(preview.stdout), "the preview is the change made")

        // Exactly the changes made in App Store Connect, each at its line, in the catalog's own style.
        let removed = Self.changedLines(diff).filter { $0.hasPrefix("-") }
        let added = Self.changedLines(diff).filter { $0.hasPrefix("+") }
        #expect(
            removed == [
                "-            name: Banana Pack     # the name on the shelf",
                "-      price: 1.99",
            ], "\(diff)")
        #expect(added.contains("+            name: Banana Bunch     # the name on the shelf"), "\(diff)")
        #expect(added.contains("+      price: 2.99"), "\(diff)")
        #expect(added.contains("+          - locale: fr-FR"), "\(diff)")
        #expect(added.contains("+    - productId: com.example.pulledit.kiwi"), "\(diff)")
        #expect(added.count == 1 + 3 + 1 + Self.lines(of: "com.example.pulledit.kiwi", in: after), "\(diff)")
        // What App Store Connect does not hold stays.
        for kept in [
            "# The catalog, kept by hand and reviewed.", "retiredProductIds: [com.example.pulledit.cherry]", "# Our best seller.",
            "tier: 1          # $0.99", "hostedContent: content/com.example.pulledit.banana",
        ] {
            #expect(after.contains(kept), "\(kept) is kept")
        }

        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "the pulled catalog plans clean: \(check.stdout)\(check.stderr)")
        let edited = try Data(contentsOf: URL(fileURLWithPath: catalog))
        let again = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == edited, "a second pull changes nothing")
        #expect(again.stdout.contains("nothing changed"), "\(again.stdout)")
        let quiet = try iapkit(["asc", "pull", "-o", catalog, "--diff"], environment: fake.environment)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
    }

    /// The lines of the product `id` in `text`: from its `- productId:` line to the next item or the end.
    static func lines(of id: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasSuffix("productId: " + id) }) else { return 0 }
        let dash = lines[start].prefix { $0 == " " }.count
        var end = start + 1
        while end < lines.count, !lines[end].isEmpty, lines[end].prefix(while: { $0 == " " }).count > dash { end += 1 }
        return end - start
    }

    @Test func aProductAppStoreConnectLacksIsKeptAndNamedAndAnEmptyAppIsRefused() throws {
        let (fake, dir, catalog) = try Self.changedInAppStoreConnect()
        // A product only the catalog has: kept, and named with the app asked.
        let extended =
            try String(contentsOfFile: catalog, encoding: .utf8) + """
                    - productId: com.example.pulledit.melon
                      referenceName: Melon
                      type: consumable
                      price: 0.99
                      localizations:
                          - {locale: en-US, name: Melon, description: A melon photo.}

                """
        try extended.write(toFile: catalog, atomically: true, encoding: .utf8)
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("com.example.pulledit.melon: not in App Store Connect app"), "\(pull.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8).contains("productId: com.example.pulledit.melon"))

        // The wrong app: nothing of the catalog is there. Refused, nothing written.
        let other = try fake.addApp(bundleID: "com.example.other", name: "Other")
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        let wrong = try iapkit(["asc", "pull", "-o", catalog, "--bundle-id", "com.example.other"], environment: fake.environment)
        #expect(wrong.status == 1, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stderr.contains(other) && wrong.stderr.contains("com.example.other"), "\(wrong.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before)
        let fresh = try iapkit(["asc", "pull", "-o", catalog, "--bundle-id", "com.example.other", "--fresh"], environment: fake.environment)
        #expect(fresh.status == 1, "--fresh over the catalog is held to the same rule: \(fresh.stderr)")
        let allowed = try iapkit(
            ["asc", "pull", "-o", catalog, "--bundle-id", "com.example.other", "--allow-removals"], environment: fake.environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let emptied = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(!emptied.contains("productId:") && emptied.contains("retiredProductIds"), "\(emptied)")
        _ = dir
    }

    /// The example as a team keeps it (another indentation, a comment at each product), pushed; one name changed on
    /// the web moves alone, and the result plans clean.
    @Test func whatWasNotPushedYetStaysAndOnlyTheChangedValueMoves() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: AscSyncTests.bundleID)
        let project = try AscSyncTests.project()
        let catalog = project.file("catalog.yaml")
        try RoundTripTests.restyled(try String(contentsOfFile: catalog, encoding: .utf8)).text.write(
            toFile: catalog, atomically: true, encoding: .utf8)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        let edit = [["rename": "com.example.fruitstand.kiwi", "locale": "en-US", "name": "Kiwi Worlds"]]
        try fake.webEdit(app: app, edit)
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let diff = try run("/usr/bin/env", ["diff", "-u", "-", catalog], input: before).stdout
        #expect(Self.changedLines(diff) == ["-                name: Kiwi Levels", "+                name: Kiwi Worlds"], "\(diff)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "what waits for App Review is no drift: \(check.stdout)\(check.stderr)")
    }

    @Test func aKeptCatalogThatIsNoCatalogIsALocatedErrorAndNothingIsWritten() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let broken = Self.keptCatalog.replacingOccurrences(of: "    primaryLocale: en-US", with: "\tprimaryLocale: en-US")
        let catalog = dir.write("catalog.yaml", broken)
        let pull = try iapkit(["asc", "pull", "-o", catalog, "--bundle-id", Self.bundleID], environment: fake.environment)
        #expect(pull.status == 2, "\(pull.stdout)\(pull.stderr)")
        #expect(pull.stderr.contains("catalog.yaml:5"), "the message says where: \(pull.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == broken)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["catalog.yaml"])
    }

    @Test func oneImageFilePerDistinctImageAndUnchangedFilesStayUntouched() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: AscSyncTests.bundleID)
        let project = try AscSyncTests.project()
        #expect(try AscSyncTests.push(fake, project.file("catalog.yaml")).status == 0)
        let out = TemporaryDirectory()
        let pulled = out.file("catalog.yaml")
        let first = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", AscSyncTests.bundleID], environment: fake.environment)
        #expect(first.status == 0, "\(first.stderr)")
        // The example's six products share three screenshots (banana, tokens, club).
        let files = try FileManager.default.contentsOfDirectory(atPath: out.file("review")).sorted()
        #expect(files.count == 3, "\(files)")
        let digests = Set(try files.map { try Data(contentsOf: URL(fileURLWithPath: out.file("review/" + $0))) })
        #expect(digests.count == 3)
        let times = try files.map { try FileManager.default.attributesOfItem(atPath: out.file("review/" + $0))[.modificationDate] as? Date }
        Thread.sleep(forTimeInterval: 1.1)
        let second = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", AscSyncTests.bundleID], environment: fake.environment)
        #expect(second.status == 0, "\(second.stderr)")
        let timesAfter = try files.map { try FileManager.default.attributesOfItem(atPath: out.file("review/" + $0))[.modificationDate] as? Date }
        #expect(times == timesAfter, "an unchanged image file is left untouched")

        // Over the example catalog itself, its own image paths are kept where the bytes are the same.
        let examples = try AscSyncTests.project()
        let exampleCatalog = examples.file("catalog.yaml")
        let original = try String(contentsOfFile: exampleCatalog, encoding: .utf8)
        let over = try iapkit(["asc", "pull", "-o", exampleCatalog, "--diff"], environment: fake.environment)
        #expect(over.status == 0, "the example as pushed pulls back unchanged: \(over.stdout)\(over.stderr)")
        #expect(try String(contentsOfFile: exampleCatalog, encoding: .utf8) == original)
    }
}
