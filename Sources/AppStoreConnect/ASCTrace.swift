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

/// One request and its answer as a trace keeps it: no token, no key, no upload or image bytes.
public struct ASCTraceExchange: Sendable {
    /// A body in a trace: JSON as JSON, other text as text, and bytes that must not (uploads) or need not (images)
    /// be kept as their size and SHA-256.
    public enum Body: Sendable, Equatable {
        case json(JSONValue)
        case text(String)
        case omitted(what: String, size: Int, sha256: String)
    }

    public var started: Date
    public var milliseconds: Double
    /// The generated operation (`inAppPurchasesV2_getInstance`), or `upload` and `download` for asset storage.
    public var operation: String
    public var method: String
    /// The absolute URL, for HAR; asset storage URLs keep no query (an upload's is a signed address).
    public var url: String
    /// The path, relative to the API server for API requests, and the percent-encoded query: what replay matches on.
    public var path: String
    public var query: String?
    public var status: Int?
    /// Why there is no answer (connection refused, timeout), when there is none.
    public var error: String?
    public var requestHeaders: [(name: String, value: String)]
    public var requestBody: Body?
    public var responseHeaders: [(name: String, value: String)]
    public var responseBody: Body?
    /// Where a replayed exchange stands in its trace (`plan.jsonl:12`, `pull.har: entry 3`), for errors its answer
    /// causes; nil for an exchange made in this run. Never written to a trace.
    public var origin: String?

    /// The statuses App Store Connect can answer with; a trace holding another was not written by iapkit, or was
    /// edited, and replay refuses it rather than answer with a status no server sends.
    public static let answerableStatuses = 100...599

    /// What replay matches a request by: method, path and query.
    var key: String { Self.key(method: method, path: path, query: query) }

    static func key(method: String, path: String, query: String?) -> String {
        method + " " + path + (query.map { "?" + $0 } ?? "")
    }

    /// The path and the query of `pathAndQuery` (`/v1/apps?limit=200`).
    static func split(_ pathAndQuery: String) -> (path: String, query: String?) {
        guard let mark = pathAndQuery.firstIndex(of: "?") else { return (pathAndQuery, nil) }
        return (String(pathAndQuery[..<mark]), String(pathAndQuery[pathAndQuery.index(after: mark)...]))
    }
}

/// Writes every exchange with App Store Connect to a file as it completes (`iapkit asc ... --trace FILE`), for bug
/// reports and for `--replay`.
///
/// Each exchange is written the moment it completes, not at the end: a trace is wanted most when a command fails or
/// is interrupted, and every exchange before that point is already in the file. JSON lines append one line per
/// exchange; a HAR file is kept a complete document after every exchange by writing each entry over the document's
/// closing brackets and closing them again. So no format needs a final step, and a command that stops for any
/// reason leaves a trace that reads.
///
/// Never kept: the Authorization header's token (the header is kept as `Bearer <redacted>`), anything that looks like
/// a token or a PEM key inside a body, the bytes of uploads and of downloaded images (kept as size and SHA-256).
public final class ASCTrace: @unchecked Sendable {
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object per exchange and line.
        case jsonl
        /// HTTP Archive 1.2, which browsers' developer tools open.
        case har
    }

    public let path: String
    public let format: Format
    private let lock = PThreadLock()
    private let handle: OutputHandle
    private var written = 0
    private var failure: String?

    static let harClosing = "\n]}}\n"

    /// Creates (or empties) the trace file.
    public init(path: String, format: Format, creator: String = "iapkit", version: String = "") throws(ASCError) {
        self.path = path
        self.format = format
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .trace("\(path): cannot write the trace: \(String(cString: strerror(errno)))")
        }
        handle = OutputHandle(fileDescriptor: descriptor)
        if format == .har {
            let creator = JSONValue.object([("name", .string(creator)), ("version", .string(version))])
            var head = #"{"log":{"version":"1.2","creator":"#
            head += creator.serialized(.compact) + #","entries":["#
            try write(head + Self.harClosing, replacingClosing: false)
        }
    }

    /// How many exchanges the file holds.
    public var count: Int { lock.withLock { written } }

    /// Adds one exchange. A trace that cannot be written stops the command: a bug report with a hole in it misleads.
    public func record(_ exchange: ASCTraceExchange) throws(ASCError) {
        let redacted = exchange.redacted()
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw .trace(failure) }
        switch format {
        case .jsonl:
            try write(redacted.jsonLine.serialized(.compact) + "\n", replacingClosing: false)
        case .har:
            let separator = written == 0 ? "\n" : ",\n"
            try write(separator + redacted.harEntry.serialized(.compact) + Self.harClosing, replacingClosing: true)
        }
        written += 1
    }

    private func write(_ text: String, replacingClosing: Bool) throws(ASCError) {
        do {
            if replacingClosing, lseek(handle.fileDescriptor, off_t(-Self.harClosing.utf8.count), SEEK_END) < 0 {
                throw SystemError()
            }
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            let reason = "\(path): the trace could not be written: \(error)"
            failure = reason
            throw .trace(reason)
        }
    }
}
