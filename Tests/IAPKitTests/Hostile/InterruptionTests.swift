import Foundation
import TestSupport
import Testing

/// Kills `package` at chosen stages and checks that the archives, manifest and lock at their final paths are
/// always one complete set, old or new.
@Suite(.serialized) struct InterruptionTests {
    /// Whether the files at the final paths agree: every archive the manifest names has its size and SHA-256, no
    /// other archive is there, and the lock records each product's digest and version. Prints the kiwi pack's version.
    func checkSet(output: String, lock: String) throws -> String {
        try python(
            """
            import hashlib, json, os, sys
            out, lock_path = sys.argv[1], sys.argv[2]
            m = json.load(open(out + '/iapkit-manifest.json'))
            lock = json.load(open(lock_path))['content']
            names = set()
            for p in m['packages']:
                data = open(os.path.join(out, p['fileName']), 'rb').read()
                assert p['size'] == len(data) and p['sha256'] == hashlib.sha256(data).hexdigest(), p['fileName']
                assert lock[p['productId']] == {'contentVersion': p['contentVersion'], 'digest': p['contentDigest']}, p['productId']
                names.add(p['fileName'])
            archives = {n for n in os.listdir(out) if n.endswith('.pkg')}
            assert archives == names, (archives, names)
            print(next(p['contentVersion'] for p in m['packages'] if p['productId'] == 'com.example.fruitstand.kiwi'))
            """, [output, lock])
    }

    /// Where a round's kill lands, as the files in the output folder and the project show it.
    enum Stage {
        case start, archive, manifestOrLock, journal

        func reached(_ output: String, _ project: String) -> Bool {
            func names(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }
            switch self {
            case .start: return true
            case .archive: return names(output).contains { $0.contains(".pkg.iapkit-") }
            case .manifestOrLock:
                return names(output).contains { $0.hasPrefix(".iapkit-manifest.json.iapkit-") }
                    || names(project).contains { $0.hasPrefix(".iapkit.lock.iapkit-") }
            case .journal: return names(output).contains(".iapkit-commit.json")
            }
        }
    }

