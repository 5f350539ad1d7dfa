import Foundation
import TestSupport
import Testing

@Suite struct BumpTests {
    /// A folder whose ContentInfo.plist was written by Python's plistlib, with keys iapkit must keep.
    func folder(version: String, in dir: TemporaryDirectory, name: String = "pack") throws -> String {
        let folder = dir.file(name)
        try FileManager.default.createDirectory(atPath: folder + "/Contents", withIntermediateDirectories: true)
        _ = try python(
            """
            import plistlib, sys
            plistlib.dump({'ContentVersion': sys.argv[2], 'IAPProductIdentifier': 'com.example.pack',
                           'Notes': 'keep & me', 'Build': 7, 'Flags': [True, False]}, open(sys.argv[1], 'wb'))
            """, [folder + "/ContentInfo.plist", version])
        return folder
    }

    func read(_ folder: String) throws -> String {
        try python("import plistlib, sys; print(repr(plistlib.load(open(sys.argv[1], 'rb'))))", [folder + "/ContentInfo.plist"])
    }

    @Test(arguments: [
        ("1.0", "--patch", "1.0.1"), ("1.0.1", "--patch", "1.0.2"), ("1", "--patch", "1.0.1"),
        ("1.0.1", "--minor", "1.1"), ("1.4", "--major", "2.0"), ("2.9.9", "--major", "3.0"), ("1.0", "--set", "5.2.1"),
    ])
    func bumpsOnlyTheVersion(from: String, flag: String, to: String) throws {
        let dir = TemporaryDirectory()
        let folder = try folder(version: from, in: dir)
        let arguments = flag == "--set" ? ["bump", folder, "--set", to] : ["bump", folder, flag]
        let result = try iapkit(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(folder): \(from) -> \(to)\n")
        // Same keys and values as before but the version; plistlib wrote them sorted, and iapkit kept that order.
        let expected =
            "{'Build': 7, 'ContentVersion': '\(to)', 'Flags': [True, False], 'IAPProductIdentifier': 'com.example.pack', 'Notes': 'keep & me'}\n"
        #expect(try read(folder) == expected)
    }

    @Test func defaultIsPatchAndSeveralFoldersBumpTogether() throws {
        let dir = TemporaryDirectory()
        let a = try folder(version: "1.0", in: dir, name: "a"), b = try folder(version: "2.1", in: dir, name: "b")
        let result = try iapkit("bump", a, b)
        #expect(result.status == 0)
        #expect(try read(a).contains("'1.0.1'"))
        #expect(try read(b).contains("'2.1.1'"))
    }

    @Test func leavesEverythingUntouchedWhenOneFolderIsBad() throws {
        let dir = TemporaryDirectory()
        let good = try folder(version: "1.0", in: dir, name: "good")
        let bad = try folder(version: "1.0-beta", in: dir, name: "bad")
        let before = try Data(contentsOf: URL(fileURLWithPath: good + "/ContentInfo.plist"))
        let result = try iapkit("bump", good, bad)
        #expect(result.status == 2)
        #expect(result.stderr.contains("ContentVersion `1.0-beta` is not valid"))
        #expect(result.stderr.contains(bad + "/ContentInfo.plist"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: good + "/ContentInfo.plist")) == before)
    }

    @Test func refusesAFolderWithoutAReadablePlist() throws {
        let dir = TemporaryDirectory()
        let missing = try iapkit("bump", dir.file("nothing"))
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("does not exist"))
        dir.write("broken/ContentInfo.plist", "<plist><dict>")
        let snapshot = dir.snapshot()
        let broken = try iapkit("bump", dir.file("broken"))
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken/ContentInfo.plist:1"))
        #expect(dir.snapshot() == snapshot)
        let badSet = try iapkit("bump", try folder(version: "1.0", in: dir), "--set", "one")
        #expect(badSet.status == 2)
    }

    /// Devices take content again only for a higher version: `--set` refuses a lower or equal one and writes nothing.
    @Test(arguments: [("1.0.1", "0.5"), ("1.0.1", "1.0.1"), ("1", "1.0"), ("2.0", "1.99.99")])
    func setRefusesAVersionThatIsNotHigher(from: String, to: String) throws {
        let dir = TemporaryDirectory()
        let folder = try folder(version: from, in: dir)
        let snapshot = dir.snapshot()
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/ContentInfo.plist"))
        let result = try iapkit("bump", folder, "--set", to)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--set \(to) is not above ContentVersion \(from)"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/ContentInfo.plist")) == before)
        #expect(dir.snapshot() == snapshot)
        #expect(try read(folder).contains("'ContentVersion': '\(from)'"))
    }
}
