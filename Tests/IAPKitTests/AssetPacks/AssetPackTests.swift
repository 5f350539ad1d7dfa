import Foundation
import TestSupport
import Testing

/// Asset packs offline: lint, `package --asset-packs` with the stand-in packaging tool, `new-content --asset-pack`
/// and the migration of a hosted-content folder, and the pack map in `export json` and `export plist`.
@Suite struct AssetPackTests {
    @Test func theFixtureLintsClean() throws {
        let project = try AssetPackFixture.project()
        let result = try iapkit(["lint", "catalog", project.file("catalog.yaml"), "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let out = try python(
            """
            import json, sys
            report = json.load(open(sys.argv[1]))
            print(sorted({f['rule'] for f in report['findings']}))
            """, [project.write("report.json", result.stdout)])
        #expect(out == "[]\n")
    }

    @Test func packagingWritesManifestsAndArchivesAndSkipsWhatDidNotChange() throws {
        let project = try AssetPackFixture.project()
        let catalog = project.file("catalog.yaml"), output = project.file("build")
        let log = project.file("tool.log")
        let environment = AssetPackFixture.toolEnvironment(log: log)
        let first = try iapkit(["package", "--catalog", catalog, "--asset-packs", "--output", output], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        if AssetPackFixture.usingStandIn { #expect(AssetPackFixture.builds(log) == ["intro", "tutorial", "level1"]) }
        let built = AssetPackFixture.inodes(output)
        #expect(built.keys.sorted() == ["intro.aar", "level1.aar", "tutorial.aar"])
        // Each manifest holds exactly Apple's keys, as the catalog sets them; the lock and the run's manifest the digests.
        let out = try python(
            """
            import json, sys, os, hashlib
            out, lock = sys.argv[1], json.load(open(sys.argv[2]))
            intro = json.load(open(os.path.join(out, 'intro.json')))
            assert intro == {'assetPackID': 'intro', 'downloadPolicy': {'essential': {'installationEventTypes':
                ['firstInstallation', 'subsequentUpdate']}}, 'fileSelectors': [{'directory': '.'}], 'platforms': ['iOS']}, intro
            tutorial = json.load(open(os.path.join(out, 'tutorial.json')))
            assert tutorial['downloadPolicy'] == {'prefetch': {'installationEventTypes': ['firstInstallation']}}, tutorial
            assert tutorial['fileSelectors'] == [{'file': 'Tutorial/steps.json'}, {'file': 'Tutorial/notes.txt'}]
            level = json.load(open(os.path.join(out, 'level1.json')))
            assert level['downloadPolicy'] == {'onDemand': {}} and level['fileSelectors'] == [{'directory': 'Levels/1'}]
            run = json.load(open(os.path.join(out, 'iapkit-manifest.json')))
            assert [p['assetPackId'] for p in run['assetPacks']] == ['intro', 'tutorial', 'level1']
            for p in run['assetPacks']:
                data = open(os.path.join(out, p['fileName']), 'rb').read()
                assert hashlib.sha256(data).hexdigest() == p['sha256'] and len(data) == p['size']
                entry = lock['assetPacks'][p['assetPackId']]
                assert entry['sha256'] == p['sha256'] and entry['contentDigest'] == p['contentDigest']
                assert entry['archive'] == 'build/' + p['fileName'], entry
            print(sorted(f for f in os.listdir(out)))
            """, [output, project.file("iapkit.lock")])
        #expect(out == "['iapkit-manifest.json', 'intro.aar', 'intro.json', 'level1.aar', 'level1.json', 'tutorial.aar', 'tutorial.json']\n")

        // Nothing changed: nothing is rebuilt (the tool, which refuses to overwrite, is not even run).
        let second = try iapkit(["package", "--catalog", catalog, "--asset-packs", "--output", output], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.components(separatedBy: "not rebuilt").count == 4)
        #expect(AssetPackFixture.inodes(output) == built)
        if AssetPackFixture.usingStandIn { #expect(AssetPackFixture.builds(log).count == 3) }

        // One file changed: only its pack is rebuilt, under a fresh name renamed over the old archive.
        try Data("tiles, changed\n".utf8).write(to: URL(fileURLWithPath: project.file("packs/level1/Levels/1/tiles.bin")))
        let third = try iapkit(["package", "--catalog", catalog, "--asset-packs", "--output", output], environment: environment)
        #expect(third.status == 0, "\(third.stderr)")
        let rebuilt = AssetPackFixture.inodes(output)
        #expect(rebuilt["intro.aar"] == built["intro.aar"] && rebuilt["tutorial.aar"] == built["tutorial.aar"])
        #expect(rebuilt["level1.aar"] != built["level1.aar"])
        if AssetPackFixture.usingStandIn { #expect(AssetPackFixture.builds(log) == ["intro", "tutorial", "level1", "level1"]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).allSatisfy { !$0.contains(".iapkit-") })

        // The tool is given a temporary name that keeps the .aar extension (the stand-in refuses any other); one left
        // by a run that was killed is swept by the next run.
        _ = project.write("build/.level1.iapkit-999999-AbC123.aar", "left by a killed run")
        try Data("tiles, changed again\n".utf8).write(to: URL(fileURLWithPath: project.file("packs/level1/Levels/1/tiles.bin")))
        let fourth = try iapkit(["package", "--catalog", catalog, "--asset-packs", "--output", output], environment: environment)
        #expect(fourth.status == 0, "\(fourth.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).allSatisfy { !$0.contains(".iapkit-") })
    }

    /// A checkout under another umask (group-writable files and folders) is the same content: the packs' digests do
    /// not change, so nothing is rebuilt and nothing would be uploaded again.
    @Test func fileModesAreNotAPacksContent() throws {
        let project = try AssetPackFixture.project()
        let catalog = project.file("catalog.yaml"), output = project.file("build"), log = project.file("tool.log")
        let environment = AssetPackFixture.toolEnvironment(log: log)
        #expect(try iapkit(["package", "--catalog", catalog, "--asset-packs", "--output", output], environment: environment).status == 0)
        let lock = try String(contentsOfFile: project.file("iapkit.lock"), encoding: .utf8)
        _ = try run("/bin/chmod", ["-R", "g+w", project.file("packs")])
        let again = try iapkit(["package", "--catalog", catalog, "--asset-packs", "--output", output], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.components(separatedBy: "(unchanged, not rebuilt)").count == 4, "\(again.stdout)")
        #expect(try String(contentsOfFile: project.file("iapkit.lock"), encoding: .utf8) == lock)
        if AssetPackFixture.usingStandIn { #expect(AssetPackFixture.builds(log).count == 3) }
        #expect(try iapkit(["lint", catalog]).status == 0)
    }

    /// A catalog without asset packs has nothing to package: said, exit 0, nothing written (one release job serves
    /// every app).
    @Test func aCatalogWithoutPacksHasNothingToPackage() throws {
        let dir = TemporaryDirectory()
        _ = try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        let snapshot = dir.snapshot()
        let result = try iapkit(["package", "--catalog", dir.file("project/catalog.yaml"), "--asset-packs", "--output", dir.file("build")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("declares no assetPacks: nothing to package, nothing written"), "\(result.stderr)")
        #expect(dir.snapshot() == snapshot)
    }

    @Test func withoutThePackagingToolPackagingSaysWhereToGetIt() throws {
        let project = try AssetPackFixture.project()
        let result = try iapkit(
            ["package", "--catalog", project.file("catalog.yaml"), "--asset-packs", "--output", project.file("build")],
            environment: ["IAPKIT_BA_PACKAGE": "", "PATH": "/usr/bin:/bin"])
        #if os(Linux)
        let installed = ["/usr/bin/ba-package", "/bin/ba-package"].contains { FileManager.default.isExecutableFile(atPath: $0) }
        if !installed {
            #expect(result.status == 2)
            #expect(result.stderr.contains("Managed Background Assets Developer Tools for Linux"), "\(result.stderr)")
            #expect(result.stderr.contains("--ba-package"))
            #expect(!FileManager.default.fileExists(atPath: project.file("build/level1.aar")))
        }
        #endif
        let wrong = try iapkit([
            "package", "--catalog", project.file("catalog.yaml"), "--asset-packs", "--output", project.file("build"),
            "--ba-package", project.file("catalog.yaml"),
        ])
        #expect(wrong.status == 2 && wrong.stderr.contains("not an executable file"), "\(wrong.stderr)")
    }

    @Test func aCatalogWithPackErrorsIsNotPackaged() throws {
        let project = try AssetPackFixture.project()
        let catalog = project.file("catalog.yaml")
        var text = try String(contentsOfFile: catalog, encoding: .utf8)
        text = text.replacingOccurrences(of: "  - id: level1\n", with: "  - id: level_1\n")
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let result = try iapkit(
            ["package", "--catalog", catalog, "--asset-packs", "--output", project.file("build")],
            environment: AssetPackFixture.toolEnvironment(log: project.file("tool.log")))
        #expect(result.status == 1)
        #expect(result.stderr.contains("[asset-pack-id]"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.file("build")))
    }

    @Test func newContentCreatesAPackAndItsCatalogEntry() throws {
        let project = try AssetPackFixture.project()
        let catalog = project.file("catalog.yaml")
        let result = try iapkit([
            "new-content", "--asset-pack", "forest", "--output", project.file("packs"), "--catalog", catalog,
            "--unlocked-by", "com.example.packs.level1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.file("packs/forest")))
        let out = try python(
            """
            import sys, yaml
            packs = yaml.safe_load(open(sys.argv[1]))['assetPacks']
            print(packs[-1])
            """, [catalog])
        #expect(out == "{'id': 'forest', 'source': 'packs/forest', 'downloadPolicy': 'onDemand', 'unlockedBy': ['com.example.packs.level1']}\n")
        // The comments of the catalog stay; a second pack with the same ID is refused and changes nothing.
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        #expect(text.hasPrefix("# A catalog with three asset packs"))
        let again = try iapkit(["new-content", "--asset-pack", "forest", "--output", project.file("elsewhere"), "--catalog", catalog])
        #expect(again.status == 2 && again.stderr.contains("already"), "\(again.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == text)
        // Until it holds a file, lint says so; with one, the pack lints clean.
        let empty = try iapkit(["lint", "catalog", catalog])
        #expect(empty.status == 1 && empty.stdout.contains("holds no file yet"), "\(empty.stdout)")
        _ = project.write("packs/forest/Forest/map.json", "{}")
        let filled = try iapkit(["lint", "catalog", catalog])
        #expect(filled.status == 0, "\(filled.stdout)")
        let bad = try iapkit(["new-content", "--asset-pack", "forest.2", "--catalog", catalog])
        #expect(bad.status == 2 && bad.stderr.contains("ITMS-91133"), "\(bad.stderr)")
    }

    @Test func aHostedContentFolderBecomesAPackInPlaceAndLintsClean() throws {
        let dir = TemporaryDirectory()
        for item in ["catalog.yaml", "content", "review"] {
            try FileManager.default.copyItem(atPath: Paths.examples + "/" + item, toPath: dir.file(item))
        }
        let catalog = dir.file("catalog.yaml")
        let folder = dir.file("content/com.example.fruitstand.kiwi")
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
        let result = try iapkit(["new-content", "--from-hosted-content", folder, "--catalog", catalog])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("carried over"))
        #expect(result.stdout.contains("AssetPackManager"))
        #expect(result.stdout.contains("not carried over: ContentVersion"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder).sorted() == before, "the files stay in place")
        let out = try python(
            """
            import sys, yaml
            print(yaml.safe_load(open(sys.argv[1]))['assetPacks'])
            """, [catalog])
        #expect(
            out == "[{'id': 'kiwi', 'source': 'content/com.example.fruitstand.kiwi/Contents', 'downloadPolicy': 'onDemand', "
                + "'unlockedBy': ['com.example.fruitstand.kiwi']}]\n")
        let lint = try iapkit(["lint", "catalog", catalog, "--strict"])
        #expect(lint.status == 0, "\(lint.stdout)")
        let log = dir.file("tool.log")
        let built = try iapkit(
            ["package", "--catalog", catalog, "--asset-packs", "--output", dir.file("packs")],
            environment: AssetPackFixture.toolEnvironment(log: log))
        #expect(built.status == 0, "\(built.stderr)")
        #expect(AssetPackFixture.inodes(dir.file("packs")).keys.sorted() == ["kiwi.aar"])
    }

    @Test func exportAscListsThePackUploads() throws {
        let project = try AssetPackFixture.project()
        let catalog = project.file("catalog.yaml")
        let built = try iapkit(
            ["package", "--catalog", catalog, "--asset-packs", "--output", project.file("build")],
            environment: AssetPackFixture.toolEnvironment(log: project.file("tool.log")))
        #expect(built.status == 0, "\(built.stderr)")
        let result = try iapkit(["export", "asc", catalog, "--app-id", "1234567890", "-o", project.file("requests.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(
            """
            import json, sys
            lock = json.load(open(sys.argv[2]))
            files = [r['body']['data']['attributes'] for r in json.load(open(sys.argv[1]))
                     if r['method'] == 'POST' and r['path'] == '/v1/backgroundAssetUploadFiles']
            assert [f['assetType'] for f in files] == ['MANIFEST', 'ASSET'] * 3, files
            for f in files[1::2]:
                pack = f['fileName'].split('-')[0]
                assert f['fileName'] == '%s-%s.aar' % (pack, lock['assetPacks'][pack]['contentDigest'][7:])
                assert f['fileSize'] == lock['assetPacks'][pack]['size']
            print(len(files))
            """, [project.file("requests.json"), project.file("iapkit.lock")])
        #expect(out == "6\n")
    }

    @Test func exportsCarryThePackToProductMap() throws {
        let project = try AssetPackFixture.project()
        let catalog = project.file("catalog.yaml")
        let json = try iapkit(["export", "json", catalog, "-o", project.file("catalog.json")])
        #expect(json.status == 0, "\(json.stderr)")
        let plist = try iapkit(["export", "plist", "--asset-packs", catalog, "-o", project.file("AssetPacks.plist")])
        #expect(plist.status == 0, "\(plist.stderr)")
        let out = try python(
            """
            import json, plistlib, sys
            catalog = json.load(open(sys.argv[1]))
            print([(p['id'], p['downloadPolicy'], p['unlockedBy']) for p in catalog['assetPacks']])
            print(catalog['products'][0]['unlocksAssetPacks'])
            print(plistlib.load(open(sys.argv[2], 'rb'))['level1'])
            """, [project.file("catalog.json"), project.file("AssetPacks.plist")])
        #expect(
            out == """
                [('intro', 'essential', []), ('tutorial', 'prefetch', []), ('level1', 'onDemand', ['com.example.packs.level1'])]
                ['level1']
                {'DownloadPolicy': 'onDemand', 'UnlockedBy': ['com.example.packs.level1']}

                """)
    }
}
