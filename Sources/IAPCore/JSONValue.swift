import Foundation

/// A JSON value whose objects keep their key order, so reports and exports come out in a documented, stable order.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
    public static func optional(_ number: Int?) -> JSONValue { number.map(JSONValue.int) ?? .null }

    public subscript(key: String) -> JSONValue? {
        if case let .object(pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// Layout: `compact` on one line; `pretty` two-space indented with `"key": value`; `xcode` as Xcode writes
    /// `.storekit` files (`"key" : value`, keys sorted case-insensitively, empty containers split over lines).
    public enum Style: Sendable { case compact, pretty, xcode }

    public func serialized(_ style: Style = .pretty) -> String {
        var out = ""
        write(into: &out, style: style, depth: 0)
        if style != .compact { out += "\n" }
        return out
    }

    private func write(into out: inout String, style: Style, depth: Int) {
        let indent = String(repeating: "  ", count: depth + 1)
        let closing = String(repeating: "  ", count: depth)
        switch self {
        case .null: out += "null"
        case let .bool(flag): out += flag ? "true" : "false"
        case let .int(number): out += String(number)
        case let .double(number):
            out += number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case let .string(text): JSONValue.quote(text, into: &out)
        case let .array(items):
            if items.isEmpty { out += style == .xcode ? "[\n\n\(closing)]" : "[]"; return }
            if style == .compact {
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += "," }
                    item.write(into: &out, style: style, depth: depth + 1)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += indent
                item.write(into: &out, style: style, depth: depth + 1)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += closing + "]"
        case let .object(pairs):
            if pairs.isEmpty { out += style == .xcode ? "{\n\n\(closing)}" : "{}"; return }
            let ordered = style == .xcode
                ? pairs.sorted { $0.0.caseInsensitiveCompare($1.0) == .orderedAscending || ($0.0.lowercased() == $1.0.lowercased() && $0.0 < $1.0) }
                : pairs
            if style == .compact {
                out += "{"
                for (index, (key, value)) in ordered.enumerated() {
                    if index > 0 { out += "," }
                    JSONValue.quote(key, into: &out)
                    out += ":"
                    value.write(into: &out, style: style, depth: depth + 1)
                }
                out += "}"
                return
            }
            let separator = style == .xcode ? " : " : ": "
            out += "{\n"
            for (index, (key, value)) in ordered.enumerated() {
                out += indent
                JSONValue.quote(key, into: &out)
                out += separator
                value.write(into: &out, style: style, depth: depth + 1)
                out += index == ordered.count - 1 ? "\n" : ",\n"
            }
            out += closing + "}"
        }
    }

    /// JSON string escaping; raw UTF-8 and unescaped `/`, as Xcode writes.
    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Parses JSON through Foundation, keeping key order where Foundation gives it (it does not: objects come back
    /// sorted by key). Numbers that are whole become `.int`.
    public static func parse(_ data: Data) throws -> JSONValue {
        try checkNesting(data)
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return from(object)
    }

    static func from(_ object: Any) -> JSONValue {
        // Containers and strings first: testing a Swift dictionary against NSNumber bridges it to NSDictionary.
        switch object {
        case let text as String: return .string(text)
        case let array as [Any]: return .array(array.map(from))
        case let dictionary as [String: Any]:
            return .object(dictionary.keys.sorted().map { ($0, from(dictionary[$0]!)) })
        case is NSNull: return .null
        case let number as NSNumber:
            // JSONSerialization hands booleans back as NSNumbers of Objective-C type "c" on Linux and macOS.
            let type = String(cString: number.objCType)
            if type == "c" { return .bool(number.boolValue) }
            return type == "d" || type == "f" ? .double(number.doubleValue) : .int(number.intValue)
        default: return .null
        }
    }

    /// Deeper than any file iapkit reads, and shallow enough that no parser's recursion comes near the stack's end.
    public static let maximumDepth = 100

    /// Why a JSON input was refused before parsing.
    public struct LimitError: LocalizedError, Sendable {
        public var errorDescription: String?
    }

    /// Refuses input nested deeper than `maximumDepth`, counting brackets outside strings in one pass.
    public static func checkNesting(_ data: Data) throws {
        var depth = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maximumDepth {
                    throw LimitError(errorDescription: "nested more than \(maximumDepth) levels deep; refusing to read it")
                }
            case 0x5D, 0x7D: depth -= 1
            default: continue
            }
        }
    }
}
