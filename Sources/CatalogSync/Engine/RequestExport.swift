import AppStoreConnect
import AppStoreConnectAPI
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import IAPCore
import OpenAPIRuntime
import IAPCatalog

/// `export asc`: the requests `push` sends to an app with no products, recorded from the same operations.
///
/// Each entry is `{"method", "path", "body", "ref"}`. A resource created by an earlier request is `${ref}`; a price
/// point is `${pricePoint:REF:TERRITORY:PRICE}` (the point of REF whose USA customer price is PRICE, or its
/// equalization in TERRITORY), found by listing REF's price points once REF exists. A screenshot's upload is a
/// `PUT` of the file to each of the reservation's `uploadOperations`, then a `PATCH` with its MD5.
public enum RequestExport {
    public static func requests(for plan: Plan) async throws(SyncError) -> JSONValue {
        let recorder = RequestRecorder()
        // A throwaway key: the recording transport never sends anything, but the client signs every request.
        let key = P256.Signing.PrivateKey()
        let credentials = ASCCredentials(keyID: "EXPORT", issuerID: "export", privateKeyPEM: key.pemRepresentation)
        let asc: AppStoreConnectClient
        do {
            asc = AppStoreConnectClient(
                tokens: try ASCTokenProvider(credentials: credentials), retryPolicy: .never,
                transport: RecordingTransport(recorder: recorder))
        } catch {
            throw .store(context: "export asc", reason: error.description)
        }
        let executor = PlanExecutor(asc: asc)
        _ = try await executor.apply(plan, context: WriteContext(asc: asc, recorder: recorder))
        return .array(recorder.entries.map(\.json))
    }
}

/// The requests of an `export asc` run, in order.
final class RequestRecorder: @unchecked Sendable {
    struct Entry {
        var method: String
        var path: String
        var body: JSONValue?
        var file: String?
        var ref: String?

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("method", .string(method)), ("path", .string(path))]
            if let body { fields.append(("body", body)) }
            if let file { fields.append(("file", .string(file))) }
            if let ref { fields.append(("ref", .string(ref))) }
            return .object(fields)
        }
    }

    private let lock = PThreadLock()
    private var recorded: [Entry] = []

    var entries: [Entry] { lock.withLock { recorded } }

    func note(method: String, path: String, body: JSONValue? = nil, file: String? = nil) {
        lock.withLock { recorded.append(Entry(method: method, path: path, body: body, file: file)) }
    }

    /// Names the resource the latest request created.
    func tagLast(ref: String) {
        lock.withLock {
            guard let last = recorded.indices.last else { return }
            recorded[last].ref = recorded[last].ref ?? ref
        }
    }
}

/// Answers every write as App Store Connect would if it accepted it (201 with the resource, 200, 204) and keeps
/// the request. Reads are refused: an export plans against an app with no products and has nothing to read.
struct RecordingTransport: ClientTransport {
    let recorder: RequestRecorder

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        // `${ref}` placeholders stand in ids; the client percent-encodes them in paths.
        let path = ASCPercentEncoding.decode(String((request.path ?? "").prefix { $0 != "?" }))
        var document: JSONValue?
        var type = "resources"
        var id = "recorded"
        if let body {
            let data = try await Data(collecting: body, upTo: 64 << 20)
            document = try? JSONValue.parse(data)
            if case let .string(value)? = document?["data"]?["type"] { type = value }
            if case let .string(value)? = document?["data"]?["id"] { id = value }
        }
        recorder.note(method: request.method.rawValue, path: path, body: document)
        switch request.method {
        case .post, .patch:
            let links = JSONValue.object([("self", .string(path))])
            let answer = JSONValue.object([
                ("data", .object([("type", .string(type)), ("id", .string(id)), ("links", links)])), ("links", links),
            ])
            let data = Data(answer.serialized(.compact).utf8)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return (HTTPResponse(status: request.method == .post ? .created : .ok, headerFields: headers), HTTPBody(data))
        case .delete:
            return (HTTPResponse(status: .noContent), nil)
        default:
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            let refusal =
                #"{"errors":[{"status":"404","code":"NOT_FOUND","title":"export asc reads nothing","detail":"export asc plans against an app with no products"}]}"#
            return (HTTPResponse(status: .notFound, headerFields: headers), HTTPBody(refusal))
        }
    }
}
