import IAPCore

/// Values several places share through an anchor (`&name`) and its aliases (`*name`): an edit of one place's value
/// is that place's alone. A value written as an alias is replaced where the alias stands; an anchored value that is
/// replaced or removed first hands its text, anchor and all, to its first alias still standing, so the others keep
/// the shared value and the file stays valid YAML.
extension CatalogTextEditor {
    /// The alias a pair's value is written as, if it is one: its node is then the anchored one, earlier in the text.
    func alias(key: Node, value: Node) -> Int? {
        let keySpan = spans[Int(key.index)]
        let valueSpan = spans[Int(value.index)]
        guard valueSpan.start < keySpan.start, let anchor = valueSpan.anchor else { return nil }
        return aliases.firstIndex { $0.start >= keySpan.end && $0.anchor == anchor }
    }

    /// The value written as alias `index` replaced by `tree`, where the alias stands.
    mutating func replace(alias index: Int, with tree: YAMLTree) {
        let alias = aliases[index]
        let writer = YAMLTreeText(layout: layout)
        let inFlow = enclosingFlow(alias.start)
        let text: String
        if case let .scalar(value, quoted) = tree {
            text = writer.scalar(value, quoted: quoted, flow: inFlow)
        } else {
            text = writer.flow(tree, inFlow: inFlow)
        }
        if let held = aliasEdits[index] {
            // The anchored value was moved here: this place gets its own, and the anchor moves on.
            edits[held.edit].text = text
            aliasEdits[index] = (held.edit, nil)
            if let definition = held.definition { moveAnchor(alias.anchor, after: alias.start, definition: definition) }
        } else {
            edits.append((alias.start, alias.end - alias.start, text))
            aliasEdits[index] = (edits.count - 1, nil)
        }
    }

    /// Before the node at `node` is replaced or removed: each anchor it (or a value inside it) defines moves to its
    /// first alias still standing after it.
    mutating func keepAnchor(of node: Node) {
        // Most catalogs have no alias: nothing to keep.
        guard !aliases.isEmpty else { return }
        let outer = spans[Int(node.index)]
        for span in spans where span.anchor != nil && span.start >= outer.start && span.end <= outer.end {
            moveAnchor(span.anchor!, after: outer.end, definition: String(decoding: original[span.start..<trimmedEnd(span)], as: UTF8.self))
        }
    }

    /// A value on one line moves whole; a longer one stays, and the read-back check refuses an edit that loses it.
    private mutating func moveAnchor(_ anchor: String, after offset: Int, definition: String) {
        guard !definition.contains("\n"),
            let next = aliases.indices.first(where: { aliases[$0].anchor == anchor && aliases[$0].start >= offset && aliasEdits[$0] == nil })
        else { return }
        edits.append((aliases[next].start, aliases[next].end - aliases[next].start, definition))
        aliasEdits[next] = (edits.count - 1, definition)
    }
}
