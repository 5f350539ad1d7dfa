import Foundation
import IAPLint
import TestSupport
import Testing
import IAPLint

/// Golden reports: the broken fixture catalog and the examples in every format, compared byte for byte.
/// Re-record with `IAPKIT_RECORD=1 swift test --filter ReporterTests` and review the diff.
@Suite struct ReporterTests {

    func golden(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try Golden.check(name, actual, sourceLocation: sourceLocation)
    }

    @Test(arguments: ReportFormat.allCases)
    func brokenCatalogReport(format: ReportFormat) throws {
        let result = try iapkit("lint", "catalog", "catalogs/broken/catalog.yaml", "--format", format.rawValue, in: Paths.fixtures)
        #expect(result.status == 1)
        try golden("broken.\(format.rawValue)", result.stdout)
    }

    @Test(arguments: ReportFormat.allCases)
    func examplesReport(format: ReportFormat) throws {
        let result = try iapkit("lint", "catalog", Paths.examplesCatalog, "--format", format.rawValue, in: Paths.fixtures)
        #expect(result.status == 0, "\(result.stdout)")
        try golden("examples.\(format.rawValue)", result.stdout)
    }

    @Test func jsonReportHasTheDocumentedShape() throws {
        let result = try iapkit("lint", "catalog", "catalogs/broken/catalog.yaml", "--format", "json", in: Paths.fixtures)
        let out = try python(
            """
            import json, sys
            r = json.loads(sys.stdin.read()) if False else json.loads(open(sys.argv[1]).read())
            assert list(r) == ['tool', 'findings', 'summary'] and r['tool'] == {'name': 'iapkit', 'version': '0.1.0'}
            keys = ['rule', 'severity', 'message', 'file', 'line', 'column', 'path', 'productId']
            assert all(list(f) == keys for f in r['findings'])
            s = r['summary']
            assert s['errors'] == sum(f['severity'] == 'error' for f in r['findings'])
            assert s['warnings'] == sum(f['severity'] == 'warning' for f in r['findings'])
            f = next(f for f in r['findings'] if f['rule'] == 'display-name')
            assert (f['line'], f['column'], f['path'], f['productId']) == (15, 15, 'products[0].localizations[0].name', 'com.example.app.old'), f
            print(s['products'])
            """, [try writeTemporary(result.stdout)])
        #expect(out == "4\n")
    }

    @Test func junitParsesAndHasOneCasePerProduct() throws {
        let result = try iapkit("lint", "catalog", "catalogs/broken/catalog.yaml", "--format", "junit", in: Paths.fixtures)
        let out = try python(
            """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            cases = root.findall('.//testcase')
            names = [c.get('name') for c in cases]
            assert names[0] == 'catalog' and 'com.example.app.club' in names, names
            failing = [c.get('name') for c in cases if c.find('failure') is not None]
            print(len(cases), len(failing))
            """, [try writeTemporary(result.stdout)])
        // The catalog case plus four products; every one of them has an error in this fixture.
        #expect(out == "5 5\n")
    }

    @Test func strictFailsOnWarningsAndNoColorIsHonoured() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.write("catalog.yaml", Example.product("  productId: coins.small"))
        dir.write("shot.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let lenient = try iapkit("lint", catalog)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("warning: product ID `coins.small` does not start with the bundle ID"))
        #expect(!lenient.stdout.contains("\u{1B}["))
        #expect(try iapkit("lint", catalog, "--strict").status == 1)
    }

    func writeTemporary(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "iapkit-report-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
