import Foundation
import TestSupport
import Testing

/// Hosted content as a fix ships it: versions only go up against iapkit.lock, file modes are not content, a folder
/// named on its own is checked as its catalog checks it, and names Apple's file systems refuse are findings.
@Suite struct ContentReleaseTests {
    static let banana = "project/content/com.example.fruitstand.banana"
    static let kiwi = "project/content/com.example.fruitstand.kiwi"

    /// A copy of the examples, packaged once so iapkit.lock records both folders at 1.0.
    static func packagedExamples() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        _ = try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        let packaged = try iapkit(["package", "--catalog", "project/catalog.yaml", "-o", "out"], in: dir.path)
        #expect(packaged.status == 0, "\(packaged.stderr)")
        return dir
    }

    static func setVersion(_ folder: String, _ version: String) throws {
        _ = try python(
            """
            import plistlib, sys
            d = plistlib.load(open(sys.argv[1], 'rb')); d['ContentVersion'] = sys.argv[2]
            plistlib.dump(d, open(sys.argv[1], 'wb'))
            """, [folder + "/ContentInfo.plist", version])
    }

    static func lockEntry(_ dir: TemporaryDirectory, _ product: String) throws -> String {
        try python(
            "import json, sys; print(json.load(open(sys.argv[1]))['content'][sys.argv[2]]['contentVersion'])",
            [dir.file("project/iapkit.lock"), product]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Versions only go up

    /// A folder edited back below the version the lock recorded (with or without a file added) is refused by lint,
    /// `lint content` and `package`, naming both versions; nothing is written and the lock keeps the higher version.
    @Test(arguments: [("0.9", false), ("1.0", true)])
    func aVersionBelowTheLocksIsRefused(version: String, addFile: Bool) throws {
        let dir = try Self.packagedExamples()
        let folder = dir.file(Self.banana)
        #expect(try iapkit("bump", folder).status == 0)
        let raised = try iapkit(["package", "--catalog", "project/catalog.yaml", "-o", "out"], in: dir.path)
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(try Self.lockEntry(dir, "com.example.fruitstand.banana") == "1.0.1")
        try Self.setVersion(folder, version)
        if addFile { dir.write(Self.banana + "/Contents/extra.txt", "more") }
        let lockBefore = try Data(contentsOf: URL(fileURLWithPath: dir.file("project/iapkit.lock")))
        let message =
            "ContentVersion \(version) is lower than 1.0.1, the version iapkit.lock recorded when `com.example.fruitstand.banana` was last packaged"

        let lint = try iapkit("lint", dir.file("project/catalog.yaml"))
        #expect(lint.status == 1 && lint.stdout.contains("[content-version-lower]") && lint.stdout.contains(message), "\(lint.stdout)")
        #expect(lint.stdout.contains("--set 1.0.2"))
        let alone = try iapkit(["lint", "content", Self.banana], in: dir.path)
        #expect(alone.status == 1 && alone.stdout.contains(message), "\(alone.stdout)")
        for arguments in [["package", "--catalog", "project/catalog.yaml", "-o", "again"], ["package", Self.banana, "-o", "again"]] {
            let refused = try iapkit(arguments, in: dir.path)
            #expect(refused.status == 1, "\(arguments) \(refused.stderr)")
            #expect(refused.stderr.contains(message) && refused.stderr.contains("nothing was packaged"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("again")))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("project/iapkit.lock"))) == lockBefore)
        // Raised above the lock's, it packages and the lock records the higher version.
        #expect(try iapkit("bump", folder, "--set", "1.0.2").status == 0)
        #expect(try iapkit(["package", Self.banana, "-o", "again"], in: dir.path).status == 0)
        #expect(try Self.lockEntry(dir, "com.example.fruitstand.banana") == "1.0.2")
    }

    // MARK: Modes are not content

    /// The same files under another umask (group-writable, as `umask 002` checks them out) give the same .pkg and
    /// zip bytes and the same digest: no "content changed" finding; modes are git's (644, or 755 with any execute bit).
    @Test func fileModesAreNotContent() throws {
        let dir = try Self.packagedExamples()
        _ = try run("/bin/cp", ["-R", dir.file("project"), dir.file("shared")])
        _ = try run("/bin/chmod", ["-R", "g+w", dir.file("shared")])
        let lint = try iapkit("lint", dir.file("shared/catalog.yaml"))
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(!lint.stdout.contains("content-version-unchanged"), "\(lint.stdout)")
        for format in ["pkg", "zip"] {
            for project in ["project", "shared"] {
                let built = try iapkit(
                    ["package", project + "/content/com.example.fruitstand.kiwi", "-o", "\(project)-\(format)", "--format", format], in: dir.path)
                #expect(built.status == 0, "\(built.stderr)")
            }
            let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("project-\(format)/com.example.fruitstand.kiwi.\(format)")))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir.file("shared-\(format)/com.example.fruitstand.kiwi.\(format)")))
            #expect(a == b, "\(format): the umask changed the archive")
        }
        #expect(
            try String(contentsOfFile: dir.file("project/iapkit.lock"), encoding: .utf8)
                == String(contentsOfFile: dir.file("shared/iapkit.lock"), encoding: .utf8))

        // Read back with independent tools: 644 files, 755 folders, 755 for any execute bit (setuid dropped).
        let folder = dir.file("modes/com.example.modes")
        #expect(try iapkit("new-content", "com.example.modes", "-o", dir.file("modes")).status == 0)
        dir.write("modes/com.example.modes/Contents/private.txt", "p")
        dir.write("modes/com.example.modes/Contents/tool.txt", "t")
        chmod(folder + "/Contents/private.txt", 0o600)
        chmod(folder + "/Contents/tool.txt", 0o4710)
        chmod(folder + "/Contents", 0o770)
        #expect(try iapkit("package", folder, "-o", dir.file("modes-pkg")).status == 0)
        #expect(try iapkit("package", folder, "-o", dir.file("modes-zip"), "--format", "zip").status == 0)
        let listing = try run("/usr/bin/env", ["bsdtar", "-tvf", dir.file("modes-zip/com.example.modes.zip")]).stdout
        #expect(listing.contains("drwxr-xr-x") && !listing.contains("rwxrwx"), "\(listing)")
        let modes = try python(
            """
            import zipfile, sys
            z = zipfile.ZipFile(sys.argv[1])
            print(' '.join('%s=%o' % (i.filename.split('/', 1)[1], i.external_attr >> 16 & 0o7777) for i in z.infolist()))
            """, [dir.file("modes-zip/com.example.modes.zip")])
        for expected in ["Contents/=755", "Contents/private.txt=644", "Contents/tool.txt=755", "ContentInfo.plist=644"] {
            #expect(
                modes.split(separator: " ").contains { $0.trimmingCharacters(in: .whitespacesAndNewlines) == expected }, "\(expected) in \(modes)")
        }
        let payload = try python(
            """
            import gzip, subprocess, sys, tempfile, os
            out = tempfile.mkdtemp()
            subprocess.run(['bsdtar', '-xf', sys.argv[1], '-C', out], check=True)
            data = gzip.decompress(open(os.path.join(out, 'com.example.modes.pkg', 'Payload'), 'rb').read())
            listing = subprocess.run(['cpio', '-itv', '--quiet'], input=data, capture_output=True, check=True).stdout.decode()
            print(listing)
            """, [dir.file("modes-pkg/com.example.modes.pkg")])
        #expect(
            payload.contains("-rwxr-xr-x") && payload.contains("-rw-r--r--") && !payload.contains("rws") && !payload.contains("rw-------"),
            "\(payload)")
    }

    // MARK: A folder is checked as a unit

    /// A folder named on its own is checked against the catalog above it and the lock beside it, from any working
    /// folder; `--lock` names another lock; `package DIR` records in the lock it found.
    @Test func aFolderOnItsOwnUsesTheCatalogAndLockAboveIt() throws {
        let dir = try Self.packagedExamples()
        dir.write(Self.kiwi + "/Contents/levels.json", "{\"changed\": true}\n")
        for (arguments, place) in [
            (["lint", "content", Self.kiwi], dir.path), (["lint", "content", "content/com.example.fruitstand.kiwi"], dir.file("project")),
        ] {
            let lint = try iapkit(arguments, in: place)
            #expect(lint.status == 1, "\(lint.stdout)\(lint.stderr)")
            #expect(
                lint.stdout.contains("[content-version-unchanged]") && lint.stdout.contains("the content changed since version 1.0"), "\(lint.stdout)"
            )
        }
        // Another lock, named with --lock: one that never recorded kiwi has nothing to compare.
        dir.write("other.lock", "{\"lockVersion\": 1, \"content\": {}}\n")
        #expect(try iapkit(["lint", "content", Self.kiwi, "--lock", "other.lock"], in: dir.path).status == 0)
        let refused = try iapkit(["package", Self.kiwi, "-o", "again"], in: dir.path)
        #expect(refused.status == 1 && refused.stderr.contains("[content-version-unchanged]"), "\(refused.stderr)")
        #expect(try iapkit("bump", dir.file(Self.kiwi)).status == 0)
        let packaged = try iapkit(["package", Self.kiwi, "-o", "again"], in: dir.path)
        #expect(packaged.status == 0, "\(packaged.stderr)")
        #expect(packaged.stdout.contains("recorded content digests in project/iapkit.lock"), "\(packaged.stdout)")
        #expect(try Self.lockEntry(dir, "com.example.fruitstand.kiwi") == "1.0.1")
        #expect(try Self.lockEntry(dir, "com.example.fruitstand.banana") == "1.0", "the other product's entry stays")
    }

    /// A folder and its plist that disagree (`…desert` holding `…dessert`) are a finding on their own, and package
    /// writes nothing; through a catalog, the catalog's ID is the reference.
    @Test func aFolderNamedForAnotherProductIsRefused() throws {
        let dir = TemporaryDirectory()
        #expect(try iapkit("new-content", "com.example.levels.dessert", "-o", dir.path).status == 0)
        try FileManager.default.moveItem(atPath: dir.file("com.example.levels.dessert"), toPath: dir.file("com.example.levels.desert"))
        let folder = dir.file("com.example.levels.desert")
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.status == 1 && lint.stdout.contains("[content-folder-name]"), "\(lint.stdout)")
        #expect(
            lint.stdout.contains(
                "error: the folder is named `com.example.levels.desert` but its IAPProductIdentifier is `com.example.levels.dessert`"),
            "\(lint.stdout)")
        let snapshot = dir.snapshot()
        let package = try iapkit("package", folder, "-o", dir.file("out"))
        #expect(package.status == 1 && package.stderr.contains("[content-folder-name]"), "\(package.stderr)")
        #expect(dir.snapshot() == snapshot)
        // `./` and a trailing slash name the same folder.
        let dotted = try iapkit(["lint", "content", "./com.example.levels.desert/"], in: dir.path)
        #expect(dotted.stdout.contains("named `com.example.levels.desert`"), "\(dotted.stdout)")
    }

    /// Folders of two catalogs would record in two locks: one run writes one lock, so it is refused.
    @Test func foldersOfTwoCatalogsAreRefused() throws {
        let dir = try Self.packagedExamples()
        _ = try run("/bin/cp", ["-R", dir.file("project"), dir.file("second")])
        let refused = try iapkit(["package", Self.kiwi, "second/content/com.example.fruitstand.banana", "-o", "again"], in: dir.path)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("the folders belong to different catalogs"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("again")))
    }

    // MARK: Names

    /// A name with `:` or a control character, or two names one file on a case-insensitive file system, are
    /// findings, and package refuses them with nothing written.
    @Test(arguments: [
        (["Contents/level:5.json"], "has `:` in its name"), (["Contents/tab\\tname.json"], "has a control character (U+0009)"),
        (["Contents/Level.json", "Contents/level.json"], "differ only in case or in how an accent is encoded"),
        (["Contents/cafe\\u0301.txt", "Contents/caf\\u00e9.txt"], "differ only in case or in how an accent is encoded"),
    ])
    func namesAppleRefusesAreFindings(files: [String], message: String) throws {
        let dir = TemporaryDirectory()
        #expect(try iapkit("new-content", "com.example.names", "-o", dir.path).status == 0)
        // The names are written by Python from their escapes, so each keeps its exact bytes (NFD stays NFD).
        _ = try python(
            "import sys\nfor p in sys.argv[1:]: open(p.encode('ascii').decode('unicode_escape'), 'w').write('x')",
            files.map { dir.file("com.example.names/" + $0) })
        let folder = dir.file("com.example.names")
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.status == 1 && lint.stdout.contains("[content-name]") && lint.stdout.contains(message), "\(lint.stdout)")
        let snapshot = dir.snapshot()
        let package = try iapkit("package", folder, "-o", dir.file("out"), "--format", "zip")
        #expect(package.status == 1 && package.stderr.contains(message), "\(package.stderr)")
        #expect(dir.snapshot() == snapshot)
    }
}
