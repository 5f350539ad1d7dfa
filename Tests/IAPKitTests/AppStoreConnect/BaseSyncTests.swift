import Foundation
import TestSupport
import Testing

/// Two authors and a base: each push and pull records what App Store Connect held (`.iapkit/base/`), and pull,
/// plan and push tell the catalog's changes (pending) from App Store Connect's (drift) and from both (conflicts), so
/// neither author's edit is lost. Each test starts from a catalog pushed to the fake, then edits both sides as a team
/// and a colleague in App Store Connect's web pages would.
@Suite(.showsFakeLog)
struct BaseSyncTests {
    static let bundleID = "com.example.twoauthors"

    static let catalog = """
        # Reviewed in pull requests.
        schemaVersion: 1
        app:
          bundleId: com.example.twoauthors
          primaryLocale: en-US
        products:
          - productId: com.example.twoauthors.gems
            referenceName: Gem Pack
            type: consumable
            price: 1.49
            localizations:
              - locale: en-US
                name: Gem Pack        # the shelf name
                description: A handful of gems.
          - productId: com.example.twoauthors.coins
            referenceName: Coin Pack
            type: consumable
            price: 0.99
            localizations:
              - locale: en-US
                name: Coin Pack
                description: A bag of coins.

        """

    /// A pushed app in a git repository, the catalog and its recorded base committed.
    static func pushed() throws -> (FakeAppStoreConnect, String, TemporaryDirectory, String) {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: bundleID)
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", Self.catalog)
        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(push.stderr.contains("Recorded what App Store Connect now holds as the base"), "\(push.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.file(".iapkit/base/catalog.yaml")), "push records the base")
        try git(dir, "init", "-q")
        try git(dir, "add", ".")
        try git(dir, "commit", "-q", "-m", "pushed")
        return (fake, app, dir, catalog)
    }

