#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
    /// The file's bytes, which `document.sourceSpan` points into.
    let source: Data
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

    /// `exported` is the catalog's export in `version` with its layout, which the merge compares the file's items with.
    init?(
        document: YAMLDocument, source: Data, file: String, capacity: Int, catalog: Catalog, version: StoreKitExporter.FormatVersion,
        exported: (bytes: [UInt8], layout: StoreKitExporter.Layout)
    ) {
        self.document = document
        self.source = source
        newBytes = exported.bytes
        layout = exported.layout
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
}
