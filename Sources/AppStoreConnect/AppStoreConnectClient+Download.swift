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
            throw .transport(String(describing: error))
        }
    }
}
