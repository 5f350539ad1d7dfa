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

/// One request and its answer as a trace keeps it: no token, no key, no upload or image bytes.
public struct ASCTraceExchange: Sendable {
    /// A body in a trace: JSON as JSON, other text as text, and bytes that must not (uploads) or need not (images)
    /// be kept as their size and SHA-256.
    public enum Body: Sendable, Equatable {
        case json(JSONValue)
        case text(String)
        case omitted(what: String, size: Int, sha256: String)
    }

    public var started: Date
    public var milliseconds: Double
    /// The generated operation (`inAppPurchasesV2_getInstance`), or `upload` and `download` for asset storage.
    public var operation: String
    public var method: String
    /// The absolute URL, for HAR; asset storage URLs keep no query (an upload's is a signed address).
    public var url: String
    /// The path, relative to the API server for API requests, and the percent-encoded query: what replay matches on.
    public var path: String
    public var query: String?
    public var status: Int?
    /// Why there is no answer (connection refused, timeout), when there is none.
    public var error: String?
    public var requestHeaders: [(name: String, value: String)]
    public var requestBody: Body?
    public var responseHeaders: [(name: String, value: String)]
    public var responseBody: Body?
    /// Where a replayed exchange stands in its trace (`plan.jsonl:12`, `pull.har: entry 3`), for errors its answer
    /// causes; nil for an exchange made in this run. Never written to a trace.
    public var origin: String?

    /// The statuses App Store Connect can answer with; a trace holding another was not written by iapkit, or was
    /// edited, and replay refuses it rather than answer with a status no server sends.
    public static let answerableStatuses = 100...599

    /// What replay matches a request by: method, path and query.
    var key: String { Self.key(method: method, path: path, query: query) }

    static func key(method: String, path: String, query: String?) -> String {
        method + " " + path + (query.map { "?" + $0 } ?? "")
    }

    /// The path and the query of `pathAndQuery` (`/v1/apps?limit=200`).
    static func split(_ pathAndQuery: String) -> (path: String, query: String?) {
        guard let mark = pathAndQuery.firstIndex(of: "?") else { return (pathAndQuery, nil) }
        return (String(pathAndQuery[..<mark]), String(pathAndQuery[pathAndQuery.index(after: mark)...]))
    }
}

/// Writes every exchange with App Store Connect to a file as it completes (`iapkit asc ... --trace FILE`), for bug
/// reports and for `--replay`.
///
/// Each exchange is written the moment it completes, not at the end: a trace is wanted most when a command fails or
/// is interrupted, and every exchange before that point is already in the file. JSON lines append one line per
/// exchange; a HAR file is kept a complete document after every exchange by writing each entry over the document's
/// closing brackets and closing them again. So no format needs a final step, and a command that stops for any
/// reason leaves a trace that reads.
///
/// Never kept: the Authorization header's token (the header is kept as `Bearer <redacted>`), anything that looks like
/// a token or a PEM key inside a body, the bytes of uploads and of downloaded images (kept as size and SHA-256).
public final class ASCTrace: @unchecked Sendable {
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object per exchange and line.
        case jsonl
        /// HTTP Archive 1.2, which browsers' developer tools open.
        case har
    }

    public let path: String
    public let format: Format
    private let lock = PThreadLock()
    private let handle: OutputHandle
    private var written = 0
    private var failure: String?

    static let harClosing = "\n]}}\n"

    /// Creates (or empties) the trace file.
    public init(path: String, format: Format, creator: String = "iapkit", version: String = "") throws(ASCError) {
        self.path = path
        self.format = format
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .trace("\(path): cannot write the trace: \(String(cString: strerror(errno)))")
        }
        handle = OutputHandle(fileDescriptor: descriptor)
        if format == .har {
            let creator = JSONValue.object([("name", .string(creator)), ("version", .string(version))])
            var head = #"{"log":{"version":"1.2","creator":"#
            head += creator.serialized(.compact) + #","entries":["#
            try write(head + Self.harClosing, replacingClosing: false)
        }
    }

    /// How many exchanges the file holds.
    public var count: Int { lock.withLock { written } }

    /// Adds one exchange. A trace that cannot be written stops the command: a bug report with a hole in it misleads.
    public func record(_ exchange: ASCTraceExchange) throws(ASCError) {
        let redacted = exchange.redacted()
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw .trace(failure) }
        switch format {
        case .jsonl:
            try write(redacted.jsonLine.serialized(.compact) + "\n", replacingClosing: false)
        case .har:
            let separator = written == 0 ? "\n" : ",\n"
            try write(separator + redacted.harEntry.serialized(.compact) + Self.harClosing, replacingClosing: true)
        }
        written += 1
    }

    private func write(_ text: String, replacingClosing: Bool) throws(ASCError) {
        do {
            if replacingClosing, lseek(handle.fileDescriptor, off_t(-Self.harClosing.utf8.count), SEEK_END) < 0 {
                throw SystemError()
            }
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            let reason = "\(path): the trace could not be written: \(error)"
            failure = reason
            throw .trace(reason)
        }
    }
}

