import AppStoreConnectAPI
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore
import HTTPTypes
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// The App Store Connect API client: the generated `Client` behind authentication, retries and typed errors.
///
/// Call any generated operation through `send`, list operations through `allPages` or `pages`:
///
///     let asc = try AppStoreConnectClient(credentials: credentials)
///     let apps = try await asc.send { try await $0.appsGetCollection(query: .init(filterBundleId: [bundleID])).ok.body.json }
///     let pages = try await asc.allPages(
///         { try await $0.appsInAppPurchasesV2GetToManyRelated(path: .init(id: appID), query: .init(limit: 200)).ok.body.json },
///         next: { $0.links.next })
///
/// Errors are always `ASCError`. Answers of 400 and above never reach the caller as values: they are thrown as
/// `ASCError.api` with App Store Connect's error items.
///
/// Writes must be sent one at a time (await each before the next): App Store Connect applies them in order, a
/// later write often needs the id an earlier one created, and a 429 or a retry must not reorder them. Reads may
/// run concurrently.
///
/// HTTP goes through AsyncHTTPClient (via swift-openapi-async-http-client): a server-grade client that behaves
/// the same on Linux and macOS, without Foundation URLSession's differences on Linux, and streams request bodies,
/// which screenshot uploads need.
public struct AppStoreConnectClient: Sendable {
    /// The API's host root; the generated paths start with `/v1/` or `/v2/`.
    public static let defaultServerURL = URL(string: "https://api.appstoreconnect.apple.com")!

    /// The generated client, with the middlewares in place. Prefer `send`, which turns every failure into `ASCError`.
    public let client: Client
    /// Where requests go: `defaultServerURL`, or a proxy or test server (`--api-url`, `ASC_API_URL`).
    public let serverURL: URL
    public let tokens: ASCTokenProvider
    public let retryPolicy: ASCRetryPolicy
    /// Where every exchange is written (`--trace`), if anywhere.
    public let trace: ASCTrace?
    /// The trace that answers instead of App Store Connect (`--replay`), if any.
    public let replay: ASCReplay?
    private let clock: ASCClock
    private let httpClient: HTTPClient
    private let rateLimitRecorder = ASCRateLimitRecorder(nil)
    /// The times of the requests this client made within the rolling hour.
    public let requestWindow = ASCRequestWindow()
    private let waitRecorder = ASCWaitRecorder(nil)
    private let toleranceRecorder = ASCToleranceRecorder()
    private let linkageRecorder = Locked<Set<String>>([])
    private let newerFieldsRecorder = Locked(ASCLinkageMiddleware.NewerFields())
    private let serverDateRecorder = ASCServerDateRecorder(nil)

