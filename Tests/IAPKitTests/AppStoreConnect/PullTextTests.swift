import Foundation
import TestSupport
import Testing

/// `asc pull` over catalogs written in ways a team's files are: values shared through YAML anchors, Windows line
/// endings; and a pull the hour's request budget cannot pay for.
@Suite(.showsFakeLog)
struct PullTextTests {
    /// The two authors' catalog, its two descriptions one text through an anchor.
    static let catalog = BaseSyncTests.catalog
        .replacingOccurrences(of: "name: Gem Pack        # the shelf name", with: "name: Gem Pack")
        .replacingOccurrences(
            of: "description: A handful of gems.", with: "description: &shared Shiny things for your vault.   # one text for both packs"
        )
        .replacingOccurrences(of: "description: A bag of coins.", with: "description: *shared")

    static func pushed(_ text: String) throws -> (FakeAppStoreConnect, String, TemporaryDirectory, String) {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: BaseSyncTests.bundleID)
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", text)
        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        return (fake, app, dir, catalog)
    }

    static func description(_ product: String, in catalog: String) throws -> String? {
        let out = try python(
            """
            import json, sys, yaml
            doc = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))
            print(json.dumps({p['productId']: p['localizations'][0]['description'] for p in doc['products']}))
            """, [catalog])
        return (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: String])?[product]
    }

    @Test(arguments: ["com.example.twoauthors.coins", "com.example.twoauthors.gems"])
    func aValueSharedThroughAnAnchorIsEditedForOneProductAlone(edited: String) throws {
        let (fake, app, dir, catalog) = try Self.pushed(Self.catalog)
        defer { withExtendedLifetime(dir) {} }
        try fake.webEdit(app: app, [["rename": edited, "locale": "en-US", "description": "Polished for the sale."]])
        let pull = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        let other = edited.hasSuffix("coins") ? "com.example.twoauthors.gems" : "com.example.twoauthors.coins"
        // Read back by another YAML reader: the edited product has its own text, the other keeps the shared one.
        #expect(try Self.description(edited, in: catalog) == "Polished for the sale.")
        #expect(try Self.description(other, in: catalog) == "Shiny things for your vault.")
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(text.contains("&shared Shiny things for your vault."), "the anchor stays: \(text)")
        #expect(text.contains("# one text for both packs"), "\(text)")
        #expect(text.split(separator: "\n").count == Self.catalog.split(separator: "\n").count, "no line added or lost: \(text)")
        let again = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(again.status == 0 && again.stdout.contains("already holds"), "\(again.stdout)\(again.stderr)")
    }

    @Test func aCatalogWithWindowsLineEndingsKeepsThemAndItsDiffApplies() throws {
        let crlf = Self.catalog.replacingOccurrences(of: "\n", with: "\r\n")
        let (fake, app, dir, catalog) = try Self.pushed(crlf)
        try fake.webEdit(
            app: app,
            [
                ["rename": "com.example.twoauthors.gems", "locale": "en-US", "name": "Gem Chest"],
                ["addLocalization": "com.example.twoauthors.coins", "locale": "fr-FR", "name": "Pièces", "description": "Un sac de pièces."],
            ])
        let preview = try iapkit(["asc", "pull", "-o", "catalog.yaml", "--diff"], in: dir.path, environment: fake.environment)
        #expect(preview.status == 1, "\(preview.stderr)")
        // By line breaks as bytes: to Swift, `\r\n` is one character.
        let hunks = preview.stdout.utf8.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: "@@ ".utf8) }
        #expect(hunks.count == 2, "one hunk per change, not the whole file: \(preview.stdout)")
        let pull = try iapkit(["asc", "pull", "-o", "catalog.yaml"], in: dir.path, environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: catalog)))
        let bare = bytes.indices.filter { bytes[$0] == 10 && ($0 == 0 || bytes[$0 - 1] != 13) }
        #expect(bare.isEmpty, "every line still ends with CRLF")
        // The preview is a patch git apply and patch(1) both take, and it makes the file the pull wrote.
        let copy = TemporaryDirectory()
        _ = copy.write("catalog.yaml", crlf)
        let patch = copy.write("pull.diff", preview.stdout)
        let check = try run("/usr/bin/env", ["git", "apply", "--check", patch], in: copy.path)
        #expect(check.status == 0, "git apply takes it: \(check.stderr)")
        let applied = try run("/usr/bin/env", ["patch", "-p1", "--binary", "-s", "-i", patch], in: copy.path)
        #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.file("catalog.yaml"))) == Data(bytes))
    }

    @Test func aPullTheHourCannotPayForReadsNothingInDetailAndTakesWait() throws {
        let (fake, _, dir, catalog) = try Self.pushed(Self.catalog)
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 8])
        let stopped = try iapkit(["asc", "pull", "-o", catalog], environment: fake.environment)
        #expect(stopped.status == 75, "\(stopped.stdout)\(stopped.stderr)")
        #expect(stopped.stderr.contains("nothing was read past the product lists") && stopped.stderr.contains("--wait"), "\(stopped.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before, "nothing written")
        let waits = try iapkit(["asc", "pull", "-o", catalog, "--wait", "--wait-max", "0"], environment: fake.environment)
        #expect(waits.status == 75, "--wait is an option of pull: \(waits.stderr)")
        #expect(!waits.stderr.contains("Unknown option"), "\(waits.stderr)")
        withExtendedLifetime(dir) {}
    }
}
