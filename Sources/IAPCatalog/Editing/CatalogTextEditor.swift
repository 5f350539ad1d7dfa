#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CYAML
import IAPCore

/// Changes values of a catalog in its text, so everything else (comments, order, quoting, blank lines) stays byte for
/// byte: a scalar is replaced where it stands, a key is added after the last one of its mapping, an item after the
/// last one of its list, each in the style around it (block or flow). A catalog written as JSON (its top level a
/// flow mapping) stays JSON: every key and text it gets is a JSON string. The caller reads the result back.
public struct CatalogTextEditor {
    public let file: String
    /// The catalog as read, before any edit.
    public let catalog: Catalog
    let original: [UInt8]
    let document: YAMLDocument
    let spans: [YAMLSpans.Span]
    /// Each alias (`*name`) in the text, in order: a value written as one is reached through its anchored node.
    let aliases: [YAMLSpans.Alias]
    var edits: [(offset: Int, length: Int, text: String)] = []
    /// Aliases whose text an edit replaces, by index, with that edit's index: a value of their own, or the anchored
    /// value moved there so the other aliases keep it.
    var aliasEdits: [Int: (edit: Int, definition: String?)] = [:]
    let json: Bool
    /// The file's lines end with `\r\n`: every line an edit writes does too.
    let crlf: Bool

