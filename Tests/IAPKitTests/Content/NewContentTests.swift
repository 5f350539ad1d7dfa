import Foundation
import TestSupport
import Testing

@Suite struct NewContentTests {
    static let readInfo = """
        import plistlib, sys
        d = plistlib.load(open(sys.argv[1], 'rb'))
        print(list(d.items()))
        """

    @Test func createsTheFolderFromTheDefaultTemplate() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("new-content", "com.example.fruit.banana", "--output", dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        let folder = dir.file("com.example.fruit.banana")
        let keys = try python(Self.readInfo, [folder + "/ContentInfo.plist"])
        #expect(keys == "[('ContentVersion', '1.0'), ('IAPProductIdentifier', 'com.example.fruit.banana')]\n")
        let readme = try String(contentsOfFile: folder + "/Contents/README.txt", encoding: .utf8)
        #expect(readme.contains("Hosted content for com.example.fruit.banana."))
        // No version in it: the README ships with the content, and `bump` changes only ContentInfo.plist.
        #expect(!readme.contains("{{") && !readme.contains("1.0"))
        #expect(try iapkit("bump", folder).status == 0)
        #expect(try String(contentsOfFile: folder + "/Contents/README.txt", encoding: .utf8) == readme)
    }

    @Test func substitutesInTheLevelPackTemplate() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit(
            "new-content", "com.example.levels.one", "-o", dir.path, "--template", "level-pack",
            "--content-version", "2.3.1")
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = dir.file("com.example.levels.one/Contents/levels.json")
        let out = try python(
            """
            import json, plistlib, sys
            m = json.load(open(sys.argv[1]))
            assert m['productId'] == 'com.example.levels.one' and 'contentVersion' not in m, m
            level = json.load(open(sys.argv[1].replace('levels.json', 'levels/level-1.json')))
            assert level['pack'] == 'com.example.levels.one'
            info = plistlib.load(open(sys.argv[2], 'rb'))
            assert info == {'ContentVersion': '2.3.1', 'IAPProductIdentifier': 'com.example.levels.one'}, info
            print('ok')
            """, [manifest, dir.file("com.example.levels.one/ContentInfo.plist")])
        #expect(out == "ok\n")
    }

    /// No template states a version `bump` does not keep in step: after a bump, only ContentInfo.plist changed, and
    /// no file under Contents/ holds the version a folder was created with.
    @Test(arguments: ["default", "level-pack"])
    func bumpLeavesNoTemplateFileStale(template: String) throws {
        let dir = TemporaryDirectory()
        let created = try iapkit("new-content", "com.example.levels.two", "-o", dir.path, "--template", template, "--content-version", "7.3.9")
        #expect(created.status == 0, "\(created.stderr)")
        let folder = dir.file("com.example.levels.two")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder + "/Contents").filter { !$0.hasSuffix("/") }
        var before: [String: Data] = [:]
        for file in files {
            guard let data = FileManager.default.contents(atPath: folder + "/Contents/" + file) else { continue }
            before[file] = data
            #expect(data.range(of: Data("7.3.9".utf8)) == nil, "Contents/\(file) states the version")
            #expect(data.range(of: Data("{{".utf8)) == nil, "Contents/\(file) keeps a placeholder")
        }
        #expect(!before.isEmpty)
        #expect(try iapkit("bump", folder).stdout.hasSuffix("7.3.9 -> 7.3.10\n"))
        for (file, data) in before { #expect(FileManager.default.contents(atPath: folder + "/Contents/" + file) == data) }
        #expect(try python(Self.readInfo, [folder + "/ContentInfo.plist"]).contains("('ContentVersion', '7.3.10')"))
    }

    /// A template of one's own that copies the version into a file is refused before anything is created.
    @Test func aTemplateThatCopiesTheVersionIsRefused() throws {
        let dir = TemporaryDirectory()
        let share = dir.file("share")
        try FileManager.default.createDirectory(atPath: share + "/templates/content/stale/Contents", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.repository + "/schemas", toPath: share + "/schemas")
        dir.write("share/templates/content/stale/Contents/about.txt", "{{productId}} version {{contentVersion}}\n")
        let result = try iapkit(
            ["new-content", "com.example.stale", "-o", dir.file("out"), "--template", "stale"], environment: ["IAPKIT_SHARE": share])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("writes {{contentVersion}} into Contents/about.txt, which `iapkit bump` would leave stale"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }

    @Test(arguments: [
        (["bad id"], "contains a space"),
        (["com.example.café"], "contains `é`"),
        ([String(repeating: "a", count: 101)], "at most 100"),
        (["com.example.ok", "--content-version", "1.0-beta"], "not a valid content version"),
        (["com.example.ok", "--template", "nope"], "unknown template `nope`; available: default, level-pack"),
    ])
    func refusesBadInputAndCreatesNothing(arguments: [String], message: String) throws {
        let dir = TemporaryDirectory()
        let result = try iapkit(["new-content"] + arguments + ["--output", dir.path + "/out"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out"))
    }

    @Test func refusesAnExistingFolderUnlessForced() throws {
        let dir = TemporaryDirectory()
        try iapkit("new-content", "com.example.a", "-o", dir.path)
        dir.write("com.example.a/Contents/mine.txt", "keep me")
        let before = dir.snapshot()
        let refused = try iapkit("new-content", "com.example.a", "-o", dir.path)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("already exists; pass --force"))
        #expect(dir.snapshot() == before)

        let forced = try iapkit("new-content", "com.example.a", "-o", dir.path, "--force", "--content-version", "3.0")
        #expect(forced.status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.file("com.example.a/Contents/mine.txt")))
        let keys = try python(Self.readInfo, [dir.file("com.example.a/ContentInfo.plist")])
        #expect(keys.contains("('ContentVersion', '3.0')"))
        // No staging folders are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["com.example.a"])
    }
}