    @discardableResult
    static func git(_ dir: TemporaryDirectory, _ arguments: String...) throws -> ProcessResult {
        let result = try run(
            "/usr/bin/env", ["git", "-C", dir.path, "-c", "user.name=Team", "-c", "user.email=team@example.com"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result
    }

    static func edit(_ catalog: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(text.contains(old), "\(old) is in the catalog")
        try text.replacingOccurrences(of: old, with: new).write(toFile: catalog, atomically: true, encoding: .utf8)
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// What App Store Connect holds, as a fresh pull into a folder of its own writes it.
    static func live(_ fake: FakeAppStoreConnect) throws -> String {
        let other = TemporaryDirectory()
        let pull = try iapkit(
            ["asc", "pull", "--bundle-id", bundleID, "-o", other.file("catalog.yaml")], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        return try text(other.file("catalog.yaml"))
    }

    @Test func aMergedUnpushedChangeStaysBesideAWebEditOfAnotherProduct() throws {
        let (fake, app, dir, catalog) = try Self.pushed()
        // Merged, waiting for the release: a price and a localization's name.
        try Self.edit(catalog, "price: 1.49", "price: 1.99")
        try Self.edit(catalog, "name: Gem Pack        # the shelf name", "name: Gem Hoard        # the shelf name")
        try Self.git(dir, "commit", "-q", "-am", "gems: new price and name")
        // That night a colleague renames the other product in App Store Connect.
        try fake.webEdit(app: app, [["rename": "com.example.twoauthors.coins", "locale": "en-US", "name": "Coin Purse"]])

        let plan = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(plan.status == 1, "drift fails the nightly check: \(plan.stdout)\(plan.stderr)")
        let lines = plan.stdout.split(separator: "\n").map(String.init)
        let price = lines.first { $0.contains("com.example.twoauthors.gems") && $0.contains("price") }
        #expect(price?.hasSuffix("[pending: the catalog's change]") == true, "\(plan.stdout)")
        let coins = lines.first { $0.contains("com.example.twoauthors.coins") && $0.contains("Coin Purse") }
        #expect(coins?.hasSuffix("[drift: App Store Connect's change]") == true, "\(plan.stdout)")
        #expect(plan.stdout.contains("of App Store Connect's (drift), 0 conflicts"), "\(plan.stdout)")

        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 1, "push does not overwrite the colleague's edit: \(push.stdout)\(push.stderr)")
        #expect(push.stderr.contains("would overwrite"), "\(push.stderr)")
        #expect(try Self.live(fake).contains("name: Coin Purse"), "nothing was written")

        let before = try Self.text(catalog)
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(pull.stderr.contains("pending push (the catalog's change since the base): com.example.twoauthors.gems: price"), "\(pull.stderr)")
        let after = try Self.text(catalog)
        let diff = try run("/usr/bin/env", ["diff", "-u", "-", catalog], input: Data(before.utf8)).stdout
        let changed = PullEditTests.changedLines(diff)
        #expect(changed == ["-        name: Coin Pack", "+        name: Coin Purse"], "only the web edit is taken: \(diff)")
        #expect(after.contains("price: 1.99") && after.contains("name: Gem Hoard        # the shelf name"), "the merged change stays")

        // Now only the catalog's change is left: the nightly check is green, and a second pull changes nothing.
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("2 changes of the catalog's (pending push), 0 of App Store Connect's (drift)"), "\(check.stdout)")
        let again = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try Self.text(catalog) == after, "a second pull changes nothing")

        let release = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(release.status == 0, "\(release.stdout)\(release.stderr)")
        let live = try Self.live(fake)
        #expect(live.contains("price: 1.99") && live.contains("name: Gem Hoard") && live.contains("name: Coin Purse"), "\(live)")
        let clean = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(clean.status == 0 && clean.stdout.contains("0 to create, 0 to update"), "\(clean.stdout)")
    }

    @Test func theSameFieldChangedOnBothSidesIsAConflictNamedWithItsThreeValues() throws {
        let (fake, app, dir, catalog) = try Self.pushed()
        try Self.edit(catalog, "price: 1.49", "price: 1.99")
        try Self.git(dir, "commit", "-q", "-am", "gems at 1.99")
        try fake.webEdit(app: app, [["price": "com.example.twoauthors.gems", "usd": "2.99"]])

        let plan = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
        let line = plan.stdout.split(separator: "\n").first { $0.contains("gems") && $0.contains("\"2.99\" -> \"1.99\"") }
        #expect(line?.hasSuffix("[conflict: the base has price \"1.49\"]") == true, "\(plan.stdout)")
        #expect(plan.stdout.contains("1 conflict (both changed)"), "\(plan.stdout)")
        let json = try iapkit(["asc", "plan", catalog, "--format", "json"], environment: fake.environment)
        let root = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let changes = root?["changes"] as? [[String: Any]] ?? []
        let conflict = changes.first { $0["origin"] as? String == "conflict" }
        #expect((conflict?["base"] as? [String: Any])?["price"] as? String == "1.49", "\(json.stdout)")
        #expect((root?["base"] as? [String: Any])?["conflict"] as? Int == 1, "\(json.stdout)")

        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 1 && push.stderr.contains("--take catalog"), "\(push.stdout)\(push.stderr)")
        #expect(try Self.live(fake).contains("price: 2.99"), "the colleague's price stays")

        let before = try Self.text(catalog)
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 1, "\(pull.stdout)\(pull.stderr)")
        #expect(
            pull.stderr.contains("conflict: com.example.twoauthors.gems: price: base \"1.49\", catalog \"1.99\", App Store Connect \"2.99\""),
            "\(pull.stderr)")
        #expect(try Self.text(catalog) == before, "pull writes nothing for a conflict")
        let still = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(still.status == 1, "the conflict stands until someone chooses: \(still.stderr)")

        let take = try iapkit(["asc", "pull", "-o", catalog, "--take", "asc"], environment: fake.environment)
        #expect(take.status == 0, "\(take.stdout)\(take.stderr)")
        #expect(try Self.text(catalog).contains("price: 2.99"), "--take asc takes App Store Connect's value")
        let settled = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(settled.status == 0 && settled.stdout.contains("already holds"), "\(settled.stdout)\(settled.stderr)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func takingTheCatalogsSideIsRecordedAndPushed() throws {
        let (fake, app, dir, catalog) = try Self.pushed()
        try Self.edit(catalog, "price: 1.49", "price: 1.99")
        try Self.git(dir, "commit", "-q", "-am", "gems at 1.99")
        try fake.webEdit(app: app, [["price": "com.example.twoauthors.gems", "usd": "2.99"]])

        let pull = try iapkit(["asc", "pull", "-o", catalog, "--take", "catalog"], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(try Self.text(catalog).contains("price: 1.99"))
        // The choice is now the catalog's pending change: plan says so, and a push sends it.
        let plan = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(plan.status == 0 && plan.stdout.contains("[pending: the catalog's change]"), "\(plan.stdout)")
        let saved = dir.file("release.plan.json")
        let out = try iapkit(["asc", "plan", catalog, "--out", saved], environment: fake.environment)
        #expect(out.status == 0, "\(out.stderr)")
        let push = try iapkit(["asc", "push", "--plan", saved, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(try Self.live(fake).contains("price: 1.99"))
    }

    @Test func pushTakesTheCatalogsSideOnlyWhenTold() throws {
        let (fake, app, dir, catalog) = try Self.pushed()
        defer { withExtendedLifetime(dir) {} }
        try fake.webEdit(app: app, [["price": "com.example.twoauthors.coins", "usd": "1.99"]])
        let refused = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        let pushed = try iapkit(["asc", "push", catalog, "--yes", "--take", "catalog"], environment: fake.environment)
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        #expect(try Self.live(fake).contains("price: 0.99"), "the catalog's price went back")
        let asc = try iapkit(["asc", "push", catalog, "--yes", "--take", "asc"], environment: fake.environment)
        #expect(asc.status == 64 || asc.status == 2, "push cannot take App Store Connect's side: \(asc.stderr)")
    }

    @Test func pullKeepsUncommittedEditsWithOrWithoutARecordedBase() throws {
        let (fake, app, dir, catalog) = try Self.pushed()
        try Self.edit(catalog, "description: A bag of coins.", "description: A heavy bag of coins.")
        try fake.webEdit(app: app, [["rename": "com.example.twoauthors.gems", "locale": "en-US", "name": "Gem Chest"]])
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        var text = try Self.text(catalog)
        #expect(text.contains("A heavy bag of coins.") && text.contains("name: Gem Chest"), "\(text)")

        // An older repository: no recorded base; the last commit is the base of what is not committed.
        try FileManager.default.removeItem(atPath: dir.file(".iapkit"))
        try Self.git(dir, "commit", "-q", "-am", "pulled")
        try Self.edit(catalog, "referenceName: Coin Pack", "referenceName: Coin Bag")
        try fake.webEdit(app: app, [["rename": "com.example.twoauthors.gems", "locale": "en-US", "name": "Gem Vault"]])
        let old = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(old.status == 0, "\(old.stdout)\(old.stderr)")
        #expect(old.stderr.contains("uncommitted edits are kept"), "\(old.stderr)")
        text = try Self.text(catalog)
        #expect(text.contains("referenceName: Coin Bag") && text.contains("name: Gem Vault"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: dir.file(".iapkit/base/catalog.yaml")), "the pull recorded a base")
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.stdout.contains("Coin Bag") && plan.stdout.contains("[pending: the catalog's change]"), "\(plan.stdout)")
    }

    @Test func withoutABaseTheCommandsSaySoAndBehaveAsBefore() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", Self.catalog)
        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stderr)")
        try FileManager.default.removeItem(atPath: dir.file(".iapkit"))
        try fake.webEdit(app: app, [["rename": "com.example.twoauthors.coins", "locale": "en-US", "name": "Coin Purse"]])
        let plan = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(plan.status == 1 && plan.stderr.contains("No base for"), "\(plan.stdout)\(plan.stderr)")
        #expect(!plan.stdout.contains("[pending") && !plan.stdout.contains("Since the base"), "\(plan.stdout)")
        // The first pull records one; its base file is a catalog that lints.
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try Self.text(catalog).contains("Coin Purse"))
        let lint = try iapkit("lint", "catalog", dir.file(".iapkit/base/catalog.yaml"))
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }

    @Test func aSavedPlanIsFinishedAfterAWriteWhoseAnswerWasLost() throws {
        let (fake, _, dir, catalog) = try Self.pushed()
        try Self.edit(catalog, "price: 1.49", "price: 1.99")
        try Self.edit(catalog, "price: 0.99", "price: 1.29")
        try Self.git(dir, "commit", "-q", "-am", "new prices")
        let saved = dir.file("release.plan.json")
        let plan = try iapkit(["asc", "plan", catalog, "--out", saved], environment: fake.environment)
        #expect(plan.status == 0, "\(plan.stderr)")
        // The first price schedule is written, but its answer is lost.
        try fake.control(
            "POST", "faults",
            [["method": "POST", "pathPattern": "^/v1/inAppPurchasePriceSchedules$", "status": 500, "count": 1, "when": "after"]])
        let failed = try iapkit(["asc", "push", "--plan", saved, "--yes"], environment: fake.environment)
        #expect(failed.status == 2, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stderr.contains("Run `iapkit asc push --plan \(saved)` again to finish"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("Run `iapkit asc push` again"), "a plain push would send what nobody reviewed")
        try fake.control("POST", "faults", [[String: Any]]())
        let resumed = try iapkit(["asc", "push", "--plan", saved, "--yes"], environment: fake.environment)
        #expect(resumed.status == 0, "the written price counts as done: \(resumed.stdout)\(resumed.stderr)")
        let live = try Self.live(fake)
        #expect(live.contains("price: 1.99") && live.contains("price: 1.29"), "\(live)")
        let writes = try fake.writeCount()
        let again = try iapkit(["asc", "push", "--plan", saved, "--yes"], environment: fake.environment)
        #expect(again.status == 0, "a finished plan pushed again sends nothing: \(again.stdout)\(again.stderr)")
        #expect(try fake.writeCount() == writes)
        #expect(try Self.text(dir.file(".iapkit/base/catalog.yaml")).contains("price: 1.29"), "the finished push recorded its base")
    }
}
