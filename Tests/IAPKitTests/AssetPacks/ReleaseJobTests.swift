import Foundation
import TestSupport
import Testing

/// The release job of docs/ci.md as written: the `plan` and `push` jobs' steps, read from the page, run in order in
/// checkouts of a temporary repository against the fake App Store Connect, with the stand-in for Apple's packaging
/// tool, for an app with hosted content, asset packs, both or neither. Artifacts are folders the upload steps fill
/// and the download steps copy from, as GitHub keeps them for a run; a checkout has git's file modes.
@Suite(.showsFakeLog) struct ReleaseJobTests {
    enum App: String, CaseIterable, Sendable { case neither, hostedContent, assetPacks, both }

    /// One step of a documented job, as the page's workflow says it.
    struct Step {
        var kind: String
        var arguments: [String]
        var paths: [String]
        var artifact: String
        var usesKey: Bool
        var continueOnError: Bool
        var condition: String
        var script: String
    }

    /// The `plan` and `push` jobs of the workflow in docs/ci.md.
    static func jobs() throws -> [String: [Step]] {
        let out = try python(
            """
            import json, re, shlex, sys, yaml
            page = open(sys.argv[1], encoding='utf-8').read()
            blocks = [b for b in re.findall(r'^```yaml\\n(.*?)^```$', page, re.S | re.M) if 'jobs:' in b and 'release-plan' in b]
            assert len(blocks) == 1, len(blocks)
            jobs = yaml.safe_load(blocks[0])['jobs']
            result = {}
            for name in ('plan', 'push'):
                steps = []
                for step in jobs[name]['steps']:
                    uses, given = step.get('uses', ''), step.get('with') or {}
                    kind = ('checkout' if uses.startswith('actions/checkout') else 'iapkit' if uses.startswith('iapkit/iapkit')
                            else 'upload' if uses.startswith('actions/upload-artifact') else 'download' if uses.startswith('actions/download-artifact')
                            else 'run' if 'run' in step else 'unknown:' + uses)
                    steps.append({
                        'kind': kind, 'arguments': shlex.split(given.get('command', '')),
                        'paths': [p for p in str(given.get('path', '')).split('\\n') if p.strip()],
                        'artifact': given.get('name', ''), 'usesKey': 'ASC_KEY_ID' in (step.get('env') or {}),
                        'continueOnError': bool(step.get('continue-on-error', False)), 'condition': str(step.get('if', '')),
                        'script': step.get('run', '')})
                result[name] = steps
            print(json.dumps(result))
            """, [Paths.repository + "/docs/ci.md"])
        let decoded = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [[String: Any]]] ?? [:]
        return decoded.mapValues { steps in
            steps.map { step in
                Step(
                    kind: step["kind"] as? String ?? "", arguments: step["arguments"] as? [String] ?? [],
                    paths: step["paths"] as? [String] ?? [], artifact: step["artifact"] as? String ?? "",
                    usesKey: step["usesKey"] as? Bool ?? false, continueOnError: step["continueOnError"] as? Bool ?? false,
                    condition: step["condition"] as? String ?? "", script: step["script"] as? String ?? "")
            }
        }
    }

    /// The app's repository as a developer left it: the catalog, the packs' and the hosted content's files, and the
    /// iapkit.lock of a build on their machine, whose umask made the files group-writable (so Apple's tool, which
    /// records modes, wrote other archive bytes than a checkout will). The archives themselves are not committed.
    static func repository(_ app: App) throws -> TemporaryDirectory {
        let repository = try AssetPackFixture.project()
        let catalog = repository.file("catalog.yaml")
        var text = try String(contentsOfFile: catalog, encoding: .utf8)
        if app == .neither || app == .hostedContent {
            text = String(text[..<text.range(of: "assetPacks:\n")!.lowerBound])
            try FileManager.default.removeItem(atPath: repository.file("packs"))
        }
        if app == .hostedContent || app == .both {
            text = text.replacingOccurrences(
                of: "products:\n",
                with: """
                    products:
                      - productId: com.example.packs.forest
                        referenceName: Forest Levels
                        type: non-consumable
                        price: 0.99
                        hostedContent: content/com.example.packs.forest
                        localizations:
                          - locale: en-US
                            name: Forest Levels
                            description: Ten levels in the forest.
                        review:
                          note: Open Levels, tap Forest.
                          screenshot: review/level1.png

                    """)
            let created = try iapkit("new-content", "com.example.packs.forest", "-o", repository.file("content"), "--template", "level-pack")
            #expect(created.status == 0, "\(created.stderr)")
        }
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        _ = try run("/bin/chmod", ["-R", "g+w", repository.path])
        let environment = AssetPackFixture.toolEnvironment(log: repository.file("build/tool.log"))
        if app == .hostedContent || app == .both {
            let built = try iapkit(["package", "--catalog", "catalog.yaml", "--output", "build/iap"], in: repository.path)
            #expect(built.status == 0, "\(built.stderr)")
        }
        if app == .assetPacks || app == .both {
            let built = try iapkit(
                ["package", "--catalog", "catalog.yaml", "--asset-packs", "--output", "build/packs"], in: repository.path, environment: environment)
            #expect(built.status == 0, "\(built.stderr)")
        }
        try? FileManager.default.removeItem(atPath: repository.file("build"))
        // In git, on the release branch, with the team's remote (a bare repository beside it) as `origin`.
        for arguments in [["init", "-q", "-b", "release"], ["add", "."], ["commit", "-q", "-m", "the catalog"]] {
            try git(repository.path, arguments)
        }
        try git(repository.path, ["init", "-q", "--bare", "-b", "release", Self.origin(repository)])
        for arguments in [["remote", "add", "origin", Self.origin(repository)], ["push", "-q", "origin", "release"]] {
            try git(repository.path, arguments)
        }
        return repository
    }

    /// The team's remote: what a job pushes reaches it.
    static func origin(_ repository: TemporaryDirectory) -> String { repository.file(".origin.git") }

    @discardableResult
    static func git(_ folder: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try run("/usr/bin/env", ["git", "-C", folder, "-c", "user.name=Team", "-c", "user.email=team@example.com"] + arguments)
        #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// A fresh checkout: the repository's files with the modes git gives them (644, or 755 when executable).
    static func checkout(_ repository: TemporaryDirectory, into job: TemporaryDirectory) throws {
        _ = try run("/bin/cp", ["-R", repository.path + "/.", job.path])
        _ = try python(
            """
            import os, stat, sys
            for root, dirs, files in os.walk(sys.argv[1]):
                for d in dirs: os.chmod(os.path.join(root, d), 0o755)
                for f in files:
                    p = os.path.join(root, f)
                    os.chmod(p, 0o755 if os.stat(p).st_mode & 0o111 else 0o644)
            """, [job.path])
    }

    /// Runs one job's steps in a fresh checkout; `artifacts` holds each artifact's folder by name.
    static func runJob(
        _ steps: [Step], app: App, repository: TemporaryDirectory, artifacts: TemporaryDirectory, fake: FakeAppStoreConnect
    ) throws -> [String: ProcessResult] {
        let job = TemporaryDirectory()
        var environment: [String: String] = [:]
        var results: [String: ProcessResult] = [:]
        for step in steps {
            switch step.kind {
            case "checkout":
                try checkout(repository, into: job)
            case "run" where step.script.contains("git add .iapkit"):
                // The push job commits the base it recorded, as written.
                let script = try run("/bin/bash", ["-euo", "pipefail", "-c", step.script], in: job.path)
                #expect(script.status == 0, "the base step: \(script.stdout)\(script.stderr)")
            case "run":
                // The other script step fetches Apple's packaging tool, when the repository names it.
                #expect(step.script.contains("IAPKIT_BA_PACKAGE=") && step.condition.contains("vars.BA_PACKAGE_URL"), "\(step.script)")
                if app == .assetPacks || app == .both {
                    environment.merge(AssetPackFixture.toolEnvironment(log: job.file("tool.log"))) { $1 }
                }
            case "iapkit":
                let result = try iapkit(step.arguments, in: job.path, environment: environment.merging(step.usesKey ? fake.environment : [:]) { $1 })
                results[step.arguments.prefix(2).joined(separator: " ")] = result
                #expect(
                    result.status == 0 || step.continueOnError,
                    "iapkit \(step.arguments.joined(separator: " ")) for \(app): exit \(result.status)\n\(result.stdout)\(result.stderr)")
            case "upload":
                let folder = artifacts.file(step.artifact)
                try? FileManager.default.removeItem(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for path in step.paths.map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: "/ ")) })
                where FileManager.default.fileExists(atPath: job.file(path)) {
                    let target = folder + "/" + path
                    try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    _ = try run("/bin/cp", ["-R", job.file(path), target])
                }
            case "download":
                let folder = artifacts.file(step.artifact)
                guard FileManager.default.fileExists(atPath: folder) else {
                    #expect(step.continueOnError, "the artifact \(step.artifact) is missing")
                    continue
                }
                _ = try run("/bin/cp", ["-R", folder + "/.", job.path])
            default:
                Issue.record("a step of the documented job this test cannot run: \(step.kind)")
            }
        }
        return results
    }

    @Test(arguments: App.allCases)
    func theDocumentedPlanAndPushJobsRunAsWritten(app: App) throws {
        let jobs = try Self.jobs()
        let plan = try #require(jobs["plan"]), push = try #require(jobs["push"])
        #expect(plan.map(\.kind).filter { $0 == "iapkit" }.count == 3)
        #expect(push.contains { $0.kind == "iapkit" && $0.arguments.starts(with: ["asc", "push", "--plan"]) })
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: AscAssetPackTests.bundleID)
        let repository = try Self.repository(app)
        let artifacts = TemporaryDirectory()

        let planned = try Self.runJob(plan, app: app, repository: repository, artifacts: artifacts, fake: fake)
        #expect(planned["asc plan"]?.status == 0)
        let handedOver = artifacts.file("release-plan")
        #expect(FileManager.default.fileExists(atPath: handedOver + "/release.plan.json"))
        let packs = app == .assetPacks || app == .both, hosted = app == .hostedContent || app == .both
        #expect(FileManager.default.fileExists(atPath: handedOver + "/iapkit.lock") == (packs || hosted))
        #expect(FileManager.default.fileExists(atPath: handedOver + "/build/packs/level1.aar") == packs)
        #expect(FileManager.default.fileExists(atPath: handedOver + "/build/iap/com.example.packs.forest.pkg") == hosted)
        if packs {
            // The checkout's modes gave the pack the same content digest, so the lock's entry still matched; the
            // archive was built again in the job and Apple's tool (like the stand-in) recorded other modes: the
            // committed lock names other bytes than the job's, which is why the lock goes with the plan.
            let committed = try String(contentsOfFile: repository.file("iapkit.lock"), encoding: .utf8)
            let built = try String(contentsOfFile: handedOver + "/iapkit.lock", encoding: .utf8)
            #expect(Self.digests(committed) == Self.digests(built), "modes are not content")
            #expect(committed != built, "the archive the job built differs from the developer's")
        }

        let pushed = try Self.runJob(push, app: app, repository: repository, artifacts: artifacts, fake: fake)
        #expect(pushed["asc push"]?.status == 0)
        let products = try AscSyncTests.resources(fake, "inAppPurchases").compactMap { ($0["attributes"] as? [String: Any])?["productId"] as? String }
        #expect(Set(products) == Set(["com.example.packs.level1"] + (hosted ? ["com.example.packs.forest"] : [])), "\(products)")
        let versions = try AscSyncTests.resources(fake, "backgroundAssetVersions").compactMap {
            ($0["attributes"] as? [String: Any])?["state"] as? String
        }
        #expect(versions == (packs ? ["COMPLETE", "COMPLETE", "COMPLETE"] : []), "\(versions)")

        // The base the push recorded is on the release branch, for the nightly job and the next release.
        let origin = Self.origin(repository)
        let base = try run("/usr/bin/env", ["git", "--git-dir", origin, "show", "release:.iapkit/base/catalog.yaml"])
        #expect(base.status == 0 && base.stdout.contains("com.example.packs.level1"), "\(base.stderr)")

        // The push job run again (a re-run) fetches the journal the first run kept, so nothing is sent twice, and
        // finds the base already on the release branch.
        #expect(FileManager.default.fileExists(atPath: artifacts.file("release-push-journal/release.plan.json.applied")))
        let again = try Self.runJob(push, app: app, repository: repository, artifacts: artifacts, fake: fake)
        #expect(again["asc push"]?.status == 0)
        #expect(try AscSyncTests.resources(fake, "backgroundAssetVersions").count == versions.count)
        let commits = try run("/usr/bin/env", ["git", "--git-dir", origin, "rev-list", "--count", "release"])
        #expect(commits.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "the catalog, then its base once")
    }

    /// Each pack's content digest in a lock's text.
    static func digests(_ lock: String) -> [String] {
        lock.split(separator: "\n").filter { $0.contains("\"contentDigest\"") }.map { String($0) }
    }
}
