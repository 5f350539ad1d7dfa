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
    /// A trace keeps the image's size and digest, not its bytes; replay answers with a short text in their place.
    public func download(_ url: URL, limit: Int = 50_000_000) async throws(ASCError) -> Data {
        if let replay {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            let exchange = try replay.answer(
                method: "GET", path: components?.percentEncodedPath ?? url.path,
                query: components?.percentEncodedQuery)
            let data: Data
            do { data = try replay.response(to: exchange).1 ?? Data() } catch let error as ASCError {
                throw error
            } catch {
                throw ASCError.transport(String(describing: error)).replayed(from: exchange.origin)
            }
            do { try check(status: exchange.status ?? 0, url: url) } catch { throw error.replayed(from: exchange.origin) }
            try trace?.record(exchange)
            return data
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        let started = Date()
        let timer = ContinuousClock()
        let start = timer.now
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: limit)
            let data = Data(buffer: body)
            try record(
                url, started: started, milliseconds: ASCTraceExchange.milliseconds(timer.now - start),
                status: Int(response.status.code), error: nil,
                headers: response.headers.map { ($0.name, $0.value) }, data: data)
            try check(status: Int(response.status.code), url: url)
            return data
        } catch let error as ASCError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            let reason = ASCRedaction.redact(ASCError.plainReason(error))
            try record(
                url, started: started, milliseconds: ASCTraceExchange.milliseconds(timer.now - start), status: nil,
                error: reason, headers: [], data: nil)
            throw .transport(reason)
        }
    }

    private func check(status: Int, url: URL) throws(ASCError) {
        guard (200..<300).contains(status) else {
            throw ASCError.unexpectedResponse(
                operation: "download \(url.lastPathComponent)", status: status,
                reason: "the asset could not be downloaded")
        }
    }

    private func record(
        _ url: URL, started: Date, milliseconds: Double, status: Int?, error: String?,
        headers: [(name: String, value: String)], data: Data?
    ) throws(ASCError) {
        try trace?.record(
            .storage(
                operation: "download", method: "GET", url: url, started: started,
                milliseconds: milliseconds, status: status, error: error, requestHeaders: [],
                uploaded: nil, responseHeaders: headers, received: data))
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
