import Foundation
import Testing

/// Paths and helpers shared by every test target: the pure ones (libraries only) and the end-to-end one (the binary
/// and the fake App Store Connect).
public enum Paths {
    /// The repository root, found from this file's location.
    public static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    public static let fixtures = repository + "/Tests/Fixtures"
    /// The tests' own copy of the example project (catalog, hosted content, review screenshots). Tests read this
    /// one, never `examples/`, so the demo can change without moving a line number a test depends on.
    public static let examples = fixtures + "/catalogs/examples"
    /// `examples`' catalog, relative to `fixtures` (reports name the catalog as given, so golden files hold this).
    public static let examplesCatalog = "catalogs/examples/catalog.yaml"
    /// Synthetic StoreKit configurations of every format version, written for these tests.
    public static let storeKitFixtures = fixtures + "/storekit"
    /// The project's StoreKit configuration schema, written from Xcode-written files; only the tests use it.
    public static let storeKitSchema = fixtures + "/schemas/storekit.schema.json"
    /// The catalog's JSON Schema, as `iapkit init` and `import storekit` write it beside a catalog.
    public static let catalogSchema = repository + "/schemas/catalog.schema.json"
    /// Independent checkers (test oracles) that share no code with iapkit.
    public static let oracles = repository + "/Tests/Oracles"
    public static let checkXar = oracles + "/check-xar.py"

    /// The `iapkit` binary the test run built.
    public static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["IAPKIT_BIN"] { return path }
        for configuration in ["debug", "release"] {
            let path = repository + "/.build/\(configuration)/iapkit"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return repository + "/.build/debug/iapkit"
    }()
}

/// Third-party references the conformance suite checks against: the OASIS SARIF schema, Apple's App Store Connect
/// OpenAPI document, real Xcode-written `.storekit` files. They live outside the repository, in `IAPKIT_REFERENCE`
/// (default: the folder `shared` beside the repository); without it the conformance suite is skipped, never passed.
public enum Reference {
    public static let folder: String = {
        let configured = ProcessInfo.processInfo.environment["IAPKIT_REFERENCE"] ?? ""
        if configured.isEmpty { return (Paths.repository as NSString).deletingLastPathComponent + "/shared" }
        return configured.hasPrefix("/") ? configured : Paths.repository + "/" + configured
    }()

    /// Present means the tests run, and fail on anything missing inside it.
    public static let available: Bool = {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
    }()

    public static let skipReason = Comment(rawValue: "reference folder \(folder) not found (set IAPKIT_REFERENCE to run conformance tests)")

    public static let sarifSchema = folder + "/reference/sarif-schema-2.1.0.json"
    public static let openAPI = folder + "/reference/app-store-connect-openapi.json"
    public static let storeKitSchema = folder + "/reference/storekit.schema.json"
    public static let xarDump = folder + "/tools/xardump.py"
    public static let storeKitFixtures = folder + "/fixtures/storekit"

    /// The real `.storekit` files, or none when the folder is absent.
    public static let realStoreKitFiles: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: storeKitFixtures)) ?? [])
        .filter { $0.hasSuffix(".storekit") }.sorted()
}

/// A temporary folder removed when the test ends.
public final class TemporaryDirectory {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "iapkit-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ relative: String) -> String { path + "/" + relative }

    @discardableResult
    public func write(_ relative: String, _ text: String) -> String {
        write(relative, Data(text.utf8))
    }

    @discardableResult
    public func write(_ relative: String, _ data: Data) -> String {
        let target = file(relative)
        try! FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! data.write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Every path below the folder with its size, to prove a refused command changed nothing.
    public func snapshot() -> [String: Int] {
        var result: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file(relative))
            result[relative] = (attributes?[.size] as? Int) ?? -1
        }
        return result
    }
}

extension TemporaryDirectory {
    /// Every path below `path` with its bytes (a folder's are empty), to prove a failing command changed nothing.
    public static func contents(of path: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            result[relative] = FileManager.default.contents(atPath: path + "/" + relative) ?? Data()
        }
        return result
    }

    public func contents() -> [String: Data] { Self.contents(of: path) }
}

/// SplitMix64: the same values for the same seed, so a failing case can be run again.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public struct ProcessResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs a program and collects its output.
@discardableResult
public func run(
    _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
    input: Data? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    // Output goes to files, read once the child has exited: pipe reads can come back short when the test process
    // is signalled (SIGCHLD from other tests' children), which made heavily parallel runs flaky.
    let base = NSTemporaryDirectory() + "iapkit-run-" + UUID().uuidString
    // Standard input comes from a file too, never a Pipe: Process closes a Pipe's read end itself, and the Pipe
    // closes the same number again when it is freed, by then often another test's descriptor.
    FileManager.default.createFile(atPath: base + ".in", contents: input ?? Data())
    FileManager.default.createFile(atPath: base + ".out", contents: nil)
    FileManager.default.createFile(atPath: base + ".err", contents: nil)
    defer {
        for suffix in [".in", ".out", ".err"] { try? FileManager.default.removeItem(atPath: base + suffix) }
    }
    let inFile = try FileHandle(forReadingFrom: URL(fileURLWithPath: base + ".in"))
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".out"))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".err"))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inFile
    try process.run()
    process.waitUntilExit()
    try? inFile.close()
    try? out.close()
    try? err.close()
    let outData = FileManager.default.contents(atPath: base + ".out") ?? Data()
    let errData = FileManager.default.contents(atPath: base + ".err") ?? Data()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs the built `iapkit`.
@discardableResult
public func iapkit(_ arguments: String..., in directory: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
    try run(Paths.binary, arguments, in: directory, environment: environment)
}

@discardableResult
public func iapkit(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
    try run(Paths.binary, arguments, in: directory, environment: environment)
}

/// Runs a Python snippet (an independent checker) and returns its standard output; fails the test on error.
public func python(_ script: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let result = try run("/usr/bin/env", ["python3", "-c", script] + arguments)
    #expect(result.status == 0, "python failed: \(result.stderr)", sourceLocation: sourceLocation)
    return result.stdout
}

/// Whether a command-line tool is on PATH.
public func hasTool(_ name: String) -> Bool {
    (try? run("/usr/bin/env", ["which", name]).status == 0) ?? false
}

/// Golden files in Tests/Fixtures/golden: compared, or written when `IAPKIT_RECORD=1` (review the diff).
public enum Golden {
    public static let recording = ProcessInfo.processInfo.environment["IAPKIT_RECORD"] == "1"

    public static func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = Paths.fixtures + "/golden/" + name
        if recording {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            actual == expected, "\(name) differs from its golden file; re-record with IAPKIT_RECORD=1 if intended",
            sourceLocation: sourceLocation)
    }
}

/// A throwaway P-256 key in PKCS#8 PEM, made by Python's `cryptography` (an independent implementation).
public func makeTestKeyPEM(curve: String = "SECP256R1") throws -> String {
    try python(
        """
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives import serialization
        key = ec.generate_private_key(ec.\(curve)())
        print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode(), end="")
        """)
}

/// A clock the test moves by hand.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date
    public init(_ date: Date) { self.date = date }
    public var now: Date { lock.withLock { date } }
    public func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
}
