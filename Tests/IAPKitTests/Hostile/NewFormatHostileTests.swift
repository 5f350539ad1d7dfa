import Foundation
import TestSupport
import Testing

/// The formats added after the first hardening pass (XLIFF and CSV translations, lint baselines, `--replay` traces,
/// the newest catalog keys), given the inputs a mutation run found to crash, hang, or leave files behind.
enum NewFormats {
    /// Replaces `old` with `new` in the catalog file, returning the text it had.
    @discardableResult
    static func edit(_ catalog: String, replacing old: String, with new: String) throws -> String {
        let text = String(decoding: LocalizationsTests.bytes(catalog), as: UTF8.self)
        try text.replacingOccurrences(of: old, with: new).write(toFile: catalog, atomically: true, encoding: .utf8)
        return text
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
        try iapkit(
            ["asc", "pull", "--bundle-id", AscTraceTests.bundleID, "-o", dir.file("pulled/catalog.yaml"), "--replay", trace],
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
        let (dir, catalog) = try LocalizationsTests.project()
        let trace = dir.write(
            "bad.jsonl",
            try NewFormats.trace { lines in
                lines[0] = lines[0].replacingOccurrences(of: "\"status\":200", with: "\"status\":\(status)")
            })
        let before = dir.contents()
        for result in [try NewFormats.plan(catalog, trace: trace), try NewFormats.pull(dir, trace: trace)] {
            #expect(result.status == 2, "\(status): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(trace):1: status "), "\(result.stderr)")
            #expect(result.stderr.contains("is not an HTTP status App Store Connect answers with (100 to 599)"), "\(result.stderr)")
        }
        #expect(dir.contents() == before)
    }

    @Test func aHARStatusOutsideHTTPIsAnErrorNamingTheEntry() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let har = dir.file("pull.har")
        let recorded = try iapkit(
            [
                "asc", "pull", "--bundle-id", AscTraceTests.bundleID, "-o", dir.file("again/catalog.yaml"),
                "--replay", AscTraceTests.pullTrace, "--trace", har, "--trace-format", "har",
            ],
            environment: AscTraceTests.noCredentials)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let text = try String(contentsOfFile: har, encoding: .utf8)
        let edited = dir.write("bad.har", text.replacingOccurrences(of: "\"status\":200", with: "\"status\":1000"))
        let result = try NewFormats.plan(catalog, trace: edited)
        #expect(result.status == 2 && result.stderr.contains("\(edited): entry 1: status 1000 is not an HTTP status"), "\(result.stderr)")
    }
}

/// Case 2: XML built to take libxml2 minutes is refused, with its line and column, in well under a second.
@Suite struct XMLLimitTests {
    static func floodedXLIFF(attributes: Int) -> String {
        let flood = (0..<attributes).map { "attr\($0)=\"\"" }.joined(separator: " ")
        return NewFormats.xliff([("com.example.fruitstand.kiwi/name", "Kiwi")]).replacingOccurrences(
            of: "<file original", with: "<file \(flood) original")
    }

    @Test(arguments: [100_000, 200_000])
    func attributeFloodIsRefusedInWellUnderASecond(attributes: Int) throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let file = dir.write("de.xliff", Self.floodedXLIFF(attributes: attributes))
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0) > 1_000_000)
        let before = dir.contents()
        let run = try measuredIapkit(["localizations", "import", file, catalog])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.seconds < 1, "took \(run.seconds) s")
        let report = try iapkit("localizations", "import", file, catalog)
        #expect(
            report.stdout.contains(
                "\(file):3:3: error: de.xliff has an element with more than 256 attributes; iapkit reads at most "
                    + "256 on one element [translation-file]"), "\(report.stdout)")
        #expect(dir.contents() == before)
    }

    @Test func depthTextSizeAndInternalSubsetsAreRefusedWithTheirPlace() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let deep = NewFormats.xliff([], body: "\n" + String(repeating: "<group>", count: 150) + String(repeating: "</group>", count: 150))
        let long = NewFormats.xliff([("com.example.fruitstand.kiwi/name", String(repeating: "k", count: 2 << 20))])
        let subset = NewFormats.xliff([("com.example.fruitstand.kiwi/name", "Kiwi")])
            .replacingOccurrences(of: "<xliff ", with: "<!DOCTYPE xliff [ <!ATTLIST xliff x CDATA \"y\"> ]>\n<xliff ")
        for (name, xml, expected) in [
            ("deep.xliff", deep, ":5:680: error: deep.xliff nests elements more than 100 deep"),
            ("long.xliff", long, ":4:100: error: long.xliff has a text or attribute value over 1048576 bytes"),
            ("subset.xliff", subset, ":2:17: error: subset.xliff has an internal DTD subset"),
        ] {
            let file = dir.write(name, xml)
            let before = dir.contents()
            let started = Date()
            let result = try iapkit("localizations", "import", file, catalog)
            #expect(Date().timeIntervalSince(started) < 5)
            #expect(result.status == 1, "\(name): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(file + expected), "\(name): \(result.stdout)")
            #expect(dir.contents() == before)
        }
    }

    /// Property lists are read through the same reader, with the same limits.
    @Test func aPropertyListWithAnAttributeFloodIsAFindingToo() throws {
        let dir = TemporaryDirectory()
        let plist = contentInfo(id: "com.example.app.one")
            .replacingOccurrences(
                of: "<plist version=\"1.0\">", with: "<plist version=\"1.0\" " + (0..<5000).map { "a\($0)='1'" }.joined(separator: " ") + ">")
        let folder = contentFolder(dir, plist: plist)
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.status == 1 && lint.stdout.contains("more than 256 attributes") && lint.stdout.contains("[content-info]"), "\(lint.stdout)")
    }
}

