import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// The lint gate: each strictness refuses what it covers and lets the rest through.
@Suite struct LintGateTests {
    /// A copy of the example project with a price that is no App Store price point (a catalog rule, not the
    /// catalog's shape) and, when asked, a content folder whose ContentVersion is not a version (content lint only).
    func withProject(badPrice: Bool = false, badContentVersion: Bool = false, _ body: (String) throws -> Void) throws {
        let dir = TemporaryDirectory()
        try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        let catalog = dir.file("project/catalog.yaml")
        if badPrice {
            let text = try String(contentsOfFile: catalog, encoding: .utf8)
            try text.replacingOccurrences(of: "price: 0.99\n", with: "price: 0.98\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        }
        if badContentVersion {
            let info = dir.file("project/content/com.example.fruitstand.kiwi/ContentInfo.plist")
            let text = try String(contentsOfFile: info, encoding: .utf8)
            try text.replacingOccurrences(of: "<string>1.0</string>", with: "<string>one</string>").write(
                toFile: info, atomically: true, encoding: .utf8)
        }
        try withExtendedLifetime(dir) { try body(catalog) }
    }

    func refusal(_ result: Result<Catalog, LintGate.Refusal>) -> LintGate.Refusal? {
        if case let .failure(refusal) = result { return refusal }
        return nil
    }

    @Test func aCleanCatalogPassesEveryStrictness() throws {
        try withProject { catalog in
            for strictness in LintGate.Strictness.allCases {
                let result = try LintGate.open(catalog, strictness: strictness)
                #expect(refusal(result) == nil, "\(strictness)")
            }
        }
    }

    @Test func theShapeLetsCatalogRulesThrough() throws {
        try withProject(badPrice: true) { catalog in
            var seen: [Finding] = []
            #expect(refusal(try LintGate.open(catalog, strictness: .shape) { seen.append($0) }) == nil)
            #expect(seen.isEmpty)
            let refused = try #require(refusal(try LintGate.open(catalog, strictness: .catalog) { seen.append($0) }))
            #expect(refused.errors.map(\.ruleID) == ["price"] && refused.summary == "1 error in \(catalog)")
            #expect(refused.products == 6)
            #expect(seen.contains { $0.ruleID == "price" && $0.severity == .error })
        }
    }

    @Test func onlyFullLintsTheContentFolders() throws {
        try withProject(badContentVersion: true) { catalog in
            #expect(refusal(try LintGate.open(catalog, strictness: .catalog)) == nil)
            let refused = try #require(refusal(try LintGate.open(catalog, strictness: .full)))
            #expect(refused.errors.map(\.ruleID) == ["content-version"])
        }
    }

    @Test func theBrokenFixtureIsRefusedForItsShape() throws {
        let refused = try #require(refusal(try LintGate.open(Paths.fixtures + "/" + "catalogs/broken/catalog.yaml", strictness: .shape)))
        #expect(!refused.errors.isEmpty && refused.errors == refused.errors.sortedForReport())
    }

    @Test func anUnreadableCatalogIsAnErrorOfTheTool() {
        #expect(throws: IAPKitError.self) { try LintGate.open("/nonexistent/catalog.yaml", strictness: .shape) }
    }
}