    /// Loads the catalog from `data`; a text that is not a catalog throws as `CatalogLoader` does.
    public init(data: Data, file: String) throws(IAPKitError) {
        self.file = file
        catalog = try CatalogLoader.load(data: data, file: file, findings: { _ in })
        guard let document = catalog.document else {
            throw .malformed(location: SourceLocation(file: file), reason: "holds no YAML document")
        }
        self.document = document
        let bytes = Array(data)
        original = bytes
        (spans, aliases) = try YAMLSpans.read(bytes, file: file)
        crlf = bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 > 0 && bytes[$0 - 1] == UInt8(ascii: "\r") } ?? false
        guard spans.count == document.nodeCount else {
            throw .malformed(location: SourceLocation(file: file), reason: "could not be mapped to its text for editing")
        }
        json = spans[Int(document.root.index)].flow
    }

    public var hasEdits: Bool { !edits.isEmpty }

    /// Sets `key` of the mapping at `mapping` to `value`: its scalar is replaced when the key is there, else the key
    /// is added after the mapping's last entry.
    public mutating func set(_ key: String, to value: String, in mapping: CatalogPath) throws(IAPKitError) {
        let node = try self.node(at: mapping, kind: .mapping)
        if let pair = document.pair(node, key: key) {
            guard document.isScalar(pair.value) else { throw notEditable(mapping / key, "is not a single value") }
            if document.string(pair.value) == value { return }
            let span = spans[Int(pair.value.index)]
            // A block scalar's span takes its line breaks along; they stay.
            var end = span.end
            while end > span.start, original[end - 1] == UInt8(ascii: "\n") || original[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            edits.append((span.start, end - span.start, scalar(value, flow: spans[Int(node.index)].flow)))
            return
        }
        let entry = scalar(key, flow: false) + ": " + scalar(value, flow: spans[Int(node.index)].flow)
        insertAfterLastItem(of: node, flow: ", " + entry, block: entry, indentColumn: spans[Int(node.index)].column)
    }

    /// Adds a mapping of `pairs`, in order, after the last item of the list at `list`, written as that item is
    /// (a block mapping, or a flow mapping `{a: b}`).
    public mutating func append(_ pairs: [(key: String, value: String)], to list: CatalogPath) throws(IAPKitError) {
        let node = try self.node(at: list, kind: .sequence)
        let items = document.items(node)
        guard let last = items.last else { throw notEditable(list, "is an empty list; add the first item by hand") }
        let listSpan = spans[Int(node.index)]
        let lastIsFlow = spans[Int(last.index)].flow || document.kind(last) != .mapping
        let entries = pairs.map { scalar($0.key, flow: false) + ": " + scalar($0.value, flow: listSpan.flow || lastIsFlow) }
        let flowItem = "{" + entries.joined(separator: ", ") + "}"
        if listSpan.flow {
            insertAfterLastItem(of: node, flow: ", " + flowItem, block: "", indentColumn: 0)
            return
        }
        let dash = listSpan.column
        let itemIndent = String(repeating: " ", count: dash + 2)
        let block = lastIsFlow ? "- " + flowItem : "- " + entries.joined(separator: "\n" + itemIndent)
        insertAfterLastItem(of: node, flow: "", block: block, indentColumn: dash)
    }

    /// The edited text. Edits never overlap: each replaces one scalar or inserts at the end of a container.
    public func text() -> [UInt8] {
        var result = original
        // From the back, so earlier offsets stay valid; at one offset, the later edit first, so the earlier one
        // ends up in front of it.
        let ordered = edits.enumerated().sorted { ($0.element.offset, $0.offset) > ($1.element.offset, $1.offset) }
        for (_, edit) in ordered {
            let text = crlf ? edit.text.replacingAll("\r\n", with: "\n").replacingAll("\n", with: "\r\n") : edit.text
            result.replaceSubrange(edit.offset..<edit.offset + edit.length, with: Array(text.utf8))
        }
        return result
    }

    private mutating func insertAfterLastItem(of node: YAMLDocument.NodeID, flow: String, block: String, indentColumn: Int) {
        let container = spans[Int(node.index)]
        guard let last = document.items(node).last else { return }
        var offset = spans[Int(last.index)].end
        if container.flow {
            edits.append((offset, 0, flow))
            return
        }
        // After a comment or spaces that end the last entry's line; a block scalar's span already ends past its line.
        let endsLine = offset > 0 && original[offset - 1] == UInt8(ascii: "\n")
        if !endsLine {
            var index = offset
            while index < original.count, original[index] == UInt8(ascii: " ") || original[index] == UInt8(ascii: "\t") { index += 1 }
            if index == original.count || original[index] == UInt8(ascii: "\n") || original[index] == UInt8(ascii: "\r")
                || original[index] == UInt8(ascii: "#")
            {
                while index < original.count, original[index] != UInt8(ascii: "\n"), original[index] != UInt8(ascii: "\r") { index += 1 }
                offset = index
            }
        }
        let indent = String(repeating: " ", count: indentColumn)
        edits.append(endsLine ? (offset, 0, indent + block + "\n") : (offset, 0, "\n" + indent + block))
    }

    func node(at path: CatalogPath, kind: YAMLDocument.Kind) throws(IAPKitError) -> YAMLDocument.NodeID {
        var node = document.root
        for component in path.components {
            var next: YAMLDocument.NodeID?
            switch component {
            case let .key(name): next = document.pair(node, key: name)?.value
            case let .index(index):
                let items = document.items(node)
                if document.kind(node) == .sequence, index >= 0, index < items.count { next = items[items.startIndex + index] }
            }
            guard let next else { throw notEditable(path, "is not in the catalog") }
            node = next
        }
        guard document.kind(node) == kind else { throw notEditable(path, "is not a \(kind == .mapping ? "mapping" : "list")") }
        return node
    }

    private func notEditable(_ path: CatalogPath, _ reason: String) -> IAPKitError {
        .malformed(location: catalog.location(of: path), reason: "`\(path)` \(reason); cannot edit it")
    }

    /// A key or text as the file writes it: a JSON string in a JSON catalog, else as the catalog writer writes it.
    private func scalar(_ text: String, flow: Bool) -> String {
        guard json else { return Self.scalar(text, flow: flow) }
        var quoted = ""
        JSONValue.quote(text, into: &quoted, escapingAlso: Self.needsEscape)
        return quoted
    }

    /// A scalar as the catalog writer writes it: plain when a YAML reader takes it back as the same text, else
    /// double-quoted with escapes (line breaks and other controls included, so it stays on one line). Inside `{...}`
    /// or `[...]` a plain scalar cannot hold the flow indicators either.
    static func scalar(_ text: String, flow: Bool = false) -> String {
        let plain =
            !CatalogYAMLWriter.needsQuotes(text) && !text.unicodeScalars.contains(where: needsEscape)
            && !(flow && text.unicodeScalars.contains { ",[]{}".unicodeScalars.contains($0) })
        guard !plain else { return text }
        // A YAML double-quoted scalar reads JSON's escapes.
        var quoted = ""
        JSONValue.quote(text, into: &quoted, escapingAlso: needsEscape)
        return quoted
    }

    /// Controls, and the line and paragraph separators a YAML reader takes as line breaks.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
            || scalar == "\u{FEFF}"
    }
}

