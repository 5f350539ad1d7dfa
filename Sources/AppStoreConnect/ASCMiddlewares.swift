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
import OpenAPIRuntime

/// Time as the client sees it: injectable so tests check renewals and backoff without waiting.
public struct ASCClock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in 0...1 that spreads retry delays (see `ASCRetryPolicy.backoff`).
    public var jitter: @Sendable () -> Double

    public init(
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
    }

    public static let system = ASCClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}

/// Signs every request with a Bearer JWT. On a 401 it renews the token and sends the request once more; a second
/// 401 throws `ASCError.authentication(.rejected)`. The innermost middleware, so each retry gets a valid token.
public struct ASCAuthenticationMiddleware: ClientMiddleware {
    public let tokens: ASCTokenProvider

    public init(tokens: ASCTokenProvider) {
        self.tokens = tokens
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        var signed = request
        let token = try await tokens.token()
        signed.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(signed, body, baseURL)
        guard response.status.code == 401, body.isResendable else { return (response, responseBody) }
        _ = await ASCResponseBody.collect(responseBody)
        let renewed = try await tokens.renewedToken(replacing: token)
        signed.headerFields[.authorization] = "Bearer \(renewed)"
        let (second, secondBody) = try await next(signed, body, baseURL)
        guard second.status.code == 401 else { return (second, secondBody) }
        let items = ASCErrorItem.parse(errorDocument: await ASCResponseBody.collect(secondBody))
        throw ASCError.authentication(.rejected(errors: items))
    }
}

/// Sends a request again after a 429, a 5xx or a transport failure when `ASCRetryPolicy` allows it, waiting with
/// exponential backoff and jitter, or as long as `Retry-After` asks. Records `X-Rate-Limit` on every answer.
/// A 429 that outlasts the policy throws `ASCError.rateLimited`; a 5xx that outlasts it is passed on (and becomes
/// `ASCError.api`); a transport failure becomes `ASCError.transport`.
public struct ASCRetryMiddleware: ClientMiddleware {
    public let policy: ASCRetryPolicy
    public let clock: ASCClock
    let rateLimit: ASCRateLimitRecorder?
    /// Where each answered request's time is kept, for the rolling hour.
    let window: ASCRequestWindow?
    let waits: ASCWaitRecorder?
    let serverDate: ASCServerDateRecorder?

    public init(policy: ASCRetryPolicy = .default, clock: ASCClock = .system) {
        self.init(policy: policy, clock: clock, rateLimit: nil, waits: nil, window: nil, serverDate: nil)
    }

    init(
        policy: ASCRetryPolicy, clock: ASCClock, rateLimit: ASCRateLimitRecorder?, waits: ASCWaitRecorder?, window: ASCRequestWindow?,
        serverDate: ASCServerDateRecorder?
    ) {
        self.policy = policy
        self.clock = clock
        self.rateLimit = rateLimit
        self.window = window
        self.waits = waits
        self.serverDate = serverDate
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        var attempt = 1
        var waited = Duration.zero
        while true {
            if Task.isCancelled { throw ASCError.cancelled }
            let delay: Duration
            do {
                let (response, responseBody) = try await next(request, body, baseURL)
                let limit = ASCRateLimit.parse(response.headerFields[ASCHeader.rateLimit])
                if let limit {
                    rateLimit?.set(limit)
                    window?.record()
                }
                if let serverDate, let text = response.headerFields[.date], let date = HTTPDate.parse(text) {
                    serverDate.set(date)
                }
                let status = response.status.code
                guard status == 429 || status >= 500 else { return (response, responseBody) }
                let retryAfter = ASCRetryAfter.parse(response.headerFields[.retryAfter], now: clock.now())
                // Nothing left of the hour and no time to wait given: retrying only spends the wait.
                if status == 429, retryAfter == nil, let left = limit?.remaining, left <= 0 {
                    _ = await ASCResponseBody.collect(responseBody)
                    throw ASCError.rateLimited(attempts: attempt, retryAfter: nil)
                }
                let decision =
                    body.isResendable
                    ? policy.decide(
                        method: request.method, status: status, attempt: attempt, waited: waited,
                        retryAfter: retryAfter, jitter: clock.jitter())
                    : .stop(.notRetryable)
                guard case let .retry(after) = decision else {
                    guard status == 429 else { return (response, responseBody) }
                    _ = await ASCResponseBody.collect(responseBody)
                    throw ASCError.rateLimited(attempts: attempt, retryAfter: retryAfter)
                }
                _ = await ASCResponseBody.collect(responseBody)
                delay = after
            } catch {
                let cause = ASCError.cause(of: error)
                if let known = cause as? ASCError { throw known }
                if cause is CancellationError { throw ASCError.cancelled }
                let decision =
                    body.isResendable
                    ? policy.decide(
                        method: request.method, status: nil, attempt: attempt, waited: waited,
                        retryAfter: nil, jitter: clock.jitter())
                    : .stop(.notRetryable)
                guard case let .retry(after) = decision else {
                    throw ASCError.transport(describing: cause)
                }
                delay = after
            }
            waits?.current?(delay)
            do {
                try await clock.sleep(delay)
            } catch {
                throw ASCError.cancelled
            }
            waited += delay
            attempt += 1
        }
    }
}

/// Turns every answer of 400 or above into `ASCError.api(status, items)` from App Store Connect's error document,
/// so generated operations only ever return their success cases. The outermost middleware.
public struct ASCErrorMiddleware: ClientMiddleware {
    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        ASCCallObservation.current?.record(operationID: operationID, status: nil)
        let (response, responseBody) = try await next(request, body, baseURL)
        ASCCallObservation.current?.record(operationID: operationID, status: response.status.code)
        guard response.status.code >= 400 else { return (response, responseBody) }
        let items = ASCErrorItem.parse(errorDocument: await ASCResponseBody.collect(responseBody))
        throw ASCError.api(status: response.status.code, errors: items)
    }
}

