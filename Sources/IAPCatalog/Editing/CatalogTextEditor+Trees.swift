import IAPCore

/// Values written into a catalog's text by path, for edits that add more than a scalar (a scheduled price change, a
/// territory's price), each in the style around it: a block mapping gets its new keys on lines of their own, a flow
/// mapping that gains a key is rewritten on its line, and every value that stays keeps its text.
extension CatalogTextEditor {
    /// Sets each of `pairs` in the mapping at `mapping`. A mapping value is merged into the mapping the key holds
    /// (its other keys stay); any other value replaces the key's, quoted only where the old one was, or is added
    /// after the mapping's last key. A value written as an alias gets its own; the anchor's other uses keep theirs.
    public mutating func merge(_ pairs: [YAMLTree.Pair], into mapping: CatalogPath) throws(IAPKitError) {
        merge(pairs, at: try node(at: mapping, kind: .mapping))
    }

    /// Adds `item` after the last item of the list at `list` (a flow list is rewritten on its line).
    public mutating func append(_ item: YAMLTree, to list: CatalogPath) throws(IAPKitError) {
        let node = try self.node(at: list, kind: .sequence)
        if isFlow(node) {
            replace(node, with: .list(YAMLTree(document, node).items + [item]))
        } else {
            append(item, to: node)
        }
    }

    private mutating func merge(_ changes: [YAMLTree.Pair], at node: Node) {
        let pairs = self.pairs(node)
        let document = self.document
        func existing(_ key: String) -> (key: Node, value: Node)? {
            // A key the file spells another way (`tier` for `price`) is that key.
            pairs.first { document.string($0.key) == key } ?? pairs.first { (CatalogMerge.spellings[key] ?? []).contains(document.string($0.key)) }
        }
        if isFlow(node), changes.contains(where: { existing($0.key) == nil }) {
            replace(node, with: Self.merged(YAMLTree(document, node), changes))
            return
        }
        // Mappings first: a key added to a nested block mapping goes in before one added after it, at the same place.
        let ordered = changes.filter { $0.value.kind == .mapping } + changes.filter { $0.value.kind != .mapping }
        for change in ordered {
            guard let pair = existing(change.key) else {
                insert(change, into: node, after: pairs.last?.value)
                continue
            }
            let old = YAMLTree(document, pair.value)
            if document.string(pair.key) != change.key {
                // Another spelling (`tier: 5`): the pair is rewritten where it stands, as pull rewrites it.
                replacePair(pair, with: change)
            } else if let alias = alias(key: pair.key, value: pair.value) {
                replace(alias: alias, with: Self.merged(old, change.value))
            } else if case let .map(inner) = change.value, document.kind(pair.value) == .mapping {
                merge(inner, at: pair.value)
            } else if old.sameValue(as: change.value) {
                continue
            } else if document.isScalar(pair.value), change.value.kind == .scalar {
                replaceScalar(pair.value, with: change.value)
            } else {
                replace(pair.value, with: change.value)
            }
        }
    }

    /// `old` with `change` made in it: mappings merged key by key, anything else replaced.
    static func merged(_ old: YAMLTree, _ change: YAMLTree) -> YAMLTree {
        guard case let .map(changes) = change, case .map = old else { return change }
        return merged(old, changes)
    }

    static func merged(_ old: YAMLTree, _ changes: [YAMLTree.Pair]) -> YAMLTree {
        var pairs = old.pairs
        for change in changes {
            if let at = pairs.firstIndex(where: { $0.key == change.key || (CatalogMerge.spellings[change.key] ?? []).contains($0.key) }) {
                guard pairs[at].key == change.key else {
                    pairs[at] = change
                    continue
                }
                pairs[at].value = merged(pairs[at].value, change.value)
            } else {
                pairs.append(change)
            }
        }
        return .map(pairs)
    }
}
