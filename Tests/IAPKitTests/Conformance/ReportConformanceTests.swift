import Foundation
import IAPLint
import TestSupport
import Testing

/// SARIF reports against the official OASIS SARIF 2.1.0 schema.
@Suite(.enabled(if: Reference.available, Reference.skipReason))
struct ReportConformanceTests {
    @Test func sarifIsValidAgainstTheOfficialSchema() throws {
        let dir = TemporaryDirectory()
        // A catalog that is not YAML at all still gets a valid report: its one result is on the line libyaml stopped at.
        let unreadable = dir.write("unreadable.yaml", "schemaVersion: 1\napp: [\n")
        for (name, catalog) in [
            ("broken", "Tests/Fixtures/catalogs/broken/catalog.yaml"), ("examples", "Tests/Fixtures/" + Paths.examplesCatalog),
            ("unreadable", unreadable),
        ] {
            let output = dir.file("\(name).sarif")
            _ = try iapkit("lint", catalog, "--format", "sarif", "-o", output, in: Paths.repository)
            let out = try python(
                """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[2]))
                report = json.load(open(sys.argv[1]))
                jsonschema.Draft7Validator(schema).validate(report)
                run = report['runs'][0]
                ids = [r['id'] for r in run['tool']['driver']['rules']]
                assert all(res['ruleId'] in ids and ids[res['ruleIndex']] == res['ruleId'] for res in run['results'])
                print(len(ids), len(run['results']))
                """, [output, Reference.sarifSchema])
            #expect(out.hasPrefix("\(RuleRegistry.all.count) "), "\(out)")
        }
    }
}