/// An empty to-one relationship is `200 {"data": null}` in JSON:API, where the generated types expect an object:
/// such an answer becomes a 404, which every to-one read already takes as "none".
struct ASCEmptyToOneMiddleware: ClientMiddleware {
    /// To-one documents are small; a larger body is passed on untouched.
    static let bodyLimit = 4 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard request.method == .get, operationID.hasSuffix("_getToOneRelated"), response.status.code == 200,
            let responseBody
        else { return (response, responseBody) }
        let data = try await Data(collecting: responseBody, upTo: Self.bodyLimit)
        if let document = try? JSONValue.parse(data), document["data"] == .null {
            var empty = response
            empty.status = .notFound
            return (empty, HTTPBody(#"{"errors":[]}"#))
        }
        return (response, HTTPBody(data))
    }
}

/// Sends a GET to the `links.next` of the previous page instead of the operation's own path and query, keeping the
/// configured server: the link's host is never trusted with the token.
struct ASCPageLinkMiddleware: ClientMiddleware {
    @TaskLocal static var nextLink: String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard let link = Self.nextLink, request.method == .get else { return try await next(request, body, baseURL) }
        guard let path = Self.requestPath(link: link, baseURL: baseURL) else {
            throw ASCError.unexpectedResponse(
                operation: operationID, status: nil,
                reason: "the next-page link is not a URL: \(link.prefix(200))")
        }
        var paged = request
        paged.path = path
        return try await next(paged, body, baseURL)
    }

    /// The link's path and query relative to the server URL (which may carry a path prefix).
    static func requestPath(link: String, baseURL: URL) -> String? {
        guard let resolved = URL(string: link, relativeTo: baseURL)?.absoluteURL,
            let components = URLComponents(url: resolved, resolvingAgainstBaseURL: true)
        else { return nil }
        var path = components.percentEncodedPath
        let prefix = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
        let trimmedPrefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        if !trimmedPrefix.isEmpty, path.hasPrefix(trimmedPrefix + "/") { path.removeFirst(trimmedPrefix.count) }
        if path.isEmpty { return nil }
        if let query = components.percentEncodedQuery { path += "?" + query }
        return path
    }
}

/// What the middlewares saw during one `AppStoreConnectClient.send`, for errors raised after the answer (an
/// undocumented status, a body that does not decode).
final class ASCCallObservation: @unchecked Sendable {
    @TaskLocal static var current: ASCCallObservation?

    private let lock = PThreadLock()
    private var _operationID: String?
    private var _status: Int?
    private var _replayOrigin: String?

    func record(operationID: String, status: Int?) {
        lock.withLock {
            _operationID = operationID
            _status = status
        }
    }

    /// Where the latest answer stands in a replayed trace.
    func record(replayOrigin: String?) { lock.withLock { _replayOrigin = replayOrigin } }

    var operationID: String? { lock.withLock { _operationID } }
    var status: Int? { lock.withLock { _status } }
    var replayOrigin: String? { lock.withLock { _replayOrigin } }
}

/// Told of every wait before a retry (a 429's `Retry-After`, a backoff), so a progress line can show it.
typealias ASCWaitRecorder = Locked<(@Sendable (Duration) -> Void)?>

/// The latest `Date` the server sent: App Store Connect's clock decides which scheduled prices have started.
typealias ASCServerDateRecorder = Locked<Date?>

/// The latest `X-Rate-Limit` the server sent.
typealias ASCRateLimitRecorder = Locked<ASCRateLimit?>

enum ASCHeader {
    static let rateLimit = HTTPField.Name("X-Rate-Limit")!
}

enum ASCResponseBody {
    /// Error bodies are small; anything past this is not an error document worth reading.
    static let errorBodyLimit = 1 << 20

    /// Reads (and so releases) a body, up to the limit; empty when there is none or it is too long.
    static func collect(_ body: HTTPBody?) async -> Data {
        guard let body else { return Data() }
        return (try? await Data(collecting: body, upTo: errorBodyLimit)) ?? Data()
    }
}

enum ASCRedaction {
    /// Removes anything that looks like a bearer token or a PEM block, in case an underlying library quotes one.
    static func redact(_ text: String) -> String {
        var result = text
        for regex in patterns { result = result.replacing(regex, with: "<redacted>") }
        return result
    }

    /// Swift regular expressions (NSRegularExpression would link full Foundation, and ICU, in), compiled once: every
    /// error message passes through here.
    nonisolated(unsafe) private static let patterns: [Regex<AnyRegexOutput>] = [
        #"Bearer\s+[A-Za-z0-9._~+/=-]+"#, #"-----BEGIN[^-]*-----[\s\S]*?-----END[^-]*-----"#,
        #"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"#,
    ].compactMap { try? Regex($0) }
}

extension ASCError {
    /// The error underneath the runtime's `ClientError` wrappers.
    static func cause(of error: any Error) -> any Error {
        var current = error
        while let wrapped = current as? ClientError { current = wrapped.underlyingError }
        return current
    }
}

extension Optional where Wrapped == HTTPBody {
    /// Whether the body can be sent again: none, or one that can be iterated more than once (the generated JSON
    /// bodies can; a streamed upload cannot).
    var isResendable: Bool {
        guard let body = self else { return true }
        return body.iterationBehavior == .multiple
    }
}