    func temporaries(in folders: [String]) -> [String] {
        folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".iapkit-") }
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func killedAtEveryStageLeavesAWholeSet() throws {
        let dir = TemporaryDirectory()
        let project = dir.file("project")
        try run("/bin/cp", ["-R", Paths.examples, project])
        let kiwi = project + "/content/com.example.fruitstand.kiwi"
        // ~15 MB that compresses slowly, and many small files: a kill lands in the walk, the payload, the Bom,
        // the xar copy and the commit.
        _ = try python(
            """
            import os, random, sys
            root = sys.argv[1] + '/Contents'
            random.seed(3)
            for i in range(3):
                open(f'{root}/media{i}.bin', 'wb').write(random.randbytes(5_000_000))
            os.makedirs(root + '/tiles', exist_ok=True)
            for i in range(400):
                open(f'{root}/tiles/t{i:04d}.json', 'w').write('{"tile": %d}' % i)
            """, [kiwi])
        let catalog = project + "/catalog.yaml"
        let output = dir.file("out")
        let lock = project + "/iapkit.lock"
        var version = 1
        func change() throws {
            version += 1
            try "state \(version)".write(toFile: kiwi + "/Contents/state.txt", atomically: true, encoding: .utf8)
            #expect(try iapkit("bump", kiwi, "--set", "1.\(version)").status == 0)
        }
        try change()
        let start = Date()
        let first = try iapkit("package", "--catalog", catalog, "-o", output, "--jobs", "1")
        #expect(first.status == 0, "\(first.stderr)")
        let duration = Date().timeIntervalSince(start)
        var committed = try checkSet(output: output, lock: lock)

        let signals: [Int32] = [SIGINT, SIGTERM, SIGKILL]
        // Four stages against three signals: over 24 rounds every signal meets every stage.
        let stages: [Stage] = [.start, .archive, .manifestOrLock, .journal]
        var outcomes: [String: Int] = [:]
        for round in 0..<24 {
            try change()
            let signal = signals[round % signals.count]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            // One compression thread: the kills still land in every stage, and the rest of the suite keeps its cores.
            process.arguments = ["package", "--catalog", catalog, "-o", output, "--jobs", "1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The kill lands at a point this round chooses, seen from outside: at once, once an archive is being
            // written, once the manifest or the lock is staged, once the commit's journal is there.
            let stage = stages[round % stages.count]
            let deadline = Date().addingTimeInterval(max(60, duration * 20))
            while process.isRunning && Date() < deadline && !stage.reached(output, project) { usleep(1_000) }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
            outcomes["\(signal):\(status)", default: 0] += 1
            if FileManager.default.fileExists(atPath: output + "/.iapkit-commit.json") {
                // Only a SIGKILL inside the commit leaves the journal; the next run finishes that commit first.
                #expect(signal == SIGKILL)
                #expect(try iapkit("package", "--catalog", catalog, "-o", output).status == 0)
            }
            let versions = try checkSet(output: output, lock: lock)
            let new = "1.\(version)\n"
            #expect(versions == committed || versions == new, "round \(round): \(versions) is neither \(committed) nor \(new)")
            committed = versions
            if signal != SIGKILL {
                // Its own temporaries are gone; a SIGKILL round's may remain if this run was stopped before its sweep.
                let own = temporaries(in: [output, project]).filter { $0.contains(".iapkit-\(process.processIdentifier)-") }
                #expect([0, 128 + signal].contains(status), "round \(round): exit \(status)")
                #expect(own.isEmpty, "round \(round): \(own)")
            }
        }
        // Temporaries a SIGKILL left are removed by the next run.
        try change()
        #expect(try iapkit("package", "--catalog", catalog, "-o", output).status == 0)
        #expect(temporaries(in: [output, project]).isEmpty, "\(temporaries(in: [output, project]))")
        #expect(try checkSet(output: output, lock: lock) == "1.\(version)\n")
        print("interruption outcomes: \(outcomes.sorted { $0.key < $1.key })")
    }

    /// A temporary file of a process that no longer exists is removed; one of a live process is kept.
    @Test func staleTemporariesOfDeadProcessesAreRemoved() throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: contentInfo(id: "com.example.app.one"))
        let output = dir.file("out")
        let dead = try run("/bin/sh", ["-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        dir.write("out/.com.example.app.one.pkg.iapkit-\(dead)-AbC123", "stale")
        dir.write("out/.iapkit-manifest.json.iapkit-1-XyZ789", "pid 1 is alive")
        dir.write("out/.notours-123456", "kept")
        #expect(try iapkit("package", folder, "-o", output).status == 0)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: output))
        #expect(left == ["com.example.app.one.pkg", "iapkit-manifest.json", ".iapkit-manifest.json.iapkit-1-XyZ789", ".notours-123456"])
    }

    /// A journal left by a run killed mid-commit is finished by the next run before it reads anything.
    @Test func anInterruptedCommitIsFinishedByTheNextRun() throws {
        let dir = TemporaryDirectory()
        let folder = contentFolder(dir, plist: contentInfo(id: "com.example.app.one"))
        let output = dir.file("out")
        dir.write("out/iapkit-manifest.json", "old")
        dir.write("out/.iapkit-manifest.json.iapkit-999999-AbC123", "new")
        dir.write(
            "out/.iapkit-commit.json",
            """
            {"owner": 999999, "renames": [{"from": ".iapkit-manifest.json.iapkit-999999-AbC123", "to": "iapkit-manifest.json"},
                                          {"from": ".gone.iapkit-999999-XyZ789", "to": "gone"}]}
            """)
        // Lint errors stop this run right after recovery, so what recovery did is all that changed.
        dir.write("\((folder as NSString).lastPathComponent)/Contents/run.sh", "#!/bin/sh\n")
        #expect(try iapkit("package", folder, "-o", output).status == 1)
        #expect(try String(contentsOfFile: output + "/iapkit-manifest.json", encoding: .utf8) == "new")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: output)) == ["iapkit-manifest.json"])
    }
}
