import Foundation
import TestSupport
import Testing

/// Saved plans: `asc plan --out` writes what push will send, `asc push --plan` sends exactly that or refuses a stale
/// plan with nothing written, and `--format markdown` is a plan for a pull request. Every test starts from a state
/// iapkit did not create: an app the fake's generator filled, or an empty one.
@Suite(.showsFakeLog) struct SavedPlanTests {
    /// A generated app pulled into a catalog whose first `referenceName` is then edited: one update to review.
    static func editedCatalog(
        _ fake: FakeAppStoreConnect, seed: Int = 3, suffix: String = " Edited"
    )
        throws -> (dir: TemporaryDirectory, catalog: String, product: String, bundleID: String)
    {
        let bundleID = "com.example.saved\(seed)"
        let app = try fake.addApp(bundleID: bundleID, name: "Saved \(seed)")
        _ = try fake.control("POST", "generate", ["appId": app, "seed": seed])
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let product = try edit(catalog, suffix: suffix)
        return (dir, catalog, product, bundleID)
    }

    /// Appends `suffix` to the first product's `referenceName`; answers that product's ID.
    static func edit(_ catalog: String, suffix: String) throws -> String {
        var lines = try String(contentsOfFile: catalog, encoding: .utf8).components(separatedBy: "\n")
        guard let id = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- productId: ") }),
            let name = lines[id...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("referenceName: ") })
        else {
            throw FakeAppStoreConnect.FakeError.control("no product in the pulled catalog")
        }
        lines[name] += suffix
        try lines.joined(separator: "\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        return lines[id].components(separatedBy: "productId: ").last!.trimmingCharacters(in: .whitespaces)
    }

    static func savePlan(_ fake: FakeAppStoreConnect, _ catalog: String, to file: String) throws -> ProcessResult {
        let plan = try iapkit(["asc", "plan", catalog, "--out", file], environment: fake.environment)
        #expect(plan.status == 0, "\(plan.stderr)")
        return plan
    }

    static func pushPlan(_ fake: FakeAppStoreConnect, _ file: String, catalog: String? = nil) throws -> ProcessResult {
        try iapkit(["asc", "push"] + (catalog.map { [$0] } ?? []) + ["--plan", file, "--yes"], environment: fake.environment)
    }

