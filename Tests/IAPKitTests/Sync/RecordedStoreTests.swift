import AppStoreConnect
@testable import CatalogSync
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import IAPCatalog
import OpenAPIRuntime
import TestSupport
import Testing

/// The reading side of the resource kinds, over App Store Connect responses recorded from the project's fake
/// (which enforces Apple's published contract) after a push of the examples: no server, no network, a second.
/// Re-record with `IAPKIT_RECORD=1 swift test --filter RecordedStoreTests` (it starts the fake and pushes first).
@Suite(.showsFakeLog) struct RecordedStoreTests {
    static let recording = Paths.fixtures + "/recorded/examples-pushed.json"

    /// The examples read back from App Store Connect plan to nothing: every kind read what it wrote.
    @Test func theExamplesReadBackFromRecordedResponsesPlanToNothing() async throws {
        let transport: any ClientTransport
        let replay: ReplayTransport?
        var fake: FakeAppStoreConnect?
        if ProcessInfo.processInfo.environment["IAPKIT_RECORD"] == "1" {
            let started = try FakeAppStoreConnect()
            _ = try started.addApp(bundleID: "com.example.fruitstand")
            let project = TemporaryDirectory()
            for item in ["catalog.yaml", "content", "review"] {
                try FileManager.default.copyItem(atPath: Paths.examples + "/" + item, toPath: project.file(item))
            }
            let push = try iapkit(["asc", "push", project.file("catalog.yaml"), "--yes"], environment: started.environment)
            #expect(push.status == 0, "\(push.stderr)")
            transport = RecordingTransport(server: started.url)
            replay = nil
            fake = started
        } else {
            let loaded = try ReplayTransport(file: Self.recording)
            transport = loaded
            replay = loaded
        }
        let key = P256.Signing.PrivateKey()
        let tokens = try ASCTokenProvider(
            credentials: ASCCredentials(
                keyID: fake?.keyID ?? "REPLAY", issuerID: fake?.issuerID ?? "replay",
                privateKeyPEM: fake?.privateKeyPEM ?? key.pemRepresentation))
        let asc = AppStoreConnectClient(
            tokens: tokens, serverURL: URL(string: fake?.url ?? "http://replay.invalid")!,
            retryPolicy: .never, transport: transport)
        let reader = StoreReader(asc: asc)
        let app = try await reader.app(bundleID: "com.example.fruitstand")
        let snapshot = try await reader.snapshot(app: app)
        if let recorder = transport as? RecordingTransport { try recorder.save(to: Self.recording) }

        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.examples + "/catalog.yaml"))
        let catalog = try CatalogLoader.load(data: data, file: "catalog.yaml", findings: { _ in })
        let desired = try CatalogRecords(catalog: catalog, territories: snapshot.territories, baseDirectory: Paths.examples)
        let plan = Planner(catalog: catalog, desired: desired).plan(against: snapshot)
        #expect(plan.isEmpty && plan.operations.isEmpty, "\(PlanReport.text(plan))")
        #expect(snapshot.inAppPurchases.count == 4 && snapshot.groups.first?.subscriptions.count == 2)
        #expect(snapshot.inAppPurchases.allSatisfy { $0.record.screenshot != nil && $0.record.availability?.territories.count == 175 })

        guard let replay else { return }
        // What the products cost beyond the app's lists (territories, products, groups, asset packs, promoted purchases,
        // the grace period, and each group's versions and subscriptions): at most 3 requests an in-app purchase (localizations with their version,
        // territories, manual prices) and one more for its base territory when it is priced by hand in more than one territory, at most 4 a subscription plus 1 per paid offer other than the introductory
        // one; and, once for the whole app, what each USD price of each billing plan equalizes to (to tell hand-set
        // territory prices).
        let lists =
            #/^/v1/(apps|territories)(\?|/[^/]+/(inAppPurchasesV2|subscriptionGroups|backgroundAssets|promotedPurchases)\?|/[^/]+/subscriptionGracePeriod$|$)|^/v1/subscriptionGroups/[^/]+/(versions|subscriptions)\?/#
        let perProduct = replay.asked.filter { (try? lists.prefixMatch(in: $0)) == nil }.count
        let budget =
            3 * snapshot.inAppPurchases.count + snapshot.inAppPurchases.filter { !$0.record.territoryPrices.isEmpty }.count
            + snapshot.groups.flatMap(\.subscriptions).reduce(0) { sum, product in
                sum + 4
                    + (product.record.promotionalOffers + product.record.offerCodes + product.record.winBackOffers).filter { $0.priceCents != nil }
                    .count
            }
        var usdPrices = Set<String>()
        for product in snapshot.groups.flatMap(\.subscriptions) {
            let record = product.record
            let offers = [record.introductoryOffer].compactMap { $0 } + record.promotionalOffers + record.offerCodes + record.winBackOffers
            for cents in [record.priceCents] + offers.map(\.priceCents) { if let cents { usdPrices.insert("UPFRONT \(cents)") } }
            let monthly = record.monthlyPlan
            let monthlyOffers = [monthly?.introductoryOffer].compactMap { $0 } + (monthly?.promotionalOffers ?? [])
            for cents in [monthly?.priceCents] + monthlyOffers.map(\.priceCents) { if let cents { usdPrices.insert("MONTHLY \(cents)") } }
        }
        let equalizations = replay.asked.filter { $0.contains("/equalizations") }.count
        #expect(equalizations <= usdPrices.count, "\(equalizations) equalization reads for \(usdPrices.count) USD prices")
        #expect(
            perProduct > 0 && perProduct <= budget + usdPrices.count,
            "\(perProduct) requests about single products, budget \(budget): \(replay.asked)")
    }
}

