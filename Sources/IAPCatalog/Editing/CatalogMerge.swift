import IAPCore

/// Brings a change between two catalogs into a third text: the catalog a team keeps.
///
/// `before` and `after` are the same catalog twice in one canonical form (as `CatalogYAMLWriter` writes it, say
/// `asc pull`'s view of the kept catalog and of App Store Connect), so whatever differs between them is a real
/// change. Each difference is made in the kept text at its own place, in its own style, through
/// `CatalogTextEditor`; what the two forms do not hold (comments, keys the canonical form leaves out) is never
/// touched. Lists of things with a name (products by `productId`, localizations by `locale`, …) are matched by
/// that name, other lists compared whole.
public struct CatalogMerge {
    /// What the merge did, for the summary line.
    public struct Summary: Sendable, Equatable {
        /// Values set, added or removed inside what both sides have.
        public var changedValues = 0
        /// Items added to named lists, by noun (`product`, `localization`, …).
        public var added: [String: Int] = [:]
        public var removed: [String: Int] = [:]
        /// Products (by ID) in the kept catalog that `after` lacks, left where they are.
        public var kept: [String] = []
        /// Other things the kept catalog has and `after` lacks (a localization, an offer, a list of codes), each
        /// `PRODUCT_ID: what`, left where they are: `after` may lack them because they were never pushed.
        public var keptEntries: [String] = []
        public init() {}

        public var isEmpty: Bool { changedValues == 0 && added.isEmpty && removed.isEmpty }

        /// `3 values changed, 1 product added`
        public var description: String {
            var parts: [String] = []
            if changedValues > 0 { parts.append(Format.count(changedValues, "value") + " changed") }
            for (noun, count) in added.sorted(by: { $0.key < $1.key }) { parts.append(Format.count(count, noun) + " added") }
            for (noun, count) in removed.sorted(by: { $0.key < $1.key }) { parts.append(Format.count(count, noun) + " removed") }
            return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
        }
    }

    /// What a list of each key holds, by the key that names its items.
    public static let identities: [String: String] = [
        "products": "productId", "subscriptions": "productId", "promotedPurchases": "productId",
        "subscriptionGroups": "referenceName", "localizations": "locale", "policies": "locale",
        "promotionalOffers": "offerId", "winBackOffers": "offerId", "offerCodes": "referenceName",
    ]

    static let nouns: [String: String] = [
        "products": "product", "subscriptions": "product", "subscriptionGroups": "subscription group",
        "localizations": "localization", "policies": "policy", "promotionalOffers": "promotional offer",
        "winBackOffers": "win-back offer", "offerCodes": "offer code", "promotedPurchases": "promoted purchase",
    ]

    /// Keys the kept catalog may spell another way for the same value (`tier` for `price`): replaced in place.
    static let spellings: [String: [String]] = ["price": ["tier"]]

    public var editor: CatalogTextEditor
    /// Top-level keys left out of the comparison (`app`: the kept catalog's own).
    public var ignoredTopLevelKeys: Set<String> = ["schemaVersion", "app"]
    /// Products (by ID) written whole, as given, rather than edited value by value.
    public var replacedWhole: [String: YAMLTree] = [:]
    /// Whether what the kept catalog has and `after` lacks is removed: products, items of named lists, keys that
    /// hold lists or mappings. Off, they stay and are listed in the summary; a scalar `after` lacks is a value
    /// change either way.
    public var allowsRemovals = false
    /// The product being merged, for the summary.
    private var owner: String?
    public private(set) var summary = Summary()

    public init(editor: CatalogTextEditor) { self.editor = editor }

    /// Makes the change from `before` to `after` in the editor's text.
    public mutating func apply(before: YAMLTree, after: YAMLTree) {
        let root = editor.document.root
        guard editor.document.kind(root) == .mapping else { return }
        mergeMap(root, before: compared(before), after: compared(after), topLevel: true)
    }

    /// What the kept catalog, in `before`'s form, becomes: `after`, with what is kept kept. The edited text, read
    /// back in the same form, must say the same.
    public func target(before: YAMLTree, after: YAMLTree) -> YAMLTree {
        merged(compared(before), before: compared(before), after: compared(after))
    }

    private func compared(_ tree: YAMLTree) -> YAMLTree { .map(tree.pairs.filter { !ignoredTopLevelKeys.contains($0.key) }) }

    /// Whether a key `after` lacks goes: a value always; a list or mapping of things only when removals are allowed.
    private func removes(_ value: YAMLTree) -> Bool { allowsRemovals || value.kind == .scalar }

    private mutating func keep(_ what: String) { summary.keptEntries.append(owner.map { "\($0): \(what)" } ?? what) }

