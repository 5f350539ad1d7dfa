import Crypto
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

/// Records each exchange of the generated client into a trace. The innermost middleware: it sees every attempt a
/// retry or a token renewal makes, as sent, and the answer before any other middleware changes it.
struct ASCTraceMiddleware: ClientMiddleware {
    let trace: ASCTrace
    /// Operations whose answers are secrets (one-time offer codes): never written to a trace.
    static let secretAnswers: Set<String> = [
        "subscriptionOfferCodeOneTimeUseCodes_values_getToOneRelated",
        "inAppPurchaseOfferCodeOneTimeUseCodes_values_getToOneRelated",
    ]
    /// Bodies are read whole to be recorded; App Store Connect's pages are far smaller than this.
    static let bodyLimit = 64 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        let requestData = try await Self.collect(body)
        let (path, query) = ASCTraceExchange.split(request.path ?? "")
        var exchange = ASCTraceExchange(
            started: Date(), milliseconds: 0, operation: operationID, method: request.method.rawValue,
            url: baseURL.absoluteString + (request.path ?? ""), path: path, query: query, status: nil, error: nil,
            requestHeaders: ASCTraceHeaders.selected(request.headerFields, ASCTraceHeaders.request),
            requestBody: requestData.map { ASCTraceExchange.Body(data: $0, contentType: request.headerFields[.contentType]) },
            responseHeaders: [], responseBody: nil)
        let timer = ContinuousClock()
        let start = timer.now
        do {
            let (response, responseBody) = try await next(request, requestData.map { HTTPBody($0) }, baseURL)
            let data = try await Self.collect(responseBody)
            exchange.milliseconds = ASCTraceExchange.milliseconds(timer.now - start)
            exchange.status = response.status.code
            exchange.responseHeaders = ASCTraceHeaders.selected(response.headerFields, ASCTraceHeaders.response)
            exchange.responseBody = data.flatMap { data in
                guard !data.isEmpty else { return nil }
                // Offer-code values are secrets the user downloads to a file of their own: a trace keeps their size only.
                if Self.secretAnswers.contains(operationID) {
                    return .omitted(what: "offer code values", size: data.count, sha256: ASCTraceExchange.Body.sha256(data))
                }
                return ASCTraceExchange.Body(data: data, contentType: response.headerFields[.contentType])
            }
            try trace.record(exchange)
            return (response, data.map { HTTPBody($0) })
        } catch {
            let cause = ASCError.cause(of: error)
            if case .trace = cause as? ASCError { throw cause }
            exchange.milliseconds = ASCTraceExchange.milliseconds(timer.now - start)
            exchange.error = ASCRedaction.redact(String(describing: cause))
            try trace.record(exchange)
            throw error
        }
    }
}

extension ASCTraceMiddleware {
    static func collect(_ body: HTTPBody?) async throws -> Data? {
        guard let body else { return nil }
        return try await Data(collecting: body, upTo: bodyLimit)
    }
}

enum ASCTraceHeaders {
    /// The request headers worth a bug report; `authorization` is kept only as the word `Bearer`.
    static let request: Set<String> = ["authorization", "content-type", "accept", "content-length"]
    /// The answer's: what it is, App Store Connect's clock and request budget, and its ids for Apple's support.
    static let response: Set<String> = [
        "content-type", "date", "x-rate-limit", "retry-after", "location",
        "x-request-id", "x-apple-request-uuid", "x-apple-jingle-correlation-key",
    ]

    static func selected(_ fields: HTTPFields, _ names: Set<String>) -> [(name: String, value: String)] {
        fields.compactMap { field in
            let name = field.name.canonicalName
            guard names.contains(name) else { return nil }
            return (name, name == "authorization" ? "Bearer <redacted>" : field.value)
        }
    }

    static func selected(_ pairs: [(name: String, value: String)], _ names: Set<String>) -> [(name: String, value: String)] {
        pairs.compactMap { pair in
            let name = pair.name.lowercased()
            return names.contains(name) ? (name, name == "authorization" ? "Bearer <redacted>" : pair.value) : nil
        }
    }
}
