import AppStoreConnect
import CatalogSync
import Foundation
import IAPCatalog
import IAPLint
import TestSupport
import Testing

/// The mapping between a catalog and App Store Connect, checked on states iapkit did not create: the fake builds a
/// random valid state from each seed, the way people leave apps in the web UI (`fakeasc/generator.py`), and for
/// every seed
///
///     pull A → lint (no error) → plan against A (nothing to do)
///            → push to an empty app B → A and B equal on every managed field → plan against B (nothing to do)
///     then one managed field of one product edited in the pulled catalog (chosen from the seed)
///            → plan against A shows exactly that change, at that field's line → push → plan against A (nothing to do).
///
/// "Nothing to do" allows the `?` of a note (what App Store Connect did not answer, said at the product).
///
/// "Equal" is the fake's managed view (`fakeasc/managed.py`), written from App Store Connect's data model rather
/// than from iapkit's records. `IAPKIT_SEEDS=N` runs N seeds (200 by default; `make roundtrip` runs 2,000),
/// `IAPKIT_SEEDS_FROM=K` starts them at seed K (new states beyond those already run), and `IAPKIT_SEED=N` replays one.
@Suite(.showsFakeLog)
struct RoundTripTests {
    /// A fixed App Store Connect today, so a seed builds the same dates on every run.
    static let today = "2031-03-01"
    /// The generator's palette and twenty more, among them storefronts priced in whole numbers and in euros.
    static let storefronts = [
        "USA", "FRA", "GBR", "IND", "JPN", "BRA", "DEU", "CAN", "AUS", "MEX", "ALB", "ARE", "BHR", "CHE",
        "CHN", "CZE", "EGY", "ESP", "HUN", "IDN", "ITA", "KOR", "NER", "NOR", "POL", "SLB", "TJK", "TUR",
        "VNM", "ZAF",
    ]

