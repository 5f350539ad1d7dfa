import AppStoreConnectAPI
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
///
/// The same reading names each attribute and relationship a resource of the answer has that the document iapkit was
/// generated from does not give its type (`type.name`): what a newer API version added, which a newer iapkit may
/// manage. App Store Connect sends every attribute of a resource (`null` ones too), so the first answer of each
/// operation shows them: later pages are not searched again.
struct ASCLinkageMiddleware: ClientMiddleware {
    /// What the answers held beyond the document, and the operations whose answers were searched for it.
    struct NewerFields: Sendable {
        var names: Set<String> = []
        var searched: Set<String> = []
    }

    let unanswered: Locked<Set<String>>
    let newer: Locked<NewerFields>
    /// Lists of products with what they include run to a few megabytes.
    static let bodyLimit = 32 << 20

    /// What real answers carry beyond the document and iapkit reads or knowingly leaves (App Store Connect's answers
    /// as recorded): the retired `availableInAllTerritories` of in-app purchases made before 2023, the `priceTier`
    /// of price points from before the 2023 grid, a win-back offer's `promotion`, a promoted purchase's images.
    static let knownBeyondTheDocument: Set<String> = [
        "inAppPurchases.availableInAllTerritories", "inAppPurchasePricePoints.priceTier", "subscriptionPricePoints.priceTier",
        "winBackOffers.promotion", "promotedPurchases.promotionImages",
    ]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard request.method == .get, response.status.code == 200, let responseBody else { return (response, responseBody) }
        let asked = Self.included(request.path ?? "")
        let searches = newer.withLock { $0.searched.insert(operationID).inserted }
        guard !asked.isEmpty || searches else { return (response, responseBody) }
        let data = try await Data(collecting: responseBody, upTo: Self.bodyLimit)
        if let document = try? AnswerOutline.parse(data) {
            let missing = asked.isEmpty ? [] : Self.unanswered(in: document, asked: asked)
            if !missing.isEmpty { unanswered.withLock { $0.formUnion(missing) } }
            let names = searches ? Self.notInTheDocument(document) : []
            if !names.isEmpty { newer.withLock { $0.names.formUnion(names) } }
        }
        return (response, HTTPBody(data))
    }

    /// `type.name` of each attribute or relationship of the answer's resources (`data` and `included`) that the
    /// document does not give their type; types the document does not describe are left to the decoder.
    static func notInTheDocument(_ document: AnswerOutline) -> Set<String> {
        var names: Set<String> = []
        for resource in document.data + document.included {
            guard let type = resource.type, let known = ASCDocumentFields.known[type] else { continue }
            for name in resource.attributes where !known.attributes.contains(name) { names.insert("\(type).\(name)") }
            for name in resource.relationships.keys where !known.relationships.contains(name) { names.insert("\(type).\(name)") }
        }
        return names.subtracting(knownBeyondTheDocument)
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
    static func unanswered(in document: AnswerOutline, asked: Set<String>) -> Set<String> {
        var missing: Set<String> = []
        for resource in document.data {
            guard let type = resource.type, let id = resource.id else { continue }
            for (name, hasLinkage) in resource.relationships where asked.contains(name) && !hasLinkage {
                missing.insert("\(type)/\(id)/\(name)")
            }
        }
        return missing
    }
}

/// What the middleware reads of an answer: each resource's type, id, attribute names and whether each relationship
/// holds linkage. Decoding only that, not every value, keeps the reading a small part of a pull (a whole `JSONValue`
/// of each page took about as long as the generated client's own decoding).
struct AnswerOutline: Decodable {
    var data: [Resource] = []
    var included: [Resource] = []

    struct Resource: Decodable {
        var type: String?
        var id: String?
        var attributes: [String] = []
        /// Each relationship's name, and whether it has a `data` key (linkage, or `null` for none).
        var relationships: [String: Bool] = [:]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            type = try? container.decodeIfPresent(String.self, forKey: AnyKey("type"))
            id = try? container.decodeIfPresent(String.self, forKey: AnyKey("id"))
            if let attributes = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("attributes")) {
                self.attributes = attributes.allKeys.map(\.stringValue)
            }
            if let relationships = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("relationships")) {
                for key in relationships.allKeys {
                    let relationship = try? relationships.nestedContainer(keyedBy: AnyKey.self, forKey: key)
                    self.relationships[key.stringValue] = relationship?.contains(AnyKey("data")) ?? false
                }
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        // `data` is a list, or one resource (or `null`) for an answer about one.
        if let list = try? container.decode([Resource].self, forKey: AnyKey("data")) {
            data = list
        } else if let one = try? container.decode(Resource.self, forKey: AnyKey("data")) {
            data = [one]
        }
        included = (try? container.decodeIfPresent([Resource].self, forKey: AnyKey("included"))) ?? []
    }

    /// No nesting check of its own: the outline does not recurse, and the generated client reads the same body.
    static func parse(_ data: Data) throws -> AnswerOutline {
        try JSONDecoder().decode(AnswerOutline.self, from: data)
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
