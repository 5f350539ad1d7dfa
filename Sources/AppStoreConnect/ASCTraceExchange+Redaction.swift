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
