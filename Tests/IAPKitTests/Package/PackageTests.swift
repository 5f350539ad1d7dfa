import FlatPackage
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct PackageTests {
    /// A copy of the examples, so packaging can write iapkit.lock beside the catalog.
    func examplesCopy() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        return dir
    }

    /// A content folder with text, media, many small files, a link and a subfolder: several payload chunks and
    /// more Bom entries than one B-tree leaf holds.
    func bigFolder(in dir: TemporaryDirectory, id: String = "com.example.big") throws -> String {
        let folder = dir.file(id)
        try iapkit("new-content", id, "-o", dir.path)
        _ = try python(
            """
            import os, random, sys
            root = sys.argv[1] + '/Contents'
            random.seed(7)
            open(root + '/noise.m4a', 'wb').write(random.randbytes(3_500_000))
            words = ['apple', 'banana', 'kiwi', 'mango', 'pear', 'plum']
            open(root + '/story.txt', 'w').write(' '.join(random.choice(words) for _ in range(600_000)))
            os.makedirs(root + '/tiles/deep', exist_ok=True)
            for i in range(640):
                open(f'{root}/tiles/t{i:04d}.json', 'w').write('{"tile": %d}' % i)
            open(root + '/tiles/deep/empty.bin', 'wb').close()
            os.symlink('story.txt', root + '/link-to-story')
            """, [folder])
        return folder
    }

    @Test func flatPackagePassesIndependentReaders() throws {
        let dir = TemporaryDirectory()
        let folder = try bigFolder(in: dir)
        let result = try iapkit("package", folder, "-o", dir.file("out"))
        #expect(result.status == 0, "\(result.stderr)")
        let pkg = dir.file("out/com.example.big.pkg")

        // The project's own structure checker (header, TOC digest, heap, checksums, and the Bom's B-tree).
        let check = try run("/usr/bin/env", ["python3", Paths.checkXar, pkg])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("cksum=1(sha1)") && check.stdout.contains("toc digest ok=True"))
        #expect(!check.stdout.contains("FAIL") && check.stdout.hasSuffix("ok\n"), "\(check.stdout)")
        #expect(check.stdout.contains("trailing=0"))
        for name in [
            "id=1 file      Distribution", "id=2 directory com.example.big.pkg", "id=3 file      com.example.big.pkg/Bom",
            "id=4 file      com.example.big.pkg/Payload", "id=5 file      com.example.big.pkg/PackageInfo",
        ] {
            #expect(check.stdout.contains(name), "\(name)")
        }
        #expect(check.stdout.contains("Payload length=") && check.stdout.contains("encoding=application/octet-stream"))
        let bomLines = check.stdout.split(separator: "\n").filter { $0.hasPrefix("bom ") }.map { $0.dropFirst(4).split(separator: "\t") }
        #expect(check.stdout.contains("com.example.big.pkg/Bom paths=\(bomLines.count) sorted=True"))

        if hasTool("7z") {
            let test = try run("/usr/bin/env", ["7z", "t", pkg])
            #expect(test.stdout.contains("Everything is Ok"), "\(test.stdout)")
        }
        let extracted = dir.file("x")
        #expect(try run("/usr/bin/env", ["bsdtar", "-xf", pkg, "-C", try makeDirectory(extracted)]).status == 0)
        let payload = extracted + "/com.example.big.pkg/Payload"
        #expect(try run("/usr/bin/env", ["gzip", "-t", payload]).status == 0)

        // GNU cpio lists and extracts the payload; the tree matches the source byte for byte.
        let listing = try run("/bin/sh", ["-c", "gunzip -c '\(payload)' | cpio -it --quiet"])
        let cpioPaths = listing.stdout.split(separator: "\n").map(String.init)
        #expect(cpioPaths.first == ".")
        #expect(cpioPaths.contains("./Contents/tiles/t0639.json") && cpioPaths.contains("./Contents/link-to-story"))
        let restored = try makeDirectory(dir.file("restored"))
        try run("/bin/sh", ["-c", "gunzip -c '\(payload)' | cpio -idm --quiet --no-absolute-filenames"], in: restored)
        #expect(try run("/usr/bin/diff", ["-r", "--no-dereference", restored, folder]).status == 0)

        // The Bom lists exactly the payload's paths, sorted the way lsbom needs, with the sizes and the
        // checksums coreutils' cksum computes.
        let bomBytes = try Array(Data(contentsOf: URL(fileURLWithPath: extracted + "/com.example.big.pkg/Bom")))
        let bom = try BomReader.read(bomBytes)
        #expect(bom.isSorted)
        #expect(bom.variables == ["BomInfo", "Paths", "HLIndex", "VIndex", "Size64"])
        #expect(Set(bom.entries.map(\.path)) == Set(cpioPaths))
        #expect(bom.entries.count == cpioPaths.count)
        // The independent reading of the Bom agrees with cpio on the paths and with coreutils on a checksum.
        #expect(Set(bomLines.map { String($0[0]) }) == Set(cpioPaths))
        let cksum = try run("/usr/bin/env", ["cksum", folder + "/Contents/story.txt"]).stdout.split(separator: " ")
        let storyLine = try #require(bomLines.first { $0[0] == "./Contents/story.txt" })
        #expect(storyLine[1] == "100644" && storyLine[2] == "0/0" && storyLine[4] == cksum[1] && storyLine[5] == cksum[0])
        let story = try #require(bom.entries.first { $0.path == "./Contents/story.txt" })
        #expect("\(story.checksum)" == cksum[0] && "\(story.size)" == cksum[1])
        #expect(story.mode == 0o100644 && story.uid == 0 && story.gid == 0 && story.mtime == 978_307_200)
        let link = try #require(bom.entries.first { $0.path == "./Contents/link-to-story" })
        #expect(link.kind == .symlink && link.linkTarget == "story.txt" && link.mode == 0o120755)
        let empty = try #require(bom.entries.first { $0.path == "./Contents/tiles/deep/empty.bin" })
        #expect(empty.checksum == 4_294_967_295)

        // Distribution and PackageInfo are well-formed and agree on the counts.
        let xml = try python(
            """
            import sys, xml.etree.ElementTree as ET
            d = ET.parse(sys.argv[1]).getroot(); p = ET.parse(sys.argv[2]).getroot()
            ref = [e for e in d.findall('pkg-ref') if e.get('installKBytes')][0]
            pay = p.find('payload')
            assert ref.text == '#com.example.big.pkg' and ref.get('installKBytes') == pay.get('installKBytes')
            assert p.get('identifier') == 'com.example.big' and p.get('version') == '0' and p.get('auth') == 'root'
            print(pay.get('numberOfFiles'))
            """, [extracted + "/Distribution", extracted + "/com.example.big.pkg/PackageInfo"])
        #expect(xml == "\(cpioPaths.count)\n")
    }

    @Test func packagesAreByteIdenticalAcrossRuns() throws {
        let dir = TemporaryDirectory()
        let folder = try bigFolder(in: dir)
        for output in ["a", "b"] { #expect(try iapkit("package", folder, "-o", dir.file(output)).status == 0) }
        #expect(try iapkit("package", folder, "-o", dir.file("c"), "--jobs", "1").status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("a/com.example.big.pkg")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: dir.file("b/com.example.big.pkg")))))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: dir.file("c/com.example.big.pkg")))))
        let stamped = try iapkit("package", folder, "-o", dir.file("d"), environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(stamped.status == 0)
        let listing = try run("/usr/bin/env", ["bsdtar", "-tvf", dir.file("d/com.example.big.pkg")]).stdout
        #expect(listing.contains("Nov 14  2023"), "\(listing)")
    }

    @Test func zipArchivesTestCleanAndRepeat() throws {
        let dir = TemporaryDirectory()
        let folder = try bigFolder(in: dir)
        for output in ["a", "b"] { #expect(try iapkit("package", folder, "-o", dir.file(output), "--format", "zip").status == 0) }
        let zip = dir.file("a/com.example.big.zip")
        #expect(try run("/usr/bin/env", ["unzip", "-tq", zip]).stdout.contains("No errors detected"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: zip)) == Data(contentsOf: URL(fileURLWithPath: dir.file("b/com.example.big.zip"))))
        let out = try python(
            """
            import zipfile, sys
            z = zipfile.ZipFile(sys.argv[1])
            names = z.namelist()
            assert names[0] == 'com.example.big/' and 'com.example.big/ContentInfo.plist' in names
            info = {i.filename: i for i in z.infolist()}
            assert info['com.example.big/Contents/noise.m4a'].compress_type == zipfile.ZIP_STORED
            assert info['com.example.big/Contents/story.txt'].compress_type == zipfile.ZIP_DEFLATED
            assert z.read('com.example.big/Contents/story.txt') == open(sys.argv[2] + '/Contents/story.txt', 'rb').read()
            print('ok')
            """, [zip, folder])
        #expect(out == "ok\n")
    }

    /// What lint warns is not content stays out of the archive (both formats), as the warning says; the lock's
    /// digest ignores it too, so deleting it later is no content change.
    @Test func filesLintWarnsAboutAreLeftOut() throws {
        let dir = TemporaryDirectory()
        let folder = dir.file("com.example.tidy")
        #expect(try iapkit("new-content", "com.example.tidy", "-o", dir.path).status == 0)
        let plain = try iapkit("package", folder, "-o", dir.file("plain"), "--format", "zip")
        #expect(plain.status == 0, "\(plain.stderr)")
        for junk in ["Contents/.DS_Store", ".DS_Store", "notes.txt", "Contents/__MACOSX/x.txt"] {
            try FileManager.default.createDirectory(
                atPath: (dir.file("com.example.tidy/" + junk) as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            dir.write("com.example.tidy/" + junk, "junk")
        }
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.stdout.contains("`Contents/.DS_Store` is not content; `iapkit package` leaves it out, delete it"), "\(lint.stdout)")
        #expect(lint.stdout.contains("`notes.txt` sits beside ContentInfo.plist and Contents/, so `iapkit package` leaves it out"), "\(lint.stdout)")
        for format in ["zip", "pkg"] {
            let packaged = try iapkit("package", folder, "-o", dir.file(format), "--format", format)
            #expect(packaged.status == 0, "\(packaged.stderr)")
        }
        let names = try python(
            """
            import zipfile, sys
            print(' '.join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))
            """, [dir.file("zip/com.example.tidy.zip")])
        #expect(
            !names.contains("DS_Store") && !names.contains("notes.txt") && !names.contains("__MACOSX") && names.contains("ContentInfo.plist"),
            "\(names)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: dir.file("zip/com.example.tidy.zip")))
                == Data(contentsOf: URL(fileURLWithPath: dir.file("plain/com.example.tidy.zip"))), "the archive is the one without the junk")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: dir.file("pkg/com.example.tidy.pkg"))).range(of: Data(".DS_Store".utf8)) == nil,
            "no Bom or Payload entry names it")
    }

    /// Once iapkit.lock lists the app's hosted content, a product it does not list is a new product, which App Store
    /// Connect takes no hosted content for: lint says so and names the way out; the packaged ones stay quiet.
    @Test func hostedContentOnANewProductIsAFinding() throws {
        let dir = try examplesCopy()
        let project = dir.file("project")
        let catalog = project + "/catalog.yaml"
        #expect(try iapkit("lint", catalog).stdout.contains("[hosted-content-new]") == false, "no lock: nothing says what is new")
        #expect(try iapkit("package", "--catalog", catalog, "-o", dir.file("out")).status == 0)
        #expect(try iapkit("new-content", "com.example.fruitstand.melon", "-o", project + "/content").status == 0)
        let text = try String(contentsOfFile: catalog, encoding: .utf8).replacingOccurrences(
            of: "products:\n",
            with: """
                products:
                  - productId: com.example.fruitstand.melon
                    referenceName: Melon Pack
                    type: non-consumable
                    price: 0.99
                    hostedContent: content/com.example.fruitstand.melon

                """)
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let lint = try iapkit("lint", catalog)
        let findings = lint.stdout.split(separator: "\n").filter { $0.contains("[hosted-content-new]") }
        #expect(findings.count == 1, "\(lint.stdout)")
        #expect(
            findings.first?.contains(
                "content/com.example.fruitstand.melon/ContentInfo.plist: warning: `com.example.fruitstand.melon` "
                    + "has hosted content iapkit.lock does not list, so it is a new product's") == true, "\(findings)")
        #expect(findings.first?.contains("iapkit new-content --from-hosted-content") == true)
    }

    @Test func manifestAndLockDescribeWhatWasBuilt() throws {
        let dir = try examplesCopy()
        let project = dir.file("project")
        let result = try iapkit("package", "--catalog", project + "/catalog.yaml", "-o", dir.file("out"), "--md5")
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(
            """
            import hashlib, json, os, sys
            out, project = sys.argv[1], sys.argv[2]
            m = json.load(open(out + '/iapkit-manifest.json'))
            assert m['format'] == 'pkg' and m['sourceDateEpoch'] == 978307200
            lock = json.load(open(project + '/iapkit.lock'))
            for p in m['packages']:
                data = open(os.path.join(out, p['fileName']), 'rb').read()
                assert p['size'] == len(data) and p['sha256'] == hashlib.sha256(data).hexdigest()
                assert p['md5'] == hashlib.md5(data).hexdigest()
                assert lock['content'][p['productId']] == {'contentVersion': p['contentVersion'], 'digest': p['contentDigest']}
            print(sorted(p['productId'] for p in m['packages']))
            """, [dir.file("out"), project])
        #expect(out == "['com.example.fruitstand.banana', 'com.example.fruitstand.kiwi']\n")

        // Changing content without bumping is caught by lint and refused by package; a bump fixes both.
        try "new text".write(toFile: project + "/content/com.example.fruitstand.kiwi/Contents/levels.json", atomically: true, encoding: .utf8)
        let lint = try iapkit("lint", project + "/catalog.yaml")
        #expect(lint.status == 1 && lint.stdout.contains("[content-version-unchanged]"))
        let refused = try iapkit("package", "--catalog", project + "/catalog.yaml", "-o", dir.file("again"))
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.file("again")))
        try iapkit("bump", project + "/content/com.example.fruitstand.kiwi")
        #expect(try iapkit("lint", project + "/catalog.yaml").status == 0)
    }

    @Test func aFolderTheCatalogAlsoNamesIsBuiltOnce() throws {
        let dir = try examplesCopy()
        // Named on the command line (written differently) and by the catalog.
        let result = try iapkit(
            "package", "./project/content/com.example.fruitstand.kiwi/", "--catalog", "project/catalog.yaml",
            "-o", "out", in: dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        let built = try python(
            """
            import json, sys
            print(sorted(p['productId'] for p in json.load(open(sys.argv[1]))['packages']))
            """, [dir.file("out/iapkit-manifest.json")])
        #expect(built == "['com.example.fruitstand.banana', 'com.example.fruitstand.kiwi']\n")
        #expect(result.stdout.components(separatedBy: "com.example.fruitstand.kiwi.pkg").count == 2, "\(result.stdout)")
    }

    @Test(arguments: [
        ("Contents/tool", "\u{7F}ELF\u{02}\u{01}", "content-executable"),
        ("Contents/run.sh", "#!/bin/sh\necho", "content-executable"),
        ("Contents/escape", "-> ../../../etc/passwd", "content-link"),
        ("ContentInfo.plist", "<plist><dict>", "content-info"),
    ])
    func badContentIsRefusedWithNothingWritten(path: String, content: String, rule: String) throws {
        let dir = TemporaryDirectory()
        let folder = try bigFolder(in: dir, id: "com.example.bad")
        if content.hasPrefix("-> ") {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + path, withDestinationPath: String(content.dropFirst(3)))
        } else {
            try content.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
        }
        let result = try iapkit("package", folder, "-o", dir.file("out"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("[\(rule)]"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was packaged"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }

    @Test func unwritableOutputIsExitTwoWithNoLeftovers() throws {
        let dir = TemporaryDirectory()
        let folder = try bigFolder(in: dir)
        dir.write("blocker", "a file where the output folder should go")
        let result = try iapkit("package", folder, "-o", dir.file("blocker/out"))
        #expect(result.status == 2)
        #expect(result.stderr.contains("blocker"))
    }

    @Test func interruptedRunLeavesNoFiles() throws {
        let dir = TemporaryDirectory()
        let folder = try bigFolder(in: dir)
        _ = try python("import os, sys; open(sys.argv[1], 'wb').write(os.urandom(400_000_000))", [folder + "/Contents/huge.mov"])
        let output = try makeDirectory(dir.file("out"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = ["package", folder, "-o", output]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupted once the archive is being written: its temporary file is in the output folder.
        let deadline = Date().addingTimeInterval(120)
        func staged() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter { $0.contains(".iapkit-") } }
        while staged().isEmpty && process.isRunning && Date() < deadline { usleep(5_000) }
        #expect(!staged().isEmpty, "package wrote no temporary file to interrupt")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let left = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(left.isEmpty, "\(left)")
    }

    func makeDirectory(_ path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
