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
            let ordered =
                style == .xcode
                ? pairs.sorted(by: Self.xcodeKeyOrder)
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

    /// Xcode's key order: case-insensitive (keys compared in lower case), then by case.
    static func xcodeKeyOrder(_ a: (String, JSONValue), _ b: (String, JSONValue)) -> Bool {
        let left = a.0.lowercased(), right = b.0.lowercased()
        return left != right ? left < right : a.0 < b.0
    }

    /// JSON string escaping; raw UTF-8 and unescaped `/`, as Xcode writes. `escapingAlso` names more scalars to write
    /// as `\uXXXX` (a YAML double-quoted scalar, which reads JSON's escapes, also needs its line separators escaped).
    public static func quote(_ text: String, into out: inout String, escapingAlso extra: (Unicode.Scalar) -> Bool = { _ in false }) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || extra(scalar) {
                    out += "\\u" + Format.hex(scalar.value, width: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Parses JSON with Foundation's decoder. Objects come back sorted by key; numbers that are whole become `.int`.
    public static func parse(_ data: Data) throws -> JSONValue {
        try checkNesting(data)
        return try JSONDecoder().decode(Decoded.self, from: data).value
    }

    /// The decoding side of `JSONValue`, kept apart so `JSONValue` itself makes no promise to be `Decodable`.
    private struct Decoded: Decodable {
        let value: JSONValue

        private struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Key.self) {
                let keys = object.allKeys.map(\.stringValue).sorted()
                value = .object(try keys.map { ($0, try object.decode(Decoded.self, forKey: Key(stringValue: $0)).value) })
                return
            }
            if var array = try? decoder.unkeyedContainer() {
                var items: [JSONValue] = []
                while !array.isAtEnd { items.append(try array.decode(Decoded.self).value) }
                value = .array(items)
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let flag = try? single.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? single.decode(Int.self) {
                value = .int(number)
            } else if let number = try? single.decode(Double.self) {
                value = .double(number)
            } else {
                value = .string(try single.decode(String.self))
            }
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
        // Over the raw bytes: Data's own iterator costs a call per byte.
        try data.withUnsafeBytes { try checkNesting($0) }
    }

    private static func checkNesting(_ bytes: UnsafeRawBufferPointer) throws {
        var depth = 0, inString = false, escaped = false
        for byte in bytes {
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
