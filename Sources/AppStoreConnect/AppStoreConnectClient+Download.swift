import AsyncHTTPClient
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
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

extension AppStoreConnectClient {
    /// Downloads an asset App Store Connect links to (a review screenshot's image), without the API token: asset
    /// URLs belong to Apple's content delivery, not to the API. At most `limit` bytes are read.
    public func download(_ url: URL, limit: Int = 50_000_000) async throws(ASCError) -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: limit)
            guard (200..<300).contains(Int(response.status.code)) else {
                throw ASCError.unexpectedResponse(operation: "download \(url.lastPathComponent)", status: Int(response.status.code),
                                                  reason: "the asset could not be downloaded")
            }
            return Data(buffer: body)
        } catch let error as ASCError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw ASCError.transport(describing: error)
        }
    }
}

extension ASCError {
    /// A failure that got no answer, said in one plain clause ("connection refused", "the connection timed out")
    /// rather than the HTTP stack's nested descriptions; redacted like every message.
    static func transport(describing error: any Error) -> ASCError {
        .transport(ASCRedaction.redact(plainReason(error)))
    }

    static func plainReason(_ error: any Error) -> String {
        if let io = error as? IOError { return lowercasingFirst(String(cString: strerror(io.errnoCode))) }
        if let client = error as? HTTPClientError {
            if client == .connectTimeout { return "the connection timed out" }
            if client == .readTimeout { return "no answer in time" }
            if client == .remoteConnectionClosed { return "the server closed the connection" }
        }
        // Whatever else: its description without the errno tail the stack appends.
        let text = String(describing: error)
        let parts = text.split(separator: "(errno: ", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return text }
        return parts.dropLast().joined(separator: "(errno: ").trimmingSpaces()
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
