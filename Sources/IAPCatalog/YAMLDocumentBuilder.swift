import CYAML
import IAPCore

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
            if join != nil { try join!.check(event, open: open) }
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
