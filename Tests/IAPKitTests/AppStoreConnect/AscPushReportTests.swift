import Foundation
import TestSupport
import Testing

/// What a push says when it does not run to the end (interrupted, declined), and how every `asc` command finds the
/// app from the catalog, pull included.
@Suite(.showsFakeLog)
struct AscPushReportTests {
    static let bundleID = AscSyncTests.bundleID

    @Test func anInterruptedPushSaysWhatItWroteAndPushAgainFinishesIt() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        // The fifth write's answer waits: the signal lands there, in the middle of the writes, however fast the machine.
        try fake.control("POST", "settings", ["holdWrite": 5])
        let project = try AscSyncTests.project()
        let catalog = project.file("catalog.yaml")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = ["asc", "push", catalog, "--yes"]
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in fake.environment { environment[key] = value }
        process.environment = environment
        let errorFile = project.file("push.err")
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        process.standardError = errors
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while try fake.writeCount() < 5 && process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(process.isRunning, "the push ended before its fifth write")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try fake.control("POST", "settings", ["holdWrite": NSNull()])
        try errors.close()
        let stderr = try String(contentsOfFile: errorFile, encoding: .utf8)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted. Written to App Store Connect: "), "\(stderr)")
        #expect(stderr.contains("Run `iapkit asc push` again to finish"), "\(stderr)")
        #expect(!stderr.contains("partial output removed"), "a push leaves no files to speak of")

        let resumed = try AscSyncTests.push(fake, catalog)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let writes = try fake.writeCount()
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        #expect(try fake.writeCount() == writes, "the second run finished the job")
    }

    @Test func answeringNoWritesNothingAndSucceeds() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try AscSyncTests.project()
        // `script` gives the push a terminal, where it asks before writing.
        let command = "'\(Paths.binary)' asc push '\(project.file("catalog.yaml"))'"
        let result = try run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: fake.environment, input: Data("n\n".utf8))
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("Answered no: nothing written."), "\(result.stdout)")
        #expect(try fake.writeCount() == 0)
    }

    @Test func pullFindsTheAppFromTheCatalogBesideIt() throws {
        let fake = try FakeAppStoreConnect()
        let appID = try fake.addApp(bundleID: Self.bundleID)
        let project = try AscSyncTests.project()
        #expect(try AscSyncTests.push(fake, project.file("catalog.yaml")).status == 0)

        // No --bundle-id: the catalog.yaml beside the output names the app, as it does for plan and push.
        let beside = try iapkit(["asc", "pull", "-o", "pulled.yaml"], in: project.path, environment: fake.environment)
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(try String(contentsOfFile: project.file("pulled.yaml"), encoding: .utf8).contains("com.example.fruitstand.banana"))
        #expect(FileManager.default.fileExists(atPath: project.file("catalog.schema.json")), "the $schema comment names a file that exists")

        // Pulled into a folder of its own, the catalog.yaml in the folder above names the app.
        let below = try iapkit(["asc", "pull", "-o", "pulled/catalog.yaml"], in: project.path, environment: fake.environment)
        #expect(below.status == 0, "\(below.stderr)")
        #expect(try String(contentsOfFile: project.file("pulled/catalog.yaml"), encoding: .utf8).contains("com.example.fruitstand.banana"))

        // --catalog names it from elsewhere; a catalog's app.appId is used as --app-id would be.
        let elsewhere = TemporaryDirectory()
        let named = elsewhere.write(
            "named.yaml", "schemaVersion: 1\napp:\n  bundleId: com.example.unknown\n  appId: \"\(appID)\"\n  primaryLocale: en-US\nproducts: []\n")
        let pulled = try iapkit(["asc", "pull", "-o", elsewhere.file("out/catalog.yaml"), "--catalog", named], environment: fake.environment)
        #expect(pulled.status == 0, "\(pulled.stderr)")

        // Without any catalog there is nothing to find the app by, and the message says what to give.
        let empty = TemporaryDirectory()
        let none = try iapkit(["asc", "pull", "-o", "catalog.yaml"], in: empty.path, environment: fake.environment)
        #expect(none.status == 2, "\(none.stderr)")
        #expect(
            none.stderr.contains("no catalog names the app to pull (none at catalog.yaml): pass --catalog PATH, --bundle-id ID or --app-id ID"),
            "\(none.stderr)")
    }
}
