import IAPCatalog
import IAPCore

/// Which side a value both authors changed takes (`--take`): App Store Connect's, or the catalog's.
public enum TakenSide: String, Sendable, CaseIterable {
    case asc, catalog
}

/// Pull as a three-way merge of one catalog in three canonical forms (the form pull writes): the base, the
/// catalog, and what App Store Connect holds. A value only App Store Connect changed since the base is taken; one
/// only the catalog changed is kept, pending a push; one both changed to different values is a conflict, kept as
/// the catalog has it unless `take` says otherwise. The merged tree is what the catalog becomes (`CatalogMerge`
/// makes it in the catalog's text), and `base` what the base becomes: App Store Connect's values, but where a
/// conflict stands, the old base's, so it stays a conflict until someone chooses.
struct ThreeWayMerge {
    /// A value both sides changed: each side's value as text (`(none)` for a value a side does not have).
    struct Conflict: Sendable, Equatable {
        var path: String
        var base: String
        var catalog: String
        var store: String

        /// `com.example.gems: price: base "1.49", catalog "1.99", App Store Connect "2.99"`
        var description: String { "\(path): base \(base), catalog \(catalog), App Store Connect \(store)" }
    }

    /// A value the catalog changed since the base and App Store Connect did not: kept, for push to send.
    struct Pending: Sendable, Equatable {
        var path: String
        var catalog: String
        var store: String
        /// Only the catalog has it: a product, a localization, an offer not pushed yet.
        var isNew: Bool

        var description: String {
            isNew ? "\(path): not in App Store Connect yet (push creates it)" : "\(path): \(catalog) (App Store Connect: \(store))"
        }
    }

    var take: TakenSide?
    private(set) var conflicts: [Conflict] = []
    private(set) var pending: [Pending] = []

    init(take: TakenSide? = nil) { self.take = take }

    /// The catalog merged, and the new base.
    mutating func merge(base: YAMLTree, catalog: YAMLTree, store: YAMLTree) -> (merged: YAMLTree, base: YAMLTree) {
        let result = merge(base, catalog, store, path: [])
        return (result.merged ?? .map([]), result.base ?? .map([]))
    }

    private mutating func merge(_ base: YAMLTree?, _ catalog: YAMLTree?, _ store: YAMLTree?, path: [String]) -> (merged: YAMLTree?, base: YAMLTree?) {
        if Self.same(catalog, store) { return (catalog, store) }
        if Self.same(base, catalog) { return (store, store) }
        if Self.same(base, store) {
            notePending(catalog, store, path: path)
            return (catalog, store)
        }
        switch (catalog, store) {
        case let (.map(mine)?, .map(theirs)?):
            var merged: [YAMLTree.Pair] = []
            var newBase: [YAMLTree.Pair] = []
            for key in Self.keys(theirs, mine, base?.pairs ?? []) {
                let result = merge(base?[key], catalog?[key], store?[key], path: path + [key])
                if let value = result.merged { merged.append(YAMLTree.Pair(key, value)) }
                if let value = result.base { newBase.append(YAMLTree.Pair(key, value)) }
            }
            return (.map(merged), .map(newBase))
        case (.list?, .list?):
            guard let items = Self.named(store, catalog, base, path: path) else { break }
            var merged: [YAMLTree] = []
            var newBase: [YAMLTree] = []
            for (id, item) in items {
                let result = merge(item[2], item[1], item[0], path: path + ["[\(id)]"])
                if let value = result.merged { merged.append(value) }
                if let value = result.base { newBase.append(value) }
            }
            return (.list(merged), .list(newBase))
        default: break
        }
        switch take {
        case .catalog?: return (catalog, store)
        case .asc?: return (store, store)
        case nil:
            conflicts.append(
                Conflict(path: Self.describe(path), base: Self.describe(base), catalog: Self.describe(catalog), store: Self.describe(store)))
            return (catalog, base)
        }
    }

    /// Each value the catalog changed where App Store Connect has the base's, down to the values themselves.
    private mutating func notePending(_ catalog: YAMLTree?, _ store: YAMLTree?, path: [String]) {
        switch (catalog, store) {
        case let (.map(mine)?, .map(theirs)?):
            for key in Self.keys(theirs, mine) where !Self.same(catalog?[key], store?[key]) {
                notePending(catalog?[key], store?[key], path: path + [key])
            }
            return
        case (.list?, .list?):
            guard let items = Self.named(store, catalog, path: path) else { break }
            for (id, item) in items where !Self.same(item[1], item[0]) { notePending(item[1], item[0], path: path + ["[\(id)]"]) }
            return
        default: break
        }
        pending.append(Pending(path: Self.describe(path), catalog: Self.describe(catalog), store: Self.describe(store), isNew: store == nil))
    }