/// Case 3: a run that fails leaves every file as it was; `--write-baseline` comes last.
@Suite struct FailingRunTests {
    static let translated = NewFormats.xliff([("com.example.fruitstand.kiwi/name", "Kiwi-Stufen")])

    @Test(arguments: ["missing.json", "broken.json", "wrong.json", "negative.json"])
    func importWithABadBaselineWritesNothing(baseline: String) throws {
        let (dir, catalog) = try LocalizationsTests.project()
        dir.write("broken.json", "{\"version\": 1, \"findings\": [")
        dir.write("wrong.json", "{\"findings\": []}")
        dir.write(
            "negative.json",
            "{\"version\": 1, \"findings\": [{\"rule\": \"r\", \"file\": \"f\", \"message\": \"m\", \"count\": -9223372036854775807}]}")
        let file = dir.write("de.xliff", Self.translated)
        let before = dir.contents()
        let result = try iapkit("localizations", "import", file, catalog, "--baseline", dir.file(baseline))
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(dir.file(baseline)), "\(result.stderr)")
        #expect(dir.contents() == before)
        // The same import with no baseline writes: the refusal above was the baseline's.
        #expect(try iapkit("localizations", "import", file, catalog).status == 0)
        #expect(dir.contents() != before)
    }

    @Test func lintWithABadBaselineWritesNoNewBaseline() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let bad = dir.write("bad.json", "[1, 2")
        let before = dir.contents()
        let result = try iapkit("lint", "catalog", catalog, "--baseline", bad, "--write-baseline", dir.file("new.json"))
        #expect(result.status == 2 && result.stderr.contains("\(bad): is not a baseline"), "\(result.stderr)")
        #expect(dir.contents() == before)
        // Written once every input read, even when the findings it records fail the run.
        let good = try iapkit("lint", "catalog", catalog, "--strict", "--write-baseline", dir.file("new.json"))
        #expect(good.stderr.contains("wrote \(dir.file("new.json"))"), "\(good.stderr)")
    }

    @Test func strictImportFailingOnWarningsWritesNothing() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        // One text translated, one left empty: a warning.
        let file = dir.write(
            "de.xliff",
            Self.translated.replacingOccurrences(
                of: "</trans-unit>",
                with: "</trans-unit>\n    <trans-unit id=\"com.example.fruitstand.banana/name\"><source>x</source><target/></trans-unit>"))
        let before = dir.contents()
        let strict = try iapkit("localizations", "import", file, catalog, "--strict")
        #expect(strict.status == 1 && strict.stdout.contains("[translation-untranslated]"), "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stderr.contains("was left unchanged: --strict fails on the warnings above"), "\(strict.stderr)")
        #expect(dir.contents() == before)
        let lenient = try iapkit("localizations", "import", file, catalog)
        #expect(lenient.status == 0, "\(lenient.stdout)\(lenient.stderr)")
        #expect(String(decoding: LocalizationsTests.bytes(catalog), as: UTF8.self).contains("name: Kiwi-Stufen"))
    }
}

