@testable import AppStoreConnect
import Foundation
import HTTPTypes
import OpenAPIRuntime
import TestSupport
import Testing

@Suite struct ASCRetryPolicyTests {
    @Test func whichMethodsAndStatusesRetry() {
        // 429: refused before processing, so every method.
        for method in [HTTPRequest.Method.get, .post, .patch, .delete] {
            #expect(ASCRetryPolicy.mayRetry(method: method, status: 429))
        }
        // 5xx: reads and idempotent writes only; a POST may already have created something.
        for status in [500, 502, 503, 504] {
            #expect(ASCRetryPolicy.mayRetry(method: .get, status: status))
            #expect(ASCRetryPolicy.mayRetry(method: .patch, status: status))
            #expect(ASCRetryPolicy.mayRetry(method: .delete, status: status))
            #expect(!ASCRetryPolicy.mayRetry(method: .post, status: status))
        }
        for status in [400, 401, 403, 404, 409, 422] {
            #expect(!ASCRetryPolicy.mayRetry(method: .get, status: status))
        }
        // No answer at all: only reads.
        #expect(ASCRetryPolicy.mayRetryAfterTransportFailure(method: .get))
        #expect(!ASCRetryPolicy.mayRetryAfterTransportFailure(method: .post))
        #expect(!ASCRetryPolicy.mayRetryAfterTransportFailure(method: .patch))
    }

    /// A failure with no answer reads as one clause, not the HTTP stack's nested description with its errno tail.
    @Test func aTransportFailureIsOneSentence() {
        struct StackError: Error, CustomStringConvertible { var description: String }
        let error = ASCError.transport(describing: StackError(description: "connection reset (error set): Connection refused (errno: 111)"))
        #expect(error.description == "could not reach App Store Connect: connection reset (error set): Connection refused")
        #expect(
            ASCError.transport(describing: StackError(description: "TLS handshake failed")).description
                == "could not reach App Store Connect: TLS handshake failed")
    }

    @Test func exponentialBackoffWithEqualJitter() {
        let policy = ASCRetryPolicy(
            maxAttempts: 10, maxTotalWait: .seconds(600), baseDelay: .seconds(1),
            maxDelay: .seconds(8))
        #expect(policy.backoff(afterAttempt: 1, jitter: 0) == .milliseconds(500))
        #expect(policy.backoff(afterAttempt: 1, jitter: 1) == .seconds(1))
        #expect(policy.backoff(afterAttempt: 2, jitter: 1) == .seconds(2))
        #expect(policy.backoff(afterAttempt: 3, jitter: 0.5) == .seconds(3))
        #expect(policy.backoff(afterAttempt: 4, jitter: 1) == .seconds(8))
        #expect(policy.backoff(afterAttempt: 9, jitter: 1) == .seconds(8))  // capped
    }

    @Test func decisions() {
        let policy = ASCRetryPolicy(
            maxAttempts: 3, maxTotalWait: .seconds(10), baseDelay: .seconds(1),
            maxDelay: .seconds(4))
        #expect(
            policy.decide(method: .get, status: 503, attempt: 1, waited: .zero, retryAfter: nil, jitter: 1)
                == .retry(after: .seconds(1)))
        #expect(
            policy.decide(method: .post, status: 500, attempt: 1, waited: .zero, retryAfter: nil, jitter: 1)
                == .stop(.notRetryable))
        #expect(
            policy.decide(method: .post, status: 429, attempt: 1, waited: .zero, retryAfter: .seconds(3), jitter: 1)
                == .retry(after: .seconds(3)))
        #expect(
            policy.decide(method: .get, status: 503, attempt: 3, waited: .zero, retryAfter: nil, jitter: 1)
                == .stop(.attemptsExhausted))
        // Retry-After beyond the remaining budget: stop rather than wait past the cap.
        #expect(
            policy.decide(
                method: .get, status: 429, attempt: 1, waited: .seconds(2), retryAfter: .seconds(9),
                jitter: 0) == .stop(.waitExhausted))
        #expect(
            policy.decide(method: .get, status: nil, attempt: 1, waited: .zero, retryAfter: nil, jitter: 0)
                == .retry(after: .milliseconds(500)))
        #expect(
            policy.decide(method: .delete, status: nil, attempt: 1, waited: .zero, retryAfter: nil, jitter: 0)
                == .stop(.notRetryable))
        #expect(
            ASCRetryPolicy.never.decide(
                method: .get, status: 503, attempt: 1, waited: .zero, retryAfter: nil,
                jitter: 0) == .stop(.attemptsExhausted))
    }

    @Test func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(ASCRetryAfter.parse("120", now: now) == .seconds(120))
        #expect(ASCRetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(ASCRetryAfter.parse("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(ASCRetryAfter.parse("Sunday, 06-Nov-94 08:50:07 GMT", now: now) == .seconds(30))
        #expect(ASCRetryAfter.parse("Sun Nov  6 08:50:07 1994", now: now) == .seconds(30))
        #expect(ASCRetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)  // in the past
        #expect(ASCRetryAfter.parse("-5", now: now) == nil)
        #expect(ASCRetryAfter.parse("soon", now: now) == nil)
        #expect(ASCRetryAfter.parse("", now: now) == nil)
        #expect(ASCRetryAfter.parse(nil, now: now) == nil)
    }

    @Test func rateLimitHeader() {
        #expect(ASCRateLimit.parse("user-hour-lim:3600;user-hour-rem:3599;") == ASCRateLimit(limit: 3600, remaining: 3599))
        #expect(ASCRateLimit.parse("user-hour-rem:12") == ASCRateLimit(limit: nil, remaining: 12))
        #expect(ASCRateLimit.parse("nonsense") == nil)
        #expect(ASCRateLimit.parse(nil) == nil)
    }
}