    private mutating func mergeMap(_ node: CatalogTextEditor.Node, before: YAMLTree, after: YAMLTree, topLevel: Bool = false) {
        let pairs = editor.pairs(node)
        let keys = pairs.map { editor.document.string($0.key) }
        func spelled(_ key: String) -> Int? {
            keys.firstIndex(of: key) ?? (Self.spellings[key] ?? []).lazy.compactMap { keys.firstIndex(of: $0) }.first
        }
        // In a flow mapping a key added or removed rewrites the mapping, on its line.
        let lacking = before.pairs.filter { after[$0.key] == nil && spelled($0.key) != nil }
        // The lists of products follow the rule for products (below); every other key goes or stays by its value.
        let isProductList = { (pair: YAMLTree.Pair) in topLevel && (pair.key == "products" || pair.key == "subscriptionGroups") }
        let productLists = lacking.filter(isProductList)
        let removedKeys = lacking.filter { !isProductList($0) && removes($0.value) }
        for pair in lacking where !isProductList(pair) && !removes(pair.value) {
            keep(Self.nouns[pair.key].map { Format.count(pair.value.items.count, $0) } ?? "`\(pair.key)`")
        }
        let addedKeys = after.pairs.filter { spelled($0.key) == nil }
        if editor.isFlow(node), !removedKeys.isEmpty || !addedKeys.isEmpty {
            editor.replace(node, with: merged(YAMLTree(editor.document, node), before: before, after: after))
            summary.changedValues += removedKeys.count + addedKeys.count
            return
        }
        var previous: CatalogTextEditor.Node? = nil
        for pair in after.pairs {
            let old = before[pair.key]
            if let at = spelled(pair.key) {
                previous = pairs[at].value
                let kept = YAMLTree(editor.document, pairs[at].value)
                if let old, old.sameValue(as: pair.value) { continue }
                if old == nil, kept.sameValue(as: pair.value) { continue }
                if let alias = editor.alias(key: pairs[at].key, value: pairs[at].value) {
                    // A value shared through an anchor: this place gets its own, the others keep the shared one.
                    editor.replace(alias: alias, with: pair.value)
                    summary.changedValues += 1
                    continue
                }
                if editor.document.string(pairs[at].key) != pair.key {
                    // Another spelling (`tier: 5` for `price: 4.99`): the pair is rewritten where it stands.
                    editor.replacePair(pairs[at], with: pair)
                    summary.changedValues += 1
                    continue
                }
                mergeValue(pairs[at].value, key: pair.key, before: old ?? kept, after: pair.value)
            } else {
                editor.insert(pair, into: node, after: previous)
                if let noun = Self.nouns[pair.key], case let .list(items) = pair.value {
                    summary.added[noun, default: 0] += items.count
                } else {
                    summary.changedValues += 1
                }
            }
        }
        for pair in productLists {
            // Every product of the list is gone from App Store Connect: the same rule as for one of them.
            if let at = spelled(pair.key) { mergeList(pairs[at].value, key: pair.key, before: pair.value, after: .list([])) }
        }
        for pair in removedKeys {
            guard let at = spelled(pair.key) else { continue }
            if !editor.remove(pairAt: at, of: node) {
                editor.replace(node, with: merged(YAMLTree(editor.document, node), before: before, after: after))
            }
            summary.changedValues += 1
        }
    }

    private mutating func mergeValue(_ node: CatalogTextEditor.Node, key: String, before: YAMLTree, after: YAMLTree) {
        let kind = editor.document.kind(node)
        switch (kind, after) {
        case (.scalar, .scalar):
            editor.replaceScalar(node, with: after)
            summary.changedValues += 1
        case (.mapping, .map):
            mergeMap(node, before: before.kind == .mapping ? before : .map([]), after: after)
        case (.sequence, .list) where Self.identities[key] != nil:
            mergeList(node, key: key, before: before, after: after)
        default:
            editor.replace(node, with: after)
            summary.changedValues += 1
        }
    }