/// Case 4: the same unit translated twice into one locale is a located finding, never a silent last-one-wins.
@Suite struct DuplicateTranslationTests {
    static let id = "com.example.fruitstand.kiwi/name"

    @Test func twiceInOneXLIFFTwoCSVRowsOrTwoFilesIsAFinding() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let one = dir.write("one.xliff", NewFormats.xliff([(Self.id, "Kiwi A"), (Self.id, "Kiwi B")]))
        let rows = dir.write("rows.csv", "id,limit,context,en-US,de-DE\r\n\(Self.id),35,,Kiwi Levels,Kiwi A\r\n\(Self.id),35,,Kiwi Levels,Kiwi B\r\n")
        let first = dir.write("first.xliff", NewFormats.xliff([(Self.id, "Kiwi A")]))
        let second = dir.write("second.csv", "id,limit,context,en-US,de-DE\r\n\(Self.id),35,,Kiwi Levels,Kiwi B\r\n")
        let before = dir.contents()
        for (files, location, earlier) in [
            ([one], "\(one):5:", "\(one):4:"), ([rows], "\(rows):3:", "\(rows):2:"),
            ([first, second], "\(second):2:", "\(first):4:"),
        ] {
            let result = try iapkit(["localizations", "import"] + files + [catalog])
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            let line = result.stdout.split(separator: "\n").first { $0.contains("[translation-duplicate]") } ?? ""
            #expect(
                line.hasPrefix(location) && line.contains("error: `\(Self.id)` is translated into de-DE a second time, differently from \(earlier)"),
                "\(result.stdout)")
            #expect(dir.contents() == before)
        }
        // The same text twice is a warning, and the import goes ahead once.
        let same = dir.write("same.xliff", NewFormats.xliff([(Self.id, "Kiwi A"), (Self.id, "Kiwi A")]))
        for _ in 0..<2 {
            let result = try iapkit("localizations", "import", same, catalog)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(
                result.stdout.contains("\(same):5:") && result.stdout.contains("warning: `\(Self.id)` is translated into de-DE again"),
                "\(result.stdout)")
        }
        #expect(String(decoding: LocalizationsTests.bytes(catalog), as: UTF8.self).contains("name: Kiwi A"))
    }
}

/// Case 5: what a replayed answer or a catalog value makes fail says where it stands.
@Suite struct LocatedMessageTests {
    @Test func replayedErrorAnswersNameTheTraceAndLine() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let conflict = dir.write(
            "conflict.jsonl",
            try NewFormats.trace(AscTraceTests.planTrace) { lines in
                lines[1] = lines[1].replacingOccurrences(of: "\"status\":200", with: "\"status\":409")
            })
        let untyped = dir.write(
            "untyped.jsonl",
            try NewFormats.trace(AscTraceTests.planTrace) { lines in
                lines[0] = lines[0].replacingOccurrences(of: ",\"type\":\"apps\"", with: "")
            })
        let before = dir.contents()
        let first = try NewFormats.plan(catalog, trace: conflict)
        #expect(first.status == 2 && first.stderr.contains("\(conflict):2: App Store Connect answered 409 Conflict"), "\(first.stderr)")
        let second = try NewFormats.plan(catalog, trace: untyped)
        #expect(
            second.status == 2 && second.stderr.contains("\(untyped):1: unexpected answer to") && second.stderr.contains("missing type at data.0"),
            "\(second.stderr)")
        #expect(dir.contents() == before)
    }

    @Test func aNULInAGroupNameIsALintFindingAndExportRefusesItWithItsPlace() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let text = try NewFormats.edit(catalog, replacing: "        name: Fruit Club\n", with: "        name: \"Fruit\\0Club\"\n")
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains("\(catalog):65:15: error: `subscriptionGroups[0].localizations[0].name` holds the control character U+0000"),
            "\(lint.stdout)")
        let before = dir.contents()
        let export = try iapkit("localizations", "export", catalog, "--format", "xliff", "--locale", "de-DE", "-o", dir.file("out"))
        #expect(export.status == 1, "\(export.stderr)")
        #expect(export.stderr.contains("\(catalog):65:15: error:") && export.stderr.contains("[control-character]"), "\(export.stderr)")
        #expect(dir.contents() == before)
        // A CSV can carry the character into an import: refused there too, in the sheet.
        let clean = dir.write("clean.yaml", text)
        let sheet = dir.write("texts.csv", "id,limit,context,en-US,de-DE\r\nsubscriptionGroup/Fruit Club/name,75,,Fruit Club,\"Obst\u{1}Klub\"\r\n")
        let imported = try iapkit("localizations", "import", sheet, clean)
        #expect(
            imported.status == 1 && imported.stdout.contains("\(sheet):2:") && imported.stdout.contains("control character U+0001")
                && imported.stdout.contains("[control-character]"), "\(imported.stdout)")
    }

    @Test func anEmptyBundleIDIsALintFindingAndAscSaysWhere() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        try NewFormats.edit(catalog, replacing: "bundleId: com.example.fruitstand", with: "bundleId: \"\"")
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(
            lint.status == 1 && lint.stdout.contains("\(catalog):5:13: error: `app.bundleId` is empty") && lint.stdout.contains("[bundle-id]"),
            "\(lint.stdout)")
        let plan = try NewFormats.plan(catalog, trace: AscTraceTests.planTrace)
        #expect(plan.status == 2 && plan.stderr.contains("\(catalog):5:13: `app.bundleId` is empty"), "\(plan.stderr)")
        _ = dir
    }
}

