import Foundation
import IAPLint
import TestSupport
import Testing

/// A catalog iapkit cannot read is the most common pull-request mistake: it is reported in the chosen format, on
/// its line, written where `-o` says, and the run still exits 2.
@Suite struct UnreadableInputTests {
    /// Line 4 breaks the mapping's indentation: libyaml stops there.
    static let yaml = "schemaVersion: 1\napp:\n  bundleId: com.example.app\n primaryLocale: en-US\nproducts: []\n"

    @Test func githubAnnotatesTheLine() throws {
        let dir = TemporaryDirectory()
        dir.write("catalog.yaml", Self.yaml)
        let result = try iapkit("lint", "catalog", "catalog.yaml", "--format", "github", in: dir.path)
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("::error file=catalog.yaml,line=4,col="), "\(result.stdout)")
        #expect(result.stdout.contains("title=unreadable-input::"), "\(result.stdout)")
        // The log says it in words too, since annotations are not meant to be read there.
        #expect(result.stderr.hasPrefix("error: catalog.yaml:4:"), "\(result.stderr)")
    }

    @Test func sarifJSONAndJUnitAreWrittenWithTheOutputOption() throws {
        let dir = TemporaryDirectory()
        dir.write("catalog.yaml", Self.yaml)
        for format in ["sarif", "json", "junit"] {
            let result = try iapkit("lint", "catalog", "catalog.yaml", "--format", format, "-o", "report.\(format)", in: dir.path)
            #expect(result.status == 2, "\(format): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: dir.file("report.\(format)")), "\(format) report not written")
        }
        let read = try python(
            """
            import json, sys, xml.etree.ElementTree as ET
            sarif = json.load(open(sys.argv[1]))['runs'][0]['results'][0]
            print(sarif['ruleId'], sarif['level'], sarif['locations'][0]['physicalLocation']['region']['startLine'])
            finding = json.load(open(sys.argv[2]))['findings'][0]
            print(finding['rule'], finding['severity'], finding['line'])
            failures = ET.parse(sys.argv[3]).getroot().findall('.//testcase/failure')
            print(len(failures), failures[0].get('type'))
            """, [dir.file("report.sarif"), dir.file("report.json"), dir.file("report.junit")])
        #expect(read == "unreadable-input error 4\nunreadable-input error 4\n1 unreadable-input\n")
    }

    @Test func aMissingCatalogIsReportedToo() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("lint", "catalog", "nowhere.yaml", "--format", "json", in: dir.path)
        #expect(result.status == 2)
        let read = try python(
            "import json, sys; f = json.load(open(sys.argv[1]))['findings'][0]; print(f['rule'], f['file'])",
            [dir.write("out.json", result.stdout)])
        #expect(read == "unreadable-input nowhere.yaml\n")
    }

    @Test func textStaysOneLineOnStandardError() throws {
        let dir = TemporaryDirectory()
        dir.write("catalog.yaml", Self.yaml)
        let result = try iapkit("lint", "catalog", "catalog.yaml", in: dir.path)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: catalog.yaml:4:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "printed once, not twice: \(result.stdout)")
        // Written to a file, the text report holds it too.
        #expect(try iapkit("lint", "catalog", "catalog.yaml", "-o", "lint.txt", in: dir.path).status == 2)
        #expect(try String(contentsOfFile: dir.file("lint.txt"), encoding: .utf8).hasPrefix("catalog.yaml:4:"))
    }
}
