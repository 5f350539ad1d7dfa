import CYAML
import IAPCore

/// One YAML document read from libyaml's event stream into a flat arena: a small record per node (kind, style,
/// line and column, children or text range) and every scalar's bytes in one shared buffer. Nothing is resolved
/// or typed here; the catalog reader reads each value as the type its key needs.
public final class YAMLDocument: Sendable {
    /// A node of the document: an index into its arena.
    public struct NodeID: Hashable, Sendable {
        let index: Int32
    }

    public enum Kind: UInt8, Sendable { case scalar, sequence, mapping }

    /// libyaml's scalar styles, with the same raw values.
    enum ScalarStyle: UInt8 { case any, plain, singleQuoted, doubleQuoted, literal, folded }

    struct Record {
        var kind: Kind
        var style: ScalarStyle
        /// 1-based, as reports show them; libyaml counts columns in Unicode scalars.
        var line: Int32
        var column: Int32
        /// Scalars: the range of their bytes in `text`. Containers: the range of their children in `children`
        /// (a mapping's are key, value, key, value, ...).
        var start: Int32
        var count: Int32
    }

    let records: [Record]
    let children: [NodeID]
    let text: [UInt8]
    public let root: NodeID

    init(records: [Record], children: [NodeID], text: [UInt8], root: NodeID) {
        self.records = records
        self.children = children
        self.text = text
        self.root = root
    }

    public func kind(_ node: NodeID) -> Kind { records[Int(node.index)].kind }
    public func isScalar(_ node: NodeID) -> Bool { kind(node) == .scalar }
    public func isPlain(_ node: NodeID) -> Bool { records[Int(node.index)].style == .plain }

    /// A scalar's length in bytes.
    func length(_ node: NodeID) -> Int { Int(records[Int(node.index)].count) }

    func line(_ node: NodeID) -> Int { Int(records[Int(node.index)].line) }
    func column(_ node: NodeID) -> Int { Int(records[Int(node.index)].column) }

    /// A scalar's text.
    public func string(_ node: NodeID) -> String {
        let record = records[Int(node.index)]
        return text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(record.start)..<Int(record.start + record.count)]), as: UTF8.self)
        }
    }

    /// Whether a scalar's text is exactly `expected`, without making a String.
    public func scalar(_ node: NodeID, equals expected: String) -> Bool {
        let record = records[Int(node.index)]
        guard record.kind == .scalar, record.count == expected.utf8.count else { return false }
        guard record.count > 0 else { return true }
        return text.withUnsafeBufferPointer { Self.bytes($0.baseAddress! + Int(record.start), equal: expected) }
    }

    /// Whether `count(expected)` bytes at `bytes` are `expected`'s. Keys are short: comparing in place beats a call
    /// to memcmp, and most differ in their first byte.
    private static func bytes(_ bytes: UnsafePointer<UInt8>, equal expected: String) -> Bool {
        var expected = expected
        return expected.withUTF8 { wanted in
            for offset in 0..<wanted.count where bytes[offset] != wanted[offset] { return false }
            return true
        }
    }

    /// Whether a scalar's text is one of `candidates`. The scalar's bytes are found once, and a candidate of
    /// another length is ruled out before any bytes are compared: every key of every mapping is checked this way.
    func scalar(_ node: NodeID, isOneOf candidates: [String]) -> Bool {
        let record = records[Int(node.index)]
        guard record.kind == .scalar else { return false }
        let count = Int(record.count)
        guard count > 0 else { return candidates.contains { $0.isEmpty } }
        return text.withUnsafeBufferPointer { text in
            candidates.contains { $0.utf8.count == count && Self.bytes(text.baseAddress! + Int(record.start), equal: $0) }
        }
    }

    /// The items of a sequence, or the keys and values of a mapping, in file order.
    public func items(_ node: NodeID) -> ArraySlice<NodeID> {
        let record = records[Int(node.index)]
        guard record.kind != .scalar else { return [] }
        return children[Int(record.start)..<Int(record.start + record.count)]
    }

    /// The key node and the value of `key` in a mapping.
    public func pair(_ mapping: NodeID, key: String) -> (key: NodeID, value: NodeID)? {
        guard kind(mapping) == .mapping else { return nil }
        let items = items(mapping)
        var index = items.startIndex
        while index < items.endIndex {
            if scalar(items[index], equals: key) { return (items[index], items[index + 1]) }
            index += 2
        }
        return nil
    }
}

