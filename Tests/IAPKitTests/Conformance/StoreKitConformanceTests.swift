import Foundation
import TestSupport
import Testing

/// Real Xcode-written `.storekit` files from the reference folder: the project's schema accepts every one, and a
/// round trip through a catalog keeps every product, billing plan, offer and price string.
@Suite(.enabled(if: Reference.available, Reference.skipReason))
struct StoreKitConformanceTests {
    @Test func everyRealFixtureIsPresent() {
        #expect(Reference.realStoreKitFiles.count == 17, "expected the 17 real .storekit files in \(Reference.storeKitFixtures)")
    }

    @Test(arguments: Reference.realStoreKitFiles)
    func projectSchemaAcceptsTheRealFile(fixture: String) throws {
        let path = Reference.storeKitFixtures + "/" + fixture
        #expect(try python(StoreKitRoundTrip.validate, [path, Paths.storeKitSchema]) == "valid\n")
    }

    @Test(arguments: Reference.realStoreKitFiles)
    func roundTripKeepsEveryPlanOfferAndPrice(fixture: String) throws {
        let dir = TemporaryDirectory()
        let (_, exported) = try StoreKitRoundTrip.check(Reference.storeKitFixtures + "/" + fixture, in: dir)
        // What iapkit writes satisfies both the project's schema and the reference folder's own.
        #expect(try python(StoreKitRoundTrip.validate, [exported, Paths.storeKitSchema]) == "valid\n")
        #expect(try python(StoreKitRoundTrip.validate, [exported, Reference.storeKitSchema]) == "valid\n")
    }

    /// Imported and exported over itself, a file Xcode wrote comes back equal as JSON: IDs, settings, locales and
    /// format version as Xcode wrote them.
    @Test(arguments: Reference.realStoreKitFiles)
    func exportedOverItselfTheRealFileComesBackEqual(fixture: String) throws {
        let dir = TemporaryDirectory()
        let source = Reference.storeKitFixtures + "/" + fixture
        let (copy, imported, exported) = try StoreKitUpdateTests.importAndExportOver(source, in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try python(StoreKitUpdateTests.equalJSON, [source, copy]) == "equal\n")
    }

    @Test func xcode26BillingPlansAreKept() throws {
        let files = Reference.realStoreKitFiles.filter {
            (try? String(contentsOfFile: Reference.storeKitFixtures + "/" + $0, encoding: .utf8))?.contains("\"billingPlans\"") == true
        }
        #expect(!files.isEmpty, "no real file has billing plans")
        for file in files {
            let dir = TemporaryDirectory()
            let (summary, _) = try StoreKitRoundTrip.check(Reference.storeKitFixtures + "/" + file, in: dir)
            let counts = summary.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").dropFirst().compactMap { Int($0) }
            #expect(counts.count == 4 && counts[2] > 0, "billing plans were compared: \(summary)")
        }
    }
}
