import Foundation
import TestSupport
import Testing

/// What a run of `iapkit` cost, measured by a separate Python process whose only child it is.
struct MeasuredRun {
    var status: Int32
    var seconds: Double
    var peakMegabytes: Double
    var stderr: String
}

/// Runs `iapkit` with `arguments` and measures wall time and peak memory (ru_maxrss of the only child).
func measuredIapkit(_ arguments: [String], environment: [String: String] = [:]) throws -> MeasuredRun {
    let output = try python(
        """
        import json, os, resource, subprocess, sys, time
        env = dict(os.environ, NO_COLOR='1', **json.loads(sys.argv[1]))
        start = time.monotonic()
        p = subprocess.run(sys.argv[2:], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=60)
        seconds = time.monotonic() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps([p.returncode, seconds, peak, p.stderr.decode('utf-8', 'replace')]))
        """, [String(decoding: try JSONEncoder().encode(environment), as: UTF8.self), Paths.binary] + arguments)
    let fields = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [Any]
    return MeasuredRun(
        status: Int32(fields[0] as! Int), seconds: fields[1] as! Double,
        peakMegabytes: fields[2] as! Double, stderr: fields[3] as! String)
}

/// A clean hosted-content folder whose ContentInfo.plist holds `plist`.
@discardableResult
func contentFolder(_ dir: TemporaryDirectory, name: String = "com.example.app.one", plist: String) -> String {
    dir.write("\(name)/Contents/a.txt", "hello")
    dir.write("\(name)/ContentInfo.plist", plist)
    return dir.file(name)
}