    /// The examples planned against an empty app (a state iapkit did not make), the plan saved beside them.
    static func examplesPlanned() throws -> (FakeAppStoreConnect, TemporaryDirectory, catalog: String, plan: String) {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: AscSyncTests.bundleID)
        let project = try AscSyncTests.project()
        let catalog = project.file("catalog.yaml")
        let file = project.file("plan.json")
        _ = try savePlan(fake, catalog, to: file)
        return (fake, project, catalog, file)
    }

    @Test func aSavedPlanIsPushedAsReviewedAndNothingElse() throws {
        let fake = try FakeAppStoreConnect()
        let (dir, catalog, product, _) = try Self.editedCatalog(fake)
        let file = dir.file("release.plan.json")
        let plan = try Self.savePlan(fake, catalog, to: file)
        #expect(plan.stdout.contains("referenceName") && plan.stdout.contains(product), "\(plan.stdout)")

        // The file: versioned JSON with the catalog's digest, the change, the request it sends; no secret.
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let saved = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(saved["format"] as? String == "iapkit-plan" && saved["formatVersion"] as? Int == 1)
        let requests = try #require(saved["requests"] as? [[String: Any]])
        #expect(requests.count == 1 && requests.first?["method"] as? String == "PATCH", "\(requests)")
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("PRIVATE KEY") && !text.contains(fake.environment["ASC_PRIVATE_KEY_PATH"] ?? "\u{0}"))

        // `show` prints it as plan did, from the file alone.
        let show = try iapkit("asc", "show", file)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(
            show.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("~ ") }
                == plan.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("~ ") }, "\(show.stdout)\nvs\n\(plan.stdout)")

        try fake.control("DELETE", "requests")
        let push = try Self.pushPlan(fake, file)
        #expect(push.status == 0, "\(push.stderr)")
        let log = try fake.requests()
        let writes = log.filter { ($0["write"] as? Bool) == true }
        #expect(writes.count == 1 && (writes.first?["method"] as? String) == "PATCH", "exactly the plan's one operation: \(writes)")
        #expect(writes.first?["path"] as? String == requests.first?["path"] as? String)
        // The reads: the product lists and the one touched product, not a full plan.
        let reads = log.count - writes.count
        #expect(reads <= 6 + 6, "\(reads) reads: \(log.map { "\($0["method"]!) \($0["path"]!)" })")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // Pushed again, the plan's journal says it is done: nothing is sent twice.
        try fake.control("DELETE", "requests")
        let again = try Self.pushPlan(fake, file)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try fake.writeCount() == 0)
    }

    /// The plan names its app: push --plan reads the product lists and the products it touches, and never looks the
    /// app up again by its bundle ID (13 reads for this two-product plan of an app with two groups, where it sent 14).
    @Test func aSavedPlanOfTwoProductsReadsOnlyWhatItChecks() throws {
        let fake = try FakeAppStoreConnect()
        let (dir, catalog, first, _) = try Self.editedCatalog(fake)
        var lines = try String(contentsOfFile: catalog, encoding: .utf8).components(separatedBy: "\n")
        let names = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("referenceName: ") }
        let second = try #require(names.first { !lines[$0].hasSuffix(" Edited") && lines[..<$0].contains { $0.contains("productId: ") } })
        lines[second] += " Edited"
        try lines.joined(separator: "\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        let file = dir.file("release.plan.json")
        let plan = try Self.savePlan(fake, catalog, to: file)
        #expect(plan.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("~ ") }.count == 2, "\(plan.stdout)")
        #expect(plan.stdout.contains(first), "\(plan.stdout)")

        try fake.control("DELETE", "requests")
        let push = try Self.pushPlan(fake, file)
        #expect(push.status == 0, "\(push.stderr)")
        let log = try fake.requests()
        let reads = log.filter { ($0["write"] as? Bool) != true }.map { "\($0["method"]!) \($0["path"]!)" }
        #expect(log.count - reads.count == 2, "exactly the plan's two operations: \(log)")
        #expect(!reads.contains("GET /v1/apps"), "the app the plan names, looked up again: \(reads)")
        // The territories, the lists (in-app purchases, groups, each group's subscriptions), the in-app purchase's
        // texts, availability and prices, the subscription's group's texts, its own texts and prices, and the two
        // price grids of the territories they price by hand.
        #expect(reads.count <= 13, "\(reads.count) reads: \(reads)")
    }

    @Test func aChangeInAppStoreConnectSinceThePlanIsRefusedNamingTheProductAndField() throws {
        let fake = try FakeAppStoreConnect()
        let (dir, catalog, product, _) = try Self.editedCatalog(fake)
        let file = dir.file("plan.json")
        _ = try Self.savePlan(fake, catalog, to: file)
        // Another branch's push changes the same product's name in App Store Connect.
        let other = dir.file("other.yaml")
        try FileManager.default.copyItem(atPath: catalog, toPath: other)
        _ = try Self.edit(other, suffix: " Elsewhere")
        #expect(try AscSyncTests.push(fake, other).status == 0)

        try fake.control("DELETE", "requests")
        let push = try Self.pushPlan(fake, file)
        #expect(push.status == 1, "\(push.stderr)")
        #expect(
            push.stderr.contains("is stale") && push.stderr.contains(product) && push.stderr.contains("referenceName was"),
            "\(push.stderr)")
        #expect(push.stderr.contains("Nothing was written"))
        #expect(try fake.writeCount() == 0)
    }

    @Test func aCatalogEditOrAnUploadChangedSinceThePlanIsRefused() throws {
        let (fake, project, catalog, file) = try Self.examplesPlanned()
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let uploads = try #require(saved["uploads"] as? [[String: Any]])
        #expect(uploads.contains { $0["path"] as? String == "review/banana.png" }, "\(uploads)")

        // A screenshot to upload changed.
        let original = try Data(contentsOf: URL(fileURLWithPath: project.file("review/banana.png")))
        try (original + Data([0])).write(to: URL(fileURLWithPath: project.file("review/banana.png")))
        let upload = try Self.pushPlan(fake, file)
        #expect(upload.status == 1 && upload.stderr.contains("review/banana.png, to be uploaded, changed"), "\(upload.stderr)")
        try original.write(to: URL(fileURLWithPath: project.file("review/banana.png")))

        // The catalog changed.
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        try (text + "\n# a comment\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        let edited = try Self.pushPlan(fake, file)
        #expect(edited.status == 1 && edited.stderr.contains("differs from the catalog the plan was made from"), "\(edited.stderr)")
        #expect(try fake.writeCount() == 0)

        // Back as planned, the plan goes through and the catalog then plans clean.
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let push = try Self.pushPlan(fake, file)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0)
    }

    @Test func anInterruptedPushOfASavedPlanIsFinishedByTheSameCommand() throws {
        let (fake, project, catalog, file) = try Self.examplesPlanned()
        // The 12th write fails, at a point the test chooses, and keeps failing through the client's retries.
        _ = try fake.control(
            "POST", "faults",
            [
                [
                    "method": "*", "pathPattern": "^/v1/", "status": 500, "count": 100,
                    "when": "before", "afterNthMatch": 12,
                ]
            ])
        let first = try Self.pushPlan(fake, file)
        #expect(first.status == 2, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: file + ".applied"))
        _ = try fake.control("POST", "faults", [] as [Any])
        let second = try Self.pushPlan(fake, file)
        #expect(second.status == 0, "\(second.stderr)")
        // Every product created once.
        let creates = try fake.requests().filter {
            ($0["operation"] as? String) == "inAppPurchasesV2_createInstance" && ($0["status"] as? Int) == 201
        }
        #expect(creates.count == 4, "\(creates.count) in-app purchases created")
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0)
        withExtendedLifetime(project) {}
    }

    @Test(arguments: [
        ("not json", "is not a saved plan"), (#"{"format": "terraform"}"#, "is not a saved plan"),
        (#"{"format": "iapkit-plan", "formatVersion": 99}"#, "is a saved plan of format version 99; this iapkit reads version 1"),
        (#"{"format": "iapkit-plan"}"#, "has no `formatVersion`: a saved plan this iapkit reads has `\"formatVersion\": 1`"),
        (#"{"format": "iapkit-plan", "formatVersion": "1"}"#, "has a `formatVersion` that is not a whole number"),
        (#"{"format": "iapkit-plan", "formatVersion": 1, "app": {"id": "1"}}"#, "has no app.bundleId"),
    ])
    func aDamagedOrForeignPlanFileIsExitTwo(text: String, message: String) throws {
        let dir = TemporaryDirectory()
        let file = dir.write("plan.json", text)
        let push = try iapkit("asc", "push", "--plan", file, "--yes")
        #expect(push.status == 2, "\(push.stderr)")
        #expect(push.stderr.contains(message) && push.stderr.contains("plan.json"), "\(push.stderr)")
        let show = try iapkit("asc", "show", file)
        #expect(show.status == 2 && show.stderr.contains(message), "\(show.stderr)")
    }

    /// The Markdown plan, read by a Markdown parser: a summary table, then a collapsible section per product with
    /// refused and unmanaged ones first.
    @Test func aPlanInMarkdownHasItsSummaryTableAndASectionPerProduct() throws {
        let fake = try FakeAppStoreConnect()
        let (dir, catalog, product, _) = try Self.editedCatalog(fake)
        // One refused change besides: a product's type changed.
        var text = try String(contentsOfFile: catalog, encoding: .utf8)
        if let range = text.range(of: "type: consumable") ?? text.range(of: "type: non-consumable") {
            text.replaceSubrange(range, with: text[range].contains("non-") ? "type: consumable" : "type: non-consumable")
        }
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let summary = dir.write("summary.md", "")
        var environment = fake.environment
        environment["GITHUB_STEP_SUMMARY"] = summary
        let plan = try iapkit(["asc", "plan", catalog, "--format", "markdown"], environment: environment)
        #expect(plan.status == 1, "a refused change fails the plan: \(plan.stderr)")
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == plan.stdout, "the job summary has the same Markdown")
        let checker = """
            import sys, markdown, html.parser
            page = markdown.markdown(open(sys.argv[1]).read(), extensions=["tables", "md_in_html"])
            class Reader(html.parser.HTMLParser):
                def __init__(self):
                    super().__init__(); self.tags = []; self.cells = []; self.summaries = []; self.where = []
                def handle_starttag(self, tag, attrs):
                    self.tags.append(tag); self.where.append(tag)
                    if tag == "summary": self.summaries.append("")
                def handle_endtag(self, tag): self.where.pop() if self.where else None
                def handle_data(self, data):
                    if self.where and self.where[-1] in ("td", "th"): self.cells.append(data.strip())
                    if "summary" in self.where: self.summaries[-1] += data
            reader = Reader(); reader.feed(page)
            print("tables", reader.tags.count("table"))
            print("details", reader.tags.count("details"))
            print("header", "|".join(reader.cells[:9]))
            for s in reader.summaries: print("summary", s)
            """
        let script = dir.write("check.py", checker)
        let markdownFile = dir.write("plan.md", plan.stdout)
        let read = try run("/usr/bin/env", ["python3", script, markdownFile])
        #expect(read.status == 0, "\(read.stderr)")
        let lines = read.stdout.components(separatedBy: "\n")
        #expect(lines.contains("header Create|Update|Delete|Refused|Unmanaged|Waiting for review|Unchanged|Operations|Requests"), "\(read.stdout)")
        let tables = Int(lines.first { $0.hasPrefix("tables ") }?.dropFirst(7) ?? "") ?? 0
        let details = Int(lines.first { $0.hasPrefix("details ") }?.dropFirst(8) ?? "") ?? 0
        #expect(details >= 1 && tables == details + 1, "\(read.stdout)\n\(plan.stdout)")
        let summaries = lines.filter { $0.hasPrefix("summary ") }
        #expect(summaries.first?.contains("refused") == true, "refused first: \(summaries)")
        #expect(summaries.contains { $0.contains(product) }, "\(summaries)")
    }
}
