import IAPCatalog
import IAPCore

/// The product lists, when they are as an export writes them: each of the file's items merged with the catalog's of
/// the same name, a group's subscriptions item by item, then the catalog's new ones.
extension FileMerge {
    /// What names an item of `list` in the file: its product ID, a group's name.
    func identity(_ item: Node, in list: String) -> String? {
        guard document.kind(item) == .mapping,
            let value = document.pair(item, key: list == "subscriptionGroups" ? "name" : "productID")?.value,
            document.isScalar(value), !document.isPlain(value)
        else { return nil }
        return document.string(value)
    }

    /// Whether every list is as an export of the file's format writes it, so each item's place in `base` is its place
    /// in the file: objects named by text, no name twice in a list, each product in the list its type goes to, and
    /// every list of the catalog's export already in the file.
    func listsAreRegular() -> Bool {
        func unique(_ ids: [String]) -> Bool { Set(ids).count == ids.count }
        for key in Self.lists {
            let node = document.pair(root, key: key)?.value
            let inNew = key == "subscriptionGroups" || layout.lists[key] != nil
            guard let node else {
                if inNew { return false }
                continue
            }
            guard document.kind(node) == .sequence, baseRootKeys.contains(key) else { return false }
            var ids: [String] = []
            for item in document.items(node) {
                guard let id = identity(item, in: key) else { return false }
                ids.append(id)
                if key == "products", fileVersion.hasIdentifier,
                    let type = document.pair(item, key: "type")?.value, document.scalar(type, equals: "NonRenewingSubscription")
                {
                    return false
                }
                if key == "subscriptionGroups" {
                    guard let subscriptions = document.pair(item, key: "subscriptions")?.value, document.kind(subscriptions) == .sequence
                    else { return false }
                    // Each subscription names its group by the group's id, which the merge keeps: a file that does
                    // not is merged whole, where the ids are set once the rest is merged.
                    let groupID = document.pair(item, key: "id").map { json($0.value) }
                    var subscriptionIDs: [String] = []
                    for subscription in document.items(subscriptions) {
                        guard let id = identity(subscription, in: "subscriptions") else { return false }
                        subscriptionIDs.append(id)
                        if let groupID, let named = document.pair(subscription, key: "subscriptionGroupID"), json(named.value) != groupID {
                            return false
                        }
                    }
                    guard unique(subscriptionIDs) else { return false }
                }
            }
            guard unique(ids) else { return false }
        }
        for list in layout.lists.values where !unique(list.map(\.id)) { return false }
        for group in layout.groups where !unique(group.subscriptions.map(\.id)) { return false }
        return unique(layout.groups.map(\.name))
    }

    /// The catalog's items by name.
    static func index(_ items: [Item]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(items.count)
        for (position, item) in items.enumerated() { index[item.id] = position }
        return index
    }

    /// A list of products (the products, the non-renewing subscriptions, a group's subscriptions at `path`): the file's
    /// in its order, each merged with the catalog's of the same product ID or left out when the catalog has none; then
    /// the catalog's new ones. In a group (`groupName`), every subscription names the group's merged id.
    mutating func products(
        _ list: Node, list key: String, new: [Item], path: String, groupName: String? = nil, groupID: JSONValue? = nil
    ) throws(IAPKitError) -> [String] {
        let index = Self.index(new)
        var placed = [Bool](repeating: false, count: new.count)
        var dropped: [String] = []
        let document = self.document
        let forcedType: ProductType? = key == "nonRenewingSubscriptions" ? .nonRenewingSubscription : nil
        out.beginArray()
        for (position, item) in document.items(list).enumerated() {
            let itemPath = "\(path)[\(position)]"
            func read(_ reader: inout StoreKitImporter.Reader) throws(IAPKitError) -> Product {
                let node = JSONNode(document: document, id: item)
                if groupName != nil {
                    return try reader.readSubscription(node, path: itemPath, in: CatalogPath.root.key("subscriptions"), index: position)
                }
                return try reader.readProduct(node, path: itemPath, forcedType: forcedType, index: position)
            }
            guard let match = index[identity(item, in: key) ?? ""] else {
                // Gone from the catalog; read all the same, as the import of the whole file would.
                _ = try read(&reader)
                changed = true
                continue
            }
            placed[match] = true
            dropped += try mergeItem(item, new: new[match].range, list: key, groupName: groupName, groupID: groupID, read: read)
        }
        for (position, item) in new.enumerated() where !placed[position] {
            // A new subscription names the group by the id the group keeps.
            if let groupID, case var .object(pairs) = try json(newBytes[item.range]),
                let field = pairs.firstIndex(where: { $0.0 == "subscriptionGroupID" }), pairs[field].1 != groupID
            {
                pairs[field].1 = groupID
                out.value(.object(pairs))
            } else {
                out.raw(newBytes[item.range])
            }
            changed = true
        }
        out.endArray()
        return dropped
    }

