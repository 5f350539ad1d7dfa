import Foundation
import TestSupport
import Testing

/// What plan says it will read after the lists ("reading 4 in detail: about 31 requests") is within a tenth of what
/// it then sends: the budget check before reading, and the wait it asks for, rest on that figure.
@Suite(.showsFakeLog)
struct ReadEstimateTests {
    /// Plans `catalog` and compares the estimate with the requests sent after the lists.
    static func expectEstimateHolds(_ fake: FakeAppStoreConnect, catalog: String, _ what: String) throws {
        try fake.control("DELETE", "requests")
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 0 || plan.status == 1, "\(what): \(plan.stderr)")
        let estimate = try #require(
            plan.stderr.firstMatch(of: /in detail: about (\d+) requests?/).flatMap { Int($0.1) }, "\(what): \(plan.stderr)")
        let sent = try AscScopeTests.paths(fake).filter { !AscScopeTests.isListRead($0) }.count
        // A tenth of what is sent, and at least one request either way on a small app.
        #expect(abs(sent - estimate) * 10 <= max(sent, 10), "\(what): about \(estimate) estimated, \(sent) sent")
    }

    @Test func onTheExample() throws {
        let (fake, project) = try AscScopeTests.pushedExamples()
        try Self.expectEstimateHolds(fake, catalog: project.file("catalog.yaml"), "the example")
    }

    /// Generated states: prices scheduled and in some territories, offers, offer codes and their codes, legacy
    /// purchases; each pulled, then planned against its own app.
    @Test(arguments: [3, 11, 27, 42])
    func onAGeneratedState(seed: Int) throws {
        let harness = try Harness(openAPI: nil)
        let generated = try harness.generate(seed: seed)
        let folder = TemporaryDirectory()
        let catalog = folder.file("catalog.yaml")
        let pull = try iapkit(
            ["asc", "pull", "--bundle-id", generated.source.bundleID, "-o", catalog], environment: harness.fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        // The fake answers within Apple's document (and what App Store Connect is recorded sending beyond it).
        #expect(!pull.stderr.contains("sent attributes this iapkit does not know"), "\(pull.stderr)")
        try Self.expectEstimateHolds(harness.fake, catalog: catalog, "seed \(seed)")
    }
}