// MARK: - Recording

/// Records each exchange of the generated client into a trace. The innermost middleware: it sees every attempt a
/// retry or a token renewal makes, as sent, and the answer before any other middleware changes it.
struct ASCTraceMiddleware: ClientMiddleware {
    let trace: ASCTrace
    /// Operations whose answers are secrets (one-time offer codes): never written to a trace.
    static let secretAnswers: Set<String> = ["subscriptionOfferCodeOneTimeUseCodes_values_getToOneRelated",
                                             "inAppPurchaseOfferCodeOneTimeUseCodes_values_getToOneRelated"]
    /// Bodies are read whole to be recorded; App Store Connect's pages are far smaller than this.
    static let bodyLimit = 64 << 20

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?))
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
    static let response: Set<String> = ["content-type", "date", "x-rate-limit", "retry-after", "location",
                                        "x-request-id", "x-apple-request-uuid", "x-apple-jingle-correlation-key"]

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

extension ASCTraceExchange {
    static func milliseconds(_ duration: Duration) -> Double {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (value * 10).rounded() / 10
    }

    /// An asset-storage exchange (an upload or an image download), whose bytes a trace never keeps.
    static func storage(operation: String, method: String, url: URL, started: Date, milliseconds: Double,
                        status: Int?, error: String?, requestHeaders: [(name: String, value: String)],
                        uploaded: Data?, responseHeaders: [(name: String, value: String)], received: Data?) -> ASCTraceExchange {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? url.path
        var query = components?.percentEncodedQuery
        // An upload address is signed in its query: kept out, like a token.
        if operation == "upload" {
            components?.percentEncodedQuery = nil
            query = query.map { _ in "<redacted>" }
        }
        return ASCTraceExchange(
            started: started, milliseconds: milliseconds, operation: operation, method: method,
            url: components?.url?.absoluteString ?? url.absoluteString, path: path, query: query, status: status,
            error: error, requestHeaders: ASCTraceHeaders.selected(requestHeaders, ASCTraceHeaders.request),
            requestBody: uploaded.map { .omitted(what: "upload", size: $0.count, sha256: Body.sha256($0)) },
            responseHeaders: ASCTraceHeaders.selected(responseHeaders, ASCTraceHeaders.response),
            responseBody: received.flatMap { $0.isEmpty ? nil : operation == "download" && (200..<300).contains(status ?? 0)
                ? .omitted(what: "image", size: $0.count, sha256: Body.sha256($0))
                : Body(data: $0, contentType: nil) })
    }
}

extension ASCTraceExchange.Body {
    /// JSON when the bytes parse as JSON, text when they are UTF-8, else their size and digest.
    init(data: Data, contentType: String?) {
        if let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
           let value = try? JSONValue.parse(data) {
            self = .json(value)
        } else if let text = String(validating: data, as: UTF8.self) {
            self = .text(text)
        } else {
            self = .omitted(what: contentType ?? "binary", size: data.count, sha256: Self.sha256(data))
        }
    }

