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
        /// 1-based, as reports show them; libyaml counts columns in Unicode scalars.
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

    init(records: PlainBuffer<Record>, children: PlainBuffer<NodeID>, text: PlainBuffer<UInt8>, root: NodeID) {
        storage = (records, children, text)
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
            // The key's bytes found once, then each key of the mapping ruled out by its length and first byte: an
            // import asks this a million times, for keys a few bytes long.
            let found = key.utf8.withContiguousStorageIfAvailable { wanted -> Int? in
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
            if let found { return found.map { (items[$0], items[$0 + 1]) } }
            var index = 0
            while index < items.count {
                if scalar(items[index], equals: key) { return (items[index], items[index + 1]) }
                index += 2
            }
            return nil
        }
    }
}

/// A growing run of plain values in memory of its own, let go by its owner: the document's arena, whose address
/// readers keep once it is built.
struct PlainBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    /// Reserves `capacity` elements: pages that are reserved but never written cost no memory.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(toHold: count + elements.count) }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Moves the elements from `index` on `count` places right and returns the gap before them, for the caller to
    /// fill (every element of it) before the buffer is read again.
    mutating func openGap(at index: Int, count gap: Int) -> UnsafeMutablePointer<Element> {
        if count + gap > capacity { grow(toHold: count + gap) }
        (base + index + gap).moveInitialize(from: base + index, count: count - index)
        count += gap
        return base + index
    }

    /// Lets the memory go; the buffer must not be used afterwards.
    func deallocate() { base.deallocate() }

    private mutating func grow(toHold needed: Int) {
        capacity = Swift.max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
    }
}

/// An arena under construction and the two ways a node enters it, shared by both builders (libyaml's events for YAML,
/// yajl's callbacks for JSON).
struct ArenaBuilder {
    var records: PlainBuffer<YAMLDocument.Record>
    var children: PlainBuffer<YAMLDocument.NodeID>
    var text: PlainBuffer<UInt8>

    /// Sized from the input, generously: pages that are reserved but never written cost no memory, and growing a
    /// large buffer costs a copy.
    init(inputBytes: Int) {
        records = PlainBuffer(capacity: inputBytes / 8 + 16)
        children = PlainBuffer(capacity: inputBytes / 8 + 16)
        text = PlainBuffer(capacity: inputBytes + 16)
    }

