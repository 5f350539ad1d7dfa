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
    /// Where each open container's bracket is, and the bytes of the container closed last: an update of a file finds
    /// each item the exporter wrote by them.
    private var openedAt: [Int] = []
    private(set) var lastClosed: Range<Int> = 0..<0
    #if DEBUG
    private var lastKeys: [String?] = []
    #endif

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    /// A writer of one value nested `depth` levels deep, laid out as it is in a whole file at that depth: the bytes of
    /// an item of a list, from its opening bracket to its closing one.
    init(depth: Int, capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
        self.depth = depth
        afterKey = true
    }

    var count: Int { bytes.count }

    /// The state before an item of the open list, to go back to when the item written is not the one wanted.
    struct Checkpoint {
        fileprivate let count: Int
        fileprivate let empty: Bool
    }

    var checkpoint: Checkpoint { Checkpoint(count: bytes.count, empty: empty) }

    mutating func rollback(to checkpoint: Checkpoint) {
        bytes.removeSubrange(checkpoint.count...)
        empty = checkpoint.empty
    }

    /// A whole value already in this layout at this depth, such as an item the exporter wrote.
    mutating func raw(_ value: ArraySlice<UInt8>) {
        startItem()
        bytes.append(contentsOf: value)
    }

    /// Whether the bytes from `start` to the end are `other`.
    func written(from start: Int, equal other: ArraySlice<UInt8>) -> Bool {
        bytes.count - start == other.count && bytes[start...].elementsEqual(other)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    mutating func key(_ key: String) {
        var key = key
        key.withUTF8 { self.key(utf8: $0) }
    }

    /// A key given as its UTF-8 bytes.
    mutating func key(utf8 key: UnsafeBufferPointer<UInt8>) {
        #if DEBUG
        let text = String(decoding: key, as: UTF8.self)
        if let last = lastKeys[lastKeys.count - 1] {
            assert(Self.xcodeOrder(last, text), "`\(text)` written after `\(last)`: Xcode sorts keys")
        }
        lastKeys[lastKeys.count - 1] = text
        #endif
        startItem()
        quote(key)
        append(" : ")
        afterKey = true
    }

    mutating func string(_ text: String) { startItem(); quote(text) }
    mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) { startItem(); quote(text) }
    /// A number, `true`, `false` or `null` as its text.
    mutating func literal(_ text: String) { startItem(); append(text) }
    mutating func literal(utf8 text: UnsafeBufferPointer<UInt8>) { startItem(); bytes.append(contentsOf: text) }
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
        openedAt.append(bytes.count)
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
        lastClosed = openedAt.removeLast()..<bytes.count
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

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// JSON string escaping over UTF-8 bytes: every byte of a multi-byte character is 0x80 or above, so only
    /// ASCII needs looking at.
    private mutating func quote(_ text: String) {
        var text = text
        text.withUTF8 { quote($0) }
    }

    mutating func quote(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        do {
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
