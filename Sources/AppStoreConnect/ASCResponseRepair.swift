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
///
/// A resource's attribute is left out only where it holds the value not known (on every resource of the list that
/// holds that same value, so one new state on a page costs one repair): the other resources are read in full, and
/// each resource left without it is recorded, so the reads note that attribute as unanswered, never as empty.
final class ASCResponseRepair: @unchecked Sendable {
    @TaskLocal static var current: ASCResponseRepair?

    /// The most repairs one answer may need (each a value not known, wherever it stands) before the call fails as it is.
    static let mostRepairs = 16

    private let lock = PThreadLock()
    private var recorded: (operationID: String, response: HTTPResponse, body: Data)?
    private var requests = 0
    private var removals: [[String]] = []
    private var addsLinks = false
    private var repairs = 0

    /// What one repair did: the sentence the command reports, and each resource attribute it left unread.
    struct Tolerated: Sendable {
        var note: String
        var unread: [ASCUnreadAttribute] = []
    }

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
    func tolerate(_ error: DecodingError) -> Tolerated? {
        lock.withLock {
            guard requests == 1, let recorded, repairs < Self.mostRepairs else { return nil }
            repairs += 1
            switch error {
            case let .keyNotFound(key, context) where key.stringValue == "links" && context.codingPath.isEmpty && !addsLinks:
                addsLinks = true
                return Tolerated(note: "\(recorded.operationID): a list without its top-level links")
            case let .dataCorrupted(context), let .typeMismatch(_, context), let .valueNotFound(_, context):
                if let document = try? JSONValue.parse(recorded.body),
                    let repaired = resourceAttribute(context.codingPath, in: document, operationID: recorded.operationID)
                {
                    return repaired
                }
                // Elsewhere than a resource's attribute: every element of a list at once.
                let path = context.codingPath.map { $0.intValue == nil ? $0.stringValue : "*" }
                guard path.count >= 2, !removals.contains(path) else { return nil }
                removals.append(path)
                return Tolerated(note: "\(recorded.operationID): ignored \(path.joined(separator: ".")) (\(context.debugDescription))")
            default:
                return nil
            }
        }
    }

    /// For a value at `data[n].attributes.NAME…` (or `included[n]…`, or a single `data.attributes.NAME…`): leaves
    /// NAME out of that resource and of each other resource of the same type in that list holding the same value.
    private func resourceAttribute(_ codingPath: [any CodingKey], in document: JSONValue, operationID: String) -> Tolerated? {
        guard let list = codingPath.first?.stringValue, list == "data" || list == "included" else { return nil }
        let index = codingPath.count > 1 ? codingPath[1].intValue : nil
        let at = index == nil ? 1 : 2
        guard codingPath.count > at + 1, codingPath[at].stringValue == "attributes" else { return nil }
        let name = codingPath[at + 1].stringValue
        var resources: [(key: String?, resource: JSONValue)]
        switch (document[list], index) {
        case let (.array(items)?, index?) where items.indices.contains(index):
            resources = items.enumerated().map { ("#\($0.offset)", $0.element) }
        case let (.object(pairs)?, nil):
            resources = [(nil, .object(pairs))]
        default:
            return nil
        }
        let failing = index.map { resources[$0].resource } ?? resources[0].resource
        guard case let .string(type)? = failing["type"], let value = failing["attributes"]?[name] else { return nil }
        resources = resources.filter { $0.resource["type"] == .string(type) && $0.resource["attributes"]?[name] == value }
        var unread: [ASCUnreadAttribute] = []
        for (key, resource) in resources {
            let path = [list] + (key.map { [$0] } ?? []) + ["attributes", name]
            guard !removals.contains(path) else { return nil }
            removals.append(path)
            if case let .string(id)? = resource["id"] {
                unread.append(ASCUnreadAttribute(type: type, id: id, attribute: name, value: value.serialized(.compact)))
            }
        }
        let total = (document[list].flatMap { if case let .array(items) = $0 { items } else { nil } } ?? [failing])
            .filter { $0["type"] == .string(type) }.count
        return Tolerated(
            note: "\(operationID): \(type).\(name) \(value.serialized(.compact)) is a value this iapkit does not know, on "
                + "\(unread.count) of \(total) \(type); left unread there, the rest read in full",
            unread: unread)
    }

    static func removing(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        switch value {
        case let .array(items) where key == "*":
            return .array(items.map { removing(path.dropFirst(), from: $0) })
        case let .array(items) where key.hasPrefix("#"):
            guard let index = Int(key.dropFirst()), items.indices.contains(index) else { return value }
            var items = items
            items[index] = removing(path.dropFirst(), from: items[index])
            return .array(items)
        case let .object(pairs):
            if path.count == 1 { return .object(pairs.filter { $0.0 != key }) }
            return .object(pairs.map { $0.0 == key ? ($0.0, removing(path.dropFirst(), from: $0.1)) : $0 })
        default:
            return value
        }
    }
}

/// A resource's attribute App Store Connect answered with a value iapkit does not know, left unread.
public struct ASCUnreadAttribute: Sendable, Hashable {
    /// `subscriptions`, `inAppPurchases`, … and the resource's id.
    public var type: String
    public var id: String
    /// `subscriptionPeriod`, `state`, …
    public var attribute: String
    /// The value as App Store Connect sent it, as JSON (`"P2W"`).
    public var value: String
}

/// What the client tolerated in App Store Connect's answers, for the command to report.
final class ASCToleranceRecorder: @unchecked Sendable {
    private let lock = PThreadLock()
    private var notes: [String] = []
    private var unread: [String: [ASCUnreadAttribute]] = [:]
    func record(_ tolerated: ASCResponseRepair.Tolerated) {
        lock.withLock {
            if !notes.contains(tolerated.note) { notes.append(tolerated.note) }
            for attribute in tolerated.unread where unread["\(attribute.type)/\(attribute.id)", default: []].contains(attribute) == false {
                unread["\(attribute.type)/\(attribute.id)", default: []].append(attribute)
            }
        }
    }
    var value: [String] { lock.withLock { notes } }
    func unread(type: String, id: String) -> [ASCUnreadAttribute] { lock.withLock { unread["\(type)/\(id)"] ?? [] } }
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
