#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `# iapkit:disable RULE[,RULE...] reason`: a known finding accepted where it is, with the reason beside it, as
/// teams adopting a linter on an old project do. After a value it applies to that line; on a line of its own, to
/// the next line; on a product's first line (or just above it), to the whole product.
public struct DisableComment: Sendable, Hashable {
    /// Where the comment's `#` is (1-based; the column counts Unicode scalars).
    public var line: Int
    public var column: Int
    public var rules: [String]
    public var reason: String
    /// The line the comment applies to; 0 when nothing follows it.
    public var targetLine: Int

    public static let marker = "iapkit:disable"

    /// Every disable comment in a YAML text, in file order. Comments are found as YAML finds them: a `#` at the
    /// start of a line or after a space, outside quotes.
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [DisableComment] {
        // Most catalogs have no disable comment: one look for the marker spares them the line-by-line scan.
        guard mentionsMarker(bytes) else { return [] }
        var found: [DisableComment] = []
        var waiting: [DisableComment] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            defer { start = end + 1 }
            var first = start
            while first < end && (bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t")) { first += 1 }
            if first == end || bytes[first] == UInt8(ascii: "\r") { continue }
            if bytes[first] == UInt8(ascii: "#") {
                if let comment = parse(bytes, hash: first, end: end, lineStart: start, line: lineNumber) { waiting.append(comment) }
                continue
            }
            for var comment in waiting {
                comment.targetLine = lineNumber
                found.append(comment)
            }
            waiting.removeAll()
            guard let hash = trailingCommentStart(bytes, from: first, end: end),
                var comment = parse(bytes, hash: hash, end: end, lineStart: start, line: lineNumber)
            else { continue }
            comment.targetLine = lineNumber
            found.append(comment)
        }
        return found + waiting
    }

    /// Whether the marker appears anywhere in `bytes`; no comment can be parsed without it.
    static func mentionsMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var marker = Self.marker
        return marker.withUTF8 { marker in
            // The C library's memchr skips ahead by whole words, to the marker's `k` (a rare letter in catalogs),
            // where a byte-by-byte loop was a few percent of a lint.
            let pivot = 3
            let end = base + bytes.count
            var next = base + pivot
            while next < end, let found = memchr(next, Int32(marker[pivot]), end - next) {
                let hit = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                let start = hit - pivot
                if start + marker.count <= end && memcmp(start, marker.baseAddress!, marker.count) == 0 { return true }
                next = hit + 1
            }
            return false
        }
    }

    /// The `#` that starts a comment after a value, skipping quoted text.
    static func trailingCommentStart(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int, end: Int) -> Int? {
        var quote: UInt8?
        var index = first
        while index < end {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") { index += 1 } else if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A quote opens a quoted scalar only where a value starts.
                let before = index == first ? UInt8(ascii: " ") : bytes[index - 1]
                if before == UInt8(ascii: " ") || before == UInt8(ascii: "[") || before == UInt8(ascii: "{") || before == UInt8(ascii: ",") {
                    quote = byte
                }
            } else if byte == UInt8(ascii: "#") && (bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t")) {
                return index
            }
            index += 1
        }
        return nil
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int, end: Int, lineStart: Int, line: Int) -> DisableComment? {
        let stop = end > hash + 1 && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(hash + 1)..<stop]), as: UTF8.self).trimmingWhitespace
        guard text.hasPrefix(marker) else { return nil }
        let rest = String(text.dropFirst(marker.count))
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        let words = rest.trimmingWhitespace
        let split = words.firstIndex { $0 == " " || $0 == "\t" }
        let rules = words[..<(split ?? words.endIndex)].split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        let reason = split.map { String(words[$0...]).trimmingWhitespace } ?? ""
        // Columns count Unicode scalars, as every finding's do: UTF-8 continuation bytes are not counted.
        let column = 1 + UnsafeBufferPointer(rebasing: bytes[lineStart..<hash]).lazy.filter { $0 & 0xC0 != 0x80 }.count
        return DisableComment(line: line, column: column, rules: rules, reason: reason, targetLine: 0)
    }
}
