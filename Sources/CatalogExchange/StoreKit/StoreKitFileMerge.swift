import IAPCatalog
import IAPCore

/// `StoreKitUpdate`'s merge in one pass over the file as yajl read it, writing the result as it goes.
///
/// Each item of the product lists (products, non-renewing subscriptions, groups and their subscriptions) is matched
/// to the catalog's by what names it, through a table. The file's item is written as Xcode lays it out and compared
/// with the bytes the catalog's export wrote for it: equal, it stays, with no import. Only an item that differs is
/// imported and exported alone (`base`): where the catalog's export is the same as `base`, the file's item stays;
/// elsewhere the three are merged as values, as `StoreKitUpdate.Merger` merges the whole file. The small values of
/// the top level (settings, app policies) are merged as values; the file is imported whole only when one of them
/// differs from the catalog's.
///
/// The items' places in `base` are known without importing them when the lists are as an export writes them; `init`
/// and `run` give up (nil) when they are not, and the whole file is merged as values instead.
struct FileMerge {
    typealias Node = YAMLDocument.NodeID
    typealias Item = (id: String, range: Range<Int>)

    let document: YAMLDocument
    let file: String
    let catalog: Catalog
    let version: StoreKitExporter.FormatVersion
    let fileVersion: StoreKitExporter.FormatVersion
    /// Whether keys the catalog has no place for are kept (the file's major format or a newer one).
    let carries: Bool
    let root: Node
    /// The simulator storefront when it is not the USA: `base` prices are in its currency.
    let storefront: String?
    let baseExporter: StoreKitExporter
    var reader: StoreKitImporter.Reader
    var newBytes: [UInt8] = []
    var layout = StoreKitExporter.Layout()
    var out: XcodeJSONWriter
    /// Whether anything differs from the file.
    var changed = false
    /// The values of the top level in `base`, once the file has been imported.
    var baseValues: [String: JSONValue]?
    /// The values of the group being merged in `base`, once it has been read.
    var baseGroup: [String: JSONValue]?

    /// Where a value of `base` comes from: the top level, or the group at `path`.
    enum BaseSource {
        case root
        case group(Node, path: String, position: Int)
    }

    static let lists = ["nonRenewingSubscriptions", "products", "subscriptionGroups"]

    init?(document: YAMLDocument, file: String, capacity: Int, catalog: Catalog, version: StoreKitExporter.FormatVersion) {
        self.document = document
        self.file = file
        self.catalog = catalog
        self.version = version
        root = document.root
        let top = JSONNode(document: document, id: root)
        guard top.isObject, let versionNode = top["version"], let major = versionNode["major"]?.int,
            let minor = versionNode["minor"]?.int, let fileVersion = StoreKitExporter.FormatVersion(major: major, minor: minor)
        else { return nil }
        self.fileVersion = fileVersion
        carries = version.major >= fileVersion.major
        var storefront: String?
        if let settings = top["settings"] {
            guard settings.isObject else { return nil }
            if let value = settings["_storefront"], !value.isNull {
                guard let text = value.string else { return nil }
                storefront = text == "USA" ? nil : text
            }
        }
        self.storefront = storefront
        baseExporter = StoreKitExporter(version: fileVersion)
        reader = StoreKitImporter.Reader(file: file)
        reader.foreignStorefront = storefront
        out = XcodeJSONWriter(capacity: capacity)
    }

    /// The merged file (nil when it is the file), and the keys left out; nil when the file's lists are not as an
    /// export writes them.
    mutating func run() throws(IAPKitError) -> (bytes: [UInt8]?, dropped: [String])? {
        var recorded: StoreKitExporter.Layout? = StoreKitExporter.Layout()
        newBytes = StoreKitExporter(version: version).export(catalog, layout: &recorded)
        layout = recorded ?? layout
        guard listsAreRegular() else { return nil }

        // The top level: each of the file's keys in order (the order keys are left out in), then the catalog's own.
        var lists: [String: Entry?] = [:]
        for key in Self.lists {
            guard let node = document.pair(root, key: key)?.value else { continue }
            // The non-renewing list goes where the format written has none.
            let entry: Entry? = key == "subscriptionGroups" ? .groups(node) : layout.lists[key] == nil ? nil : .products(node, list: key)
            lists.updateValue(entry, forKey: key)
        }
        let pairs = sortedPairs(root)
        var dropped: [String: [String]] = [:]
        let entries = try mergeEntries(
            pairs, lists: lists, inBase: baseRootKeys, new: layout.values, parent: "", source: .root, dropped: &dropped)
        try writeObject(entries, dropped: &dropped)
        newBytes = []
        return (changed ? out.finish() : nil, Self.inOrder(dropped, keys: pairs.map(\.key)))
    }

