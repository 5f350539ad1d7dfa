import IAPCore

/// Edits by node, for `CatalogMerge`: a value replaced where it stands, a key or list item added after its
/// neighbour or removed with its lines, each written in the file's own layout (its indentation step, whether its
/// lists stand under their key or indented, JSON where the file is JSON).
extension CatalogTextEditor {
    typealias Node = YAMLDocument.NodeID

    /// How the file lays out what it nests, read from its first nested mapping and first block list.
    struct Layout {
        /// Columns a nested mapping's keys stand right of their parent key.
        var step = 2
        /// Columns a block list's dashes stand right of the key that holds it (0: `key:` then `- item` below it).
        var listOffset = 2
        /// Columns an item stands right of its dash (2: `- item`; a file may write `-   item`).
        var itemOffset = 2
        var json = false
    }

    var layout: Layout {
        var layout = Layout(json: json)
        var foundStep = false
        var foundList = false
        func visit(_ node: Node, keyColumn: Int?) {
            guard !(foundStep && foundList), !spans[Int(node.index)].flow else { return }
            switch document.kind(node) {
            case .scalar: return
            case .sequence:
                if let keyColumn, !foundList {
                    let dash = spans[Int(node.index)].column
                    layout.listOffset = max(0, dash - keyColumn)
                    if let first = document.items(node).first, spans[Int(first.index)].column > dash {
                        layout.itemOffset = spans[Int(first.index)].column - dash
                    }
                    foundList = true
                }
                for item in document.items(node) { visit(item, keyColumn: nil) }
            case .mapping:
                let column = spans[Int(node.index)].column
                if let keyColumn, !foundStep, column > keyColumn {
                    layout.step = column - keyColumn
                    foundStep = true
                }
                let items = document.items(node)
                for index in stride(from: 1, to: items.count, by: 2) { visit(items[index], keyColumn: column) }
            }
        }
        visit(document.root, keyColumn: nil)
        return layout
    }

    func isFlow(_ node: Node) -> Bool { spans[Int(node.index)].flow }

    func column(_ node: Node) -> Int { spans[Int(node.index)].column }

    /// The mapping's pairs as (key, value) nodes.
    func pairs(_ mapping: Node) -> [(key: Node, value: Node)] {
        guard document.kind(mapping) == .mapping else { return [] }
        let items = document.items(mapping)
        return stride(from: 0, to: items.count, by: 2).map { (items[$0], items[$0 + 1]) }
    }

