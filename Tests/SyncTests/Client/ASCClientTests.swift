import AppStoreConnect
import AppStoreConnectAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import TestSupport
import Testing

/// An in-process transport: answers from a closure and records what it was sent.
final class ScriptedTransport: ClientTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let answer: @Sendable (HTTPRequest, URL) -> (Int, String)
    private(set) var sent: [(request: HTTPRequest, baseURL: URL)] = []

    init(_ answer: @escaping @Sendable (HTTPRequest, URL) -> (Int, String)) {
        self.answer = answer
    }

    var requests: [(request: HTTPRequest, baseURL: URL)] { lock.withLock { sent } }

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        lock.withLock { sent.append((request, baseURL)) }
        let (status, text) = answer(request, baseURL)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[HTTPField.Name("X-Rate-Limit")!] = "user-hour-lim:3600;user-hour-rem:\(3600 - requests.count);"
        return (HTTPResponse(status: .init(code: status), headerFields: fields), HTTPBody(text))
    }
}

@Suite struct ASCClientTests {
    func client(
        _ transport: ScriptedTransport, serverURL: String = "http://127.0.0.1:8080/"
    ) throws
        -> AppStoreConnectClient
    {
        let credentials = ASCCredentials(keyID: "KEY", issuerID: "ISSUER", privateKeyPEM: try makeTestKeyPEM())
        return AppStoreConnectClient(
            tokens: try ASCTokenProvider(credentials: credentials),
            serverURL: URL(string: serverURL)!, retryPolicy: .never,
            transport: transport)
    }

    static func appsPage(_ ids: [String], next: String?) -> String {
        let data = ids.map { #"{"type":"apps","id":"\#($0)","attributes":{"bundleId":"com.example.\#($0)"}}"# }
        let nextLink = next.map { #","next":"\#($0)""# } ?? ""
        return #"{"data":[\#(data.joined(separator: ","))],"links":{"self":"x"\#(nextLink)},"meta":{"paging":{"total":3,"limit":2}}}"#
    }

    @Test func followsNextLinksThroughTheSameMiddlewares() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.path?.contains("cursor=Mg") == true { return (200, Self.appsPage(["3"], next: nil)) }
            return (200, Self.appsPage(["1", "2"], next: "https://api.appstoreconnect.apple.com/v1/apps?cursor=Mg&limit=2"))
        }
        let asc = try client(transport)
        let pages = try await asc.allPages(
            { try await $0.appsGetCollection(query: .init(filterBundleId: ["com.example.1"], limit: 2)).ok.body.json },
            next: { $0.links.next })
        #expect(pages.flatMap { $0.data.map(\.id) } == ["1", "2", "3"])
        let sent = transport.requests
        #expect(sent.count == 2)
        #expect(sent[0].request.path?.hasPrefix("/v1/apps?") == true)
        #expect(sent[0].request.path?.contains("bundleId") == true)
        #expect(sent[0].request.path?.contains("=com.example.1") == true)
        // The next link's path and query, sent to the configured server (not the link's host), signed.
        #expect(sent[1].request.path == "/v1/apps?cursor=Mg&limit=2")
        #expect(sent.allSatisfy { $0.baseURL.absoluteString == "http://127.0.0.1:8080" })
        #expect(sent.allSatisfy { $0.request.headerFields[.authorization]?.hasPrefix("Bearer ") == true })
        #expect(asc.rateLimit == ASCRateLimit(limit: 3600, remaining: 3598))
    }

    @Test func aRepeatedNextLinkStopsPagination() async throws {
        let transport = ScriptedTransport { _, _ in (200, Self.appsPage(["1"], next: "/v1/apps?cursor=AA")) }
        let asc = try client(transport)
        let error = await #expect(throws: ASCError.self) {
            _ = try await asc.allPages({ try await $0.appsGetCollection().ok.body.json }, next: { $0.links.next })
        }
        guard case .unexpectedResponse? = error else {
            Issue.record("expected unexpectedResponse, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.count == 2)
    }

    @Test func errorsAreTyped() async throws {
        let notFound = ScriptedTransport { _, _ in
            (
                404,
                #"{"errors":[{"status":"404","code":"NOT_FOUND","title":"The specified resource does not exist","detail":"There is no resource of type 'apps' with id '9'","source":{"parameter":"id"}}]}"#
            )
        }
        let error = await #expect(throws: ASCError.self) {
            _ = try await client(notFound).send { try await $0.appsGetCollection().ok.body.json }
        }
        #expect(
            error
                == .api(
                    status: 404,
                    errors: [
                        ASCErrorItem(
                            code: "NOT_FOUND", title: "The specified resource does not exist",
                            detail: "There is no resource of type 'apps' with id '9'", sourceParameter: "id")
                    ]))

        // A success status the operation does not document.
        let undocumented = ScriptedTransport { _, _ in (204, "") }
        let unexpected = await #expect(throws: ASCError.self) {
            _ = try await client(undocumented).send { try await $0.appsGetCollection().ok.body.json }
        }
        #expect(
            unexpected
                == .unexpectedResponse(
                    operation: "apps_getCollection", status: 204,
                    reason: "expected its .ok answer"))
        #expect(unexpected?.description == "unexpected answer to apps_getCollection (status 204): expected its .ok answer")

        // A body that does not decode.
        let malformed = ScriptedTransport { _, _ in (200, #"{"links":{"self":"x"}}"#) }
        let decoding = await #expect(throws: ASCError.self) {
            _ = try await client(malformed).send { try await $0.appsGetCollection().ok.body.json }
        }
        guard case let .unexpectedResponse(operation, status, reason)? = decoding else {
            Issue.record("expected unexpectedResponse, got \(String(describing: decoding))")
            return
        }
        #expect(operation == "apps_getCollection")
        #expect(status == 200)
        #expect(reason.contains("data"))
    }

    @Test func serverURLKeepsAPathPrefix() async throws {
        let transport = ScriptedTransport { request, _ in
            request.path?.contains("cursor") == true
                ? (200, Self.appsPage([], next: nil))
                : (200, Self.appsPage(["1"], next: "http://127.0.0.1:9/asc/v1/apps?cursor=B"))
        }
        let asc = try client(transport, serverURL: "http://127.0.0.1:9/asc/")
        #expect(asc.serverURL.absoluteString == "http://127.0.0.1:9/asc")
        _ = try await asc.allPages({ try await $0.appsGetCollection().ok.body.json }, next: { $0.links.next })
        #expect(transport.requests.map { $0.request.path ?? "" }.last == "/v1/apps?cursor=B")
    }
}