    /// A scalar of `count` bytes.
    mutating func scalar(
        _ bytes: UnsafePointer<UInt8>?, count: Int, style: YAMLDocument.ScalarStyle, line: Int32,
        column: Int32
    ) -> YAMLDocument.NodeID {
        let start = Int32(text.count)
        if let bytes, count > 0 { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        let id = YAMLDocument.NodeID(index: Int32(records.count))
        records.append(.init(kind: .scalar, style: style, line: line, column: column, start: start, count: Int32(count)))
        return id
    }

    /// A sequence or mapping whose children are `pending[base...]`, which it takes off `pending`.
    mutating func container(
        _ kind: YAMLDocument.Kind, line: Int32, column: Int32, pending: inout [YAMLDocument.NodeID],
        from base: Int
    ) -> YAMLDocument.NodeID {
        let count = pending.count - base
        let id = YAMLDocument.NodeID(index: Int32(records.count))
        records.append(.init(kind: kind, style: .any, line: line, column: column, start: Int32(children.count), count: Int32(count)))
        pending.withUnsafeBufferPointer { children.append(contentsOf: UnsafeBufferPointer(rebasing: $0[base...])) }
        // No slice of `pending` may outlive this line, or removing would copy the whole stack.
        pending.removeLast(count)
        return id
    }

    /// The finished document, which owns the buffers from now on.
    func document(root: YAMLDocument.NodeID) -> YAMLDocument {
        YAMLDocument(records: records, children: children, text: text, root: root)
    }

    /// Lets the buffers go, when no document took them.
    func deallocate() {
        records.deallocate()
        children.deallocate()
        text.deallocate()
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

    struct OpenContainer {
        var kind: YAMLDocument.Kind
        /// A `[...]` or `{...}` container, not a block one.
        var flow: Bool
        var line: Int32
        var column: Int32
        var anchor: String?
        /// Where this container's children start on the pending stack.
        var base: Int
    }

    /// What one pass over libyaml's events made, before it becomes a document: the whole text's, or one part's when
    /// a large text is read in parts (`YAMLDocumentBuilder+Parts.swift`). Its owner lets the arena go or hands it on.
    struct Pass {
        var arena: ArenaBuilder
        var root: YAMLDocument.NodeID?
        /// The line breaks libyaml counted to the end of the stream.
        var lineBreaks: Int
        var definesAnchors = false
        var join: Join?
    }

    /// Parses UTF-8 `bytes`; nil when the stream holds no document.
    static func build(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> YAMLDocument? {
        if let document = buildInParts(bytes) { return document }
        let pass = try read(bytes, reserving: bytes.count, depthLimit: maximumDepth, join: nil)
        guard let root = pass.root else {
            pass.arena.deallocate()
            return nil
        }
        return pass.arena.document(root: root)
    }

    /// One pass over the events of `bytes` into an arena sized for `reserving` bytes of text. `join`, when the
    /// bytes are a large text's first part, is checked as the pass goes and filled in.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, reserving: Int, depthLimit: Int, join: Join?
    ) throws(Failure) -> Pass {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Failure(reason: "out of memory") }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)

        var arena = ArenaBuilder(inputBytes: reserving)
        var handedOver = false
        defer { if !handedOver { arena.deallocate() } }
        var pending: [YAMLDocument.NodeID] = []
        var open: [OpenContainer] = []
        var anchors: [String: YAMLDocument.NodeID] = [:]
        var root: YAMLDocument.NodeID?
        var documents = 0
        var join = join

        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { throw failure(of: parser, bytes: bytes) }
            defer { yaml_event_delete(&event) }
            let line = Int32(event.start_mark.line + 1), column = Int32(event.start_mark.column + 1)
            if join != nil { try join!.check(event, open: open, arena: arena) }
            var finished: YAMLDocument.NodeID?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                handedOver = true
                return Pass(
                    arena: arena, root: root, lineBreaks: Int(event.start_mark.line), definesAnchors: !anchors.isEmpty,
                    join: join)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw Failure(
                        line: Int(line), column: Int(column),
                        reason: "is not valid YAML: but found another document expected a single document in the stream (line 1)")
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let id = arena.scalar(
                    scalar.value, count: scalar.length,
                    style: YAMLDocument.ScalarStyle(rawValue: UInt8(scalar.style.rawValue)) ?? .any,
                    line: line, column: column)
                if let anchor = scalar.anchor { anchors[String(cString: anchor)] = id }
                finished = id
            case YAML_ALIAS_EVENT:
                guard let id = anchors[String(cString: event.data.alias.anchor)] else {
                    throw Failure(line: Int(line), column: Int(column), reason: "is not valid YAML: found undefined alias")
                }
                finished = id
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                if open.count >= depthLimit {
                    throw Failure(
                        line: Int(line), column: Int(column),
                        reason: "is not valid YAML: nesting deeper than \(maximumDepth) levels; refusing to read it")
                }
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                let flow =
                    isMapping
                    ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                    : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                open.append(
                    OpenContainer(
                        kind: isMapping ? .mapping : .sequence, flow: flow, line: line, column: column,
                        anchor: anchor.map { String(cString: $0) }, base: pending.count))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let container = open.removeLast()
                if container.kind == .mapping {
                    try checkDuplicateKeys(pending[container.base...], records: arena.records, text: arena.text)
                }
                if join != nil, open.count == 1 { join!.closing(arena: arena, items: pending.count - container.base) }
                let id = arena.container(
                    container.kind, line: container.line, column: container.column, pending: &pending,
                    from: container.base)
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
    private static func checkDuplicateKeys(
        _ items: ArraySlice<YAMLDocument.NodeID>, records: PlainBuffer<YAMLDocument.Record>,
        text: PlainBuffer<UInt8>
    ) throws(Failure) {
        let repeated = repeatedKeys(items, records: records, text: text)
        guard let first = repeated.first else { return }
        throw Failure(
            line: Int(first.record.line), column: Int(first.record.column),
            reason: "repeats the key \(repeated.map(\.text).joined(separator: ", "))")
    }

    /// The keys a mapping's `items` (key, value, key, value, ...) name more than once, sorted, each with the record of
    /// its first occurrence.
    static func repeatedKeys(
        _ items: ArraySlice<YAMLDocument.NodeID>, records: PlainBuffer<YAMLDocument.Record>,
        text: PlainBuffer<UInt8>
    ) -> [(text: String, record: YAMLDocument.Record)] {
        guard items.count > 2 else { return [] }
        let records = UnsafeBufferPointer(start: records.base, count: records.count)
        let text = UnsafeBufferPointer(start: text.base, count: text.count)
        func key(_ offset: Int) -> YAMLDocument.Record? {
            let record = records[Int(items[items.startIndex + offset * 2].index)]
            return record.kind == .scalar ? record : nil
        }
        func same(_ a: YAMLDocument.Record, _ b: YAMLDocument.Record) -> Bool {
            a.count == b.count && text[Int(a.start)..<Int(a.start + a.count)].elementsEqual(text[Int(b.start)..<Int(b.start + b.count)])
        }
        let count = items.count / 2
        var repeated: [(text: String, record: YAMLDocument.Record)] = []
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
            var first: [[UInt8]: (record: YAMLDocument.Record, repeated: Bool)] = [:]
            for index in 0..<count {
                guard let record = key(index) else { continue }
                let bytes = Array(text[Int(record.start)..<Int(record.start + record.count)])
                if first[bytes] == nil { first[bytes] = (record, false) } else { first[bytes]?.repeated = true }
            }
            repeated = first.filter(\.value.repeated).map { (String(decoding: $0.key, as: UTF8.self), $0.value.record) }
        }
        repeated.sort { $0.text < $1.text }
        return repeated
    }

    /// The first tab in the indentation of one of `lines` (0-based; the first listed first), as a 1-based line and
    /// column: libyaml refuses it with a message that never says so.
    static func indentingTab(_ bytes: UnsafeBufferPointer<UInt8>, onLines lines: [Int]) -> (line: Int, column: Int)? {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == 10 { starts.append(index + 1) }
        for line in lines where line < starts.count {
            var index = starts[line]
            while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 45 {
                if bytes[index] == 9 { return (line + 1, index - starts[line] + 1) }
                index += 1
            }
        }
        return nil
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
            let lines = [Int(parser.problem_mark.line)] + (parser.context == nil ? [] : [Int(parser.context_mark.line)])
            if let tab = indentingTab(bytes, onLines: lines) {
                return Failure(
                    line: tab.line, column: tab.column, reason: "is not valid YAML: a tab indents this line; YAML indents with spaces: use spaces")
            }
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