    enum Entry {
        /// The file's own value.
        case file(Node)
        case value(JSONValue)
        /// A list merged item by item.
        case products(Node, list: String)
        case groups(Node)
        case subscriptions(Node, new: [Item], path: String, groupName: String)
    }

    /// An object's entries: each of the file's keys as `StoreKitUpdate.Merger` treats it (`lists` those merged item by
    /// item, nil for one left out), then the keys of the catalog's export the file lacks.
    mutating func mergeEntries(
        _ pairs: [(key: String, value: Node)], lists: [String: Entry?], inBase baseKeys: Set<String>, new values: [String: Range<Int>],
        parent: String, source: BaseSource, dropped: inout [String: [String]]
    ) throws(IAPKitError) -> [(key: String, value: Entry)] {
        var entries: [(key: String, value: Entry)] = []
        for (key, node) in pairs {
            if let list = lists[key] {
                if let list { entries.append((key, list)) } else { changed = true }
            } else if let entry = try mergeValue(
                key: key, node, inBase: baseKeys.contains(key), new: values[key], parent: parent, dropped: &dropped[key, default: []],
                base: source)
            {
                entries.append((key, entry))
            }
        }
        let fileKeys = Set(pairs.map(\.key))
        for (key, range) in values where !fileKeys.contains(key) {
            let new = try json(newBytes[range])
            let was = baseKeys.contains(key) ? try baseValue(key, from: source) : nil
            if was != new {
                entries.append((key, .value(new)))
                changed = true
            }
        }
        return entries
    }

    /// Writes a merged object, its keys in Xcode's order, merging its lists as it goes.
    mutating func writeObject(_ entries: [(key: String, value: Entry)], dropped: inout [String: [String]]) throws(IAPKitError) {
        // A group's subscriptions name the id the group has once merged.
        let groupID: JSONValue? = entries.first { $0.key == "id" }.flatMap { entry in
            switch entry.value {
            case let .file(node): return json(node)
            case let .value(value): return value
            default: return nil
            }
        }
        out.beginObject()
        for (key, entry) in entries.sorted(by: { XcodeJSONWriter.xcodeOrder($0.key, $1.key) }) {
            out.key(key)
            switch entry {
            case let .file(node): write(node)
            case let .value(value): out.value(value)
            case let .products(node, list): dropped[key] = try products(node, list: list, new: layout.lists[list] ?? [], path: "$.\(list)")
            case let .groups(node): dropped[key] = try groups(node)
            case let .subscriptions(node, new, path, groupName):
                dropped[key] = try products(
                    node, list: key, new: new, path: path + ".subscriptions", groupName: groupName, groupID: groupID)
            }
        }
        out.endObject()
    }