    private mutating func mergeList(_ node: CatalogTextEditor.Node, key: String, before: YAMLTree, after: YAMLTree) {
        guard let identity = Self.identities[key] else { return }
        let noun = Self.nouns[key] ?? "entry"
        let items = Array(editor.document.items(node))
        func name(_ tree: YAMLTree) -> String? { tree[identity]?.text }
        func keptName(_ item: CatalogTextEditor.Node) -> String? {
            editor.document.pair(item, key: identity).flatMap { editor.document.isScalar($0.value) ? editor.document.string($0.value) : nil }
        }
        let keptIndex = Dictionary(
            items.enumerated().compactMap { entry in keptName(entry.element).map { ($0, entry.offset) } }, uniquingKeysWith: { a, _ in a })
        let beforeByName = Dictionary(before.items.compactMap { item in name(item).map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
        var afterNames = Set(after.items.compactMap(name))
        var matched: [String: String] = [:]
        if key == "subscriptionGroups" {
            // A group renamed in App Store Connect is still the group that holds the same subscriptions.
            for group in after.items where name(group).map({ beforeByName[$0] == nil }) ?? false {
                let ids = Set(group["subscriptions"]?.items.compactMap { $0["productId"]?.text } ?? [])
                if let old = before.items.first(where: { old in
                    !afterNames.contains(name(old) ?? "")
                        && !ids.isDisjoint(with: old["subscriptions"]?.items.compactMap { $0["productId"]?.text } ?? [])
                }), let oldName = name(old), let newName = name(group) {
                    matched[newName] = oldName
                }
            }
            afterNames.formUnion(matched.values)
        }
        let flow = editor.isFlow(node)
        let missing = before.items.filter { !afterNames.contains(name($0) ?? "") }
        let products = key == "products" || key == "subscriptions" || key == "subscriptionGroups"
        if flow {
            let added = after.items.filter { name($0).map { keptIndex[$0] == nil && matched[$0] == nil } ?? true }
            if !added.isEmpty || (!missing.isEmpty && allowsRemovals) {
                let kept = YAMLTree(editor.document, node)
                editor.replace(node, with: merged(kept, before: before, after: after, key: key))
                summary.added[noun, default: 0] += added.count
                if allowsRemovals { summary.removed[noun, default: 0] += missing.count }
                return
            }
        }
        for item in after.items {
            guard let itemName = name(item) else { continue }
            let oldName = matched[itemName] ?? itemName
            guard let at = keptIndex[oldName] else {
                if !flow { editor.append(item, to: node) }
                summary.added[noun, default: 0] += 1
                continue
            }
            let old = beforeByName[oldName] ?? .map([])
            if old.sameValue(as: item) { continue }
            let isProduct = key == "products" || key == "subscriptions"
            if isProduct, let whole = replacedWhole[itemName] {
                editor.replace(items[at], with: whole)
                summary.changedValues += 1
                continue
            }
            let outer = owner
            if isProduct { owner = itemName }
            mergeValue(items[at], key: "", before: old, after: item)
            owner = outer
        }
        var going: [Int] = []
        for item in missing {
            guard let itemName = name(item), let at = keptIndex[itemName] else { continue }
            if products {
                if key != "subscriptionGroups" {
                    summary.kept.append(itemName)
                } else {
                    summary.kept += item["subscriptions"]?.items.compactMap { $0["productId"]?.text } ?? []
                }
            } else if !allowsRemovals {
                keep("\(noun) \(itemName)")
            }
            if !allowsRemovals { continue }
            going.append(at)
            summary.removed[noun, default: 0] += 1
        }
        // A list left empty is written `[]`; otherwise each item goes with its lines.
        if !going.isEmpty, going.count == items.count, !flow {
            editor.replace(node, with: .list([]))
        } else if !flow {
            for at in going { _ = editor.remove(itemAt: at, of: node) }
        }
    }

    /// `kept` with the change from `before` to `after` made in it: the value a flow container is rewritten to.
    private func merged(_ kept: YAMLTree, before: YAMLTree, after: YAMLTree, key: String = "") -> YAMLTree {
        switch (kept, after) {
        case let (.map(keptPairs), .map):
            var result: [YAMLTree.Pair] = []
            for pair in keptPairs {
                let spelledAs = Self.spellings.first { $0.value.contains(pair.key) }?.key
                let canonicalKey = after[pair.key] != nil || before[pair.key] != nil ? pair.key : (spelledAs ?? pair.key)
                if let new = after[canonicalKey] {
                    if let old = before[canonicalKey], old.sameValue(as: new) { result.append(pair); continue }
                    if before[canonicalKey] == nil, pair.value.sameValue(as: new) { result.append(pair); continue }
                    result.append(
                        YAMLTree.Pair(canonicalKey, merged(pair.value, before: before[canonicalKey] ?? pair.value, after: new, key: canonicalKey)))
                } else if before[canonicalKey].map({ !removes($0) }) ?? true {
                    result.append(pair)
                }
            }
            let present = Set(result.map(\.key))
            result += after.pairs.filter { !present.contains($0.key) && !(Self.spellings[$0.key] ?? []).contains(where: present.contains) }
            return .map(result)
        case let (.list(keptItems), .list(afterItems)):
            guard let identity = Self.identities[key] else { return after }
            let afterByName = Dictionary(afterItems.compactMap { item in item[identity]?.text.map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
            let beforeByName = Dictionary(
                before.items.compactMap { item in item[identity]?.text.map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
            var result: [YAMLTree] = []
            for item in keptItems {
                guard let itemName = item[identity]?.text else { result.append(item); continue }
                if let new = afterByName[itemName] {
                    result.append(merged(item, before: beforeByName[itemName] ?? item, after: new))
                } else if beforeByName[itemName] == nil || !allowsRemovals {
                    result.append(item)
                }
            }
            let present = Set(keptItems.compactMap { $0[identity]?.text })
            result += afterItems.filter { !present.contains($0[identity]?.text ?? "") }
            return .list(result)
        default:
            return after
        }
    }
}

extension CatalogTextEditor {
    /// A pair rewritten, key and value, where it stands (`tier: 5` becoming `price: 4.99`).
    mutating func replacePair(_ pair: (key: Node, value: Node), with new: YAMLTree.Pair) {
        let start = spans[Int(pair.key.index)].start
        var end = spans[Int(pair.value.index)].end
        while end > start, original[end - 1] == UInt8(ascii: "\n") || original[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let writer = YAMLTreeText(layout: layout)
        let lines = writer.pairLines([new], column: spans[Int(pair.key.index)].column)
        let text = lines.enumerated().map { $0.offset == 0 ? String($0.element.drop { $0 == " " }) : $0.element }.joined(separator: "\n")
        edits.append((start, end - start, text))
    }
}
