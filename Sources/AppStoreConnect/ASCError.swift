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

/// Why a call to App Store Connect failed. Descriptions are meant for people; none ever contains the private key,
/// a token or the Authorization header.
public enum ASCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// App Store Connect answered with an error status and, usually, an `{"errors": [...]}` document.
    case api(status: Int, errors: [ASCErrorItem])
    /// The request did not get an answer: connection refused or reset, timeout, TLS failure.
    case transport(String)
    /// App Store Connect kept answering 429 until the retry policy's attempts or total wait ran out.
    case rateLimited(attempts: Int, retryAfter: Duration?)
    /// App Store Connect refused the token, or no token could be made.
    case authentication(ASCAuthenticationProblem)
    /// The API key (key ID, issuer ID, `.p8` file) is missing or unusable.
    case credentials(ASCCredentialsProblem)
    /// A success status or a body the operation does not document (or that does not decode).
    case unexpectedResponse(operation: String, status: Int?, reason: String)
    /// The task was cancelled while waiting for an answer or a retry.
    case cancelled
    /// A trace could not be written, or a replayed trace holds no answer to a request (`--trace`, `--replay`).
    case trace(String)
    /// `error` came from an answer replayed from a trace (`--replay`); `origin` is where that answer stands in it
    /// (`plan.jsonl:12`).
    indirect case replayed(origin: String, error: ASCError)

    public var description: String {
        switch self {
        case let .api(status, errors):
            let head = "App Store Connect answered \(status) \(ASCError.reasonPhrase(status))"
            if errors.isEmpty { return head }
            return head + ": " + errors.map(\.description).joined(separator: "; ")
        case let .transport(reason):
            return "could not reach App Store Connect: \(reason)"
        case let .rateLimited(attempts, retryAfter):
            var text = "App Store Connect's rate limit was still exceeded after \(attempts) attempt\(attempts == 1 ? "" : "s")"
            if let retryAfter { text += "; it asked to wait \(ASCError.seconds(retryAfter)) s more" }
            return text
        case let .authentication(problem):
            return problem.description
        case let .credentials(problem):
            return problem.description
        case let .unexpectedResponse(operation, status, reason):
            let statusText = status.map { " (status \($0))" } ?? ""
            return "unexpected answer to \(operation)\(statusText): \(reason)"
        case .cancelled:
            return "cancelled"
        case let .trace(reason):
            return reason
        case let .replayed(origin, error):
            return "\(origin): \(error.description)"
        }
    }

    /// The error located at `origin` when it came from that replayed answer; errors of the replay itself (a
    /// request the trace does not hold) and cancellation stay as they are.
    func replayed(from origin: String?) -> ASCError {
        guard let origin else { return self }
        switch self {
        case .trace, .cancelled, .replayed, .credentials: return self
        default: return .replayed(origin: origin, error: self)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : Format.fixed(value, decimals: 1)
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 413: return "Payload Too Large"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return status >= 500 ? "Server Error" : "Error"
        }
    }
}

/// One entry of App Store Connect's `ErrorResponse` document (`{"errors": [{code, title, detail, source}]}`).
public struct ASCErrorItem: Sendable, Equatable, CustomStringConvertible {
    /// A machine-readable code such as `ENTITY_ERROR.ATTRIBUTE.INVALID`.
    public var code: String
    public var title: String
    public var detail: String
    /// A JSON pointer into the request document (`/data/attributes/name`), when the error is about a field.
    public var sourcePointer: String?
    /// The query parameter the error is about (`filter[bundleId]`), when it is about a parameter.
    public var sourceParameter: String?

    public init(
        code: String, title: String, detail: String, sourcePointer: String? = nil,
        sourceParameter: String? = nil
    ) {
        self.code = code
        self.title = title
        self.detail = detail
        self.sourcePointer = sourcePointer
        self.sourceParameter = sourceParameter
    }

    public var description: String {
        var text = code.isEmpty ? title : "\(code): \(title)"
        if !detail.isEmpty && detail != title { text += " (\(detail))" }
        if let sourcePointer { text += " at \(sourcePointer)" }
        if let sourceParameter { text += " in parameter \(sourceParameter)" }
        return text
    }

    /// The items of an `ErrorResponse` document; empty when the body is not one (an HTML page from a proxy, say).
    public static func parse(errorDocument data: Data) -> [ASCErrorItem] {
        guard let document = try? JSONDecoder().decode(ErrorDocument.self, from: data) else { return [] }
        return (document.errors ?? []).map {
            ASCErrorItem(
                code: $0.code ?? "", title: $0.title ?? "", detail: $0.detail ?? "",
                sourcePointer: $0.source?.pointer, sourceParameter: $0.source?.parameter)
        }
    }

    // Decoded leniently: an error report with a missing field is still worth showing.
    private struct ErrorDocument: Decodable {
        var errors: [Entry]?
        struct Entry: Decodable {
            var code: String?
            var title: String?
            var detail: String?
            var source: Source?
        }
        struct Source: Decodable {
            var pointer: String?
            var parameter: String?
        }
    }
}

/// Why App Store Connect did not accept the client's identity.
public enum ASCAuthenticationProblem: Sendable, Equatable, CustomStringConvertible {
    /// A 401 answer even to a freshly signed token: wrong key ID or issuer ID, revoked key, or a clock far off.
    case rejected(errors: [ASCErrorItem])
    /// The token could not be signed.
    case signingFailed

    public var description: String {
        switch self {
        case let .rejected(errors):
            var text =
                "App Store Connect rejected the API key (401) even with a new token; check the key ID, the "
                + "issuer ID, that the key is not revoked, and this machine's clock"
            if !errors.isEmpty { text += ": " + errors.map(\.description).joined(separator: "; ") }
            return text
        case .signingFailed:
            return "could not sign the App Store Connect token with the private key"
        }
    }
}

/// What is wrong with the API key. Never carries the key's text.
public enum ASCCredentialsProblem: Sendable, Equatable, CustomStringConvertible {
    /// The key ID or the issuer ID is empty.
    case missing(field: String)
    /// The `.p8` file could not be read.
    case unreadableKeyFile(path: String, reason: String)
    /// The text is not a PEM private key (no `-----BEGIN PRIVATE KEY-----` block).
    case notPEM(path: String?)
    /// The PEM block is not a P-256 (prime256v1) elliptic-curve private key, as App Store Connect keys are.
    case notP256PrivateKey(path: String?)

    public var description: String {
        switch self {
        case let .missing(field):
            return "the App Store Connect \(field) is empty"
        case let .unreadableKeyFile(path, reason):
            return "\(path): cannot read the App Store Connect private key: \(reason); check --private-key or ASC_PRIVATE_KEY_PATH"
        case let .notPEM(path):
            return "\(path.map { $0 + ": " } ?? "")not a PEM private key; expected the .p8 file downloaded from "
                + "App Store Connect (-----BEGIN PRIVATE KEY-----)"
        case let .notP256PrivateKey(path):
            return "\(path.map { $0 + ": " } ?? "")not a P-256 elliptic-curve private key; App Store Connect API "
                + "keys are PKCS#8 P-256 keys"
        }
    }
}

extension ASCError: ToolError {
    public var exitCode: Int32 { 2 }
}