    /// A scalar replaced by `text`, quoted as the old one was where it was quoted.
    mutating func replaceScalar(_ node: Node, with tree: YAMLTree) {
        guard case let .scalar(text, quoted) = tree else { return replace(node, with: tree) }
        keepAnchor(of: node)
        let span = spans[Int(node.index)]
        var end = span.end
        while end > span.start, original[end - 1] == UInt8(ascii: "\n") || original[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let flow = enclosingFlow(span.start)
        let rendered = YAMLTreeText(layout: layout).scalar(text, quoted: quoted || !document.isPlain(node), flow: flow)
        edits.append((span.start, end - span.start, rendered))
    }

    /// Any value replaced by `tree`: a block container by block lines at its column, anything else inline.
    mutating func replace(_ node: Node, with tree: YAMLTree) {
        keepAnchor(of: node)
        let span = spans[Int(node.index)]
        let writer = YAMLTreeText(layout: layout)
        let blockContainer = !span.flow && document.kind(node) != .scalar
        if blockContainer, !tree.isEmptyContainer, !layout.json, document.kind(node) == tree.kind {
            let lines =
                document.kind(node) == .mapping ? writer.pairLines(tree.pairs, column: span.column) : writer.itemLines(tree.items, dash: span.column)
            let text = lines.enumerated().map { $0.offset == 0 ? String($0.element.drop { $0 == " " }) : $0.element }.joined(separator: "\n")
            edits.append((span.start, trimmedEnd(span) - span.start, text))
        } else {
            edits.append((span.start, trimmedEnd(span) - span.start, writer.flow(tree, inFlow: enclosingFlow(span.start))))
        }
    }

    /// A key and its value added to a block mapping, after the pair whose value is `after` (nil: first).
    mutating func insert(_ pair: YAMLTree.Pair, into mapping: Node, after: Node?) {
        let writer = YAMLTreeText(layout: layout)
        let column = spans[Int(mapping.index)].column
        let lines = writer.pairLines([pair], column: column)
        if let after {
            let offset = lineEnd(after: trimmedEnd(spans[Int(after.index)]))
            edits.append((offset, 0, lines.joined(separator: "\n") + "\n"))
        } else {
            // Before the first key, which may follow a list's dash on its line.
            let start = spans[Int(mapping.index)].start
            let text = lines.enumerated().map { $0.offset == 0 ? String($0.element.drop { $0 == " " }) : $0.element }
            edits.append((start, 0, text.joined(separator: "\n") + "\n" + String(repeating: " ", count: column)))
        }
    }

    /// An item added at the end of a block list, as its dash and its lines.
    mutating func append(_ item: YAMLTree, to list: Node) {
        guard let last = document.items(list).last else { return replace(list, with: .list([item])) }
        let lines = YAMLTreeText(layout: layout).itemLines([item], dash: spans[Int(list.index)].column)
        let offset = lineEnd(after: trimmedEnd(spans[Int(last.index)]))
        edits.append((offset, 0, lines.joined(separator: "\n") + "\n"))
    }

    /// A pair of a block mapping removed with its lines. A first key that shares its line with a list's dash hands
    /// the dash to the next key; a mapping's only pair cannot go this way (false).
    mutating func remove(pairAt index: Int, of mapping: Node) -> Bool {
        let all = pairs(mapping)
        let (key, value) = all[index]
        if alias(key: key, value: value) == nil { keepAnchor(of: value) }
        let keyStart = spans[Int(key.index)].start
        let start = lineStart(keyStart)
        let sharesLine = original[start..<keyStart].contains { $0 != UInt8(ascii: " ") }
        if sharesLine {
            guard index + 1 < all.count else { return false }
            edits.append((keyStart, spans[Int(all[index + 1].key.index)].start - keyStart, ""))
        } else {
            let end = lineEnd(after: trimmedEnd(spans[Int(value.index)]))
            edits.append((start, end - start, ""))
        }
        return true
    }

    /// An item of a block list removed with its lines; a list's only item cannot go this way (false).
    mutating func remove(itemAt index: Int, of list: Node) -> Bool {
        let items = document.items(list)
        guard items.count > 1 else { return false }
        let item = items[index]
        keepAnchor(of: item)
        // The dash stands before the item's first character, on its line.
        let start = lineStart(spans[Int(item.index)].start)
        let end = lineEnd(after: trimmedEnd(spans[Int(item.index)]))
        edits.append((start, end - start, ""))
        return true
    }

    /// Where a node's text ends, before the line breaks a block scalar takes along.
    func trimmedEnd(_ span: YAMLSpans.Span) -> Int {
        var end = span.end
        while end > span.start, original[end - 1] == UInt8(ascii: "\n") || original[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return end
    }

    private func lineStart(_ offset: Int) -> Int {
        var index = offset
        while index > 0, original[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    /// Just past the line break that ends the line holding `offset` (its trailing comment included).
    private func lineEnd(after offset: Int) -> Int {
        var index = offset
        while index < original.count, original[index] != UInt8(ascii: "\n") { index += 1 }
        return min(index + 1, original.count)
    }

    /// Whether `offset` lies inside a flow container (where `,[]{}` end a plain scalar).
    func enclosingFlow(_ offset: Int) -> Bool {
        spans.contains { $0.flow && $0.start < offset && offset < $0.end }
    }
}

extension YAMLTree {
    var kind: YAMLDocument.Kind {
        switch self {
        case .scalar: return .scalar
        case .list: return .sequence
        case .map: return .mapping
        }
    }
}

/// A tree as text in a file's layout: block lines at a column, or one flow value.
struct YAMLTreeText {
    let layout: CatalogTextEditor.Layout

    func scalar(_ text: String, quoted: Bool, flow: Bool) -> String {
        if layout.json {
            if !quoted, text == "true" || text == "false" || Double(text) != nil { return text }
            var out = ""
            JSONValue.quote(text, into: &out, escapingAlso: CatalogTextEditor.needsEscape)
            return out
        }
        let flowIndicator = flow && text.unicodeScalars.contains { ",[]{}".unicodeScalars.contains($0) }
        if !quoted, !flowIndicator, !text.isEmpty { return text }
        if !quoted { return CatalogTextEditor.scalar(text, flow: flow) }
        var out = ""
        JSONValue.quote(text, into: &out, escapingAlso: CatalogTextEditor.needsEscape)
        return out
    }

    func key(_ text: String) -> String { layout.json ? scalar(text, quoted: true, flow: true) : CatalogTextEditor.scalar(text) }

    func flow(_ tree: YAMLTree, inFlow: Bool = false) -> String {
        switch tree {
        case let .scalar(text, quoted): return scalar(text, quoted: quoted, flow: inFlow)
        case let .list(items): return "[" + items.map { flow($0, inFlow: true) }.joined(separator: ", ") + "]"
        case let .map(pairs): return "{" + pairs.map { key($0.key) + ": " + flow($0.value, inFlow: true) }.joined(separator: ", ") + "}"
        }
    }

    /// `key: value` lines, keys at `column`.
    func pairLines(_ pairs: [YAMLTree.Pair], column: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        if layout.json { return pairs.map { indent + key($0.key) + ": " + flow($0.value) } }
        var lines: [String] = []
        for pair in pairs {
            switch pair.value {
            case .map(let nested) where !nested.isEmpty:
                lines.append(indent + key(pair.key) + ":")
                lines += pairLines(nested, column: column + layout.step)
            case .list(let items) where !items.isEmpty:
                lines.append(indent + key(pair.key) + ":")
                lines += itemLines(items, dash: column + layout.listOffset)
            default:
                lines.append(indent + key(pair.key) + ": " + flow(pair.value))
            }
        }
        return lines
    }

    /// `- item` lines, dashes at `dash`, each item as far right of its dash as the file writes them.
    func itemLines(_ items: [YAMLTree], dash: Int) -> [String] {
        let indent = String(repeating: " ", count: dash)
        if layout.json { return items.map { indent + flow($0) } }
        let content = dash + layout.itemOffset
        let marker = indent + "-" + String(repeating: " ", count: layout.itemOffset - 1)
        var lines: [String] = []
        for item in items {
            switch item {
            case .map(let pairs) where !pairs.isEmpty:
                let nested = pairLines(pairs, column: content)
                lines.append(marker + nested[0].dropFirst(content))
                lines += nested.dropFirst()
            case .list(let inner) where !inner.isEmpty:
                let nested = itemLines(inner, dash: content)
                lines.append(marker + nested[0].dropFirst(content))
                lines += nested.dropFirst()
            default:
                lines.append(marker + flow(item))
            }
        }
        return lines
    }
}
