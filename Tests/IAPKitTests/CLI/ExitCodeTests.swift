import Foundation
import TestSupport
import Testing

/// Each row of the exit-code table in docs/commands.md, as a pipeline meets it: `0` nothing to do or done, `1` found
/// something (findings, a difference under `--check`, a change App Store Connect would refuse), `2` could not run, `75`
/// the hour's budget cannot pay for the work now. The `asc` rows run against the fake with its budget set as each needs.
@Suite(.showsFakeLog)
struct ExitCodeTests {
    static let bundleID = AscSyncTests.bundleID

    /// The examples pushed to a new fake; its request log cleared.
    static func pushed() throws -> (FakeAppStoreConnect, TemporaryDirectory) { try AscScopeTests.pushedExamples() }

    /// The example catalog with kiwi's type changed: a change App Store Connect refuses.
    static func refuseKiwisType(_ project: TemporaryDirectory) throws {
        try AscScopeTests.rename(project, [("type: non-consumable\n    tier: 2", "type: consumable\n    tier: 2")])
    }

    // MARK: 0

    @Test func zeroForNothingToDoAndForDone() throws {
        let (fake, project) = try Self.pushed()
        let catalog = project.file("catalog.yaml")
        let plan = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(plan.status == 0, "\(plan.stdout)\(plan.stderr)")
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0 && push.stdout.contains("nothing to push"), "\(push.stdout)\(push.stderr)")
        // A plan with changes push can make, without --check, is a plan: exit 0.
        try AscScopeTests.rename(project, [AscScopeTests.bananaName])
        let changed = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(changed.status == 0 && changed.stdout.contains("~ inAppPurchaseLocalization"), "\(changed.stdout)\(changed.stderr)")
        let done = try AscSyncTests.push(fake, catalog)
        #expect(done.status == 0, "\(done.stderr)")
        // The report is on standard output, so `push > push.log` keeps it; standard error has the progress only.
        #expect(done.stdout.contains("~ inAppPurchaseLocalization") && done.stdout.contains("Pushed: "), "\(done.stdout)")
        #expect(!done.stderr.contains("Pushed: ") && !done.stderr.contains("Plan: "), "\(done.stderr)")
        // Plan's summary and push's count the same changes, products and operations.
        let planned = try #require(
            changed.stdout.firstMatch(of: #/Plan: (\d+) to create, (\d+) to update, .*, in (\d+ products?); (\d+ operations?) /#),
            "\(changed.stdout)")
        let pushedCounts = try #require(
            done.stdout.firstMatch(of: #/Pushed: (\d+) created, (\d+) updated, .*, in (\d+ products?); (\d+ operations?), /#),
            "\(done.stdout)")
        #expect(
            [planned.1, planned.2, planned.3, planned.4] == [pushedCounts.1, pushedCounts.2, pushedCounts.3, pushedCounts.4],
            "\(changed.stdout)\(done.stdout)")
        #expect(planned.2 == "1" && planned.3 == "1 product", "\(changed.stdout)")
    }

    // MARK: 1

    @Test func oneForFindingsAndForADifferenceUnderCheck() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", try String(contentsOfFile: Paths.examples + "/catalog.yaml", encoding: .utf8))
        try AscScopeTests.rename(dir, [("price: 1.99\n    territoryPrices: {IND: 149}", "price: 1.98\n    territoryPrices: {IND: 149}")])
        let lint = try iapkit(["lint", "catalog", catalog])
        #expect(lint.status == 1 && lint.stdout.contains("[price]"), "\(lint.stdout)\(lint.stderr)")

        let (fake, project) = try Self.pushed()
        try AscScopeTests.rename(project, [AscScopeTests.bananaName])
        // With the base the push recorded, a change of the catalog's own is pending, not a failure of --check.
        let pending = try iapkit(["asc", "plan", project.file("catalog.yaml"), "--check"], environment: fake.environment)
        #expect(pending.status == 0 && pending.stdout.contains("[pending: the catalog's change]"), "\(pending.stdout)\(pending.stderr)")
        // Without one, any difference is.
        try FileManager.default.removeItem(atPath: project.file(".iapkit"))
        let check = try iapkit(["asc", "plan", project.file("catalog.yaml"), "--check"], environment: fake.environment)
        #expect(check.status == 1 && check.stdout.contains("~ inAppPurchaseLocalization"), "\(check.stdout)\(check.stderr)")
    }

    @Test func oneForAPlanAppStoreConnectWouldRefuseSavedOrNot() throws {
        let (fake, project) = try Self.pushed()
        let catalog = project.file("catalog.yaml")
        try Self.refuseKiwisType(project)
        let refusedLine = "! inAppPurchase com.example.fruitstand.kiwi: type"

        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 1, "a plan App Store Connect would refuse fails the job: \(plan.stderr)")
        #expect(plan.stdout.contains(refusedLine), "\(plan.stdout)")
        #expect(plan.stderr.contains("1 change App Store Connect would refuse") && plan.stderr.contains(refusedLine), "\(plan.stderr)")

        // --out writes the file for review, marked as not appliable, and still fails.
        let file = project.file("release.plan.json")
        let saved = try iapkit(["asc", "plan", catalog, "--out", file], environment: fake.environment)
        #expect(saved.status == 1, "\(saved.stderr)")
        #expect(saved.stderr.contains("marked not appliable") && !saved.stderr.contains("sends exactly"), "\(saved.stderr)")
        let appliable = try python("import json, sys; print(json.load(open(sys.argv[1]))['appliable'])", [file])
        #expect(appliable == "False\n")

        // push --plan names the refused line and writes nothing.
        let writes = try fake.writeCount()
        let push = try iapkit(["asc", "push", "--plan", file, "--yes"], environment: fake.environment)
        #expect(push.status == 1 && push.stderr.contains(refusedLine), "\(push.stderr)")
        #expect(try fake.writeCount() == writes)
    }

    // MARK: 2

    @Test func twoWhenTheCommandCannotRun() throws {
        let dir = TemporaryDirectory()
        let missing = try iapkit(["lint", "catalog", dir.file("none.yaml")])
        #expect(missing.status == 2, "\(missing.stderr)")
        let catalog = dir.write("catalog.yaml", try String(contentsOfFile: Paths.examples + "/catalog.yaml", encoding: .utf8))
        let noKey = try iapkit(
            ["asc", "plan", catalog], environment: ["ASC_KEY_ID": "", "ASC_ISSUER_ID": "", "ASC_PRIVATE_KEY": "", "ASC_PRIVATE_KEY_PATH": ""])
        #expect(noKey.status == 2 && noKey.stderr.contains("credentials are missing"), "\(noKey.stderr)")
    }

    // MARK: 75

    /// `in about 60 minutes (after 2025-06-01T14:07:00Z)`: when to run again, for a person and a scheduler.
    static func saysWhenToRunAgain(_ text: String) -> Bool {
        text.contains(/[Rr]un (push )?again in about \d+ minutes? \(after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/)
    }

    @Test func seventyFiveWhenTheHoursBudgetIsSpent() throws {
        let (fake, project) = try Self.pushed()
        let catalog = project.file("catalog.yaml")
        // No request left this hour: App Store Connect answers 429 with a Retry-After of about an hour.
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 0])
        for command in [["plan", "--check"], ["push", "--yes"]] {
            let result = try iapkit(["asc", command[0], catalog] + command.dropFirst(), environment: fake.environment)
            #expect(result.status == 75, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("hourly request budget"), "\(result.stderr)")
            #expect(Self.saysWhenToRunAgain(result.stderr) && result.stderr.contains("--wait"), "\(result.stderr)")
        }
        // --wait waits no longer than --wait-max: a wait of an hour past a limit of a minute is exit 75 at once.
        let capped = try iapkit(["asc", "plan", catalog, "--check", "--wait", "--wait-max", "1m"], environment: fake.environment)
        #expect(capped.status == 75 && capped.stderr.contains("--wait-max 1m"), "\(capped.stderr)")
        #expect(Self.saysWhenToRunAgain(capped.stderr), "\(capped.stderr)")
    }

    @Test func seventyFiveWhenA429AsksForALongerWaitThanIapkitWaits() throws {
        let (fake, project) = try Self.pushed()
        // The budget is fine, but App Store Connect refuses a detail read for ten minutes.
        try fake.control(
            "POST", "faults", [["method": "GET", "pathPattern": "/availableTerritories", "status": 429, "count": 1, "retryAfter": 600]])
        let result = try iapkit(["asc", "plan", project.file("catalog.yaml")], environment: fake.environment)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("Retry-After 10m") && Self.saysWhenToRunAgain(result.stderr), "\(result.stderr)")
    }

    @Test func aPlanNeverStartsReadingWhatItsBudgetCannotFinish() throws {
        let (fake, project) = try Self.pushed()
        let catalog = project.file("catalog.yaml")
        let first = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        let estimate = try #require(first.stderr.firstMatch(of: /in detail: about (\d+) requests?/).flatMap { Int($0.1) }, "\(first.stderr)")
        let lists = try AscScopeTests.paths(fake).filter(AscScopeTests.isListRead).count
        // Exactly what the estimate says is left: the estimate is within a tenth of what is sent, so the plan does
        // not start on the detail reads without that margin.
        try fake.control("DELETE", "requests")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": lists + estimate])
        let tight = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(tight.status == 75, "\(tight.stderr)")
        #expect(AscScopeTests.detailReads(try AscScopeTests.paths(fake)).isEmpty, "nothing read in detail")
        // With the margin, it reads everything and never runs into the limit.
        try fake.control("DELETE", "requests")
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": lists + estimate + (estimate + 9) / 10])
        let enough = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(enough.status == 0, "\(enough.stderr)")
        #expect(!(try fake.requests()).contains { $0["status"] as? Int == 429 })
    }

    /// `--wait` waits for a spent budget, saying how long, instead of failing; stopped once it has said so.
    @Test func waitWaitsForASpentBudgetAndShowsTheWait() throws {
        let (fake, project) = try Self.pushed()
        try fake.control("POST", "settings", ["rateLimit": 3600, "rateLimitRemaining": 0])
        let said = try AscScopeTests.stopped(
            ["asc", "plan", project.file("catalog.yaml"), "--check", "--wait"], fake, project, onceItSays: "hourly budget")
        #expect(said.contains(/waiting about (5\d|60) min for App Store Connect's hourly budget \(429, Retry-After/), "\(said)")
    }
}