    static var seeds: [Int] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["IAPKIT_SEED"].flatMap(Int.init) { return [one] }
        let first = environment["IAPKIT_SEEDS_FROM"].flatMap(Int.init) ?? 0
        return Array(first..<(first + (environment["IAPKIT_SEEDS"].flatMap(Int.init) ?? 200)))
    }

    @Test func everyGeneratedStateRoundTrips() async throws {
        // The fake's own contract keeps 200 seeds to about seven minutes on two cores (with thrown errors' backtraces
        // off, as scripts/test/test.sh runs it); `generatedStatesMatchApplesDocument` checks a sample of the same
        // states against Apple's OpenAPI document.
        let harness = try Harness(openAPI: nil)
        var failures: [String] = []
        var covered = Set<String>()
        var classes: [String] = []
        // Two seeds at a time: each has its own apps, and the client's decoding and the fake's answers overlap.
        let seeds = Self.seeds
        try await withThrowingTaskGroup(of: (Harness.Generated, String?).self) { group in
            var next = 0
            func start() throws {
                guard next < seeds.count else { return }
                let generated = try harness.generate(seed: seeds[next])
                next += 1
                group.addTask {
                    do { try await harness.roundTrip(generated) } catch { return (generated, generated.describe(error)) }
                    return (generated, nil)
                }
            }
            try start()
            try start()
            while let (generated, failure) = try await group.next() {
                covered.formUnion(generated.used.values.flatMap { $0 } + generated.app)
                classes = generated.all
                if let failure { failures.append(failure) }
                try start()
            }
        }
        if ProcessInfo.processInfo.environment["IAPKIT_ROUNDTRIP_STATS"] != nil,
            let log = try harness.fake.control("GET", "requests") as? [String: Any], let counts = log["byOperation"] as? [String: Int]
        {
            print(counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: "\n"))
            let statuses = ((log["requests"] as? [[String: Any]]) ?? []).map { "\($0["status"] ?? "")" }
            print(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))
        }
        let failed = failures.count
        #expect(failed == 0, "\(failed) of \(Self.seeds.count) seeds failed:\n\(failures.prefix(10).joined(separator: "\n\n"))")
        // Every catalog pull wrote satisfies the schema editors check it with.
        let pulled = try FileManager.default.contentsOfDirectory(atPath: harness.pulled.path).sorted().map(harness.pulled.file)
        #expect(pulled.count == Self.seeds.count - failed)
        let schema = try python(CatalogSchemaTests.validateCatalogs, pulled + [Paths.catalogSchema])
        #expect(schema == "valid\n", "\(schema.prefix(4000))")
        if Self.seeds.count >= 200 {
            let missing = Set(classes).subtracting(covered).sorted()
            #expect(missing == [], "classes no seed built: \(missing)")
        }
    }

    /// The two states the issue reported, as fixed seeds of their own.
    @Test func anUnfinishedScreenshotUploadDoesNotStopThePull() async throws {
        let harness = try Harness(openAPI: nil)
        let seed = try harness.firstSeed(with: "screenshot:awaiting-upload")
        try await harness.roundTrip(try harness.generate(seed: seed))
    }

    @Test func aChangeOfSomeTerritoriesKeepsEachTerritorysChoice() async throws {
        let harness = try Harness(openAPI: nil)
        let seed = try harness.firstSeed(with: "price:scheduled-some-territories")
        try await harness.roundTrip(try harness.generate(seed: seed))
    }

    /// Deactivated batches and custom codes, of an in-app purchase's offer code and of a subscription's, are history:
    /// pulled as deactivated, and a push to an empty app makes the active codes only.
    @Test(arguments: ["iap-offer-code:custom-inactive", "iap-offer-code:batch-inactive", "offer-code:custom-inactive", "offer-code:batch-inactive"])
    func aDeactivatedCodeIsHistoryNeverMadeAgain(kind: String) async throws {
        let harness = try Harness(openAPI: nil)
        try await harness.roundTrip(try harness.generate(seed: try harness.firstSeed(with: kind)))
    }

    /// A product App Store Connect holds more of than the catalog can say (a purchase made before 2023, sold by the
    /// retired all-territories setting) is noted in every plan; a one-field edit of another product is still all the
    /// plan lists.
    @Test func aOneFieldEditIsAllThePlanListsBesideAProductNotFullyManaged() async throws {
        let harness = try Harness(openAPI: nil)
        let seed = try harness.firstSeed(with: "availability:legacy") { used in
            used.values.contains { $0.contains("localizations:several") && !$0.contains("state:in-review") && !$0.contains("availability:legacy") }
        }
        try await harness.roundTrip(try harness.generate(seed: seed))
    }

    /// Answers the document does not describe, as App Store Connect sends them (a product state newer than the
    /// document, an attribute it does not list, a last page without top-level links): read, reported, never a crash.
    @Test func answersTheDocumentDoesNotKnowAreReadAndReported() throws {
        let harness = try Harness(openAPI: nil)
        try harness.fake.control("POST", "settings", ["omitLastPageLinks": true, "unknownAttributes": true])
        let generated = try harness.generate(seed: 3)
        try harness.fake.control(
            "POST", "seed",
            [
                "appId": generated.source.id,
                "inAppPurchases": [
                    [
                        "productId": "com.example.future", "name": "Future", "inAppPurchaseType": "CONSUMABLE", "state": "A_STATE_FROM_THE_FUTURE",
                        "localizations": [["locale": "en-US", "name": "Future", "description": "Newer than the document"]],
                        "prices": [["territory": "USA", "usd": "0.99"]],
                    ]
                ],
            ])
        let folder = TemporaryDirectory()
        let pull = try iapkit(
            ["asc", "pull", "--bundle-id", generated.source.bundleID, "-o", folder.file("catalog.yaml")],
            environment: harness.fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("A_STATE_FROM_THE_FUTURE"), "\(pull.stderr)")
        #expect(pull.stderr.contains("without its top-level links"), "\(pull.stderr)")
        let catalog = try String(contentsOfFile: folder.file("catalog.yaml"), encoding: .utf8)
        #expect(catalog.contains("productId: com.example.future"))
        let check = try iapkit(["asc", "plan", folder.file("catalog.yaml"), "--check"], environment: harness.fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// `text` with twice its indentation and a comment above each product, and the first product's reference name
    /// changed (the edited line, and the line as it was), as a team might keep a pulled catalog.
    static func restyled(_ text: String) -> (text: String, edited: (line: String, original: String)?) {
        var lines: [String] = []
        var edited: (line: String, original: String)?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            // Two-space steps become four: what follows a dash moves to the column its siblings move to.
            var doubled = String(repeating: " ", count: indent * 2) + (body.hasPrefix("- ") ? "-   " + body.dropFirst(2) : body)
            if body.hasPrefix("- productId: ") { lines.append(String(repeating: " ", count: indent * 2) + "# kept by hand") }
            if edited == nil, body.hasPrefix("referenceName: "), lines.contains(where: { $0.contains("productId: ") }) {
                let changed = doubled + " edited"
                edited = (changed, doubled)
                doubled = changed
            }
            lines.append(doubled)
        }
        return (lines.joined(separator: "\n"), edited)
    }

    /// The commands as a user runs them: `asc pull`, then `asc plan --check` of what it wrote exits 0, and the
    /// pulled catalog holds each product's note where pull left something out.
    @Test func pullThenPlanCheckExitsZero() throws {
        let harness = try Harness(openAPI: nil)
        for seed in [
            try harness.firstSeed(with: "screenshot:awaiting-upload"), try harness.firstSeed(with: "price:scheduled-some-territories"), 7, 21,
        ] {
            let generated = try harness.generate(seed: seed)
            let folder = TemporaryDirectory()
            let environment = harness.fake.environment
            let pull = try iapkit(
                ["asc", "pull", "--bundle-id", generated.source.bundleID, "-o", folder.file("catalog.yaml")],
                environment: environment)
            #expect(pull.status == 0, "seed \(seed): \(pull.stderr)")
            let schema = try python(CatalogSchemaTests.validateCatalogs, [folder.file("catalog.yaml"), folder.file("catalog.schema.json")])
            #expect(schema == "valid\n", "seed \(seed): \(schema)")
            let check = try iapkit(["asc", "plan", folder.file("catalog.yaml"), "--check"], environment: environment)
            #expect(check.status == 0, "seed \(seed): \(check.stdout)\(check.stderr)")
            let lint = try iapkit(["lint", "catalog", folder.file("catalog.yaml")], environment: environment)
            #expect(lint.status == 0, "seed \(seed): \(lint.stdout)\(lint.stderr)")
            // The same catalog kept in another style (twice the indentation, a comment at each product, one reference
            // name edited by hand). The pull recorded its base, so the hand edit is the catalog's change: a pull over it
            // keeps it, names it as pending, and changes nothing.
            let kept = try Self.restyled(String(contentsOfFile: folder.file("catalog.yaml"), encoding: .utf8))
            try kept.text.write(toFile: folder.file("catalog.yaml"), atomically: true, encoding: .utf8)
            let stays = try iapkit(["asc", "pull", "-o", folder.file("catalog.yaml"), "--diff"], environment: environment)
            #expect(stays.status == 0 && stays.stdout.isEmpty, "seed \(seed): \(stays.stdout)\(stays.stderr)")
            #expect(kept.edited == nil || stays.stderr.contains("pending push"), "seed \(seed): \(stays.stderr)")
            // Without the base (a repository from before it), App Store Connect's value is taken, as it always was:
            // only that value moves back.
            try FileManager.default.removeItem(atPath: folder.file(".iapkit"))
            let over = try iapkit(["asc", "pull", "-o", folder.file("catalog.yaml"), "--diff"], environment: environment)
            let moved = over.stdout.split(separator: "\n").map(String.init).filter {
                ($0.hasPrefix("-") || $0.hasPrefix("+")) && !$0.hasPrefix("---") && !$0.hasPrefix("+++")
            }
            if let edited = kept.edited {
                #expect(over.status == 1, "seed \(seed): \(over.stdout)\(over.stderr)")
                #expect(moved == ["-" + edited.line, "+" + edited.original], "seed \(seed): \(over.stdout)")
            } else {
                #expect(over.status == 0 && moved.isEmpty, "seed \(seed): \(over.stdout)\(over.stderr)")
            }
            if generated.used.values.contains(where: { $0.contains("screenshot:awaiting-upload") }) {
                #expect(pull.stderr.contains("never finished"), "seed \(seed): \(pull.stderr)")
                let text = try String(contentsOfFile: folder.file("catalog.yaml"), encoding: .utf8)
                #expect(text.contains("# iapkit asc pull: its review screenshot was never finished"), "\(text)")
            }
        }
    }
}