func contentInfo(version: String = "1.0", id: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>ContentVersion</key>
    \t<string>\(version)</string>
    \t<key>IAPProductIdentifier</key>
    \t<string>\(id)</string>
    </dict>
    </plist>

    """
}

/// Inputs that try to make iapkit write outside its output folder.
@Suite struct PathContainmentTests {
    @Test(arguments: ["../../../../etc", "/etc", "..", ".", "default/../../..", ".hidden", ""])
    func templateMustNameAFolderInsideTheTemplates(template: String) throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("new-content", "com.example.app.one", "--template", template, "-o", dir.file("out"))
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown template"), "\(result.stderr)")
        #expect(dir.snapshot().isEmpty, "\(dir.snapshot())")
    }

    @Test(arguments: ["../../evil", "a/b", "/tmp/evil", "", ".hidden", ".."])
    func hostileIdentifierInContentInfoIsRefused(identifier: String) throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: contentInfo(id: identifier))
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("IAPProductIdentifier` is not valid") && lint.stdout.contains("[content-info]"), "\(lint.stdout)")
        let before = dir.snapshot()
        let package = try iapkit("package", folder, "-o", dir.file("deep/er/out"))
        #expect(package.status == 1)
        #expect(package.stderr.contains("nothing was packaged"), "\(package.stderr)")
        // Nothing new anywhere: not in the output folder, not above it.
        #expect(dir.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil.pkg"))
    }

    @Test func catalogWithAnEscapingProductIDIsRefused() throws {
        let dir = TemporaryDirectory()
        try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        let catalog = dir.file("project/catalog.yaml")
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
            .replacingOccurrences(of: "productId: com.example.fruitstand.kiwi", with: "productId: ../../evil-from-catalog")
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let before = dir.snapshot()
        let result = try iapkit("package", "--catalog", catalog, "-o", dir.file("project/out"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("[product-id-format]") && result.stderr.contains("nothing was packaged"), "\(result.stderr)")
        #expect(dir.snapshot() == before)
    }
}

/// Readers given files built to hang them or exhaust memory.
@Suite struct ReaderLimitTests {
    /// 110 KB: one 10 KB entity used 10,000 times would be 100 MB of text, and far more as a tree.
    static let entityBomb: String = {
        let uses = String(repeating: "&e;", count: 33_000)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist [<!ENTITY e "\(String(repeating: "x", count: 10_000))">]>
            <plist version="1.0"><dict><key>ContentVersion</key><string>1.0</string>
            <key>IAPProductIdentifier</key><string>com.example.app.one\(uses)</string></dict></plist>

            """
    }()

    @Test func entityBombIsRefusedFastInLintAndBump() throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: Self.entityBomb)
        let original = try Data(contentsOf: URL(fileURLWithPath: folder + "/ContentInfo.plist"))
        #expect(original.count > 100_000)
        for arguments in [["lint", "content", folder], ["bump", folder]] {
            let run = try measuredIapkit(arguments)
            #expect(run.status == (arguments[0] == "lint" ? 1 : 2), "\(arguments): \(run.stderr)")
            #expect(run.seconds < 1.0, "\(arguments) took \(run.seconds) s")
            #expect(run.peakMegabytes < 100, "\(arguments) peaked at \(run.peakMegabytes) MB")
        }
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.stdout.contains("ContentInfo.plist:2: error: ContentInfo.plist declares an XML entity"), "\(lint.stdout)")
        let bump = try iapkit("bump", folder)
        #expect(bump.stderr.contains("\(folder)/ContentInfo.plist:2: declares an XML entity"), "\(bump.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/ContentInfo.plist")) == original)
    }

    @Test func externalEntityIsRefusedAndTheFileIsUntouched() throws {
        let dir = TemporaryDirectory()
        dir.write("secret.txt", "secret")
        let plist = contentInfo(id: "com.example.app.one&ext;")
            .replacingOccurrences(
                of: "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">",
                with: "<!DOCTYPE plist [<!ENTITY ext SYSTEM \"file://\(dir.file("secret.txt"))\">]>")
        let folder = contentFolder(dir, plist: plist)
        let result = try iapkit("bump", folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("declares an XML entity"), "\(result.stderr)")
        #expect(try String(contentsOfFile: folder + "/ContentInfo.plist", encoding: .utf8) == plist)
    }

    /// A blocked read would hang forever; the measured runs time out after 60 s, and the limit allows for a loaded machine.
    @Test(.timeLimit(.minutes(3)))
    func fifosAreRefusedWhereverAFileIsRead() throws {
        let dir = TemporaryDirectory()
        try run("/bin/cp", ["-R", Paths.examples, dir.file("project")])
        let shot = dir.file("project/review/banana.png")
        try FileManager.default.removeItem(atPath: shot)
        mkfifo(shot, 0o644)
        let lint = try measuredIapkit(["lint", "catalog", dir.file("project/catalog.yaml")])
        #expect(lint.status == 1 && lint.seconds < 5)
        let report = try iapkit("lint", "catalog", dir.file("project/catalog.yaml"))
        #expect(report.stdout.contains("review screenshot review/banana.png is a FIFO, not a regular file"), "\(report.stdout)")

        let folder = dir.file("fifo-plist")
        try FileManager.default.createDirectory(atPath: folder + "/Contents", withIntermediateDirectories: true)
        mkfifo(folder + "/ContentInfo.plist", 0o644)
        let bump = try iapkit("bump", folder)
        #expect(bump.status == 2 && bump.stderr.contains("ContentInfo.plist: is a FIFO, not a regular file"), "\(bump.stderr)")
        mkfifo(dir.file("catalog.yaml"), 0o644)
        let catalog = try iapkit("lint", "catalog", dir.file("catalog.yaml"))
        #expect(catalog.status == 2 && catalog.stderr.contains("is a FIFO"), "\(catalog.stderr)")
        mkfifo(dir.file("pipe.storekit"), 0o644)
        let storekit = try iapkit("import", "storekit", dir.file("pipe.storekit"))
        #expect(storekit.status == 2 && storekit.stderr.contains("is a FIFO"), "\(storekit.stderr)")
    }

    @Test func oversizedAndDeepInputsAreRefusedBeforeReading() throws {
        let dir = TemporaryDirectory()
        // Sparse files: the size is refused from fstat, so these cost nothing.
        for (name, size, command) in [("big.yaml", 200 << 20, ["lint", "catalog"]), ("big.storekit", 100 << 20, ["import", "storekit"])] {
            let path = dir.file(name)
            FileManager.default.createFile(atPath: path, contents: nil)
            truncate(path, off_t(size))
            let run = try measuredIapkit(command + [path])
            #expect(run.status == 2 && run.seconds < 2 && run.peakMegabytes < 100, "\(name): \(run)")
            #expect(run.stderr.contains("\(path): is larger than iapkit reads"), "\(run.stderr)")
        }
        let deep = dir.write("deep.storekit", String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000))
        let result = try iapkit("import", "storekit", deep)
        #expect(result.status == 2 && result.stderr.contains("nested more than 100 levels"), "\(result.stderr)")
        // YAML aliases that would expand to a billion values: the loader never expands a shape it does not read, and
        // stops at its value budget when it does, so this ends quickly either way.
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            laughs +=
                "\(Character(UnicodeScalar(97 + level)!)): &\(Character(UnicodeScalar(97 + level)!)) " + "["
                + Array(repeating: "*\(Character(UnicodeScalar(96 + level)!))", count: 10).joined(separator: ", ") + "]\n"
        }
        let bomb = dir.write(
            "laughs.yaml",
            "schemaVersion: 1\napp: {bundleId: com.example.app, primaryLocale: en-US}\nx:\n"
                + laughs.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\nproducts: *j\n")
        let run = try measuredIapkit(["lint", "catalog", bomb])
        #expect([1, 2].contains(run.status) && run.seconds < 5 && run.peakMegabytes < 200, "\(run)")
    }

    @Test func fuzzedPlistsWithEntitiesAndHostileNamesNeverCrash() throws {
        let dir = TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<!ENTITY a \"aaaa\">", "<!ENTITY % p \"x\">", "&a;", "&#0;", "<!DOCTYPE plist [", "]>", "../", "/", "\0", "\u{FF}", "%p;"]
        for index in 0..<40 {
            var plist = contentInfo(id: "com.example.app.one")
            for _ in 0..<3 {
                let piece = pieces.randomElement(using: &generator)!
                let offset = plist.index(plist.startIndex, offsetBy: Int.random(in: 0..<plist.count, using: &generator))
                plist.insert(contentsOf: piece, at: offset)
            }
            let folder = contentFolder(dir, name: "f\(index)", plist: plist)
            let result = try iapkit("package", folder, "-o", dir.file("out"))
            #expect([0, 1].contains(result.status), "\(result.status) \(result.stderr)\n\(plist)")
        }
        // Whatever was built stayed in the output folder under a valid name.
        let written = (try? FileManager.default.contentsOfDirectory(atPath: dir.file("out"))) ?? []
        #expect(written.allSatisfy { $0 == "iapkit-manifest.json" || $0 == "com.example.app.one.pkg" }, "\(written)")
    }

    @Test func nonUTF8NameIsAFindingNotAMissingFile() throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: contentInfo(id: "com.example.app.one"))
        let raw = (Array((folder + "/Contents/caf").utf8) + [0xE9, 0x2E, 0x74, 0x78, 0x74, 0]).map { CChar(bitPattern: $0) }
        close(open(raw, O_CREAT | O_WRONLY, 0o644))
        let lint = try iapkit("lint", "content", folder)
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains("the name \"caf\\xE9.txt\" in `Contents/` is not valid UTF-8") && lint.stdout.contains("[content-name]"),
            "\(lint.stdout)")
        #expect(!lint.stdout.contains("No such file") && !lint.stderr.contains("No such file"))
        #expect(try iapkit("package", folder, "-o", dir.file("out")).status == 1)
    }
}

