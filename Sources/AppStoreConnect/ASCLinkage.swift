import HTTPTypes
import IAPCore
import OpenAPIRuntime
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// App Store Connect sends a relationship's linkage only when the request named it in `include=`; then `"data"` is
/// the related resource, or `null` for none. A relationship named there that comes back with `links` only was asked
/// for and not answered, but the generated types read it as `null` would be read: none. This middleware remembers
/// each such relationship (`type/id/relationship`) of the resources an answer lists, so the reads that need it take
/// it as unanswered, never as empty.
struct ASCLinkageMiddleware: ClientMiddleware {
    let unanswered: Locked<Set<String>>
    /// Lists of products with what they include run to a few megabytes.
    static let bodyLimit = 32 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        let (response, responseBody) = try await next(request, body, baseURL)
        let asked = request.method == .get ? Self.included(request.path ?? "") : []
        guard !asked.isEmpty, response.status.code == 200, let responseBody else { return (response, responseBody) }
        let data = try await Data(collecting: responseBody, upTo: Self.bodyLimit)
        if let document = try? JSONValue.parse(data) {
            let missing = Self.unanswered(in: document, asked: asked)
            if !missing.isEmpty { unanswered.withLock { $0.formUnion(missing) } }
        }
        return (response, HTTPBody(data))
    }

    /// The relationships a request's `include=` names.
    static func included(_ path: String) -> Set<String> {
        guard let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        var names: Set<String> = []
        for pair in query.split(separator: "&") where pair.hasPrefix("include=") {
            for name in ASCPercentEncoding.decode(String(pair.dropFirst("include=".count))).split(separator: ",") {
                names.insert(String(name))
            }
        }
        return names
    }

    /// `type/id/relationship` of every listed resource whose asked relationship has no `data` key.
    static func unanswered(in document: JSONValue, asked: Set<String>) -> Set<String> {
        var resources: [JSONValue] = []
        switch document["data"] {
        case let .array(items)?: resources = items
        case let .object(pairs)?: resources = [.object(pairs)]
        default: return []
        }
        var missing: Set<String> = []
        for resource in resources {
            guard case let .string(type)? = resource["type"], case let .string(id)? = resource["id"],
                case let .object(relationships)? = resource["relationships"]
            else { continue }
            for (name, relationship) in relationships where asked.contains(name) && relationship["data"] == nil {
                missing.insert("\(type)/\(id)/\(name)")
            }
        }
        return missing
    }
}
