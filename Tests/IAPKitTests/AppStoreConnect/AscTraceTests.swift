import Foundation
import TestSupport
import Testing

/// `--trace` and `--replay`: a trace of `asc pull` and `asc plan` against the project's fake holds no secret, reads
/// as JSON lines (and HAR), and replays to the same catalog and plan with no server and no credentials.
/// The traces in Tests/Fixtures/traces/ are re-recorded with `IAPKIT_RECORD=1 swift test --filter AscTraceTests`.
@Suite(.showsFakeLog) struct AscTraceTests {
    static let folder = Paths.fixtures + "/traces"
    static let pullTrace = folder + "/examples-pull.jsonl"
    static let planTrace = folder + "/examples-plan.jsonl"
    static let bundleID = "com.example.fruitstand"
    /// Credentials that cannot work: replay must not need any.
    static let noCredentials = [
        "ASC_KEY_ID": "", "ASC_ISSUER_ID": "", "ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": "",
        "ASC_API_URL": "",
    ]

    /// The examples with one French name changed, so the plan has a change to show beside the unchanged rest.
    static func project() throws -> TemporaryDirectory {
        let project = try AscSyncTests.project()
        let text = try String(contentsOfFile: project.file("catalog.yaml"), encoding: .utf8)
        _ = project.write("changed.yaml", text.replacingOccurrences(of: "name: Pack Banane", with: "name: Pack de bananes"))
        return project
    }

    static func pull(
        _ project: TemporaryDirectory, into folder: String, _ extra: [String],
        environment: [String: String]
    ) throws -> ProcessResult {
        try iapkit(
            ["asc", "pull", "--bundle-id", bundleID, "-o", project.file(folder + "/catalog.yaml")] + extra,
            environment: environment)
    }

    static func plan(_ project: TemporaryDirectory, _ extra: [String], environment: [String: String]) throws -> ProcessResult {
        try iapkit(
            ["asc", "plan", project.file("changed.yaml"), "--format", "json", "--show-unchanged"] + extra,
            environment: environment)
    }