    /// A client that signs with `credentials` and talks to `serverURL` over AsyncHTTPClient.
    /// - Parameters:
    ///   - serverURL: the host root (a trailing slash is ignored); a path prefix is kept.
    ///   - timeout: the longest one HTTP exchange may take.
    ///   - httpClient: the connection pool; the shared one by default, which needs no shutdown.
    ///   - trace: records every exchange, uploads and downloads included.
    public init(
        credentials: ASCCredentials, serverURL: URL = defaultServerURL, retryPolicy: ASCRetryPolicy = .default,
        clock: ASCClock = .system, timeout: Duration = .seconds(60),
        httpClient: HTTPClient = .shared, trace: ASCTrace? = nil
    ) throws(ASCError) {
        let tokens = try ASCTokenProvider(credentials: credentials, now: clock.now)
        let seconds = Int64(ASCTokenProvider.seconds(timeout).rounded(.up))
        let transport = AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .seconds(seconds)))
        self.init(
            tokens: tokens, serverURL: serverURL, retryPolicy: retryPolicy, clock: clock, transport: transport,
            httpClient: httpClient, trace: trace)
    }

    /// A client over any transport; tests pass one that answers in-process.
    public init(
        tokens: ASCTokenProvider, serverURL: URL = defaultServerURL, retryPolicy: ASCRetryPolicy = .default,
        clock: ASCClock = .system, transport: any ClientTransport, httpClient: HTTPClient = .shared,
        trace: ASCTrace? = nil, replay: ASCReplay? = nil
    ) {
        let serverURL = Self.hostRoot(serverURL)
        self.trace = trace
        self.replay = replay
        self.serverURL = serverURL
        self.tokens = tokens
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.httpClient = httpClient
        // Outermost first: errors see the final answer; retries wrap authentication, so every attempt is signed.
        var middlewares: [any ClientMiddleware] = [
            ASCErrorMiddleware(),
            ASCResponseRepairMiddleware(),
            ASCEmptyToOneMiddleware(),
            ASCLinkageMiddleware(unanswered: linkageRecorder, newer: newerFieldsRecorder),
            ASCPageLinkMiddleware(),
            ASCRetryMiddleware(
                policy: retryPolicy, clock: clock, rateLimit: rateLimitRecorder, waits: waitRecorder, window: requestWindow,
                serverDate: serverDateRecorder),
            ASCAuthenticationMiddleware(tokens: tokens),
        ]
        if let trace { middlewares.append(ASCTraceMiddleware(trace: trace)) }
        self.client = Client(
            serverURL: serverURL, configuration: .init(dateTranscoder: ASCDateTranscoder()),
            transport: transport, middlewares: middlewares)
    }

    /// The latest `X-Rate-Limit` App Store Connect sent (requests left this hour), if any.
    public var rateLimit: ASCRateLimit? { rateLimitRecorder.current }

    /// The time in the latest answer's `Date` header, if any: App Store Connect's clock.
    public var serverDate: Date? { serverDateRecorder.current }

    /// Tells `observer` of every wait before a retry (a 429's `Retry-After`, a backoff); nil stops telling.
    public func observeWaits(_ observer: (@Sendable (Duration) -> Void)?) { waitRecorder.set(observer) }

    /// How long until the hour's budget pays for `requests` more (zero when it does now): the rolling hour, from the
    /// latest `X-Rate-Limit` and the times of this client's own requests.
    public func budgetWait(for requests: Int) -> Duration {
        guard let remaining = rateLimit?.remaining else { return .zero }
        return requestWindow.wait(for: requests, remaining: remaining)
    }

    /// After waiting for the hourly budget to refill: assume `remaining` until the next answer says otherwise.
    public func assumeRateLimit(remaining: Int) {
        rateLimitRecorder.withLock { $0 = ASCRateLimit(limit: $0?.limit, remaining: remaining) }
    }

    /// Runs one generated operation (or a few in sequence) and turns every failure into `ASCError`.
    ///
    /// Extract the success case inside the closure (`.ok.body.json`, `.created.body.json`, `.noContent`): an
    /// undocumented answer then becomes `ASCError.unexpectedResponse` naming the operation and status.
    public func send<Value>(_ call: (Client) async throws -> Value) async throws(ASCError) -> Value {
        let observation = ASCCallObservation()
        let repair = ASCResponseRepair()
        while true {
            do {
                return try await ASCResponseRepair.$current.withValue(repair) {
                    try await ASCCallObservation.$current.withValue(observation) { try await call(client) }
                }
            } catch {
                // An answer the generated types cannot read as it is: decoded again without the value they do not know.
                if let decoding = ASCError.cause(of: error) as? DecodingError, let tolerated = repair.tolerate(decoding) {
                    toleranceRecorder.record(tolerated)
                    continue
                }
                throw Self.map(error, observation: observation).replayed(from: observation.replayOrigin)
            }
        }
    }

    /// Whether App Store Connect answered relationship `name` of resource `type` `id` with links only although the
    /// request named it in `include=`: asked for and not answered, which is not "none".
    public func linkageUnanswered(type: String, id: String, relationship name: String) -> Bool {
        linkageRecorder.withLock { $0.contains("\(type)/\(id)/\(name)") }
    }

    /// The attributes of resource `type` `id` that App Store Connect answered with a value iapkit does not know
    /// (left unread, so the reads note them as unanswered instead of taking them for none).
    public func unreadAttributes(type: String, id: String) -> [ASCUnreadAttribute] { toleranceRecorder.unread(type: type, id: id) }

    /// The attributes and relationships (`subscriptions.retentionMessage`) App Store Connect's answers held so far that
    /// the document iapkit was generated from does not give their type: a newer API version's, left unread.
    public var fieldsNotInTheDocument: [String] { newerFieldsRecorder.withLock { $0.names.sorted() } }

    /// What was tolerated in App Store Connect's answers so far (values the document does not know, left out), each a
    /// sentence naming the operation.
    public var toleratedAnswers: [String] { toleranceRecorder.value }

    /// Every page of a list operation, following `links.next` until there is none.
    /// - Parameters:
    ///   - firstPage: calls the operation for the first page and returns its decoded body; it is called again for
    ///     each further page with the same input, while the request is redirected to the next link's path and
    ///     query (which carry App Store Connect's cursor), through the same middlewares.
    ///   - next: the page's `links.next`.
    public func allPages<Page: Sendable>(
        _ firstPage: @escaping @Sendable (Client) async throws -> Page,
        next: @escaping @Sendable (Page) -> String?
    ) async throws(ASCError) -> [Page] {
        var result: [Page] = []
        var iterator = pages(firstPage, next: next).makeAsyncIterator()
        do {
            while let page = try await iterator.next() { result.append(page) }
        } catch {
            throw error as? ASCError ?? .transport(describing: error)
        }
        return result
    }

    /// The pages of a list operation as they arrive (see `allPages`). The sequence throws only `ASCError`.
    public func pages<Page: Sendable>(
        _ firstPage: @escaping @Sendable (Client) async throws -> Page,
        next: @escaping @Sendable (Page) -> String?
    ) -> ASCPages<Page> {
        ASCPages(client: self, fetch: firstPage, nextLink: next)
    }

    /// Sends bytes to one of the upload operations App Store Connect hands out for a screenshot (`uploadOperations`:
    /// method, absolute URL, request headers). The URL belongs to Apple's asset storage and takes no token. PUT is
    /// retried like the API's idempotent writes.
    public func upload(
        _ data: Data, to url: URL, method: String = "PUT",
        headers: [(name: String, value: String)] = []
    ) async throws(ASCError) {
        if replay != nil { throw .trace("replay answers reads only: an upload would change App Store Connect") }
        var attempt = 1
        var waited = Duration.zero
        let httpMethod = HTTPRequest.Method(method) ?? .put
        while true {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = HTTPMethod(rawValue: method)
            for header in headers { request.headers.add(name: header.name, value: header.value) }
            request.body = .bytes(ByteBuffer(bytes: data))
            var status: Int?
            var retryAfter: Duration?
            var errorItems: [ASCErrorItem] = []
            var failure = ""
            let started = Date()
            let timer = ContinuousClock()
            let start = timer.now
            do {
                let response = try await httpClient.execute(request, timeout: .seconds(300))
                let body = try await response.body.collect(upTo: ASCResponseBody.errorBodyLimit)
                status = Int(response.status.code)
                try trace?.record(
                    .storage(
                        operation: "upload", method: method, url: url, started: started,
                        milliseconds: ASCTraceExchange.milliseconds(timer.now - start), status: status,
                        error: nil, requestHeaders: headers, uploaded: data,
                        responseHeaders: response.headers.map { ($0.name, $0.value) },
                        received: Data(buffer: body)))
                if (200..<300).contains(Int(response.status.code)) { return }
                retryAfter = ASCRetryAfter.parse(response.headers.first(name: "Retry-After"), now: clock.now())
                errorItems = ASCErrorItem.parse(errorDocument: Data(buffer: body))
            } catch is CancellationError {
                throw .cancelled
            } catch let error as ASCError {
                throw error
            } catch {
                status = nil
                failure = ASCRedaction.redact(String(describing: error))
                try trace?.record(
                    .storage(
                        operation: "upload", method: method, url: url, started: started,
                        milliseconds: ASCTraceExchange.milliseconds(timer.now - start), status: nil,
                        error: failure, requestHeaders: headers, uploaded: data, responseHeaders: [],
                        received: nil))
            }
            let decision = retryPolicy.decide(
                method: httpMethod, status: status, attempt: attempt, waited: waited,
                retryAfter: retryAfter, jitter: clock.jitter())
            guard case let .retry(delay) = decision else {
                guard let status else { throw .transport(failure) }
                if status == 429 { throw .rateLimited(attempts: attempt, retryAfter: retryAfter) }
                throw .api(status: status, errors: errorItems)
            }
            do { try await clock.sleep(delay) } catch { throw .cancelled }
            waited += delay
            attempt += 1
        }
    }

    /// The URL without a trailing slash: the transport appends paths that start with `/`.
    static func hostRoot(_ url: URL) -> URL {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    static func map(_ error: any Error, observation: ASCCallObservation) -> ASCError {
        let cause = ASCError.cause(of: error)
        if let known = cause as? ASCError { return known }
        if cause is CancellationError { return .cancelled }
        let clientError = error as? ClientError
        let operation = clientError?.operationID ?? observation.operationID ?? "request"
        let status = clientError?.response.map { $0.status.code } ?? observation.status
        return .unexpectedResponse(operation: operation, status: status, reason: reason(cause))
    }

    /// A short account of a decoding or unexpected-status failure.
    private static func reason(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case let .keyNotFound(key, context):
                return "missing \(key.stringValue) at \(path(context.codingPath))"
            case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
                return "\(context.debugDescription) at \(path(context.codingPath))"
            @unknown default:
                break
            }
        }
        let text = String(describing: error)
        // The runtime's "Unexpected response, expected status code: ok, response: undocumented(...)", from a generated
        // accessor such as `.ok` or `.created`.
        if let range = text.firstRange(of: "expected status code: ") {
            let expected = text[range.upperBound...].prefix { $0 != "," }
            return "expected its .\(expected) answer"
        }
        return ASCRedaction.redact(String(text.prefix(500)))
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty
            ? "the top level"
            : codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
                .joined(separator: ".")
    }
}

