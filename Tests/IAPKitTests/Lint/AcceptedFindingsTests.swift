import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// Known findings accepted where they are (`# iapkit:disable`) or as a recorded set (`--baseline`): what is
/// accepted stops failing `--strict`, and everything else still does.
@Suite struct AcceptedFindingsTests {
    /// Two products whose IDs lack the bundle ID's prefix (`product-id-prefix`) and that have no review screenshot
    /// (`review-screenshot`): four warnings before anything is accepted.
    static func catalog(_ first: String = "", _ second: String = "", beforeSecond: String = "") -> String {
        """
        schemaVersion: 1
        app:
          bundleId: com.example.app
          primaryLocale: en-US
        products:
          - productId: coins_small\(first)
            referenceName: "Coins # small"
            type: consumable
            price: 0.99
            localizations:
              - locale: en-US
                name: Coins
                description: A few coins.
        \(beforeSecond)  - productId: coins_large\(second)
            referenceName: Large Coins
            type: consumable
            price: 4.99
            localizations:
              - locale: en-US
                name: Large Coins
                description: Many coins.

        """
    }

    func lint(_ yaml: String) throws -> [Finding] {
        let dir = TemporaryDirectory()
        let path = dir.write("catalog.yaml", yaml)
        let collector = FindingCollector()
        try CatalogLinter().lint(catalogAt: path, consumer: collector.consumer)
        return collector.findings.map { finding in
            var finding = finding
            finding.location.file = "catalog.yaml"
            return finding
        }
    }

    func summary(_ findings: [Finding]) -> [String] {
        findings.map { "\($0.location.line ?? 0) \($0.ruleID) \($0.productID ?? "-")" }.sorted()
    }

    @Test func withoutCommentsEveryFindingIsReported() throws {
        #expect(
            summary(try lint(Self.catalog()))
                == [
                    "6 product-id-prefix coins_small", "6 review-screenshot coins_small",
                    "14 product-id-prefix coins_large", "14 review-screenshot coins_large",
                ].sorted())
    }

    @Test func aCommentAfterAValueAcceptsThatRuleOnThatLine() throws {
        let findings = try lint(Self.catalog("  # iapkit:disable product-id-prefix live since 2015, never renamed"))
        // The comment is on the product's first line, so it covers the product; only the named rule is accepted.
        #expect(
            summary(findings)
                == [
                    "6 review-screenshot coins_small", "14 product-id-prefix coins_large", "14 review-screenshot coins_large",
                ].sorted())
    }

    @Test func aCommentAboveAProductAcceptsItsRulesInTheWholeProduct() throws {
        let findings = try lint(
            Self.catalog(
                beforeSecond: "  # iapkit:disable product-id-prefix,review-screenshot live since 2015; screenshot before review\n"))
        #expect(summary(findings) == ["6 product-id-prefix coins_small", "6 review-screenshot coins_small"].sorted())
    }

    @Test func aHashInsideQuotesIsNoComment() throws {
        let findings = try lint(
            Self.catalog().replacingOccurrences(
                of: "\"Coins # small\"", with: "\"Coins # iapkit:disable review-screenshot not a comment\""))
        #expect(findings.contains { $0.ruleID == "review-screenshot" && $0.productID == "coins_small" })
    }

    @Test func commentsThatCannotDoTheirJobAreReported() throws {
        let findings = try lint(Self.catalog("  # iapkit:disable product-id-prefix", "  # iapkit:disable product-id-prefx typo"))
        let comments = findings.filter { $0.ruleID == "disable-comment" }
        #expect(
            comments.map(\.message) == [
                "`# iapkit:disable` gives no reason; write why the finding is accepted after the rule",
                "`# iapkit:disable` `product-id-prefx` is not an iapkit rule; did you mean `product-id-prefix`?",
            ])
        #expect(comments.map { "\($0.location.line ?? 0):\($0.location.column ?? 0)" } == ["6:29", "14:29"])
        #expect(comments.allSatisfy { $0.severity == .warning })
        // A comment without a reason still accepts nothing: the finding it names stays.
        #expect(findings.filter { $0.ruleID == "product-id-prefix" }.count == 2)
    }

    @Test func aCommentThatAcceptsNothingIsStale() throws {
        let yaml = Self.catalog().replacingOccurrences(of: "price: 4.99", with: "price: 4.99  # iapkit:disable price-free was free once")
        let stale = try lint(yaml).filter { $0.ruleID == "disable-comment" }
        #expect(stale.map(\.message) == ["`# iapkit:disable` accepts no `price-free` finding on line 17; remove it"])
    }

    @Test func aBaselineAcceptsTodaysFindingsAndFailsOnNewOnes() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", Self.catalog())
        let strict = try iapkit("lint", "catalog", "catalog.yaml", "--strict", in: dir.path)
        #expect(strict.status == 1)

        let written = try iapkit("lint", "catalog", "catalog.yaml", "--write-baseline", "baseline.json", in: dir.path)
        #expect(written.stderr.contains("wrote baseline.json (4 findings accepted)"), "\(written.stderr)")
        let entries = try python(
            """
            import json, sys
            d = json.load(open(sys.argv[1]))
            print(d['version'], ' '.join('%s/%s/%d' % (f['productId'], f['rule'], f['count']) for f in d['findings']))
            """, [dir.file("baseline.json")])
        #expect(
            entries
                == "1 coins_large/product-id-prefix/1 coins_large/review-screenshot/1 coins_small/product-id-prefix/1 coins_small/review-screenshot/1\n"
        )

        let accepted = try iapkit("lint", "catalog", "catalog.yaml", "--strict", "--baseline", "baseline.json", in: dir.path)
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(accepted.stderr.contains("4 findings accepted by baseline.json"))

        // Lines move and nothing new fails; a new product's finding does.
        let edited =
            "# a comment that moves every line\n"
            + Self.catalog().replacingOccurrences(
                of: "  - productId: coins_large",
                with: "  - productId: gems\n    referenceName: Gems\n    type: consumable\n    price: 1.99\n"
                    + "    localizations:\n      - locale: en-US\n        name: Gems\n        description: Shiny.\n  - productId: coins_large")
        try edited.write(toFile: catalog, atomically: true, encoding: .utf8)
        let new = try iapkit("lint", "catalog", "catalog.yaml", "--strict", "--baseline", "baseline.json", "--format", "json", in: dir.path)
        #expect(new.status == 1)
        let reported = try python(
            "import json, sys; print(' '.join(sorted('%s/%s' % (f['productId'], f['rule']) for f in json.load(open(sys.argv[1]))['findings'])))",
            [dir.write("report.json", new.stdout)])
        #expect(reported == "gems/product-id-prefix gems/review-screenshot\n")

        let broken = dir.write("broken.json", "{\"findings\": []}")
        let refused = try iapkit("lint", "catalog", "catalog.yaml", "--baseline", broken, in: dir.path)
        #expect(refused.status == 2 && refused.stderr.contains("is not a baseline"), "\(refused.stderr)")
    }
}