@Suite struct ASCErrorDocumentTests {
    @Test func parsesAppStoreConnectErrorDocuments() {
        let document = """
            {"errors": [
              {"id": "1b0e", "status": "409", "code": "ENTITY_ERROR.ATTRIBUTE.INVALID", "title": "An attribute value is invalid.",
               "detail": "The name is too long.", "source": {"pointer": "/data/attributes/name"}},
              {"status": "400", "code": "PARAMETER_ERROR.INVALID", "title": "A parameter has an invalid value",
               "detail": "'x' is not a valid filter", "source": {"parameter": "filter[bundleId]"}},
              {"status": "500"}
            ]}
            """
        let items = ASCErrorItem.parse(errorDocument: Data(document.utf8))
        #expect(
            items == [
                ASCErrorItem(
                    code: "ENTITY_ERROR.ATTRIBUTE.INVALID", title: "An attribute value is invalid.",
                    detail: "The name is too long.", sourcePointer: "/data/attributes/name"),
                ASCErrorItem(
                    code: "PARAMETER_ERROR.INVALID", title: "A parameter has an invalid value",
                    detail: "'x' is not a valid filter", sourceParameter: "filter[bundleId]"),
                ASCErrorItem(code: "", title: "", detail: ""),
            ])
        let error = ASCError.api(status: 409, errors: Array(items.prefix(1)))
        #expect(
            error.description == "App Store Connect answered 409 Conflict: ENTITY_ERROR.ATTRIBUTE.INVALID: "
                + "An attribute value is invalid. (The name is too long.) at /data/attributes/name")
        #expect(ASCErrorItem.parse(errorDocument: Data("<html>Bad gateway</html>".utf8)).isEmpty)
        #expect(ASCErrorItem.parse(errorDocument: Data()).isEmpty)
        #expect(ASCError.api(status: 502, errors: []).description == "App Store Connect answered 502 Bad Gateway")
    }

    @Test func descriptionsAreReadable() {
        #expect(
            ASCError.rateLimited(attempts: 5, retryAfter: .seconds(30)).description
                == "App Store Connect's rate limit was still exceeded after 5 attempts; it asked to wait 30 s more")
        #expect(
            ASCError.unexpectedResponse(operation: "appsGetCollection", status: 204, reason: "no body").description
                == "unexpected answer to appsGetCollection (status 204): no body")
        #expect(ASCError.credentials(.missing(field: "key ID")).description == "the App Store Connect key ID is empty")
    }
}

