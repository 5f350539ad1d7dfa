import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// The project's fake App Store Connect (`Tests/FakeAppStoreConnect/fake_asc.py`), started on loopback for one test
/// with a throwaway API key. It checks every token and request body the way App Store Connect does, and with the
/// reference folder present validates them against Apple's OpenAPI document too.
final class FakeAppStoreConnect: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let url: String
    let keyID = "FAKEKEY123"
    let issuerID = "69a6de7e-0000-47e3-e053-5b8c7c11a4d1"
    let folder = TemporaryDirectory()
    /// The API key the tests hand to iapkit (a `.p8` file) and its PEM text.
    let privateKeyPath: String
    let privateKeyPEM: String

    init(pageSize: Int? = nil, openAPI: String? = FakeAppStoreConnect.openAPIDocument) throws {
        let key = P256.Signing.PrivateKey()
        privateKeyPEM = key.pemRepresentation
        privateKeyPath = folder.write("AuthKey_\(keyID).p8", privateKeyPEM)
        let publicKey = folder.write("public.pem", key.publicKey.pemRepresentation)
        var arguments = [
            Paths.repository + "/Tests/FakeAppStoreConnect/fake_asc.py", "--port", "0", "--key-id", keyID,
            "--issuer-id", issuerID, "--public-key", publicKey, "--log-requests",
        ]
        if let openAPI { arguments += ["--openapi", openAPI] }
        if let pageSize { arguments += ["--page-size", String(pageSize)] }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        // The fake's own log (a line per request, and any error of its own) goes with a failing test's issues.
        let log = folder.write("fake.log", "")
        process.standardError = FileHandle(forWritingAtPath: log)
        FakeLogs.register(log)
        try process.run()
        // The first line names the port; the fake exits when our end of its standard input closes.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([10]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://") else { throw FakeError.didNotStart(text) }
        url = String(text[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
        // A budget no test reaches unless it means to; and pages this small whatever `limit` asks for, so every list
        // is read through links.next.
        var settings: [String: Any] = ["rateLimit": 1_000_000]
        if let pageSize { settings["maxPageSize"] = pageSize }
        try control("POST", "settings", settings)
    }

    /// Apple's OpenAPI document when the reference folder has it: the fake then validates against it too.
    static var openAPIDocument: String? {
        FileManager.default.fileExists(atPath: Reference.openAPI) ? Reference.openAPI : nil
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    enum FakeError: Error { case didNotStart(String), control(String) }

    /// Credentials in the environment, as a CI job passes them.
    var environment: [String: String] {
        ["ASC_KEY_ID": keyID, "ASC_ISSUER_ID": issuerID, "ASC_PRIVATE_KEY_PATH": privateKeyPath, "ASC_API_URL": url]
    }

    // MARK: Control API

    /// Edits made the way App Store Connect's web pages make them: through the public API with a signed token
    /// (`web_edit.py`), so the fake's contract checks apply to them as to iapkit.
    func webEdit(app: String, _ edits: [[String: String]]) throws {
        let web = try run(
            "/usr/bin/env",
            [
                "python3", Paths.repository + "/Tests/FakeAppStoreConnect/web_edit.py", app,
                String(decoding: try JSONSerialization.data(withJSONObject: edits), as: UTF8.self),
            ],
            environment: environment)
        guard web.status == 0 else { throw FakeError.control("web_edit.py: \(web.stderr)") }
    }

    @discardableResult
    func control(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any {
        var request = URLRequest(url: URL(string: url + "/__fake/" + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Data?, URLResponse?, Error?)
        URLSession.shared.dataTask(with: request) { data, response, error in
            result = (data, response, error)
            semaphore.signal()
        }.resume()
        semaphore.wait()
        if let error = result.2 { throw FakeError.control("\(path): \(error)") }
        let status = (result.1 as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw FakeError.control("\(path): HTTP \(status) \(String(decoding: result.0 ?? Data(), as: UTF8.self))")
        }
        guard let data = result.0, !data.isEmpty else { return [:] as [String: Any] }
        return try JSONSerialization.jsonObject(with: data)
    }

    /// Seeds an app and returns its id.
    func addApp(bundleID: String, name: String = "Fruit Stand") throws -> String {
        let answer = try control("POST", "apps", ["bundleId": bundleID, "name": name]) as? [String: Any]
        return (answer?["id"] as? String) ?? ""
    }

    /// Every API request the fake saw, oldest first.
    func requests() throws -> [[String: Any]] {
        let answer = try control("GET", "requests")
        if let list = answer as? [[String: Any]] { return list }
        return ((answer as? [String: Any])?["requests"] as? [[String: Any]]) ?? []
    }

    func writeCount() throws -> Int { try requests().filter { ($0["write"] as? Bool) == true }.count }
}

/// The logs of the fakes a test started, keyed by the test, so an issue recorded in it carries them
/// (`.showsFakeLog`): a failure against the fake shows what the fake saw and said.
enum FakeLogs {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var logs: [Test.ID: [String]] = [:]

    static let heading = "the fake App Store Connect's log"

    static func register(_ path: String) {
        guard let test = Test.current?.id else { return }
        lock.withLock { logs[test, default: []].append(path) }
    }

    /// The last lines of each log of the current test's fakes.
    static func tails(lines: Int = 40) -> [String] {
        guard let test = Test.current?.id else { return [] }
        return lock.withLock { logs[test] ?? [] }.map { path in
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
            return "\(heading) (\(path), last \(lines) lines):\n" + tail
        }
    }
}

extension Trait where Self == IssueHandlingTrait {
    /// Adds the log of every fake the test started to each issue it records.
    static var showsFakeLog: Self {
        .compactMapIssues { issue in
            // A suite's trait reaches its tests too: the logs go on once.
            guard !issue.comments.contains(where: { $0.rawValue.hasPrefix(FakeLogs.heading) }) else { return issue }
            var issue = issue
            issue.comments += FakeLogs.tails().map { Comment(rawValue: $0) }
            return issue
        }
    }
}