    /// The items of lists of named things (`CatalogMerge.identities`) by name, each name once (the first list's
    /// order first) with each list's item of that name; nil for other lists, and for one with an item without a name,
    /// which are compared whole.
    private static func named(_ lists: YAMLTree?..., path: [String]) -> [(String, [YAMLTree?])]? {
        guard let identity = path.last.flatMap({ CatalogMerge.identities[$0] }) else { return nil }
        var ids: [String] = []
        var seen: Set<String> = []
        var found: [[String: YAMLTree]] = []
        for list in lists {
            var items: [String: YAMLTree] = [:]
            for item in list?.items ?? [] {
                guard let id = item[identity]?.text else { return nil }
                items[id] = item
                if seen.insert(id).inserted { ids.append(id) }
            }
            found.append(items)
        }
        return ids.map { id in (id, found.map { $0[id] }) }
    }

    /// Every key of the three mappings, App Store Connect's order first.
    private static func keys(_ lists: [YAMLTree.Pair]...) -> [String] {
        var keys: [String] = []
        for list in lists { for pair in list where !keys.contains(pair.key) { keys.append(pair.key) } }
        return keys
    }

    static func same(_ a: YAMLTree?, _ b: YAMLTree?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return PullEdit.equivalent(a, b)
        default: return false
        }
    }

    /// `com.example.gems: localizations[en-US].name`: a product's values by its ID, anything else by its keys.
    static func describe(_ path: [String]) -> String {
        var rest = path[...]
        var owner: String?
        if rest.first == "products", rest.count > 1 {
            owner = String(rest[rest.index(after: rest.startIndex)].dropFirst().dropLast())
            rest = rest.dropFirst(2)
        } else if rest.first == "subscriptionGroups", rest.count > 3, rest[rest.startIndex + 2] == "subscriptions" {
            owner = String(rest[rest.startIndex + 3].dropFirst().dropLast())
            rest = rest.dropFirst(4)
        }
        let keys = rest.reduce("") { text, key in key.hasPrefix("[") || text.isEmpty ? text + key : text + "." + key }
        guard let owner else { return keys }
        return keys.isEmpty ? owner : "\(owner): \(keys)"
    }

    /// A value as a message shows it: `"1.99"`, `(none)`, or a short flow form of a list or mapping.
    static func describe(_ value: YAMLTree?) -> String {
        guard let value else { return "(none)" }
        let text = flow(value)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }

    private static func flow(_ value: YAMLTree) -> String {
        switch value {
        case let .scalar(text, _): return "\"" + text.replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n") + "\""
        case let .list(items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case let .map(pairs): return "{" + pairs.map { "\($0.key): \(flow($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// `tree` with the products in `ids` as `source` has them (added, replaced, or removed where `source` lacks them).
    static func replacingProducts(_ ids: Set<String>, in tree: YAMLTree, from source: YAMLTree) -> YAMLTree {
        let wanted = PullEdit.products(in: source)
        func list(_ items: [YAMLTree], adding: [YAMLTree]) -> [YAMLTree] {
            var seen: Set<String> = []
            var out: [YAMLTree] = []
            for item in items {
                guard let id = item["productId"]?.text, ids.contains(id) else {
                    out.append(item)
                    continue
                }
                seen.insert(id)
                if let replacement = wanted[id] { out.append(replacement) }
            }
            for item in adding { if let id = item["productId"]?.text, ids.contains(id), !seen.contains(id) { out.append(item) } }
            return out
        }
        let sourceGroups = Dictionary(
            (source["subscriptionGroups"]?.items ?? []).compactMap { g in g["referenceName"]?.text.map { ($0, g) } }, uniquingKeysWith: { a, _ in a })
        let products = tree.with("products", .list(list(tree["products"]?.items ?? [], adding: source["products"]?.items ?? [])))
        var groups = tree["subscriptionGroups"]?.items ?? []
        let names = groups.compactMap { $0["referenceName"]?.text }
        for (name, group) in sourceGroups where !names.contains(name) { groups.append(group.with("subscriptions", .list([]))) }
        groups = groups.map { group in
            let from = group["referenceName"]?.text.flatMap { sourceGroups[$0] }
            return group.with("subscriptions", .list(list(group["subscriptions"]?.items ?? [], adding: from?["subscriptions"]?.items ?? [])))
        }
        return products.with("subscriptionGroups", .list(groups))
    }
}

extension YAMLTree {
    /// The mapping with `key` set to `value` (added at its end when absent).
    func with(_ key: String, _ value: YAMLTree) -> YAMLTree {
        var pairs = self.pairs
        if let at = pairs.firstIndex(where: { $0.key == key }) { pairs[at].value = value } else { pairs.append(Pair(key, value)) }
        return .map(pairs)
    }
}
