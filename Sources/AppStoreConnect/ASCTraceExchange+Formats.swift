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
    static func headerObject(_ headers: [(name: String, value: String)]) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        for (name, value) in headers {
            if let index = pairs.firstIndex(where: { $0.0 == name }), case let .string(earlier) = pairs[index].1 {
                pairs[index].1 = .string(earlier + ", " + value)
            } else {
                pairs.append((name, .string(value)))
            }
        }
        return .object(pairs)
    }

    static func headerList(_ value: JSONValue?) -> [(name: String, value: String)] {
        guard case let .object(pairs)? = value else { return [] }
        return pairs.compactMap { pair in
            guard case let .string(text) = pair.1 else { return nil }
            return (pair.0, text)
        }
    }

    static func iso8601(_ date: Date) -> String {
        (try? ISO8601DateTranscoder.iso8601WithFractionalSeconds.encode(date)) ?? ""
    }

    /// One line of a JSON-lines trace.
    var jsonLine: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("started", .string(Self.iso8601(started))), ("ms", .double(milliseconds)), ("operation", .string(operation)),
            ("method", .string(method)), ("url", .string(url)), ("path", .string(path)), ("query", .optional(query)),
            ("status", .optional(status)),
        ]
        if let error { pairs.append(("error", .string(error))) }
        pairs += [
            ("requestHeaders", Self.headerObject(requestHeaders)), ("requestBody", requestBody?.jsonValue ?? .null),
            ("responseHeaders", Self.headerObject(responseHeaders)), ("responseBody", responseBody?.jsonValue ?? .null),
        ]
        return .object(pairs)
    }

    init(jsonLine: JSONValue) throws(ASCError) {
        func string(_ key: String) -> String? {
            if case let .string(text)? = jsonLine[key] { return text }
            return nil
        }
        guard let method = string("method"), let path = string("path") else {
            throw .trace("not an exchange of an iapkit trace (no method or path)")
        }
        var milliseconds = 0.0
        switch jsonLine["ms"] {
        case let .double(value)?: milliseconds = value
        case let .int(value)?: milliseconds = Double(value)
        default: break
        }
        let status = try Self.status(jsonLine["status"], absent: [.null])
        self.init(
            started: string("started").flatMap { try? ASCDateTranscoder().decode($0) } ?? Date(timeIntervalSince1970: 0),
            milliseconds: milliseconds, operation: string("operation") ?? "", method: method, url: string("url") ?? path,
            path: path, query: string("query"), status: status, error: string("error"),
            requestHeaders: Self.headerList(jsonLine["requestHeaders"]), requestBody: Body(jsonValue: jsonLine["requestBody"]),
            responseHeaders: Self.headerList(jsonLine["responseHeaders"]), responseBody: Body(jsonValue: jsonLine["responseBody"]))
    }

    /// A recorded status: nil when absent (or one of `absent`), else a status App Store Connect can send.
    static func status(_ value: JSONValue?, absent: [JSONValue]) throws(ASCError) -> Int? {
        guard let value, !absent.contains(value) else { return nil }
        guard case let .int(code) = value, answerableStatuses.contains(code) else {
            throw .trace(
                "status \(value.serialized(.compact).prefix(40)) is not an HTTP status App Store Connect answers with "
                    + "(\(answerableStatuses.lowerBound) to \(answerableStatuses.upperBound))")
        }
        return code
    }

    /// One entry of a HAR 1.2 log. iapkit's own fields start with `_`, as the format allows: the path relative to
    /// the API server and the query replay matches on, the operation, a transport failure.
    var harEntry: JSONValue {
        func headers(_ list: [(name: String, value: String)]) -> JSONValue {
            .array(list.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
        }
        func contentType(_ list: [(name: String, value: String)]) -> String {
            list.first { $0.name == "content-type" }?.value ?? "application/octet-stream"
        }
        func comment(_ body: Body?) -> [(String, JSONValue)] {
            guard case let .omitted(what, size, sha256)? = body else { return [] }
            return [("comment", .string("\(what) bytes left out: \(size) bytes, sha256 \(sha256)"))]
        }
        let queryString = JSONValue.array(
            (query ?? "").split(separator: "&").map { item in
                let parts = item.split(separator: "=", maxSplits: 1).map { ASCPercentEncoding.decode(String($0)) }
                return .object([("name", .string(parts.first ?? "")), ("value", .string(parts.count > 1 ? parts[1] : ""))])
            })
        var request: [(String, JSONValue)] = [
            ("method", .string(method)), ("url", .string(url)), ("httpVersion", .string("HTTP/1.1")), ("cookies", .array([])),
            ("headers", headers(requestHeaders)), ("queryString", queryString), ("headersSize", .int(-1)),
            ("bodySize", .int(requestBody?.size ?? 0)),
        ]
        if let requestBody {
            request.append(
                (
                    "postData",
                    .object(
                        [
                            ("mimeType", .string(contentType(requestHeaders))),
                            ("text", .string(requestBody.text ?? "")),
                        ] + comment(requestBody))
                ))
        }
        var content: [(String, JSONValue)] = [("size", .int(responseBody?.size ?? 0)), ("mimeType", .string(contentType(responseHeaders)))]
        if let text = responseBody?.text { content.append(("text", .string(text))) }
        content += comment(responseBody)
        let response: [(String, JSONValue)] = [
            ("status", .int(status ?? 0)), ("statusText", .string(status.map { ASCError.reasonPhrase($0) } ?? "")),
            ("httpVersion", .string("HTTP/1.1")), ("cookies", .array([])), ("headers", headers(responseHeaders)),
            ("content", .object(content)), ("redirectURL", .string("")), ("headersSize", .int(-1)),
            ("bodySize", .int(responseBody?.size ?? 0)),
        ]
        var entry: [(String, JSONValue)] = [
            ("startedDateTime", .string(Self.iso8601(started))), ("time", .double(milliseconds)),
            ("request", .object(request)), ("response", .object(response)), ("cache", .object([])),
            ("timings", .object([("send", .int(0)), ("wait", .double(milliseconds)), ("receive", .int(0))])),
            ("_operation", .string(operation)), ("_path", .string(path)), ("_query", .optional(query)),
        ]
        if let error { entry.append(("_error", .string(error))) }
        return .object(entry)
    }

    init(harEntry: JSONValue) throws(ASCError) {
        guard let request = harEntry["request"], case let .string(method)? = request["method"],
            case let .string(url)? = request["url"]
        else {
            throw .trace("not an entry of a HAR log (no request method or URL)")
        }
        let response = harEntry["response"]
        func text(_ value: JSONValue?) -> String? {
            if case let .string(text)? = value { return text }
            return nil
        }
        func body(_ text: String?, comment: String?) -> Body? {
            if let comment, comment.contains("bytes left out") {
                let words = comment.split(separator: " ")
                return .omitted(
                    what: words.first.map(String.init) ?? "bytes", size: words.dropFirst(4).first.flatMap { Int($0) } ?? 0,
                    sha256: words.last.map(String.init) ?? "")
            }
            guard let text, !text.isEmpty else { return nil }
            return Body(data: Data(text.utf8), contentType: nil)
        }
        var path: String
        var query: String?
        if let recorded = text(harEntry["_path"]) {
            path = recorded
            query = text(harEntry["_query"])
        } else {
            let components = URLComponents(string: url)
            path = components?.percentEncodedPath ?? url
            query = components?.percentEncodedQuery
        }
        // HAR writes 0 for a request that got no answer.
        let status = try Self.status(response?["status"], absent: [.null, .int(0)])
        var milliseconds = 0.0
        if case let .double(value)? = harEntry["time"] { milliseconds = value }
        if case let .int(value)? = harEntry["time"] { milliseconds = Double(value) }
        func headers(_ value: JSONValue?) -> [(name: String, value: String)] {
            guard case let .array(items)? = value else { return [] }
            return items.compactMap { item in
                guard let name = text(item["name"]), let value = text(item["value"]) else { return nil }
                return (name.lowercased(), value)
            }
        }
        self.init(
            started: text(harEntry["startedDateTime"]).flatMap { try? ASCDateTranscoder().decode($0) } ?? Date(timeIntervalSince1970: 0),
            milliseconds: milliseconds, operation: text(harEntry["_operation"]) ?? "", method: method, url: url, path: path,
            query: query, status: status, error: text(harEntry["_error"]),
            requestHeaders: headers(request["headers"]),
            requestBody: body(text(request["postData"]?["text"]), comment: text(request["postData"]?["comment"])),
            responseHeaders: headers(response?["headers"]),
            responseBody: body(text(response?["content"]?["text"]), comment: text(response?["content"]?["comment"])))
    }
}
