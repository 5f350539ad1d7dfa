import HTTPTypes
import IAPCore
import OpenAPIRuntime
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers App Store Connect really sends that the types generated from its document cannot read as they are: an
/// enum value the document does not know yet (a new product state), a value of another type than documented, a list
/// without its top-level `links`. Such an answer must not stop a pull: `AppStoreConnectClient.send` decodes it again
/// from the answer already received, with that one value left out (or the missing `links` added), and records what it
/// left out, which the command reports. Nothing is sent twice.
final class ASCResponseRepair: @unchecked Sendable {
    @TaskLocal static var current: ASCResponseRepair?

    /// The most values one answer may have left out before the call fails as it is.
    static let mostRepairs = 8

    private let lock = PThreadLock()
    private var recorded: (operationID: String, response: HTTPResponse, body: Data)?
    private var requests = 0
    private var removals: [[String]] = []
    private var addsLinks = false

    /// Keeps the answer of one request; a second request in the same call makes the call unrepairable (replaying would
    /// answer the first with the second's answer).
    func record(operationID: String, response: HTTPResponse, body: Data) {
        lock.withLock {
            requests += 1
            recorded = (operationID, response, body)
        }
    }

    /// The recorded answer with the repairs made, for the call's next decoding; nil when there is none to replay.
    func replay(operationID: String) -> (HTTPResponse, Data)? {
        lock.withLock {
            guard let recorded, recorded.operationID == operationID, !removals.isEmpty || addsLinks,
                var document = try? JSONValue.parse(recorded.body)
            else { return nil }
            for path in removals { document = Self.removing(path[...], from: document) }
            if addsLinks, case var .object(pairs) = document, document["links"] == nil {
                pairs.append(("links", .object([("self", .string(""))])))
                document = .object(pairs)
            }
            return (recorded.response, Data(document.serialized(.compact).utf8))
        }
    }

    /// Takes note of what to leave out for `error`; returns what was tolerated, or nil when the error is not one a
    /// repair can mend (or the call sent more than one request, or too many repairs were needed already).
    func tolerate(_ error: DecodingError) -> String? {
        lock.withLock {
            guard requests == 1, let recorded, removals.count < Self.mostRepairs else { return nil }
            switch error {
            case let .keyNotFound(key, context) where key.stringValue == "links" && context.codingPath.isEmpty && !addsLinks:
                addsLinks = true
                return "\(recorded.operationID): a list without its top-level links"
            case let .dataCorrupted(context), let .typeMismatch(_, context), let .valueNotFound(_, context):
                // Every element of a list at once: one unknown state is usually on many products of the page.
                let path = context.codingPath.map { $0.intValue == nil ? $0.stringValue : "*" }
                guard path.count >= 2, !removals.contains(path) else { return nil }
                removals.append(path)
                return "\(recorded.operationID): ignored \(path.joined(separator: ".")) (\(context.debugDescription))"
            default:
                return nil
            }
        }
    }

    static func removing(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        switch value {
        case let .array(items) where key == "*":
            return .array(items.map { removing(path.dropFirst(), from: $0) })
        case let .object(pairs):
            if path.count == 1 { return .object(pairs.filter { $0.0 != key }) }
            return .object(pairs.map { $0.0 == key ? ($0.0, removing(path.dropFirst(), from: $0.1)) : $0 })
        default:
            return value
        }
    }
}

/// What the client tolerated in App Store Connect's answers, for the command to report.
final class ASCToleranceRecorder: @unchecked Sendable {
    private let lock = PThreadLock()
    private var notes: [String] = []
    func record(_ note: String) { lock.withLock { if !notes.contains(note) { notes.append(note) } } }
    var value: [String] { lock.withLock { notes } }
}

/// Records each successful JSON answer of a call for `ASCResponseRepair`, and answers a repaired call's second
/// decoding from the record instead of the network.
struct ASCResponseRepairMiddleware: ClientMiddleware {
    /// The largest answer kept (a page of 8,000 price points is about 3 MB).
    static let bodyLimit = 32 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard let repair = ASCResponseRepair.current else { return try await next(request, body, baseURL) }
        if let (response, data) = repair.replay(operationID: operationID) { return (response, HTTPBody(data)) }
        let (response, responseBody) = try await next(request, body, baseURL)
        guard (200..<300).contains(response.status.code), let responseBody else { return (response, responseBody) }
        let data = try await Data(collecting: responseBody, upTo: Self.bodyLimit)
        repair.record(operationID: operationID, response: response, body: data)
        return (response, HTTPBody(data))
    }
}