/// Records the requests a middleware passes on and answers from a script.
final class ScriptedNext: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Result<(Int, [String: String], String), any Error>]
    private(set) var requests: [HTTPRequest] = []

    init(_ answers: [Result<(Int, [String: String], String), any Error>]) {
        self.answers = answers
    }

    var count: Int { lock.withLock { requests.count } }

    func callAsFunction(_ request: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = lock.withLock { () -> Result<(Int, [String: String], String), any Error> in
            requests.append(request)
            return answers.removeFirst()
        }
        let (status, headers, text) = try answer.get()
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        return (HTTPResponse(status: .init(code: status), headerFields: fields), HTTPBody(text))
    }
}

/// Sleeps recorded instead of waited.
final class RecordedSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Duration] = []
    var all: [Duration] { lock.withLock { values } }
    var clock: ASCClock {
        ASCClock(
            now: { Date(timeIntervalSince1970: 1_700_000_000) },
            sleep: { duration in self.lock.withLock { self.values.append(duration) } },
            jitter: { 1 })
    }
}

struct TransportFailure: Error, CustomStringConvertible {
    var description: String { "connection reset by peer" }
}

@Suite struct ASCMiddlewareTests {
    let url = URL(string: "https://api.example.test")!

    func intercept(
        _ middleware: some ClientMiddleware, method: HTTPRequest.Method, next: ScriptedNext
    )
        async throws -> HTTPResponse
    {
        let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: "/v1/apps")
        let body: HTTPBody? = method == .get ? nil : HTTPBody("{}")
        return try await middleware.intercept(request, body: body, baseURL: url, operationID: "op") {
            try await next($0, $1, $2)
        }.0
    }

    @Test func retries429HonouringRetryAfterThenSucceeds() async throws {
        let sleeps = RecordedSleeps()
        let middleware = ASCRetryMiddleware(policy: .default, clock: sleeps.clock)
        let next = ScriptedNext([
            .success((429, ["Retry-After": "7"], "")),
            .success((429, [:], "")),
            .success((201, [:], "{}")),
        ])
        let response = try await intercept(middleware, method: .post, next: next)
        #expect(response.status.code == 201)
        #expect(next.count == 3)
        #expect(sleeps.all == [.seconds(7), .seconds(2)])  // Retry-After, then backoff after attempt 2 (jitter 1)
    }

    @Test func postIsNotRetriedOn5xxButPatchIs() async throws {
        let sleeps = RecordedSleeps()
        let middleware = ASCRetryMiddleware(policy: .default, clock: sleeps.clock)
        let post = ScriptedNext([.success((500, [:], "")), .success((201, [:], ""))])
        #expect(try await intercept(middleware, method: .post, next: post).status.code == 500)
        #expect(post.count == 1)

        let patch = ScriptedNext([.success((503, [:], "")), .success((200, [:], ""))])
        #expect(try await intercept(middleware, method: .patch, next: patch).status.code == 200)
        #expect(patch.count == 2)
    }

    @Test func persistent429BecomesRateLimited() async throws {
        let sleeps = RecordedSleeps()
        let policy = ASCRetryPolicy(
            maxAttempts: 2, maxTotalWait: .seconds(60), baseDelay: .seconds(1),
            maxDelay: .seconds(4), rateLimitedAttempts: 3)
        let middleware = ASCRetryMiddleware(policy: policy, clock: sleeps.clock)
        let next = ScriptedNext(Array(repeating: .success((429, ["Retry-After": "1"], "")), count: 3))
        let error = await #expect(throws: ASCError.self) {
            try await intercept(middleware, method: .get, next: next)
        }
        #expect(error == .rateLimited(attempts: 3, retryAfter: .seconds(1)))
        #expect(sleeps.all == [.seconds(1), .seconds(1)])
        // By default a storm of 429s is outlasted longer than other failures.
        #expect(
            ASCRetryPolicy.default.decide(
                method: .post, status: 429, attempt: 10, waited: .seconds(10), retryAfter: .seconds(1),
                jitter: 0) == .retry(after: .seconds(1)))
        #expect(
            ASCRetryPolicy.default.decide(
                method: .get, status: 503, attempt: 5, waited: .seconds(10), retryAfter: nil,
                jitter: 0) == .stop(.attemptsExhausted))
    }

    @Test func transportFailuresRetryOnlyReads() async throws {
        let sleeps = RecordedSleeps()
        let middleware = ASCRetryMiddleware(policy: .default, clock: sleeps.clock)
        let get = ScriptedNext([.failure(TransportFailure()), .success((200, [:], "{}"))])
        #expect(try await intercept(middleware, method: .get, next: get).status.code == 200)

        let post = ScriptedNext([.failure(TransportFailure()), .success((201, [:], "{}"))])
        let error = await #expect(throws: ASCError.self) {
            try await intercept(middleware, method: .post, next: post)
        }
        #expect(error == .transport("connection reset by peer"))
        #expect(post.count == 1)
    }

    @Test func authenticationRenewsOnceOn401() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let credentials = ASCCredentials(keyID: "KEY", issuerID: "ISSUER", privateKeyPEM: try makeTestKeyPEM())
        let tokens = try ASCTokenProvider(credentials: credentials, now: { clock.now })
        let middleware = ASCAuthenticationMiddleware(tokens: tokens)

        let next = ScriptedNext([.success((401, [:], "")), .success((200, [:], "{}"))])
        _ = try await tokens.token()
        clock.advance(1)
        #expect(try await intercept(middleware, method: .get, next: next).status.code == 200)
        let sent = next.requests.map { $0.headerFields[.authorization] ?? "" }
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.hasPrefix("Bearer ey") })
        #expect(sent[0] != sent[1])

        let rejected = ScriptedNext([
            .success((401, [:], "")),
            .success(
                (
                    401, [:],
                    #"{"errors":[{"code":"NOT_AUTHORIZED","title":"Authentication credentials are missing or invalid.","detail":"Provide a properly configured and signed bearer token."}]}"#
                )),
        ])
        let error = await #expect(throws: ASCError.self) {
            try await intercept(middleware, method: .get, next: rejected)
        }
        guard case let .authentication(.rejected(items))? = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect(items.map(\.code) == ["NOT_AUTHORIZED"])
        #expect(!error!.description.contains("Bearer"))
    }

    @Test func errorStatusesBecomeAPIErrors() async throws {
        let next = ScriptedNext([.success((409, [:], #"{"errors":[{"code":"ENTITY_ERROR","title":"t","detail":"d"}]}"#))])
        let error = await #expect(throws: ASCError.self) {
            try await intercept(ASCErrorMiddleware(), method: .post, next: next)
        }
        #expect(error == .api(status: 409, errors: [ASCErrorItem(code: "ENTITY_ERROR", title: "t", detail: "d")]))
    }
}

@Suite struct ASCTraceSecrecyTests {
    /// Every answer of one-time-use code values the generated client can ask for is kept out of traces: a new owner
    /// of offer codes (subscriptions, then in-app purchases) cannot be added without its values being secret.
    @Test func everyOfferCodeValuesOperationIsASecretAnswer() throws {
        let client = try String(contentsOfFile: Paths.repository + "/Sources/AppStoreConnectAPI/Generated/Client.swift", encoding: .utf8)
        // Each operation's doc comment ends with `…/get(operationId)`.
        let operations = Set(
            client.split(separator: "\n").compactMap { line -> String? in
                guard line.contains("Remark: Generated from"), let end = line.range(of: "_values_getToOneRelated)", options: .backwards),
                    let start = line[..<end.lowerBound].lastIndex(of: "(")
                else { return nil }
                return String(line[line.index(after: start)..<end.lowerBound]) + "_values_getToOneRelated"
            })
        #expect(operations.count >= 2, "\(operations)")
        #expect(operations.isSubset(of: ASCTraceMiddleware.secretAnswers), "not secret: \(operations.subtracting(ASCTraceMiddleware.secretAnswers))")
    }
}