/// The pages of a list operation (see `AppStoreConnectClient.pages`). Errors thrown are always `ASCError`.
public struct ASCPages<Page: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Page
    let client: AppStoreConnectClient
    let fetch: @Sendable (Client) async throws -> Page
    let nextLink: @Sendable (Page) -> String?

    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let sequence: ASCPages
        var link: String?
        var started = false
        var seen: Set<String> = []

        init(sequence: ASCPages) {
            self.sequence = sequence
        }

        public mutating func next() async throws -> Page? {
            if started && link == nil { return nil }
            let pageLink = link
            let fetch = sequence.fetch
            let page = try await ASCPageLinkMiddleware.$nextLink.withValue(pageLink) {
                try await sequence.client.send { client in try await fetch(client) }
            }
            started = true
            link = sequence.nextLink(page).flatMap { $0.isEmpty ? nil : $0 }
            if let link {
                // A server that links back to a page already read would otherwise keep us here forever.
                guard seen.insert(link).inserted else {
                    throw ASCError.unexpectedResponse(
                        operation: "pagination", status: nil,
                        reason: "the next-page link repeats an earlier one: \(link.prefix(200))")
                }
            }
            return page
        }
    }
}

/// Dates as App Store Connect writes them: RFC 3339 with or without fractional seconds. Sent without.
struct ASCDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        try ISO8601DateTranscoder.iso8601.encode(date)
    }

    func decode(_ string: String) throws -> Date {
        if let date = try? ISO8601DateTranscoder.iso8601.decode(string) { return date }
        return try ISO8601DateTranscoder.iso8601WithFractionalSeconds.decode(string)
    }
}
