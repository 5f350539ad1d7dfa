import Foundation
import Testing

/// The formats added after the first hardening pass (XLIFF and CSV translations, lint baselines, `--replay` traces,
/// the newest catalog keys), given the inputs a mutation run found to crash, hang, or leave files behind.
enum NewFormats {
    /// A copy of the example project (catalog, content, screenshots).
    static func project() throws -> (TemporaryDirectory, String) {
        let (dir, catalog) = try LocalizationsTests.project()
        return (dir, catalog)
    }

    /// Every file under `dir` with its bytes, to prove a failing run changed nothing.
    static func contents(_ dir: TemporaryDirectory) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: dir.path)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: dir.file(relative), isDirectory: &isDirectory)
            result[relative] = isDirectory.boolValue ? Data("folder".utf8) : FileManager.default.contents(atPath: dir.file(relative))
        }
        return result
    }

    /// One XLIFF 1.2 file translating into `locale`, with `units` (id, target) in its body.
    static func xliff(_ units: [(String, String)], locale: String = "de-DE", body extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="catalog.yaml" source-language="en-US" target-language="\(locale)" datatype="plaintext"><body>
        \(units.map { "    <trans-unit id=\"\($0.0)\"><source>x</source><target state=\"translated\">\($0.1)</target></trans-unit>" }.joined(separator: "\n"))\(extra)
          </body></file>
        </xliff>

        """
    }

    /// The fixture trace of `asc pull` (or `plan`) with `edit` applied to its lines.
    static func trace(_ name: String = AscTraceTests.pullTrace, _ edit: (inout [String]) -> Void) throws -> String {
        var lines = try String(contentsOfFile: name, encoding: .utf8).split(separator: "\n").map(String.init)
        edit(&lines)
        return lines.joined(separator: "\n") + "\n"
    }

    static func pull(_ dir: TemporaryDirectory, trace: String) throws -> ProcessResult {
        try iapkit(["asc", "pull", "--bundle-id", AscTraceTests.bundleID, "-o", dir.file("pulled/catalog.yaml"), "--replay", trace],
                   environment: AscTraceTests.noCredentials)
    }

    static func plan(_ catalog: String, trace: String) throws -> ProcessResult {
        try iapkit(["asc", "plan", catalog, "--replay", trace], environment: AscTraceTests.noCredentials)
    }
}

/// Case 1: a replayed answer with a status App Store Connect cannot send is a located error, never a crash.
@Suite struct ReplayStatusTests {
    @Test(arguments: ["-1", "1000", "99", "600", "\"200\"", "200.5", "1e300"])
    func statusOutsideHTTPIsALocatedErrorNotACrash(status: String) throws {
        let (dir, catalog) = try NewFormats.project()
        let trace = dir.write("bad.jsonl", try NewFormats.trace { lines in
            lines[0] = lines[0].replacingOccurrences(of: "\"status\":200", with: "\"status\":\(status)")
        })
        let before = NewFormats.contents(dir)
        for result in [try NewFormats.plan(catalog, trace: trace), try NewFormats.pull(dir, trace: trace)] {
            #expect(result.status == 2, "\(status): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(trace):1: status "), "\(result.stderr)")
            #expect(result.stderr.contains("is not an HTTP status App Store Connect answers with (100 to 599)"), "\(result.stderr)")
        }
        #expect(NewFormats.contents(dir) == before)
    }

    @Test func aHARStatusOutsideHTTPIsAnErrorNamingTheEntry() throws {
        let (dir, catalog) = try NewFormats.project()
        let har = dir.file("pull.har")
        let recorded = try iapkit(["asc", "pull", "--bundle-id", AscTraceTests.bundleID, "-o", dir.file("again/catalog.yaml"),
                                   "--replay", AscTraceTests.pullTrace, "--trace", har, "--trace-format", "har"],
                                  environment: AscTraceTests.noCredentials)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let text = try String(contentsOfFile: har, encoding: .utf8)
        let edited = dir.write("bad.har", text.replacingOccurrences(of: "\"status\":200", with: "\"status\":1000"))
        let result = try NewFormats.plan(catalog, trace: edited)
        #expect(result.status == 2 && result.stderr.contains("\(edited): entry 1: status 1000 is not an HTTP status"), "\(result.stderr)")
    }
}

/// Case 5: what a replayed answer or a catalog value makes fail says where it stands.
@Suite struct LocatedMessageTests {
    @Test func replayedErrorAnswersNameTheTraceAndLine() throws {
        let (dir, catalog) = try NewFormats.project()
        let conflict = dir.write("conflict.jsonl", try NewFormats.trace(AscTraceTests.planTrace) { lines in
            lines[1] = lines[1].replacingOccurrences(of: "\"status\":200", with: "\"status\":409")
        })
        let untyped = dir.write("untyped.jsonl", try NewFormats.trace(AscTraceTests.planTrace) { lines in
            lines[0] = lines[0].replacingOccurrences(of: ",\"type\":\"apps\"", with: "")
        })
        let before = NewFormats.contents(dir)
        let first = try NewFormats.plan(catalog, trace: conflict)
        #expect(first.status == 2 && first.stderr.contains("\(conflict):2: App Store Connect answered 409 Conflict"), "\(first.stderr)")
        let second = try NewFormats.plan(catalog, trace: untyped)
        #expect(second.status == 2 && second.stderr.contains("\(untyped):1: unexpected answer to") && second.stderr.contains("missing type at data.0"),
                "\(second.stderr)")
        #expect(NewFormats.contents(dir) == before)
    }
}