/// One recorded exchange: the request's method and path with its query, the answer's status and body.
struct RecordedExchange: Codable {
    var method: String
    var path: String
    var status: Int
    var body: String
}

/// Answers each request with the recorded answer to the same method, path and query, and counts what was asked.
final class ReplayTransport: ClientTransport, @unchecked Sendable {
    let answers: [String: RecordedExchange]
    private let lock = NSLock()
    private var requestsAsked: [String] = []

    init(file: String) throws {
        let exchanges = try JSONDecoder().decode([RecordedExchange].self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        answers = Dictionary(exchanges.map { ("\($0.method) \($0.path)", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let key = "\(request.method.rawValue) \(request.path ?? "")"
        lock.withLock { requestsAsked.append(request.path ?? "") }
        guard let answer = answers[key] else {
            return (
                HTTPResponse(status: .notFound),
                HTTPBody(#"{"errors":[{"status":"404","code":"NOT_RECORDED","title":"not recorded","detail":"\#(key)"}]}"#)
            )
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return (HTTPResponse(status: .init(code: answer.status), headerFields: headers), HTTPBody(answer.body))
    }

    /// The paths asked for, in order.
    var asked: [String] { lock.withLock { requestsAsked } }
}

/// Forwards each request to the fake and keeps the exchange (reads only), for re-recording.
final class RecordingTransport: ClientTransport, @unchecked Sendable {
    let server: String
    private let lock = NSLock()
    private var exchanges: [RecordedExchange] = []

    init(server: String) { self.server = server }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var forwarded = URLRequest(url: URL(string: server + (request.path ?? ""))!)
        forwarded.httpMethod = request.method.rawValue
        for field in request.headerFields { forwarded.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
        let (data, response) = try await URLSession.shared.data(for: forwarded)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 500
        // Links name the fake's port; the reader follows them by path, so the host is dropped.
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: server, with: "http://replay.invalid")
        lock.withLock { exchanges.append(RecordedExchange(method: request.method.rawValue, path: request.path ?? "", status: status, body: text)) }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return (HTTPResponse(status: .init(code: status), headerFields: headers), HTTPBody(text))
    }

    func save(to file: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let sorted = lock.withLock { exchanges.sorted { ($0.method, $0.path) < ($1.method, $1.path) } }
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try encoder.encode(sorted).write(to: URL(fileURLWithPath: file))
    }
}