    /// One item the file and the catalog both have. `groupID` is the group's id after the merge, which every
    /// subscription of the group names.
    mutating func mergeItem(
        _ item: Node, new range: Range<Int>, list: String, groupName: String?, groupID: JSONValue?,
        read: (inout StoreKitImporter.Reader) throws(IAPKitError) -> Product
    ) throws(IAPKitError) -> [String] {
        // The file's item byte for byte as the export wrote it, naming the group by its merged id: copied as it is.
        if let span = document.sourceSpan(item), sourceBytes(span, equal: newBytes[range]),
            groupID == nil || document.pair(item, key: "subscriptionGroupID").map({ json($0.value) }) == groupID
        {
            out.raw(newBytes[range])
            return []
        }
        let checkpoint = out.checkpoint
        // The file's item as Xcode lays it out: most often the export's own bytes.
        var renamed = write(item, groupID: groupID)
        if out.written(from: out.lastClosed.lowerBound, equal: newBytes[range]) {
            if renamed { changed = true }
            return []
        }
        out.rollback(to: checkpoint)
        let product = try read(&reader)
        let base = baseExporter.itemBytes(
            product, storefront: storefront, groupID: groupName.map { StableID.hex8("group:" + $0) }, depth: list == "subscriptions" ? 4 : 2)
        if carries && base[...] == newBytes[range] {
            renamed = write(item, groupID: groupID)
            if renamed { changed = true }
            return []
        }
        var merger = StoreKitUpdate.Merger(carries: carries)
        let old = json(item)
        var merged = merger.merge(old: old, base: try json(base[...]), new: try json(newBytes[range]), key: list)
        if let groupID, case var .object(pairs) = merged, let field = pairs.firstIndex(where: { $0.0 == "subscriptionGroupID" }) {
            pairs[field].1 = groupID
            merged = .object(pairs)
        }
        if merged != old { changed = true }
        out.value(merged)
        return merger.dropped
    }

    /// The groups: each of the file's merged with the catalog's of the same name, its subscriptions item by item.
    mutating func groups(_ list: Node) throws(IAPKitError) -> [String] {
        let new = layout.groups
        let index = Self.index(new.map { ($0.name, $0.range) })
        var placed = [Bool](repeating: false, count: new.count)
        var dropped: [String] = []
        out.beginArray()
        for (position, item) in document.items(list).enumerated() {
            let path = "$.subscriptionGroups[\(position)]"
            guard let match = index[identity(item, in: "subscriptionGroups") ?? ""] else {
                _ = try reader.readGroup(JSONNode(document: document, id: item), path: path, index: position)
                changed = true
                continue
            }
            placed[match] = true
            dropped += try mergeGroup(item, new: new[match], path: path, position: position)
        }
        for (position, group) in new.enumerated() where !placed[position] {
            out.raw(newBytes[group.range])
            changed = true
        }
        out.endArray()
        return dropped
    }

    mutating func mergeGroup(_ group: Node, new: StoreKitExporter.Layout.Group, path: String, position: Int) throws(IAPKitError) -> [String] {
        // Byte for byte the export's (whose subscriptions name the group's id): copied as it is.
        if let span = document.sourceSpan(group), sourceBytes(span, equal: newBytes[new.range]) {
            out.raw(newBytes[new.range])
            return []
        }
        let checkpoint = out.checkpoint
        // Written with each subscription naming the group's id, as the merged file does.
        let renamed = write(group, subscriptionsGroupID: document.pair(group, key: "id").map { json($0.value) })
        if out.written(from: out.lastClosed.lowerBound, equal: newBytes[new.range]) {
            if renamed { changed = true }
            return []
        }
        out.rollback(to: checkpoint)
        baseGroup = nil
        let source = BaseSource.group(group, path: path, position: position)
        let pairs = sortedPairs(group)
        var dropped: [String: [String]] = [:]
        let subscriptions = document.pair(group, key: "subscriptions")!.value
        let entries = try mergeEntries(
            pairs,
            lists: [
                "subscriptions": .subscriptions(
                    subscriptions, new: new.subscriptions, path: path, groupName: identity(group, in: "subscriptionGroups") ?? "")
            ],
            inBase: ["id", "localizations", "name", "subscriptions"], new: new.values.filter { $0.key != "subscriptions" },
            parent: "subscriptionGroups", source: source, dropped: &dropped)
        try writeObject(entries, dropped: &dropped)
        return Self.inOrder(dropped, keys: pairs.map(\.key))
    }

    /// Whether the file's bytes at `span` (a span of the document) are `other`.
    func sourceBytes(_ span: Range<Int>, equal other: ArraySlice<UInt8>) -> Bool {
        span.count == other.count && StoreKitUpdate.bytes(of: source, at: span.lowerBound, equal: other)
    }
}