/// Failures of one seed, said as a sentence.
struct RoundTripFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One fake App Store Connect and a client of it, and the steps of a round trip.
final class Harness: @unchecked Sendable {
    let fake: FakeAppStoreConnect
    let asc: AppStoreConnectClient
    /// A copy of each catalog a round trip pulled, by seed.
    let pulled = TemporaryDirectory()

    init(openAPI: String?) throws {
        fake = try FakeAppStoreConnect(openAPI: openAPI)
        // Attributes without a value come as `null`, as App Store Connect sends them. Thirty storefronts, not 175:
        // "everywhere" is every storefront the fake has, and the round trip is about the mapping, not the count.
        try fake.control(
            "POST", "settings",
            [
                "today": RoundTripTests.today, "explicitNulls": true,
                "storefronts": RoundTripTests.storefronts,
            ])
        asc = try AppStoreConnectClient(
            credentials: ASCCredentials(
                keyID: fake.keyID, issuerID: fake.issuerID,
                privateKeyPEM: fake.privateKeyPEM),
            serverURL: URL(string: fake.url)!)
    }

    struct Generated {
        var seed: Int
        var source: StoreApp
        var target: StoreApp
        /// Product ID → the classes it was built from.
        var used: [String: [String]]
        /// The classes of the app's own state (grace period, promoted order).
        var app: [String]
        var all: [String]