/// Standard output and error that cannot be written, and values the archive formats cannot hold.
@Suite struct OutputFailureTests {
    let catalog = Paths.examples + "/catalog.yaml"

    func shell(_ script: String) throws -> ProcessResult {
        try run("/bin/bash", ["-c", script, Paths.binary, catalog])
    }

    @Test func fullOrClosedStandardOutputIsExitTwo() throws {
        for redirect in ["> /dev/full", ">&-"] {
            let result = try shell("\"$0\" lint catalog \"$1\" \(redirect)")
            #expect(result.status == 2, "\(redirect): \(result.status)")
            #expect(result.stderr.contains("error: standard output: cannot write"), "\(redirect): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
        }
        // An error with nowhere to report it still ends in exit 2, not a crash.
        let result = try shell("\"$0\" lint catalog /no/such/catalog.yaml 2>/dev/full; echo $? >&2")
        #expect(result.stderr == "2\n")
        let success = try shell("\"$0\" export json \"$1\" -o /dev/null 2>/dev/full; echo $? >&2")
        #expect(success.stderr == "2\n")
    }

    @Test func brokenPipeEndsQuietly() throws {
        let output = try python(
            """
            import os, subprocess, sys
            r, w = os.pipe()
            os.close(r)
            p = subprocess.run([sys.argv[1], 'lint', 'catalog', sys.argv[2]], stdout=w, stderr=subprocess.PIPE)
            print(p.returncode, repr(p.stderr.decode()))
            """, [Paths.binary, catalog])
        #expect(output == "2 ''\n")
    }

    @Test(arguments: [("pkg", "9223372036854775807"), ("zip", "9223372036854775807"), ("pkg", "4294967296"), ("zip", "2147483648")])
    func epochBeyondTheFormatIsRefused(format: String, epoch: String) throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: contentInfo(id: "com.example.app.one"))
        let result = try iapkit(["package", folder, "--format", format, "-o", dir.file("out")], environment: ["SOURCE_DATE_EPOCH": epoch])
        #expect(result.status == 2)
        #expect(result.stderr.contains("SOURCE_DATE_EPOCH \(epoch) cannot be stored in a \(format) archive"), "\(result.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.file("out"))) ?? []).isEmpty)
    }

    @Test func bumpKeepsTheFileMode() throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: contentInfo(id: "com.example.app.one"))
        chmod(folder + "/ContentInfo.plist", 0o600)
        #expect(try iapkit("bump", folder).status == 0)
        var info = stat()
        stat(folder + "/ContentInfo.plist", &info)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: folder + "/ContentInfo.plist", encoding: .utf8).contains("<string>1.0.1</string>"))
    }
}
