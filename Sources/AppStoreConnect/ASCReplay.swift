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

/// A trace read back to answer requests instead of App Store Connect (`iapkit asc pull | plan --replay FILE`), so a
/// user's real answers become a reproducible run, and a regression test.
///
/// Each request is answered by the trace's exchange with the same method, path and query; a request asked several
/// times gets the recorded answers in their order (a 429 and then its retry's 200, say). Only reads are answered:
/// replay never pretends a write happened.
public final class ASCReplay: @unchecked Sendable {
    public let path: String
    private let lock = PThreadLock()
    private var answers: [String: [ASCTraceExchange]] = [:]
    private var asked: [String: Int] = [:]
    private var placeholders = 0

    /// Largest trace read: far above a pull of a large app.
    public static let sizeLimit = 512 << 20

    /// Reads a trace in either format iapkit writes (JSON lines or HAR).
    public init(path: String) throws(ASCError) {
        self.path = path
        let data: Data
        do { data = try InputFile.read(path, limit: Self.sizeLimit) } catch { throw .trace(error.description) }
        for exchange in try Self.exchanges(data, path: path) { answers[exchange.key, default: []].append(exchange) }
    }

    /// Every exchange of a trace file's bytes, in the file's order.
    public static func exchanges(_ data: Data, path: String) throws(ASCError) -> [ASCTraceExchange] {
        if let document = try? JSONValue.parse(data), let log = document["log"] {
            guard case let .array(entries)? = log["entries"] else { throw .trace("\(path): a HAR file without log.entries") }
            var result: [ASCTraceExchange] = []
            for (index, entry) in entries.enumerated() {
                let origin = "\(path): entry \(index + 1)"
                do {
                    var exchange = try ASCTraceExchange(harEntry: entry)
                    exchange.origin = origin
                    result.append(exchange)
                } catch {
                    throw .trace("\(origin): \(error.description)")
                }
            }
            return result
        }
        var result: [ASCTraceExchange] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
            let value: JSONValue
            do { value = try JSONValue.parse(Data(line)) } catch {
                throw .trace("\(path):\(index + 1): not a JSON object; a trace holds one exchange per line (or is a HAR file)")
            }
            do {
                var exchange = try ASCTraceExchange(jsonLine: value)
                exchange.origin = "\(path):\(index + 1)"
                result.append(exchange)
            } catch {
                throw .trace("\(path):\(index + 1): \(error.description)")
            }
        }
        return result
    }

    /// The next recorded answer to this request.
    public func answer(method: String, path requestPath: String, query: String?) throws(ASCError) -> ASCTraceExchange {
        let key = ASCTraceExchange.key(method: method, path: requestPath, query: query)
        lock.lock()
        defer { lock.unlock() }
        let recorded = answers[key] ?? []
        let index = asked[key, default: 0]
        guard index < recorded.count else {
            let times = recorded.isEmpty ? "" : " a \(Self.ordinal(index + 1)) time (it holds \(Format.count(recorded.count, "answer")))"
            throw .trace(
                "\(path) holds no answer to \(key)\(times): replay answers only the requests of the command that "
                    + "recorded the trace, each as often as it was made")
        }
        asked[key] = index + 1
        if case .omitted? = recorded[index].responseBody { placeholders += 1 }
        return recorded[index]
    }

    /// How many answers had bytes the trace does not keep (images), answered with a short text instead.
    public var placeholderCount: Int { lock.withLock { placeholders } }

    private static func ordinal(_ number: Int) -> String {
        switch number {
        case 2: return "second"
        case 3: return "third"
        default: return "\(number)th"
        }
    }

    /// The HTTP answer to send back for a recorded exchange; a recorded transport failure is thrown again, as a
    /// failure the retry policy treats like the original one.
    func response(to exchange: ASCTraceExchange) throws -> (HTTPResponse, Data?) {
        guard let status = exchange.status else { throw ReplayedFailure(description: exchange.error ?? "no answer") }
        // HTTPResponse.Status traps on a code past 999: checked here too, for exchanges not read from a file.
        guard ASCTraceExchange.answerableStatuses.contains(status) else {
            throw ASCError.trace("\(exchange.origin ?? path): status \(status) is not an HTTP status App Store Connect answers with")
        }
        var headers = HTTPFields()
        for (name, value) in exchange.responseHeaders {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        return (HTTPResponse(status: .init(code: status), headerFields: headers), exchange.responseBody?.replayBytes)
    }

    struct ReplayedFailure: Error, CustomStringConvertible {
        var description: String
    }
}

/// Answers the generated client's requests from a trace: the transport of a client made by
/// `AppStoreConnectClient(replaying:)`.
struct ASCReplayTransport: ClientTransport {
    let replay: ASCReplay

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let (path, query) = ASCTraceExchange.split(request.path ?? "")
        guard request.method == .get else {
            throw ASCError.trace("replay answers reads only: \(request.method.rawValue) \(path) would change App Store Connect")
        }
        let exchange = try replay.answer(method: "GET", path: path, query: query)
        // Errors this answer causes later (an error status, a body that does not decode) name where it stands.
        ASCCallObservation.current?.record(replayOrigin: exchange.origin)
        let (response, data) = try replay.response(to: exchange)
        return (response, data.map { HTTPBody($0) })
    }
}

extension AppStoreConnectClient {
    /// A client that answers every request from `replay` and needs no API key: requests are signed with a key made
    /// for this run, which nothing checks. Retries wait no time, so a recorded 429 replays at once.
    public init(replaying replay: ASCReplay, trace: ASCTrace? = nil) throws(ASCError) {
        let key = P256.Signing.PrivateKey()
        let tokens = try ASCTokenProvider(
            credentials: ASCCredentials(
                keyID: "REPLAY", issuerID: "replay",
                privateKeyPEM: key.pemRepresentation))
        self.init(
            tokens: tokens, clock: ASCClock(now: { Date() }, sleep: { _ in }), transport: ASCReplayTransport(replay: replay),
            trace: trace, replay: replay)
    }
}
