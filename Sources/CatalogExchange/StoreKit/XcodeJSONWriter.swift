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
/// Writes JSON in Xcode's `.storekit` layout straight into bytes as the values come: two-space indent,
/// `"key" : value`, empty containers split over lines, raw UTF-8 and unescaped `/`. Callers give each object's
/// keys in Xcode's order (case-insensitive); debug builds check that they do.
struct XcodeJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the innermost open container has no item yet.
    private var empty = false
    /// A key was just written; its value follows on the same line.
    private var afterKey = false
    #if DEBUG
    private var lastKeys: [String?] = []
    #endif

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    mutating func key(_ key: String) {
        #if DEBUG
        if let last = lastKeys[lastKeys.count - 1] {
            assert(Self.xcodeOrder(last, key), "`\(key)` written after `\(last)`: Xcode sorts keys")
        }
        lastKeys[lastKeys.count - 1] = key
        #endif
        startItem()
        quote(key)
        append(" : ")
        afterKey = true
    }

    mutating func string(_ text: String) { startItem(); quote(text) }
    mutating func int(_ number: Int) { startItem(); append(String(number)) }
    mutating func bool(_ flag: Bool) { startItem(); append(flag ? "true" : "false") }
    mutating func null() { startItem(); append("null") }

    /// `key : "text"`, the commonest line of a `.storekit` file.
    mutating func field(_ key: String, _ text: String) { self.key(key); string(text) }

    /// The document's bytes, ending with a newline as Xcode's do.
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Xcode's key order: case-insensitive, ties broken by the exact text.
    static func xcodeOrder(_ a: String, _ b: String) -> Bool {
        let left = a.lowercased(), right = b.lowercased()
        return left != right ? left < right : a < b
    }

    private mutating func open(_ bracket: UInt8) {
        startItem()
        bytes.append(bracket)
        depth += 1
        empty = true
        #if DEBUG
        lastKeys.append(nil)
        #endif
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        append(empty ? "\n\n" : "\n")
        indent()
        bytes.append(bracket)
        empty = false
        #if DEBUG
        lastKeys.removeLast()
        #endif
    }

    private mutating func startItem() {
        if afterKey { afterKey = false; return }
        guard depth > 0 else { return }
        append(empty ? "\n" : ",\n")
        empty = false
        indent()
    }

    private mutating func indent() {
        for _ in 0..<depth { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// JSON string escaping over UTF-8 bytes: every byte of a multi-byte character is 0x80 or above, so only
    /// ASCII needs looking at.
    private mutating func quote(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
