import CYAML
import IAPCore

/// One YAML document read from libyaml's event stream into a flat arena: a small record per node (kind, style,
/// line and column, children or text range) and every scalar's bytes in one shared buffer. Nothing is resolved
/// or typed here; the catalog reader reads each value as the type its key needs.
///
/// The arena is memory the document owns and never changes once built. Readers look at it through `Nodes`, a view
/// of plain addresses: several threads read one large catalog's products at once, and a view touches no reference
/// count, where every use of the document itself would retain and release the one object all the threads share.
public final class YAMLDocument: @unchecked Sendable {
    /// A node of the document: an index into its arena.
    public struct NodeID: Hashable, Sendable, BitwiseCopyable {
        let index: Int32
    }

    public enum Kind: UInt8, Sendable, BitwiseCopyable { case scalar, sequence, mapping }

    /// libyaml's scalar styles, with the same raw values.
    enum ScalarStyle: UInt8 { case any, plain, singleQuoted, doubleQuoted, literal, folded }

    struct Record: BitwiseCopyable {
        var kind: Kind
        var style: ScalarStyle
        /// 1-based, as reports show them; libyaml counts columns in Unicode scalars. A container read from JSON
        /// keeps its byte span in the input here instead (`sourceSpan`): JSON nodes have no line or column.
        var line: Int32
        var column: Int32
        /// Scalars: the range of their bytes in `text`. Containers: the range of their children in `children`
        /// (a mapping's are key, value, key, value, ...).
        var start: Int32
        var count: Int32
    }

    /// The arena, valid as long as the document that made it.
    package let nodes: Nodes
    public let root: NodeID
    private let storage: (records: PlainBuffer<Record>, children: PlainBuffer<NodeID>, text: PlainBuffer<UInt8>)
    /// Read from JSON, whose containers know their bytes in the input.
    private let spans: Bool

    init(records: PlainBuffer<Record>, children: PlainBuffer<NodeID>, text: PlainBuffer<UInt8>, root: NodeID, spans: Bool = false) {
        storage = (records, children, text)
        self.spans = spans
        nodes = Nodes(
            records: UnsafeBufferPointer(start: records.base, count: records.count),
            children: UnsafePointer(children.base), text: UnsafePointer(text.base))
        self.root = root
    }

    deinit {
        storage.records.deallocate()
        storage.children.deallocate()
        storage.text.deallocate()
    }

    /// How many nodes the document holds.
    var nodeCount: Int { nodes.records.count }

    public func kind(_ node: NodeID) -> Kind { nodes.kind(node) }
    public func isScalar(_ node: NodeID) -> Bool { nodes.isScalar(node) }
    public func isPlain(_ node: NodeID) -> Bool { nodes.isPlain(node) }
    func line(_ node: NodeID) -> Int { nodes.line(node) }
    func column(_ node: NodeID) -> Int { nodes.column(node) }
    /// A container's bytes in the JSON it was read from, from its opening bracket to its closing one; nil for a
    /// scalar, or for a document read from YAML.
    public func sourceSpan(_ node: NodeID) -> Range<Int>? {
        let record = nodes.records[Int(node.index)]
        guard spans, record.kind != .scalar, record.line >= 0, record.column > record.line else { return nil }
        return Int(record.line)..<Int(record.column)
    }
    /// A scalar's text.
    public func string(_ node: NodeID) -> String { nodes.string(node) }
    /// Whether a scalar's text is exactly `expected`, without making a String.
    public func scalar(_ node: NodeID, equals expected: String) -> Bool { nodes.scalar(node, equals: expected) }
    /// A scalar's bytes, valid while the document lives.
    public func bytes(_ node: NodeID) -> UnsafeBufferPointer<UInt8> { nodes.bytes(node) }
    /// The items of a sequence, or the keys and values of a mapping, in file order; valid while the document lives.
    public func items(_ node: NodeID) -> UnsafeBufferPointer<NodeID> { nodes.items(node) }
    /// The key node and the value of `key` in a mapping.
    public func pair(_ mapping: NodeID, key: String) -> (key: NodeID, value: NodeID)? { nodes.pair(mapping, key: key) }

