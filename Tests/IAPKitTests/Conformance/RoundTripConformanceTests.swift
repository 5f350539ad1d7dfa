import Foundation
import TestSupport
import Testing

/// Generated App Store Connect states, answered by a fake that validates every request and every answer against
/// Apple's OpenAPI document (with `null` attributes, as App Store Connect sends them), round-trip as they do against
/// the fake's own contract (`RoundTripTests`). Slower, so a sample of seeds.
@Suite(.enabled(if: Reference.available, Reference.skipReason))
struct RoundTripConformanceTests {
    @Test func generatedStatesRoundTripAgainstApplesDocument() async throws {
        let harness = try Harness(openAPI: Reference.openAPI)
        var failures: [String] = []
        for seed in 500..<512 {
            let generated = try harness.generate(seed: seed)
            do { try await harness.roundTrip(generated) } catch { failures.append(generated.describe(error)) }
        }
        let validations = try harness.fake.control("GET", "validations") as? [String: Any] ?? [:]
        #expect(validations["mode"] as? String == "openapi")
        #expect((validations["responseFailures"] as? [Any])?.isEmpty == true, "answers the document does not allow: \(validations)")
        #expect((validations["requestBodiesRefused"] as? Int) == 0, "requests the document refuses: \(validations)")
        let failed = failures.count
        #expect(failed == 0, "\(failed) seeds failed:\n\(failures.joined(separator: "\n\n"))")
    }
}