    /// Left-out keys in the order a walk over the file's keys meets them, each once.
    static func inOrder(_ dropped: [String: [String]], keys: [String]) -> [String] {
        var result: [String] = []
        for key in keys {
            for name in dropped[key] ?? [] where !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// The top level's keys in an export of the file's format.
    var baseRootKeys: Set<String> {
        var keys: Set<String> = ["products", "settings", "subscriptionGroups", "version"]
        if fileVersion.major >= 4 { keys.insert("appPolicies") }
        if fileVersion.hasIdentifier { keys.formUnion(["identifier", "nonRenewingSubscriptions"]) }
        return keys
    }

    /// One value of an object other than a list: `StoreKitUpdate.Merger`'s rule for it, needing `base` only where the
    /// file and the catalog's export differ. Nil when it is left out.
    mutating func mergeValue(
        key: String, _ node: Node, inBase: Bool, new range: Range<Int>?, parent: String, dropped: inout [String],
        base source: BaseSource
    ) throws(IAPKitError) -> Entry? {
        switch (inBase, range) {
        case let (true, range?):
            let old = json(node), new = try json(newBytes[range])
            if old == new { return .file(node) }
            guard let was = try baseValue(key, from: source) else {
                changed = true
                return .value(new)
            }
            var merger = StoreKitUpdate.Merger(carries: carries)
            let merged = merger.merge(old: old, base: was, new: new, key: key)
            dropped += merger.dropped
            if merged != old { changed = true }
            return .value(merged)
        case (true, nil):
            changed = true  // the catalog no longer writes it
            return nil
        case let (false, range?):
            let new = try json(newBytes[range])
            if new != json(node) { changed = true }
            return .value(new)
        case (false, nil):
            // A key the catalog has no place for: kept as `StoreKitUpdate.Merger` keeps it.
            if carries || parent == "settings" || StoreKitImporter.Reader.knownKeys.contains(key) { return .file(node) }
            dropped.append(key)
            changed = true
            return nil
        }
    }

    /// The value `key` in `base`: of the top level, importing the file the first time one is needed; of a group,
    /// reading the group without its subscriptions.
    mutating func baseValue(_ key: String, from source: BaseSource) throws(IAPKitError) -> JSONValue? {
        if case let .group(node, path, position) = source {
            if baseGroup == nil {
                let read = try reader.readGroupShell(JSONNode(document: document, id: node), path: path, index: position)
                let (bytes, ranges) = baseExporter.groupBytes(read, depth: 2)
                var values: [String: JSONValue] = [:]
                for (name, range) in ranges { values[name] = try json(bytes[range]) }
                baseGroup = values
            }
            return baseGroup?[key]
        }
        if baseValues == nil {
            let imported = try StoreKitImporter(bundleID: catalog.app.bundleID).importDocument(document, file: file)
            var recorded: StoreKitExporter.Layout? = StoreKitExporter.Layout()
            let bytes = baseExporter.export(imported.catalog, layout: &recorded)
            var values: [String: JSONValue] = [:]
            for (name, range) in recorded?.values ?? [:] { values[name] = try json(bytes[range]) }
            baseValues = values
        }
        return baseValues?[key]
    }

    // MARK: - Lists

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
        let checkpoint = out.checkpoint
        // The file's item as it is: most often the export's own bytes.
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

    // MARK: - The file's values

    /// A mapping's keys and values, the keys in the order `JSONValue.parse` gives them.
    func sortedPairs(_ node: Node) -> [(key: String, value: Node)] {
        let items = document.items(node)
        var pairs: [(key: String, value: Node)] = []
        pairs.reserveCapacity(items.count / 2)
        for index in stride(from: 0, to: items.count, by: 2) { pairs.append((document.string(items[index]), items[index + 1])) }
        return pairs.sorted { $0.key < $1.key }
    }

    /// The file's value as `JSONValue.parse` reads it: objects sorted by key, whole numbers `int`.
    func json(_ node: Node) -> JSONValue { Self.json(document, node) }

    /// Bytes of JSON the exporter wrote, as values.
    func json(_ bytes: ArraySlice<UInt8>) throws(IAPKitError) -> JSONValue {
        let parsed = bytes.withUnsafeBytes { try? YAMLDocument.parseJSON($0, maximumDepth: JSONValue.maximumDepth) }
        guard let parsed else { throw .malformed(location: SourceLocation(file: "(export)"), reason: "exported JSON did not parse") }
        return FileMerge.json(parsed, parsed.root)
    }

    static func json(_ document: YAMLDocument, _ node: Node) -> JSONValue {
        switch document.kind(node) {
        case .scalar:
            guard document.isPlain(node) else { return .string(document.string(node)) }
            let text = document.string(node)
            switch text {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            default:
                if let number = Int(text) { return .int(number) }
                guard let number = Double(text) else { return .string(text) }
                if number == number.rounded(), abs(number) < 9.2e18 { return .int(Int(number)) }
                return .double(number)
            }
        case .sequence:
            return .array(document.items(node).map { json(document, $0) })
        case .mapping:
            let items = document.items(node)
            return .object(
                stride(from: 0, to: items.count, by: 2).map { (document.string(items[$0]), json(document, items[$0 + 1])) }.sorted { $0.0 < $1.0 })
        }
    }

    /// Writes the file's value in Xcode's layout, as `JSONValue.serialized(.xcode)` writes its reading. `groupID`, an
    /// object's `subscriptionGroupID` in its place; `subscriptionsGroupID`, that of each of its subscriptions. Returns
    /// whether either changed a value.
    @discardableResult
    mutating func write(_ node: Node, groupID: JSONValue? = nil, subscriptionsGroupID: JSONValue? = nil) -> Bool {
        var renamed = false
        switch document.kind(node) {
        case .scalar:
            let bytes = document.bytes(node)
            if !document.isPlain(node) {
                out.string(utf8: bytes)
            } else if Self.isPlainLiteral(bytes) {
                out.literal(utf8: bytes)
            } else {
                out.value(json(node))
            }
        case .sequence:
            out.beginArray()
            for item in document.items(node) { write(item) }
            out.endArray()
        case .mapping:
            let items = document.items(node)
            var order = Array(stride(from: 0, to: items.count, by: 2))
            if !Self.inXcodeOrder(order.map { document.bytes(items[$0]) }) {
                order.sort { XcodeJSONWriter.xcodeOrder(document.string(items[$0]), document.string(items[$1])) }
            }
            out.beginObject()
            for index in order {
                let key = document.bytes(items[index]), value = items[index + 1]
                out.key(utf8: key)
                if let groupID, Self.equal(key, "subscriptionGroupID") {
                    out.value(groupID)
                    if json(value) != groupID { renamed = true }
                } else if subscriptionsGroupID != nil, Self.equal(key, "subscriptions"), document.kind(value) == .sequence {
                    out.beginArray()
                    for item in document.items(value) {
                        if write(item, groupID: document.kind(item) == .mapping ? subscriptionsGroupID : nil) { renamed = true }
                    }
                    out.endArray()
                } else {
                    write(value)
                }
            }
            out.endObject()
        }
        return renamed
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && text.withUTF8Buffer { bytes.elementsEqual($0) }
    }

    /// `null`, `true`, `false` and integers written as Swift writes them again (no sign but a minus, no leading zero).
    static func isPlainLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if equal(bytes, "null") || equal(bytes, "true") || equal(bytes, "false") { return true }
        let digits = first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        guard let lead = digits.first, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return (lead != 0x30 || digits.count == 1) && !(first == UInt8(ascii: "-") && digits.count == 1 && lead == 0x30)
    }

    /// Whether keys are already in Xcode's order: told from ASCII bytes, and from the text where there is more.
    static func inXcodeOrder(_ keys: [UnsafeBufferPointer<UInt8>]) -> Bool {
        guard keys.count > 1 else { return true }
        for index in 1..<keys.count where !xcodeLess(keys[index - 1], keys[index]) { return false }
        return true
    }

    static func xcodeLess(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else {
            return XcodeJSONWriter.xcodeOrder(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
        }
        for (x, y) in zip(a, b) where lower(x) != lower(y) { return lower(x) < lower(y) }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}

extension XcodeJSONWriter {
    /// A value in Xcode's layout, each object's keys in Xcode's order, as `JSONValue.serialized(.xcode)` writes it.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: literal("null")
        case let .bool(flag): bool(flag)
        case let .int(number): int(number)
        case let .double(number):
            literal(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)")
        case let .string(text): string(text)
        case let .array(items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case let .object(pairs):
            beginObject()
            for (key, item) in pairs.sorted(by: { Self.xcodeOrder($0.0, $1.0) }) {
                self.key(key)
                self.value(item)
            }
            endObject()
        }
    }
}