    static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { Format.hex($0, width: 2) }.joined() }

    /// The bytes replay answers with. Omitted bytes cannot come back: a short text says what stood there.
    var replayBytes: Data {
        switch self {
        case let .json(value): return Data(value.serialized(.compact).utf8)
        case let .text(text): return Data(text.utf8)
        case let .omitted(what, size, sha256):
            return Data("iapkit replay: the trace kept no bytes of this \(what) (\(size) bytes, sha256 \(sha256))\n".utf8)
        }
    }

    var text: String? {
        switch self {
        case let .json(value): return value.serialized(.compact)
        case let .text(text): return text
        case .omitted: return nil
        }
    }

    var size: Int {
        switch self {
        case let .omitted(_, size, _): return size
        default: return text?.utf8.count ?? 0
        }
    }

    var jsonValue: JSONValue {
        switch self {
        case let .json(value): return .object([("json", value)])
        case let .text(text): return .object([("text", .string(text))])
        case let .omitted(what, size, sha256):
            return .object([("omitted", .string(what)), ("size", .int(size)), ("sha256", .string(sha256))])
        }
    }

    init?(jsonValue: JSONValue?) {
        guard let jsonValue, jsonValue != .null else { return nil }
        if let value = jsonValue["json"] { self = .json(value); return }
        if case let .string(text)? = jsonValue["text"] { self = .text(text); return }
        guard case let .string(what)? = jsonValue["omitted"], case let .int(size)? = jsonValue["size"],
              case let .string(sha256)? = jsonValue["sha256"] else { return nil }
        self = .omitted(what: what, size: size, sha256: sha256)
    }
}

// MARK: - Redaction

extension ASCTraceExchange {
    /// The exchange with anything that looks like a token or a PEM key removed from its bodies and headers: the
    /// token never goes into a body, but an echo of a request (an error's `detail`) must not carry one out either.
    func redacted() -> ASCTraceExchange {
        var copy = self
        copy.requestHeaders = requestHeaders.map { ($0.name, Self.redact($0.value)) }
        copy.responseHeaders = responseHeaders.map { ($0.name, Self.redact($0.value)) }
        copy.requestBody = requestBody.map(Self.redact)
        copy.responseBody = responseBody.map(Self.redact)
        copy.error = error.map(Self.redact)
        return copy
    }

    private static func redact(_ body: Body) -> Body {
        switch body {
        case let .json(value): return .json(redact(value))
        case let .text(text): return .text(redact(text))
        case .omitted: return body
        }
    }

    private static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .string(text): return .string(redact(text))
        case let .array(items): return .array(items.map(redact))
        case let .object(pairs): return .object(pairs.map { ($0.0, redact($0.1)) })
        default: return value
        }
    }

    /// The regular expressions run only on text with a marker, so megabytes of prices cost a substring search.
    private static func redact(_ text: String) -> String {
        guard text.contains("Bearer ") || text.contains("-----BEGIN") || text.contains("eyJ") else { return text }
        if text == "Bearer <redacted>" { return text }
        return ASCRedaction.redact(text)
    }
}

// MARK: - Formats

