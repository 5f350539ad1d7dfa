import Foundation
import TestSupport
import Testing

/// `iapkit localizations export | import`: the translators' round trip, checked with Python's XML and CSV readers.
@Suite(.showsFakeLog)
struct LocalizationsTests {
    /// A copy of the example project (catalog, content, screenshots), so lint and push see the whole of it.
    static func project() throws -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory()
        for item in ["catalog.yaml", "content", "review"] {
            try FileManager.default.copyItem(atPath: Paths.examples + "/" + item, toPath: dir.file(item))
        }
        return (dir, dir.file("catalog.yaml"))
    }

    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    @Test func xliffIsReadByPythonWithLimitsContextAndStates() throws {
        let (dir, catalog) = try Self.project()
        let result = try iapkit(
            "localizations", "export", catalog, "--format", "xliff", "--locale", "fr-FR", "--locale", "ja",
            "-o", dir.file("out"))
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(
            """
            import sys, xml.etree.ElementTree as ET
            ns = {'x': 'urn:oasis:names:tc:xliff:document:1.2'}
            for locale in ('fr-FR', 'ja'):
                root = ET.parse(sys.argv[1] + '/' + locale + '.xliff').getroot()
                assert root.tag == '{urn:oasis:names:tc:xliff:document:1.2}xliff' and root.get('version') == '1.2'
                f = root.find('x:file', ns)
                assert f.get('source-language') == 'en-US' and f.get('target-language') == locale, f.attrib
                units = {u.get('id'): u for u in f.iterfind('x:body/x:trans-unit', ns)}
                banana = units['com.example.fruitstand.banana/name']
                assert banana.get('maxwidth') == '35' and banana.get('size-unit') == 'char'
                assert banana.find('x:source', ns).text == 'Banana Pack'
                target = banana.find('x:target', ns)
                print(locale, target.get('state'), target.text, len(units))
                print(units['com.example.fruitstand.banana/description'].get('maxwidth'),
                      units['subscriptionGroup/Fruit Club/customAppName'].get('maxwidth'),
                      units['subscriptionGroup/Fruit Club/name'].get('maxwidth'))
                note = banana.find('x:note', ns).text
                assert 'Banana Pack (non-consumable, USD 0.99)' in note and 'Review note: Open Store, tap Banana Pack' in note, note
            """, [dir.file("out")])
        #expect(out == "fr-FR translated Pack Banane 14\n55 30 75\nja new None 14\n55 30 75\n")
    }

    @Test func csvIsReadByPythonWithOneColumnPerLocale() throws {
        let (dir, catalog) = try Self.project()
        let result = try iapkit(
            "localizations", "export", catalog, "--format", "csv", "--locale", "fr-FR", "--locale", "de-DE",
            "-o", dir.file("texts.csv"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.bytes(dir.file("texts.csv")).starts(with: [0xEF, 0xBB, 0xBF]), "a byte-order mark, for spreadsheet programs")
        let out = try python(
            """
            import csv, sys
            with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:
                rows = list(csv.reader(f, strict=True))
            print(rows[0])
            byid = {r[0]: r for r in rows[1:]}
            print(len(rows) - 1, byid['com.example.fruitstand.banana/description'][1:2] + byid['com.example.fruitstand.banana/description'][3:])
            assert all(len(r) == len(rows[0]) for r in rows)
            """, [dir.file("texts.csv")])
        #expect(
            out == "['id', 'limit', 'context', 'en-US', 'fr-FR', 'de-DE']\n"
                + "14 ['55', 'A ripe banana photo pack.', 'Des photos de bananes bien mûres.', '']\n")
    }

    @Test func anUnchangedExportImportsBackWithoutChangingAByte() throws {
        let (dir, catalog) = try Self.project()
        let before = Self.bytes(catalog)
        #expect(try iapkit("localizations", "export", catalog, "--format", "xliff", "-o", dir.file("out")).status == 0)
        #expect(try iapkit("localizations", "export", catalog, "--format", "csv", "-o", dir.file("texts.csv")).status == 0)
        for file in [dir.file("out/fr-FR.xliff"), dir.file("texts.csv")] {
            let result = try iapkit("localizations", "import", file, catalog)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("nothing changed"), "\(result.stderr)")
            #expect(result.stdout.contains("translation-untranslated"), "the units with no French yet are reported")
            #expect(Self.bytes(catalog) == before)
        }
    }

    @Test func anXLIFFFilledInByAnotherProgramImportsLintsCleanAndIsPushed() throws {
        let (dir, catalog) = try Self.project()
        #expect(try iapkit("localizations", "export", catalog, "--format", "xliff", "--locale", "ja", "-o", dir.file("ja.xliff")).status == 0)
        // Another program fills in every target, as a translation platform would.
        _ = try python(
            """
            import sys, xml.etree.ElementTree as ET
            ns = 'urn:oasis:names:tc:xliff:document:1.2'
            ET.register_namespace('', ns)
            tree = ET.parse(sys.argv[1])
            for unit in tree.iter('{%s}trans-unit' % ns):
                target = unit.find('{%s}target' % ns)
                target.text = '訳' + unit.find('{%s}source' % ns).text[:20].strip()
                target.set('state', 'translated')
            tree.write(sys.argv[1], encoding='UTF-8', xml_declaration=True)
            """, [dir.file("ja.xliff")])
        let imported = try iapkit("localizations", "import", dir.file("ja.xliff"), catalog)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stderr.contains("16 texts updated") || imported.stderr.contains("localizations added"), "\(imported.stderr)")
        let text = String(decoding: Self.bytes(catalog), as: UTF8.self)
        #expect(text.contains("# India and Brazil price the club themselves"), "comments stay")
        #expect(text.contains("      - locale: ja\n        name: 訳Banana Pack\n        description: 訳A ripe banana photo\n"), "\(text)")
        let loaded = try python(
            """
            import sys, yaml
            c = yaml.safe_load(open(sys.argv[1]))
            names = [l['name'] for p in c['products'] for l in p['localizations'] if l['locale'] == 'ja']
            group = [l for l in c['subscriptionGroups'][0]['localizations'] if l['locale'] == 'ja'][0]
            print(len(names), group)
            """, [catalog])
        #expect(loaded == "4 {'locale': 'ja', 'name': '訳Fruit Club', 'customAppName': '訳Fruit Stand'}\n")
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.hasPrefix("0 errors, 0 warnings"), "\(lint.stdout)")

        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: "com.example.fruitstand")
        let push = try iapkit(["asc", "push", catalog, "--yes"], environment: fake.environment)
        #expect(push.status == 0, "\(push.stderr)")
        var japanese: [String] = []
        for type in ["inAppPurchaseLocalizations", "subscriptionLocalizations", "subscriptionGroupLocalizations"] {
            for resource in try AscSyncTests.resources(fake, type) {
                let attributes = resource["attributes"] as? [String: Any] ?? [:]
                if attributes["locale"] as? String == "ja", let name = attributes["name"] as? String { japanese.append(name) }
            }
        }
        #expect(
            japanese.sorted()
                == [
                    "訳10 Fruit Tokens", "訳Banana Pack", "訳Fruit Club Monthly", "訳Fruit Club Yearly",
                    "訳Fruit Club", "訳Kiwi Levels", "訳Summer Season Pass",
                ].sorted(), "\(japanese)")
    }

    @Test func findingsPointIntoTheTranslationFileAndNothingIsWritten() throws {
        let (dir, catalog) = try Self.project()
        let before = Self.bytes(catalog)
        let long = String(repeating: "あ", count: 36)
        let xliff = dir.write(
            "fr.xliff",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="catalog.yaml" source-language="en-US" target-language="ja" datatype="plaintext">
                <body>
                  <trans-unit id="com.example.fruitstand.banana/name" maxwidth="35" size-unit="char">
                    <source>Banana Pack</source>
                    <target state="translated">\(long)</target>
                  </trans-unit>
                  <trans-unit id="com.example.fruitstand.mango/name">
                    <source>Mango</source>
                    <target state="translated">マンゴー</target>
                  </trans-unit>
                  <trans-unit id="com.example.fruitstand.kiwi/title">
                    <source>Kiwi</source>
                    <target state="translated">キウイ</target>
                  </trans-unit>
                  <trans-unit id="com.example.fruitstand.kiwi/name">
                    <source>Kiwi Levels</source>
                    <target state="new">Kiwi Levels</target>
                  </trans-unit>
                </body>
              </file>
              <file original="catalog.yaml" source-language="en-US" target-language="fr_FR" datatype="plaintext">
                <body/>
              </file>
            </xliff>

            """)
        let result = try iapkit("localizations", "import", xliff, catalog)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(xliff):7:9: error: the ja text of `com.example.fruitstand.banana/name` has 36 characters; App Store Connect allows at most 35")
            }, "\(result.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("\(xliff):11:9: error: the catalog has no product `com.example.fruitstand.mango`") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("\(xliff):15:9: error: `com.example.fruitstand.kiwi` has no text `title`") }, "\(result.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("\(xliff):19:9: warning: `com.example.fruitstand.kiwi/name` is not translated into ja yet") },
            "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("\(xliff):23:3: error: `fr_FR` is not an App Store Connect locale; use `fr-FR`") }, "\(result.stdout)")
        #expect(result.stderr.contains("left unchanged"), "\(result.stderr)")
        #expect(Self.bytes(catalog) == before)
    }

    /// An XLIFF fills German; a sheet made before it, German column still empty, then fills French: only the one
    /// French text the sheet leaves empty is reported, never the German ones the catalog now has.
    @Test func theUntranslatedWarningCountsOnlyTextsTheCatalogStillLacks() throws {
        let (dir, catalog) = try Self.project()
        let sheet = try iapkit(
            "localizations", "export", catalog, "--format", "csv", "--locale", "de-DE", "--locale", "fr-FR",
            "-o", dir.file("sheet.csv"))
        #expect(sheet.status == 0, "\(sheet.stderr)")
        let xliff = try iapkit("localizations", "export", catalog, "--format", "xliff", "--locale", "de-DE", "-o", dir.file("xliff"))
        #expect(xliff.status == 0, "\(xliff.stderr)")
        let units = try python(
            """
            import sys, glob, csv, xml.etree.ElementTree as ET
            ns = 'urn:oasis:names:tc:xliff:document:1.2'
            ET.register_namespace('', ns)
            path = glob.glob(sys.argv[1] + '/*.xliff')[0]
            tree = ET.parse(path)
            units = list(tree.getroot().iter('{%s}trans-unit' % ns))
            for unit in units:
                target = unit.find('{%s}target' % ns)
                target.text, target.attrib['state'] = unit.find('{%s}source' % ns).text, 'translated'
            tree.write(path, encoding='utf-8', xml_declaration=True)
            sheet = sys.argv[2]
            rows = list(csv.reader(open(sheet, newline='', encoding='utf-8-sig')))
            source, de, fr = rows[0].index('en-US'), rows[0].index('de-DE'), rows[0].index('fr-FR')
            # The first text the catalog has no French for stays empty; every other empty French cell is filled.
            missing = next(row for row in rows[1:] if row[fr] == '')
            for row in rows[1:]:
                row[de] = ''
                if row[fr] == '' and row is not missing: row[fr] = row[source]
            csv.writer(open(sheet, 'w', newline='', encoding='utf-8')).writerows(rows)
            print(len(units), len(rows) - 1, missing[0])
            """, [dir.file("xliff"), dir.file("sheet.csv")]
        ).split(separator: " ")
        let xliffFile = try dir.file("xliff/" + #require(FileManager.default.contentsOfDirectory(atPath: dir.file("xliff")).first))
        let filled = try iapkit("localizations", "import", xliffFile, catalog)
        #expect(filled.status == 0, "\(filled.stdout)\(filled.stderr)")
        let result = try iapkit("localizations", "import", dir.file("sheet.csv"), catalog)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let warnings = result.stdout.split(separator: "\n").filter { $0.contains("is not translated into") }
        #expect(units.count == 3 && warnings.count == 1, "\(units) \(result.stdout)")
        #expect(
            warnings.first?.contains("`\(units[2].trimmingCharacters(in: .whitespacesAndNewlines))` is not translated into fr-FR yet") == true,
            "\(warnings)")
    }

    @Test func csvFindingsHaveTheCellsLineAndColumn() throws {
        let (dir, catalog) = try Self.project()
        let before = Self.bytes(catalog)
        let sheet = dir.write(
            "texts.csv",
            "id,limit,context,en-US,de-DE\r\n"
                + "com.example.fruitstand.banana/name,35,\"Banana, a pack\",Banana Pack,\(String(repeating: "ü", count: 40))\r\n")
        let result = try iapkit("localizations", "import", sheet, catalog, "--format", "json")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let findings = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let first = (findings?["findings"] as? [[String: Any]])?.first
        #expect(first?["rule"] as? String == "translation-length", "\(result.stdout)")
        #expect(first?["line"] as? Int == 2 && first?["column"] as? Int == 68, "\(result.stdout)")
        #expect(Self.bytes(catalog) == before)

        // SARIF lists the import's rules beside lint's, and each result points at its rule.
        let report = dir.file("import.sarif")
        #expect(try iapkit("localizations", "import", sheet, catalog, "--format", "sarif", "-o", report).status == 1)
        let checked = try python(
            """
            import json, sys
            run = json.load(open(sys.argv[1]))["runs"][0]
            rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
            result = run["results"][0]
            assert rules[result["ruleIndex"]] == result["ruleId"] == "translation-length", (result, rules[-5:])
            print("ok")
            """, [report])
        #expect(checked.contains("ok"))
    }

    /// The edit keeps each list and mapping in its own style: block or flow, comments and quoting as they were.
    @Test func importEditsBlockAndFlowStylesInPlace() throws {
        let dir = TemporaryDirectory()
        let original = """
            schemaVersion: 1
            app: {bundleId: com.example.app, primaryLocale: en-US}
            products:
              - productId: com.example.app.one
                referenceName: One
                type: consumable
                price: 0.99
                localizations:
                  - locale: en-US
                    name: "One"   # the name
                    description: The first.
                  - locale: de-DE
                    name: Eins
            subscriptionGroups:
              - referenceName: Club
                localizations: [{locale: en-US, name: Club, customAppName: App}]
                subscriptions: []

            """
        let catalog = dir.write("catalog.yaml", original)
        let sheet = dir.write(
            "texts.csv",
            "id,limit,context,en-US,de-DE,fr-FR\n"
                + "com.example.app.one/name,35,,One,Eins!,Un\n"
                + "com.example.app.one/description,55,,The first.,Das erste: ja,Le premier.\n"
                + "subscriptionGroup/Club/name,75,,Club,Klub,\"Le \"\"Club\"\", premier\"\n"
                + "subscriptionGroup/Club/customAppName,30,,App,,\n")
        let result = try iapkit("localizations", "import", sheet, catalog)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // Only the new texts differ: everything else is the file as it was.
        let expected =
            original
            .replacingOccurrences(
                of: "        name: Eins\n",
                with: "        name: Eins!\n        description: \"Das erste: ja\"\n"
                    + "      - locale: fr-FR\n        name: Un\n        description: Le premier.\n"
            )
            .replacingOccurrences(
                of: "customAppName: App}]",
                with: "customAppName: App}, {locale: de-DE, name: Klub}, "
                    + "{locale: fr-FR, name: \"Le \\\"Club\\\", premier\"}]")
        #expect(expected != original)
        #expect(String(decoding: Self.bytes(catalog), as: UTF8.self) == expected)
    }
}
