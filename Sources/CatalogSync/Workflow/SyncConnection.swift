import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// A trace's format (`--trace-format`).
public typealias TraceFormat = ASCTrace.Format

/// How an `asc` command reaches App Store Connect: the API key, the server, the app, and the trace to record into
/// or answer from. Options left nil are taken from the environment given (`ASC_KEY_ID`, `ASC_ISSUER_ID`,
/// `ASC_PRIVATE_KEY_PATH` or `ASC_PRIVATE_KEY`, `ASC_API_URL`).
public struct SyncConnection: Sendable {
    public var keyID: String?
    public var issuerID: String?
    /// The API key's `.p8` file.
    public var privateKeyPath: String?
    public var apiURL: String?
    /// The app's App Store Connect id, found from the catalog's bundle ID when nil.
    public var appID: String?
    /// How many products are read at once.
    public var concurrency = 4
    /// The file every request and answer is recorded into.
    public var trace: String?
    public var traceFormat = defaultTraceFormat
    public static let defaultTraceFormat: TraceFormat = .jsonl
    /// A trace that answers instead of App Store Connect (reads only).
    public var replay: String?
    /// The environment the credentials and the server are taken from where no option gives them.
    public var environment: [String: String] = [:]
    /// Written into traces, for a bug report.
    public var toolVersion = ""

    public init() {}

    /// Writes have nothing to replay: a trace can only answer what was read.
    public func refuseReplay(_ command: String) throws(IAPKitError) {
        if replay != nil {
            throw .invalidArgument("\(command) writes to App Store Connect; --replay answers reads from a trace and cannot write")
        }
    }

    /// The API key from the options, else the environment; every missing part is named at once.
    func credentials() throws(IAPKitError) -> ASCCredentials {
        func value(_ option: String?, _ variable: String) -> String? {
            (option ?? environment[variable]).flatMap { $0.trimmingSpaces(andNewlines: true).isEmpty ? nil : $0 }
        }
        var missing: [String] = []
        let keyID = value(self.keyID, "ASC_KEY_ID")
        let issuerID = value(self.issuerID, "ASC_ISSUER_ID")
        if keyID == nil { missing.append("--key-id or ASC_KEY_ID") }
        if issuerID == nil { missing.append("--issuer-id or ASC_ISSUER_ID") }
        let path = value(privateKeyPath, "ASC_PRIVATE_KEY_PATH")
        let pem = privateKeyPath == nil ? value(nil, "ASC_PRIVATE_KEY") : nil
        if path == nil && pem == nil { missing.append("--private-key, ASC_PRIVATE_KEY_PATH or ASC_PRIVATE_KEY") }
        guard let keyID, let issuerID, missing.isEmpty else {
            throw .invalidArgument(
                "App Store Connect credentials are missing: set \(missing.joined(separator: "; ")) "
                    + "(see docs/asc.md, Setting up an API key)")
        }
        if let path {
            do { return try ASCCredentials.load(keyID: keyID, issuerID: issuerID, privateKeyPath: path) } catch {
                throw .invalidArgument(error.description)
            }
        }
        // A secret pasted on one line often carries its line breaks as the two characters `\n`.
        var text = pem ?? ""
        if !text.contains("\n") && text.contains("\\n") { text = text.replacingAll("\\n", with: "\n") }
        do {
            let credentials = ASCCredentials(keyID: keyID, issuerID: issuerID, privateKeyPEM: text)
            _ = try ASCTokenProvider(credentials: credentials)
            return credentials
        } catch {
            throw .invalidArgument("ASC_PRIVATE_KEY does not hold the API key's PEM text (-----BEGIN PRIVATE KEY----- ...): \(error.description)")
        }
    }

    /// The client: App Store Connect, or the `replay` trace; recording into `trace`.
    func client() throws -> AppStoreConnectClient {
        do {
            if let replay {
                if let trace, Path.standardized(trace) == Path.standardized(replay) {
                    throw IAPKitError.invalidArgument("--trace \(trace) would overwrite the trace --replay reads; give another file")
                }
                let answers = try ASCReplay(path: replay)
                return try AppStoreConnectClient(replaying: answers, trace: openTrace())
            }
            // The credentials are checked before the trace file is created, so a refusal leaves no empty trace.
            let credentials = try credentials()
            let server = try serverURL()
            return try AppStoreConnectClient(credentials: credentials, serverURL: server, trace: openTrace())
        } catch let error as ASCError {
            throw IAPKitError.invalidArgument(error.description)
        }
    }

    private func openTrace() throws(ASCError) -> ASCTrace? {
        guard let trace else { return nil }
        return try ASCTrace(path: trace, format: traceFormat, version: toolVersion)
    }

    private func serverURL() throws(IAPKitError) -> URL {
        guard let text = apiURL ?? environment["ASC_API_URL"] else { return AppStoreConnectClient.defaultServerURL }
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw .invalidArgument("--api-url \(text) is not an http(s) URL")
        }
        return url
    }

    /// The app by `appID`, the catalog's `app.appId`, or found from its bundle ID (`catalog`'s, when it names one).
    func app(_ reader: StoreReader, bundleID: String?, catalogAppID: String? = nil, catalog: Catalog? = nil) async throws -> StoreApp {
        if let id = appID ?? catalogAppID { return StoreApp(id: id, bundleID: bundleID ?? "") }
        guard let bundleID, !bundleID.trimmingSpaces().isEmpty else {
            if let catalog, catalog.app.bundleID != nil {
                throw IAPKitError.malformed(
                    location: catalog.location(of: CatalogPath.root / "app" / "bundleId"),
                    reason: "`app.bundleId` is empty, so there is no bundle ID to find the app by; "
                        + "set it (`iapkit lint catalog` reports it as `bundle-id`), or pass --app-id")
            }
            throw IAPKitError.invalidArgument("no bundle ID to find the app by: set app.bundleId in the catalog, or pass --app-id")
        }
        return try await reader.app(bundleID: bundleID)
    }
}
