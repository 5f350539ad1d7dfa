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

extension ASCTraceExchange {
    static func milliseconds(_ duration: Duration) -> Double {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (value * 10).rounded() / 10
    }

    /// An asset-storage exchange (an upload or an image download), whose bytes a trace never keeps.
    static func storage(
        operation: String, method: String, url: URL, started: Date, milliseconds: Double,
        status: Int?, error: String?, requestHeaders: [(name: String, value: String)],
        uploaded: Data?, responseHeaders: [(name: String, value: String)], received: Data?
    ) -> ASCTraceExchange {
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
            responseBody: received.flatMap {
                $0.isEmpty
                    ? nil
                    : operation == "download" && (200..<300).contains(status ?? 0)
                        ? .omitted(what: "image", size: $0.count, sha256: Body.sha256($0))
                        : Body(data: $0, contentType: nil)
            })
    }
}

extension ASCTraceExchange.Body {
    /// JSON when the bytes parse as JSON, text when they are UTF-8, else their size and digest.
    init(data: Data, contentType: String?) {
        if let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = try? JSONValue.parse(data)
        {
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
            case let .string(sha256)? = jsonValue["sha256"]
        else { return nil }
        self = .omitted(what: what, size: size, sha256: sha256)
    }
}