/// Case 6: the smaller ones.
@Suite struct SmallerHostileCaseTests {
    @Test func aJSONCatalogStaysJSONAfterAnImport() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.write(
            "catalog.json",
            """
            {
              "schemaVersion": 1,
              "app": {"bundleId": "com.example.app", "primaryLocale": "en-US"},
              "products": [
                {"productId": "com.example.app.one", "referenceName": "One", "type": "consumable", "price": 0.99,
                 "localizations": [{"locale": "en-US", "name": "One", "description": "The first: one."},
                                   {"locale": "de-DE", "name": "Eins"}]}
              ]
            }

            """)
        let sheet = dir.write(
            "texts.csv",
            "id,limit,context,en-US,de-DE,fr-FR\r\n"
                + "com.example.app.one/name,35,,One,\"Eins, \"\"neu\"\"\",Un\r\n"
                + "com.example.app.one/description,55,,The first: one.,Das erste: eins.,Le premier: un.\r\n")
        let result = try iapkit("localizations", "import", sheet, catalog)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let out = try python(
            """
            import json, sys
            c = json.load(open(sys.argv[1]))
            print(json.dumps(c["products"][0]["localizations"], ensure_ascii=False))
            """, [catalog])
        #expect(
            out == #"[{"locale": "en-US", "name": "One", "description": "The first: one."}, "#
                + #"{"locale": "de-DE", "name": "Eins, \"neu\"", "description": "Das erste: eins."}, "#
                + #"{"locale": "fr-FR", "name": "Un", "description": "Le premier: un."}]"# + "\n")
        #expect(try iapkit("lint", "catalog", catalog).stdout.contains("0 errors"))
    }

    @Test func aFailedPullLeavesNoScreenshotsBehind() throws {
        let dir = TemporaryDirectory()
        // Every read and the first image's download only: the pull fails at the second image.
        let trace = dir.write(
            "partial.jsonl",
            try NewFormats.trace { lines in
                let downloads = lines.indices.filter { lines[$0].contains(#""operation":"download""#) }
                for index in downloads.dropFirst().reversed() { lines.remove(at: index) }
            })
        let result = try NewFormats.pull(dir, trace: trace)
        #expect(result.status == 2 && result.stderr.contains("holds no answer to GET"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["partial.jsonl"])
        // The whole trace pulls the screenshots (six products, three images: a file each) and the catalog as one set.
        let whole = try NewFormats.pull(dir, trace: AscTraceTests.pullTrace)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("pulled/review")).count == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.file("pulled")).sorted() == [
                ".iapkit", "catalog.schema.json", "catalog.yaml", "review",
            ])
    }

    @Test func anUndeclaredEntityUnderAnExternalDoctypeIsAFinding() throws {
        let (dir, catalog) = try LocalizationsTests.project()
        let file = dir.write(
            "de.xliff",
            NewFormats.xliff([("com.example.fruitstand.kiwi/name", "Kiwi&nbsp;Stufen")])
                .replacingOccurrences(of: "<xliff ", with: "<!DOCTYPE xliff SYSTEM \"http://127.0.0.1:9/xliff.dtd\">\n<xliff "))
        let before = dir.contents()
        let result = try iapkit("localizations", "import", file, catalog)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(file):5: error: de.xliff uses the entity `&nbsp;`, which it does not declare"), "\(result.stdout)")
        #expect(dir.contents() == before)
    }
}