/// Builds a `YAMLDocument` from libyaml's events in one pass, enforcing what Yams used to: one document,
/// defined aliases, no repeated keys, and a nesting limit (so a hostile file is refused, not a stack overflow).
extension YAMLDocument {
    /// Reads UTF-8 YAML (or JSON, which YAML reads too); nil when it holds no document.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> YAMLDocument? {
        do throws(YAMLDocumentBuilder.Failure) {
            return try YAMLDocumentBuilder.build(bytes.bindMemory(to: UInt8.self))
        } catch {
            throw ParseError(line: error.line, column: error.column, reason: error.reason)
        }
    }

    /// Where and why reading stopped; `reason` starts "is not valid YAML" except for repeated keys.
    public struct ParseError: Error, Sendable {
        public var line: Int?
        public var column: Int?
        public var reason: String
    }
}

enum YAMLDocumentBuilder {
    static let maximumDepth = 1000

    /// A failure with the line and column where libyaml (or the builder) stopped.
    struct Failure: Error {
        var line: Int?
        var column: Int?
        var reason: String
    }

    private struct OpenContainer {
        var kind: YAMLDocument.Kind
        var line: Int32
        var column: Int32
        var anchor: String?
        /// Where this container's children start on the pending stack.
        var base: Int
    }

    /// Parses UTF-8 `bytes`; nil when the stream holds no document.
    static func build(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> YAMLDocument? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Failure(reason: "out of memory") }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)

        var records: [YAMLDocument.Record] = []
        var children: [YAMLDocument.NodeID] = []
        var text: [UInt8] = []
        // Generous guesses: pages that are reserved but never written cost no memory, and growing a large array
        // costs a copy.
        records.reserveCapacity(bytes.count / 8 + 16)
        children.reserveCapacity(bytes.count / 8 + 16)
        text.reserveCapacity(bytes.count + 16)
        var pending: [YAMLDocument.NodeID] = []
        var open: [OpenContainer] = []
        var anchors: [String: YAMLDocument.NodeID] = [:]
        var root: YAMLDocument.NodeID?
        var documents = 0

        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { throw failure(of: parser, bytes: bytes) }
            defer { yaml_event_delete(&event) }
            let line = Int32(event.start_mark.line + 1), column = Int32(event.start_mark.column + 1)
            var finished: YAMLDocument.NodeID?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                guard let root else { return nil }
                return YAMLDocument(records: records, children: children, text: text, root: root)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw Failure(line: Int(line), column: Int(column),
                                  reason: "is not valid YAML: but found another document expected a single document in the stream (line 1)")
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let start = Int32(text.count)
                if scalar.length > 0 { text.append(contentsOf: UnsafeBufferPointer(start: scalar.value, count: scalar.length)) }
                let id = YAMLDocument.NodeID(index: Int32(records.count))
                records.append(.init(kind: .scalar, style: YAMLDocument.ScalarStyle(rawValue: UInt8(scalar.style.rawValue)) ?? .any,
                                     line: line, column: column, start: start, count: Int32(scalar.length)))
                if let anchor = scalar.anchor { anchors[String(cString: anchor)] = id }
                finished = id
            case YAML_ALIAS_EVENT:
                guard let id = anchors[String(cString: event.data.alias.anchor)] else {
                    throw Failure(line: Int(line), column: Int(column), reason: "is not valid YAML: found undefined alias")
                }
                finished = id
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                if open.count >= maximumDepth {
                    throw Failure(line: Int(line), column: Int(column),
                                  reason: "is not valid YAML: nesting deeper than \(maximumDepth) levels; refusing to read it")
                }
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                open.append(OpenContainer(kind: isMapping ? .mapping : .sequence, line: line, column: column,
                                          anchor: anchor.map { String(cString: $0) }, base: pending.count))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let container = open.removeLast()
                let count = pending.count - container.base
                if container.kind == .mapping { try checkDuplicateKeys(pending[container.base...], records: records, text: text) }
                let id = YAMLDocument.NodeID(index: Int32(records.count))
                records.append(.init(kind: container.kind, style: .any, line: container.line, column: container.column,
                                     start: Int32(children.count), count: Int32(count)))
                children.append(contentsOf: pending[container.base...])
                // No slice of `pending` may outlive this line, or removing would copy the whole stack.
                pending.removeLast(count)
                if let anchor = container.anchor { anchors[anchor] = id }
                finished = id
            default:
                break
            }
            if let finished {
                if open.isEmpty { root = finished } else { pending.append(finished) }
            }
        }
    }

    /// Yams refused a mapping that repeats a key, naming the repeated keys in order at the first one's line.
    private static func checkDuplicateKeys(_ items: ArraySlice<YAMLDocument.NodeID>, records: [YAMLDocument.Record],
                                           text: [UInt8]) throws(Failure) {
        guard items.count > 2 else { return }
        func key(_ offset: Int) -> YAMLDocument.Record? {
            let record = records[Int(items[items.startIndex + offset * 2].index)]
            return record.kind == .scalar ? record : nil
        }
        func same(_ a: YAMLDocument.Record, _ b: YAMLDocument.Record) -> Bool {
            a.count == b.count && text[Int(a.start)..<Int(a.start + a.count)] == text[Int(b.start)..<Int(b.start + b.count)]
        }
        let count = items.count / 2
        var repeated: [(text: String, first: YAMLDocument.Record)] = []
        if count <= 32 {
            // Catalog mappings are small: comparing every pair is cheaper than hashing.
            for index in 1..<count {
                guard let current = key(index) else { continue }
                for earlier in 0..<index {
                    guard let candidate = key(earlier), same(candidate, current) else { continue }
                    let name = String(decoding: text[Int(candidate.start)..<Int(candidate.start + candidate.count)], as: UTF8.self)
                    if !repeated.contains(where: { $0.text == name }) { repeated.append((name, candidate)) }
                    break
                }
            }
        } else {
            var first: [ArraySlice<UInt8>: (record: YAMLDocument.Record, repeated: Bool)] = [:]
            for index in 0..<count {
                guard let record = key(index) else { continue }
                let bytes = text[Int(record.start)..<Int(record.start + record.count)]
                if first[bytes] == nil { first[bytes] = (record, false) } else { first[bytes]?.repeated = true }
            }
            repeated = first.filter(\.value.repeated).map { (String(decoding: $0.key, as: UTF8.self), $0.value.record) }
        }
        guard !repeated.isEmpty else { return }
        repeated.sort { $0.text < $1.text }
        throw Failure(line: Int(repeated[0].first.line), column: Int(repeated[0].first.column),
                      reason: "repeats the key \(repeated.map(\.text).joined(separator: ", "))")
    }

    /// libyaml's own description of where and why it stopped, worded as Yams worded it.
    private static func failure(of parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> Failure {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        switch parser.error {
        case YAML_READER_ERROR:
            // Yams counted lines over the first `offset` bytes, where offset was measured in characters.
            let prefix = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<min(parser.problem_offset, bytes.count)]), as: UTF8.self)
            let characters = min(prefix.count, bytes.count)
            let line = bytes[..<characters].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            return Failure(line: line, reason: "is not valid YAML: \(problem)")
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
            var reason = "is not valid YAML: \(problem)"
            if let context = parser.context {
                reason += " \(String(cString: context)) (line \(parser.context_mark.line + 1))"
            }
            return Failure(line: parser.problem_mark.line + 1, column: parser.problem_mark.column + 1, reason: reason)
        default:
            return Failure(reason: "is not valid YAML: \(problem)")
        }
    }
}