        func describe(_ error: Error) -> String {
            let products =
                used.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value.joined(separator: ", "))" }
                + (app.isEmpty ? [] : ["  app: \(app.joined(separator: ", "))"])
            return "seed \(seed) failed: \(error)\n\(products.joined(separator: "\n"))\n"
                + "  replay: IAPKIT_SEED=\(seed) swift test --skip-build --filter RoundTripTests/everyGeneratedStateRoundTrips"
        }
    }

    /// A source app holding the seed's state and an empty target app.
    func generate(seed: Int) throws -> Generated {
        let source = try fake.addApp(bundleID: "com.example.seed\(seed).source", name: "Seed \(seed) source")
        let target = try fake.addApp(bundleID: "com.example.seed\(seed).target", name: "Seed \(seed) target")
        let answer = try fake.control("POST", "generate", ["appId": source, "seed": seed]) as? [String: Any] ?? [:]
        return Generated(
            seed: seed, source: StoreApp(id: source, bundleID: "com.example.seed\(seed).source"),
            target: StoreApp(id: target, bundleID: "com.example.seed\(seed).target"),
            used: answer["classes"] as? [String: [String]] ?? [:], app: answer["appClasses"] as? [String] ?? [],
            all: answer["allClasses"] as? [String] ?? [])
    }

    /// The first seed whose state has a product of `kind` (and holds what `also` asks), asked of the generator
    /// without building anything twice.
    func firstSeed(with kind: String, also: ([String: [String]]) -> Bool = { _ in true }) throws -> Int {
        for seed in 10_000..<10_200 {
            let generated = try generate(seed: seed)
            if generated.used.values.contains(where: { $0.contains(kind) }), also(generated.used) { return seed }
        }
        throw RoundTripFailure("no seed builds \(kind)")
    }

    func roundTrip(_ generated: Generated) async throws {
        let folder = TemporaryDirectory()
        let (catalog, path, snapshot) = try await pull(generated.source, into: folder)
        try FileManager.default.copyItem(atPath: path, toPath: pulled.file("seed-\(generated.seed).yaml"))
        let notes = try expectNothingToDo(catalog, path: path, against: snapshot, "the pulled catalog against its own app")

        let reader = StoreReader(asc: asc, gridTerritories: catalog.handPricedTerritories)
        let empty = try await reader.snapshot(app: generated.target)
        let plan = try planned(catalog, path: path, against: empty)
        if plan.count(.refused) > 0 { throw RoundTripFailure("push to an empty app is refused:\n\(PlanReport.text(plan))") }
        do { _ = try await PlanExecutor(asc: asc).apply(plan) } catch {
            throw RoundTripFailure("push to an empty app failed: \(error)\n\(PlanReport.text(plan))")
        }
        // What App Store Connect takes only for approved products waited (`…`): App Review approves them (the fake's
        // control), and the next push sends exactly what waited.
        let waiting = Set(plan.changes.filter { $0.action == .waiting }.compactMap(\.productID))
        if !waiting.isEmpty {
            _ = try fake.control("POST", "approve", ["appId": generated.target.id, "productIds": waiting.sorted()])
            let next = try planned(catalog, path: path, against: try await reader.snapshot(app: generated.target))
            let other = next.changes.filter { ![.unchanged, .create, .update].contains($0.action) && !Self.isNote($0) }
            let moved = next.changes.filter { [.create, .update].contains($0.action) && !waiting.contains($0.productID ?? "") }
            guard other.isEmpty, moved.isEmpty else {
                throw RoundTripFailure("after approval, plan is not what waited:\n\(PlanReport.text(next))")
            }
            do { _ = try await PlanExecutor(asc: asc).apply(next) } catch {
                throw RoundTripFailure("push after approval failed: \(error)\n\(PlanReport.text(next))")
            }
        }
        // What App Store Connect keeps deactivated is history: the pushed app holds the source's active codes, and
        // nothing deactivated (no code made only to be turned off).
        let source = try managed(generated.source, deactivated: false), target = try managed(generated.target, deactivated: false)
        if let difference = Self.difference(source, target, at: "") {
            throw RoundTripFailure("the pushed app differs from the source on a managed field: \(difference)")
        }
        if let difference = Self.difference(try managed(generated.target), target, at: "") {
            throw RoundTripFailure("the pushed app holds a deactivated code, made anew: \(difference)")
        }
        try expectNothingToDo(
            catalog, path: path, against: try await reader.snapshot(app: generated.target),
            "the pulled catalog against the app it was pushed to")
        try await expectOneEditPlannedAndPushed(generated, path: path, notes: notes)
    }

    /// The second invariant: one managed field of one product, chosen from the seed, edited in the pulled catalog
    /// is exactly what plan shows, at that field's line, and every other line is one the plan of the pulled catalog
    /// showed (`notes`: a `?` of what App Store Connect did not answer, never a new one for a product nothing
    /// touched); push makes it, and the next plan has nothing to do.
    func expectOneEditPlannedAndPushed(_ generated: Generated, path: String, notes: Set<String>) async throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let candidates = CatalogEdit.candidates(in: text, classes: generated.used)
        guard !candidates.isEmpty else { return }
        let edit = candidates[generated.seed % candidates.count]
        try edit.apply(to: text).write(toFile: path, atomically: true, encoding: .utf8)
        let catalog: Catalog
        switch try LintGate.open(path, strictness: .full) {
        case let .success(opened): catalog = opened
        case let .failure(refusal):
            throw RoundTripFailure("lint refuses the catalog after \(edit): \(refusal.errors.map(\.message).joined(separator: "; "))")
        }
        let reader = StoreReader(asc: asc, gridTerritories: catalog.handPricedTerritories)
        let plan = try planned(catalog, path: path, against: try await reader.snapshot(app: generated.source))
        let shown = plan.changes.filter { $0.action != .unchanged && !Self.isNote($0) }
        let elsewhere = shown.filter { $0.location?.line != edit.line || !edit.resources.contains($0.resource) }
        let newNotes = plan.changes.filter(Self.isNote).map(Self.noteLine).filter { !notes.contains($0) }
        // What a reviewer reads: a line for each change of the edit, and none for products nothing touched.
        let listed = PlanReport.text(plan).split(separator: "\n").filter { line in Self.markers.contains { line.hasPrefix($0) } }
        guard !shown.isEmpty, elsewhere.isEmpty, newNotes.isEmpty, listed.count == shown.count, plan.count(.refused) == 0 else {
            throw RoundTripFailure(
                "plan after \(edit) does not show exactly that change at line \(edit.line):\n\(PlanReport.text(plan))"
                    + (newNotes.isEmpty ? "" : "\nnotes the pulled catalog's plan did not have:\n  " + newNotes.joined(separator: "\n  ")))
        }
        do { _ = try await PlanExecutor(asc: asc).apply(plan) } catch {
            throw RoundTripFailure("push of \(edit) failed: \(error)\n\(PlanReport.text(plan))")
        }
        try expectNothingToDo(catalog, path: path, against: try await reader.snapshot(app: generated.source), "the catalog after \(edit) was pushed")
    }

    /// A product's `?` for something App Store Connect did not answer (its note says what).
    static func isNote(_ change: Change) -> Bool { change.isNote }

    /// How plan's text marks a change's line.
    static let markers = ["+ ", "~ ", "- ", "! ", "? ", "… "]

    /// A note as the invariant compares it: its product, resource and reason.
    static func noteLine(_ change: Change) -> String { "\(change.resource.rawValue) \(change.productID ?? "") \(change.reason ?? "")" }

    /// `asc pull` as the command does it, then the YAML written and read back, and lint as a user runs it next.
    func pull(_ app: StoreApp, into folder: TemporaryDirectory) async throws -> (Catalog, String, StoreSnapshot) {
        let pulled = try await Puller(reader: StoreReader(asc: asc)).pull(app: app, catalogDirectory: folder.path)
        let path = folder.write("catalog.yaml", try CatalogYAMLWriter.write(pulled.catalog, notes: pulled.notesByProduct))
        switch try LintGate.open(path, strictness: .full) {
        case let .success(catalog): return (catalog, path, pulled.snapshot)
        case let .failure(refusal):
            let errors = refusal.errors.map { "  \($0.ruleID): \($0.message) (\($0.path ?? ""))" }.joined(separator: "\n")
            throw RoundTripFailure("lint refuses the pulled catalog:\n\(errors)\n\(try String(contentsOfFile: path, encoding: .utf8))")
        }
    }

    func planned(_ catalog: Catalog, path: String, against snapshot: StoreSnapshot) throws -> CatalogSync.Plan {
        let desired = try CatalogRecords(
            catalog: catalog, territories: snapshot.territories,
            baseDirectory: (path as NSString).deletingLastPathComponent)
        return Planner(catalog: catalog, desired: desired).plan(against: snapshot)
    }

    /// Throws unless the plan has nothing to do; answers its notes (`noteLine`).
    @discardableResult
    func expectNothingToDo(_ catalog: Catalog, path: String, against snapshot: StoreSnapshot, _ what: String) throws -> Set<String> {
        let plan = try planned(catalog, path: path, against: snapshot)
        let changes = plan.changes.filter { $0.action != .unchanged && !Self.isNote($0) }
        guard changes.isEmpty else {
            throw RoundTripFailure(
                "plan of \(what) is not empty:\n\(PlanReport.text(plan))\n"
                    + (try String(contentsOfFile: path, encoding: .utf8)))
        }
        return Set(plan.changes.filter(Self.isNote).map(Self.noteLine))
    }

    /// The fake's managed view of `app`; without what App Store Connect keeps deactivated unless `deactivated`.
    func managed(_ app: StoreApp, deactivated: Bool = true) throws -> Any {
        try fake.control("POST", "managed", ["appId": app.id, "deactivated": deactivated] as [String: Any])
    }

    /// The first place two JSON values differ, as a path and both values; nil when equal.
    static func difference(_ a: Any, _ b: Any, at path: String) -> String? {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            for key in Set(a.keys).union(b.keys).sorted() {
                guard let left = a[key], let right = b[key] else {
                    return "\(path)/\(key): \(a[key].map { "\($0)" } ?? "absent") vs \(b[key].map { "\($0)" } ?? "absent")"
                }
                if let found = difference(left, right, at: path + "/" + key) { return found }
            }
            return nil
        case let (a as [Any], b as [Any]):
            guard a.count == b.count else { return "\(path): \(a) vs \(b)" }
            for (index, pair) in zip(a, b).enumerated() {
                if let found = difference(pair.0, pair.1, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return (a as? NSObject) == (b as? NSObject) ? nil : "\(path): \(a) vs \(b)"
        }
    }
}