    /// The catalog without its header, which names the app's id in the server that was read.
    static func body(_ yaml: String) -> String {
        yaml.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }.joined(separator: "\n")
    }

    /// The plan without the request budget, which the server that was read reports.
    static func changes(_ json: String) throws -> String {
        let plan = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let kept = ["changes": plan?["changes"] ?? [], "summary": plan?["summary"] ?? [:]]
        return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]), as: UTF8.self)
    }

    /// No token, no key: nothing that looks like a JWT or a PEM block, none of the key's lines, and every
    /// Authorization header reads `Bearer <redacted>`. Checked on the file's bytes, then each line read by Python.
    static func checkHoldsNoSecret(_ file: String, keyPEM: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("-----BEGIN") && !text.contains("PRIVATE KEY"), sourceLocation: sourceLocation)
        for line in keyPEM.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!text.contains(line), "a line of the private key is in \(file)", sourceLocation: sourceLocation)
        }
        #expect(
            text.firstMatch(of: #/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/#) == nil, "a JWT is in \(file)",
            sourceLocation: sourceLocation)
        #expect(!text.contains("Bearer ey"), sourceLocation: sourceLocation)
    }

    /// Each line one JSON object with the exchange's fields, read by Python's json; returns how many.
    static func checkJSONLines(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let output = try python(
            """
            import json, sys
            count = 0
            for number, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
                entry = json.loads(line)
                assert isinstance(entry, dict), number
                for key in ("started", "ms", "operation", "method", "url", "path", "query", "status", "requestHeaders",
                            "requestBody", "responseHeaders", "responseBody"):
                    assert key in entry, (number, key)
                assert entry["path"].startswith("/"), number
                auth = entry["requestHeaders"].get("authorization")
                assert auth in (None, "Bearer <redacted>"), (number, auth)
                body = entry["responseBody"]
                if entry["operation"] == "download":
                    assert set(body) == {"omitted", "size", "sha256"} and body["size"] > 0, number
                count += 1
            print(count)
            """, [file], sourceLocation: sourceLocation)
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test func aTracedPullAndPlanReplayToTheSameCatalogAndPlan() throws {
        let fake = try FakeAppStoreConnect(pageSize: 20)
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        #expect(try AscSyncTests.push(fake, project.file("catalog.yaml")).status == 0)

        let livePull = try Self.pull(project, into: "live", ["--trace", project.file("pull.jsonl")], environment: fake.environment)
        #expect(livePull.status == 0, "\(livePull.stderr)")
        let livePlan = try Self.plan(project, ["--trace", project.file("plan.jsonl")], environment: fake.environment)
        #expect(livePlan.status == 0, "\(livePlan.stderr)")
        #expect(livePlan.stdout.contains("Pack de bananes"))
        if Golden.recording {
            try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
            for (from, to) in [("pull.jsonl", Self.pullTrace), ("plan.jsonl", Self.planTrace)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: project.file(from), toPath: to)
            }
        }

        for trace in [project.file("pull.jsonl"), project.file("plan.jsonl")] {
            try Self.checkHoldsNoSecret(trace, keyPEM: fake.privateKeyPEM)
            #expect(try Self.checkJSONLines(trace) > 20)
        }
        let downloads = try String(contentsOfFile: project.file("pull.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { $0.contains(#""operation":"download""#) }
        #expect(downloads.count == 3, "one download per distinct review screenshot: six products share three images")

        // Replayed: no server, no credentials; the same catalog and the same plan, to the byte.
        let livePulled = try String(contentsOfFile: project.file("live/catalog.yaml"), encoding: .utf8)
        let replayedPull = try Self.pull(project, into: "replayed", ["--replay", project.file("pull.jsonl")], environment: Self.noCredentials)
        #expect(replayedPull.status == 0, "\(replayedPull.stderr)")
        #expect(try String(contentsOfFile: project.file("replayed/catalog.yaml"), encoding: .utf8) == livePulled)
        #expect(replayedPull.stderr.contains("3 review screenshots written from the trace hold a placeholder"), "\(replayedPull.stderr)")
        let replayedPlan = try Self.plan(project, ["--replay", project.file("plan.jsonl")], environment: Self.noCredentials)
        #expect(replayedPlan.status == 0, "\(replayedPlan.stderr)")
        #expect(replayedPlan.stdout == livePlan.stdout)

        // The committed traces give what the live fake gives today: when they do not, the fake or the reading
        // changed, and the fixtures are re-recorded on purpose.
        let fixturePull = try Self.pull(project, into: "fixture", ["--replay", Self.pullTrace], environment: Self.noCredentials)
        #expect(fixturePull.status == 0, "\(fixturePull.stderr)")
        #expect(Self.body(try String(contentsOfFile: project.file("fixture/catalog.yaml"), encoding: .utf8)) == Self.body(livePulled))
        let fixturePlan = try Self.plan(project, ["--replay", Self.planTrace], environment: Self.noCredentials)
        #expect(fixturePlan.status == 0, "\(fixturePlan.stderr)")
        #expect(try Self.changes(fixturePlan.stdout) == Self.changes(livePlan.stdout))
    }

    @Test func theCommittedTracesHoldNoSecretAndReadAsJSONLines() throws {
        for trace in [Self.pullTrace, Self.planTrace] {
            let text = try String(contentsOfFile: trace, encoding: .utf8)
            #expect(!text.contains("-----BEGIN") && text.firstMatch(of: #/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./#) == nil)
            #expect(try Self.checkJSONLines(trace) == text.split(separator: "\n").count)
        }
    }

    /// A trace written as HAR is an HTTP Archive 1.2 (read by Python's json), and replays like the JSON lines.
    @Test func aHARTraceIsAnHTTPArchiveAndReplays() throws {
        let project = try Self.project()
        let first = try Self.pull(
            project, into: "first",
            [
                "--replay", Self.pullTrace, "--trace", project.file("pull.har"),
                "--trace-format", "har",
            ], environment: Self.noCredentials)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = try String(contentsOfFile: Self.pullTrace, encoding: .utf8).split(separator: "\n").count
        let checked = try python(
            """
            import json, sys
            log = json.load(open(sys.argv[1], encoding="utf-8"))["log"]
            assert log["version"] == "1.2" and log["creator"]["name"] == "iapkit"
            for entry in log["entries"]:
                request, response = entry["request"], entry["response"]
                assert request["method"] == "GET" and request["url"].startswith("http"), request
                assert isinstance(response["status"], int) and "mimeType" in response["content"]
                assert isinstance(entry["time"], (int, float)) and entry["startedDateTime"]
                if entry["_operation"] == "download":
                    assert "text" not in response["content"] and "left out" in response["content"]["comment"]
                else:
                    json.loads(response["content"]["text"])
            print(len(log["entries"]))
            """, [project.file("pull.har")])
        // Every answer of the trace, once: the committed trace is a pull as it is made now (the example's six
        // screenshots are three images, each downloaded once).
        #expect(Int(checked.trimmingCharacters(in: .whitespacesAndNewlines)) == lines)

        let second = try Self.pull(project, into: "second", ["--replay", project.file("pull.har")], environment: Self.noCredentials)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            try String(contentsOfFile: project.file("second/catalog.yaml"), encoding: .utf8)
                == String(contentsOfFile: project.file("first/catalog.yaml"), encoding: .utf8))
    }

    /// A request the trace does not hold stops replay with exit 2 and names it; the trace of that failed run holds
    /// every exchange before the failure. Replay never writes.
    @Test func replayNamesWhatTheTraceDoesNotHoldAndNeverWrites() throws {
        let project = try Self.project()
        let text = try String(contentsOfFile: Self.pullTrace, encoding: .utf8)
        let kept = text.split(separator: "\n").filter { !$0.contains(#""path":"/v1/subscriptionGroups/"#) }
        let partial = project.write("partial.jsonl", kept.joined(separator: "\n") + "\n")
        let failed = try Self.pull(
            project, into: "partial", ["--replay", partial, "--trace", project.file("failed.jsonl")],
            environment: Self.noCredentials)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("partial.jsonl holds no answer to GET /v1/subscriptionGroups/"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.file("partial/catalog.yaml")))
        let traced = try Self.checkJSONLines(project.file("failed.jsonl"))
        #expect(traced > 0 && traced < kept.count)

        let push = try iapkit(
            ["asc", "push", project.file("catalog.yaml"), "--yes", "--replay", Self.planTrace],
            environment: Self.noCredentials)
        #expect(push.status == 2 && push.stderr.contains("push writes to App Store Connect; --replay"), "\(push.stderr)")
        let submit = try iapkit(
            ["asc", "submit", project.file("catalog.yaml"), "--yes", "--replay", Self.planTrace],
            environment: Self.noCredentials)
        #expect(submit.status == 2 && submit.stderr.contains("cannot write"), "\(submit.stderr)")

        let same = try Self.plan(project, ["--replay", partial, "--trace", partial], environment: Self.noCredentials)
        #expect(same.status == 2 && same.stderr.contains("would overwrite the trace --replay reads"), "\(same.stderr)")
        #expect(try String(contentsOfFile: partial, encoding: .utf8).split(separator: "\n").count == kept.count)

        let broken = project.write("broken.jsonl", kept.prefix(2).joined(separator: "\n") + "\n{\"method\": \n")
        let unreadable = try Self.plan(project, ["--replay", broken], environment: Self.noCredentials)
        #expect(unreadable.status == 2 && unreadable.stderr.contains("broken.jsonl:3: not a JSON object"), "\(unreadable.stderr)")
    }

    /// Retries are traced as they happened and replayed in their order; a push's trace keeps its JSON bodies but of
    /// each upload only the size and digest (checked against the screenshots with Python's hashlib), and no signed
    /// upload address.
    @Test func retriesReplayInOrderAndUploadsLeaveOnlyTheirDigest() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let project = try Self.project()
        try fake.control(
            "POST", "faults",
            [
                ["method": "GET", "pathPattern": "/", "status": 429, "count": 2, "retryAfter": 0, "when": "before", "afterNthMatch": 2],
                ["method": "GET", "pathPattern": "^/v1/territories", "status": 503, "count": 1, "when": "before"],
            ])
        let live = try Self.plan(project, ["--trace", project.file("plan.jsonl")], environment: fake.environment)
        #expect(live.status == 0, "\(live.stderr)")
        let trace = try String(contentsOfFile: project.file("plan.jsonl"), encoding: .utf8)
        #expect(trace.components(separatedBy: #""status":429"#).count - 1 == 2)
        #expect(trace.components(separatedBy: #""status":503"#).count - 1 == 1)
        let replayed = try Self.plan(project, ["--replay", project.file("plan.jsonl")], environment: Self.noCredentials)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == live.stdout)
        try fake.control("POST", "faults", [[String: Any]]())

        let push = try AscSyncTests.push(fake, project.file("catalog.yaml"), extra: ["--trace", project.file("push.jsonl")])
        #expect(push.status == 0, "\(push.stderr)")
        try Self.checkHoldsNoSecret(project.file("push.jsonl"), keyPEM: fake.privateKeyPEM)
        let uploads = try python(
            """
            import hashlib, json, os, sys
            shots = {hashlib.sha256(open(os.path.join(sys.argv[2], name), "rb").read()).hexdigest()
                     for name in os.listdir(sys.argv[2])}
            uploads = writes = 0
            for line in open(sys.argv[1], encoding="utf-8"):
                entry = json.loads(line)
                if entry["operation"] == "upload":
                    body = entry["requestBody"]
                    assert body["omitted"] == "upload" and body["sha256"] in shots, body
                    assert "?" not in entry["url"] and entry["query"] in (None, "<redacted>"), entry["url"]
                    uploads += 1
                elif entry["method"] in ("POST", "PATCH"):
                    assert "data" in entry["requestBody"]["json"], entry["path"]
                    writes += 1
            print(uploads, writes)
            """, [project.file("push.jsonl"), project.file("review")])
        let counts = uploads.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(counts.count == 2 && counts[0] >= 6 && counts[1] > 20, "\(uploads)")
    }
}