/// Where each node of a YAML text starts and ends, in bytes, in the order `YAMLDocumentBuilder` makes its records
/// (a scalar when read, a container when it closes; aliases make none), so a record's index finds its span.
enum YAMLSpans {
    struct Span {
        var start: Int
        var end: Int
        /// The 0-based column where the node starts (a block list's dash, a block mapping's first key).
        var column: Int
        var flow: Bool
        /// The anchor the node defines (`&name`, within its span), if any.
        var anchor: String? = nil
    }

    /// An alias (`*name`) where it stands.
    struct Alias {
        var start: Int
        var end: Int
        var anchor: String
    }

    static func read(_ text: [UInt8], file: String) throws(IAPKitError) -> (spans: [Span], aliases: [Alias]) {
        // The loader drops a byte-order mark before libyaml reads; so does this, and offsets move by its length.
        let skip = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw .io(path: file, reason: "out of memory") }
        defer { yaml_parser_delete(&parser) }
        return try text.withUnsafeBufferPointer { buffer throws(IAPKitError) -> ([Span], [Alias]) in
            let body = UnsafeBufferPointer(rebasing: buffer[skip...])
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, body.baseAddress, body.count)
            var offsets = CharacterOffsets(body)
            var spans: [Span] = []
            var aliases: [Alias] = []
            var open: [(span: Span, lastEnd: Int)] = []
            func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? { anchor.map { String(cString: $0) } }
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw .malformed(location: SourceLocation(file: file), reason: "is not valid YAML")
                }
                defer { yaml_event_delete(&event) }
                let start = offsets.byte(atCharacter: event.start_mark.index) + skip
                let end = offsets.byte(atCharacter: event.end_mark.index) + skip
                let column = Int(event.start_mark.column)
                var finished: Span?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return (spans, aliases)
                case YAML_SCALAR_EVENT:
                    finished = Span(start: start, end: end, column: column, flow: false, anchor: name(event.data.scalar.anchor))
                case YAML_ALIAS_EVENT:
                    if !open.isEmpty { open[open.count - 1].lastEnd = end }
                    aliases.append(Alias(start: start, end: end, anchor: name(event.data.alias.anchor) ?? ""))
                case YAML_SEQUENCE_START_EVENT:
                    let flow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                    let anchor = name(event.data.sequence_start.anchor)
                    open.append((Span(start: start, end: start, column: column, flow: flow, anchor: anchor), start))
                case YAML_MAPPING_START_EVENT:
                    let flow = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                    let anchor = name(event.data.mapping_start.anchor)
                    open.append((Span(start: start, end: start, column: column, flow: flow, anchor: anchor), start))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    var (span, lastEnd) = open.removeLast()
                    // A flow container ends at its bracket; a block one where its last value ends.
                    span.end = span.flow ? end : lastEnd
                    finished = span
                default:
                    break
                }
                if let finished {
                    spans.append(finished)
                    if !open.isEmpty { open[open.count - 1].lastEnd = finished.end }
                }
            }
        }
    }

    /// libyaml counts a mark's index in characters (Unicode scalars); edits need bytes. Marks arrive almost in
    /// order, so a cursor walks the UTF-8 from the last answer.
    struct CharacterOffsets {
        let bytes: UnsafeBufferPointer<UInt8>
        var character = 0
        var byte = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func byte(atCharacter target: Int) -> Int {
            while character < target, byte < bytes.count {
                byte += 1
                while byte < bytes.count, bytes[byte] & 0xC0 == 0x80 { byte += 1 }
                character += 1
            }
            while character > target, byte > 0 {
                byte -= 1
                while byte > 0, bytes[byte] & 0xC0 == 0x80 { byte -= 1 }
                character -= 1
            }
            return byte
        }
    }
}