extension ASCTraceExchange {
    static func headerObject(_ headers: [(name: String, value: String)]) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        for (name, value) in headers {
            if let index = pairs.firstIndex(where: { $0.0 == name }), case let .string(earlier) = pairs[index].1 {
                pairs[index].1 = .string(earlier + ", " + value)
            } else {
                pairs.append((name, .string(value)))
            }
        }
        return .object(pairs)
    }

    static func headerList(_ value: JSONValue?) -> [(name: String, value: String)] {
        guard case let .object(pairs)? = value else { return [] }
        return pairs.compactMap { pair in
            guard case let .string(text) = pair.1 else { return nil }
            return (pair.0, text)
        }
    }

    static func iso8601(_ date: Date) -> String {
        (try? ISO8601DateTranscoder.iso8601WithFractionalSeconds.encode(date)) ?? ""
    }

    /// One line of a JSON-lines trace.
    var jsonLine: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("started", .string(Self.iso8601(started))), ("ms", .double(milliseconds)), ("operation", .string(operation)),
            ("method", .string(method)), ("url", .string(url)), ("path", .string(path)), ("query", .optional(query)),
            ("status", .optional(status)),
        ]
        if let error { pairs.append(("error", .string(error))) }
        pairs += [
            ("requestHeaders", Self.headerObject(requestHeaders)), ("requestBody", requestBody?.jsonValue ?? .null),
            ("responseHeaders", Self.headerObject(responseHeaders)), ("responseBody", responseBody?.jsonValue ?? .null),
        ]
        return .object(pairs)
    }

    init(jsonLine: JSONValue) throws(ASCError) {
        func string(_ key: String) -> String? {
            if case let .string(text)? = jsonLine[key] { return text }
            return nil
        }
        guard let method = string("method"), let path = string("path") else {
            throw .trace("not an exchange of an iapkit trace (no method or path)")
        }
        var milliseconds = 0.0
        switch jsonLine["ms"] {
        case let .double(value)?: milliseconds = value
        case let .int(value)?: milliseconds = Double(value)
        default: break
        }
        let status = try Self.status(jsonLine["status"], absent: [.null])
        self.init(
            started: string("started").flatMap { try? ASCDateTranscoder().decode($0) } ?? Date(timeIntervalSince1970: 0),
            milliseconds: milliseconds, operation: string("operation") ?? "", method: method, url: string("url") ?? path,
            path: path, query: string("query"), status: status, error: string("error"),
            requestHeaders: Self.headerList(jsonLine["requestHeaders"]), requestBody: Body(jsonValue: jsonLine["requestBody"]),
            responseHeaders: Self.headerList(jsonLine["responseHeaders"]), responseBody: Body(jsonValue: jsonLine["responseBody"]))
    }

    /// A recorded status: nil when absent (or one of `absent`), else a status App Store Connect can send.
    static func status(_ value: JSONValue?, absent: [JSONValue]) throws(ASCError) -> Int? {
        guard let value, !absent.contains(value) else { return nil }
        guard case let .int(code) = value, answerableStatuses.contains(code) else {
            throw .trace("status \(value.serialized(.compact).prefix(40)) is not an HTTP status App Store Connect answers with "
                + "(\(answerableStatuses.lowerBound) to \(answerableStatuses.upperBound))")
        }
        return code
    }

    /// One entry of a HAR 1.2 log. iapkit's own fields start with `_`, as the format allows: the path relative to
    /// the API server and the query replay matches on, the operation, a transport failure.
    var harEntry: JSONValue {
        func headers(_ list: [(name: String, value: String)]) -> JSONValue {
            .array(list.map { .object([("name", .string($0.name)), ("value", .string($0.value)) ]) })
        }
        func contentType(_ list: [(name: String, value: String)]) -> String {
            list.first { $0.name == "content-type" }?.value ?? "application/octet-stream"
        }
        func comment(_ body: Body?) -> [(String, JSONValue)] {
            guard case let .omitted(what, size, sha256)? = body else { return [] }
            return [("comment", .string("\(what) bytes left out: \(size) bytes, sha256 \(sha256)"))]
        }
        let queryString = JSONValue.array((query ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map { ASCPercentEncoding.decode(String($0)) }
            return .object([("name", .string(parts.first ?? "")), ("value", .string(parts.count > 1 ? parts[1] : ""))])
        })
        var request: [(String, JSONValue)] = [
            ("method", .string(method)), ("url", .string(url)), ("httpVersion", .string("HTTP/1.1")), ("cookies", .array([])),
            ("headers", headers(requestHeaders)), ("queryString", queryString), ("headersSize", .int(-1)),
            ("bodySize", .int(requestBody?.size ?? 0)),
        ]
        if let requestBody {
            request.append(("postData", .object([("mimeType", .string(contentType(requestHeaders))),
                                                 ("text", .string(requestBody.text ?? ""))] + comment(requestBody))))
        }
        var content: [(String, JSONValue)] = [("size", .int(responseBody?.size ?? 0)), ("mimeType", .string(contentType(responseHeaders)))]
        if let text = responseBody?.text { content.append(("text", .string(text))) }
        content += comment(responseBody)
        let response: [(String, JSONValue)] = [
            ("status", .int(status ?? 0)), ("statusText", .string(status.map { ASCError.reasonPhrase($0) } ?? "")),
            ("httpVersion", .string("HTTP/1.1")), ("cookies", .array([])), ("headers", headers(responseHeaders)),
            ("content", .object(content)), ("redirectURL", .string("")), ("headersSize", .int(-1)),
            ("bodySize", .int(responseBody?.size ?? 0)),
        ]
        var entry: [(String, JSONValue)] = [
            ("startedDateTime", .string(Self.iso8601(started))), ("time", .double(milliseconds)),
            ("request", .object(request)), ("response", .object(response)), ("cache", .object([])),
            ("timings", .object([("send", .int(0)), ("wait", .double(milliseconds)), ("receive", .int(0))])),
            ("_operation", .string(operation)), ("_path", .string(path)), ("_query", .optional(query)),
        ]
        if let error { entry.append(("_error", .string(error))) }
        return .object(entry)
    }

    init(harEntry: JSONValue) throws(ASCError) {
        guard let request = harEntry["request"], case let .string(method)? = request["method"],
              case let .string(url)? = request["url"] else {
            throw .trace("not an entry of a HAR log (no request method or URL)")
        }
        let response = harEntry["response"]
        func text(_ value: JSONValue?) -> String? {
            if case let .string(text)? = value { return text }
            return nil
        }
        func body(_ text: String?, comment: String?) -> Body? {
            if let comment, comment.contains("bytes left out") {
                let words = comment.split(separator: " ")
                return .omitted(what: words.first.map(String.init) ?? "bytes", size: words.dropFirst(4).first.flatMap { Int($0) } ?? 0,
                                sha256: words.last.map(String.init) ?? "")
            }
            guard let text, !text.isEmpty else { return nil }
            return Body(data: Data(text.utf8), contentType: nil)
        }
        var path: String
        var query: String?
        if let recorded = text(harEntry["_path"]) {
            path = recorded
            query = text(harEntry["_query"])
        } else {
            let components = URLComponents(string: url)
            path = components?.percentEncodedPath ?? url
            query = components?.percentEncodedQuery
        }
        // HAR writes 0 for a request that got no answer.
        let status = try Self.status(response?["status"], absent: [.null, .int(0)])
        var milliseconds = 0.0
        if case let .double(value)? = harEntry["time"] { milliseconds = value }
        if case let .int(value)? = harEntry["time"] { milliseconds = Double(value) }
        func headers(_ value: JSONValue?) -> [(name: String, value: String)] {
            guard case let .array(items)? = value else { return [] }
            return items.compactMap { item in
                guard let name = text(item["name"]), let value = text(item["value"]) else { return nil }
                return (name.lowercased(), value)
            }
        }
        self.init(
            started: text(harEntry["startedDateTime"]).flatMap { try? ASCDateTranscoder().decode($0) } ?? Date(timeIntervalSince1970: 0),
            milliseconds: milliseconds, operation: text(harEntry["_operation"]) ?? "", method: method, url: url, path: path,
            query: query, status: status, error: text(harEntry["_error"]),
            requestHeaders: headers(request["headers"]),
            requestBody: body(text(request["postData"]?["text"]), comment: text(request["postData"]?["comment"])),
            responseHeaders: headers(response?["headers"]),
            responseBody: body(text(response?["content"]?["text"]), comment: text(response?["content"]?["comment"])))
    }
}

/// `%5B` -> `[`: FoundationEssentials has no percent-decoding, and without it a query reads poorly in a HAR viewer.
public enum ASCPercentEncoding {
    public static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