    /// The document's arena as plain addresses. Only a holder of the document may use one: it is valid while the
    /// document lives.
    package struct Nodes: @unchecked Sendable {
        let records: UnsafeBufferPointer<Record>
        let children: UnsafePointer<NodeID>
        let text: UnsafePointer<UInt8>

        package func kind(_ node: NodeID) -> Kind { records[Int(node.index)].kind }
        package func isScalar(_ node: NodeID) -> Bool { kind(node) == .scalar }
        package func isPlain(_ node: NodeID) -> Bool { records[Int(node.index)].style == .plain }

        /// A scalar's length in bytes.
        func length(_ node: NodeID) -> Int { Int(records[Int(node.index)].count) }

        func line(_ node: NodeID) -> Int { Int(records[Int(node.index)].line) }
        func column(_ node: NodeID) -> Int { Int(records[Int(node.index)].column) }

        func bytes(_ node: NodeID) -> UnsafeBufferPointer<UInt8> {
            let record = records[Int(node.index)]
            guard record.kind == .scalar else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: text + Int(record.start), count: Int(record.count))
        }

        package func string(_ node: NodeID) -> String {
            let record = records[Int(node.index)]
            return String(decoding: UnsafeBufferPointer(start: text + Int(record.start), count: Int(record.count)), as: UTF8.self)
        }

        package func scalar(_ node: NodeID, equals expected: String) -> Bool {
            let record = records[Int(node.index)]
            guard record.kind == .scalar, record.count == expected.utf8.count else { return false }
            return record.count == 0 || Self.bytes(text + Int(record.start), equal: expected)
        }

        /// Whether `count(expected)` bytes at `bytes` are `expected`'s. Keys are short: comparing in place beats a
        /// call to memcmp, and most differ in their first byte.
        private static func bytes(_ bytes: UnsafePointer<UInt8>, equal expected: String) -> Bool {
            // The bytes in place: a native or literal string has them contiguous, and reading them there retains
            // nothing, where `withUTF8` needs a mutable copy of the string.
            let equal = expected.utf8.withContiguousStorageIfAvailable { wanted in
                for offset in 0..<wanted.count where bytes[offset] != wanted[offset] { return false }
                return true
            }
            return equal ?? expected.utf8.elementsEqual(UnsafeBufferPointer(start: bytes, count: expected.utf8.count))
        }

        /// Whether a scalar's text is one of `candidates`. The scalar's bytes are found once, and a candidate of
        /// another length is ruled out before any bytes are compared: every key of every mapping is checked this way.
        package func scalar(_ node: NodeID, isOneOf candidates: [String]) -> Bool {
            let record = records[Int(node.index)]
            guard record.kind == .scalar else { return false }
            let count = Int(record.count)
            guard count > 0 else { return candidates.contains { $0.isEmpty } }
            return candidates.contains { $0.utf8.count == count && Self.bytes(text + Int(record.start), equal: $0) }
        }

        package func items(_ node: NodeID) -> UnsafeBufferPointer<NodeID> {
            let record = records[Int(node.index)]
            guard record.kind != .scalar else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: children + Int(record.start), count: Int(record.count))
        }

        package func pair(_ mapping: NodeID, key: String) -> (key: NodeID, value: NodeID)? {
            guard kind(mapping) == .mapping else { return nil }
            let items = items(mapping)
            // The key's bytes found once (in place, as a native or literal string has them; copied from any other),
            // then each key of the mapping ruled out by its length and first byte: an import asks this a million
            // times, for keys a few bytes long.
            let found =
                key.utf8.withContiguousStorageIfAvailable { keyIndex(in: items, of: $0) }
                ?? Array(key.utf8).withUnsafeBufferPointer { keyIndex(in: items, of: $0) }
            return found.map { (items[$0], items[$0 + 1]) }
        }

        /// The index in a mapping's `items` of the key whose bytes are `wanted`.
        private func keyIndex(in items: UnsafeBufferPointer<NodeID>, of wanted: UnsafeBufferPointer<UInt8>) -> Int? {
            var index = 0
            while index < items.count {
                let record = records[Int(items[index].index)]
                if record.kind == .scalar, Int(record.count) == wanted.count {
                    let bytes = text + Int(record.start)
                    var offset = 0
                    while offset < wanted.count, bytes[offset] == wanted[offset] { offset += 1 }
                    if offset == wanted.count { return index }
                }
                index += 2
            }
            return nil
        }
    }
}
