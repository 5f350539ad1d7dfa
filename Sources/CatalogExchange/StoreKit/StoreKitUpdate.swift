#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IAPCatalog
import IAPCore

/// A StoreKit configuration exported over the file already there: only what the catalog describes changes. The
/// file is read as the catalog it imports to (`base`); what the catalog changed since, as the exporter writes
/// both, is applied to the file, so the identifiers and internal IDs of products, groups, plans and offers that
/// still exist, the simulator and synced settings, app policies, locales as written, the format version and every
/// key the catalog has no place for stay as the file has them. The catalog the file imports to gives back the file.
///
/// The file is read once, by yajl, and written once (`FileMerge`): an item the catalog's export writes as the file
/// has it stays with no import at all, and only an item that differs is imported and exported alone to see what the
/// catalog changed. A file whose lists are not as an export writes them (a product ID twice in a list, a
/// non-renewing subscription among the products) is merged whole, as values (`fullMerge`).
public struct StoreKitUpdate: Sendable {
    /// The file as it is.
    public let data: Data
    /// The file as yajl read it; nil when only Foundation's reader takes it, and the whole merge says what is wrong.
    let document: YAMLDocument?
    let file: String

    public init(data: Data, file: String) throws(IAPKitError) {
        self.data = data
        self.file = file
        document = data.withUnsafeBytes { try? YAMLDocument.parseJSON($0, maximumDepth: JSONValue.maximumDepth) }
        if document == nil { _ = try Self.existing(data, file: file) }
    }

    static func existing(_ data: Data, file: String) throws(IAPKitError) -> JSONValue {
        do { return try JSONValue.parse(data) } catch {
            throw .malformed(
                location: SourceLocation(file: file),
                reason: "is not a StoreKit configuration iapkit can update (not valid JSON); pass --fresh to replace it")
        }
    }

    /// The file's own format version; nil when it names none iapkit reads.
    public var formatVersion: StoreKitExporter.FormatVersion? {
        if let document {
            let version = JSONNode(document: document, id: document.root)["version"]
            guard let major = version?["major"]?.int, let minor = version?["minor"]?.int else { return nil }
            return StoreKitExporter.FormatVersion(major: major, minor: minor)
        }
        guard let existing = try? Self.existing(data, file: file), case let .int(major)? = existing["version"]?["major"],
            case let .int(minor)? = existing["version"]?["minor"]
        else { return nil }
        return StoreKitExporter.FormatVersion(major: major, minor: minor)
    }

    /// The file with the catalog's changes, in `version`'s layout; the file's own bytes when nothing changed.
    public func bytes(_ catalog: Catalog, version: StoreKitExporter.FormatVersion) throws(IAPKitError) -> [UInt8] {
        try update(catalog, version: version).bytes
    }

    /// `bytes`, and the keys the catalog has no place for that were left out: written in an older major format
    /// than the file's, they may be ones that format does not have, so none is carried.
    public func update(_ catalog: Catalog, version: StoreKitExporter.FormatVersion) throws(IAPKitError) -> (bytes: [UInt8], dropped: [String]) {
        let (bytes, dropped) = try changes(catalog, version: version)
        return (bytes ?? Array(data), dropped)
    }

    /// `update`, with no bytes (nil) when the file already is what the update would write: nothing is copied or
    /// compared to find that out.
    public func changes(_ catalog: Catalog, version: StoreKitExporter.FormatVersion) throws(IAPKitError) -> (bytes: [UInt8]?, dropped: [String]) {
        do {
            if let document {
                var layout: StoreKitExporter.Layout? = StoreKitExporter.Layout()
                let exported = StoreKitExporter(version: version).export(catalog, layout: &layout)
                // The file is the catalog's export byte for byte (exported from this catalog and kept as it was): it is
                // what the merge would write, with nothing to merge.
                if Self.same(exported, data) { return (nil, []) }
                if var merge = FileMerge(
                    document: document, source: data, file: file, capacity: data.count + data.count / 8, catalog: catalog, version: version,
                    exported: (exported, layout ?? StoreKitExporter.Layout())),
                    let result = try merge.run()
                {
                    return result
                }
            }
        } catch {
            guard case let .malformed(location, reason) = error else { throw error }
            throw .malformed(location: location, reason: reason + "; to replace the file rather than update it, pass --fresh")
        }
        let (bytes, dropped) = try fullMerge(catalog, version: version)
        return (Self.same(bytes, data) ? nil : bytes, dropped)
    }

    /// Whether `bytes` are the file's bytes.
    static func same(_ bytes: [UInt8], _ data: Data) -> Bool { bytes.count == data.count && Self.bytes(of: data, at: 0, equal: bytes[...]) }

    /// Whether `data` holds `other` from `start` on.
    static func bytes(of data: Data, at start: Int, equal other: ArraySlice<UInt8>) -> Bool {
        guard start >= 0, start + other.count <= data.count else { return false }
        guard !other.isEmpty else { return true }
        return data.withUnsafeBytes { file in other.withUnsafeBytes { memcmp(file.baseAddress! + start, $0.baseAddress!, other.count) == 0 } }
    }

    /// The three-way merge over the whole file as values: the file, the export of the catalog it imports to, and the
    /// export of the catalog.
    func fullMerge(_ catalog: Catalog, version: StoreKitExporter.FormatVersion) throws(IAPKitError) -> (bytes: [UInt8], dropped: [String]) {
        let existing = try Self.existing(data, file: file)
        let imported: StoreKitImporter.Result
        do {
            imported = try StoreKitImporter(bundleID: catalog.app.bundleID).importData(data, file: file)
        } catch {
            guard case let .malformed(location, reason) = error else { throw error }
            throw .malformed(location: location, reason: reason + "; to replace the file rather than update it, pass --fresh")
        }
        let fileVersion = imported.catalog.storeKit?.formatVersion.flatMap(StoreKitExporter.FormatVersion.init(rawValue:)) ?? .v4_0
        let base = try Self.parse(StoreKitExporter(version: fileVersion).exportBytes(imported.catalog))
        let new = try Self.parse(StoreKitExporter(version: version).exportBytes(catalog))
        if base == new { return (Array(data), []) }
        var merger = Merger(carries: version.major >= fileVersion.major)
        let merged = Self.withGroupIDs(merger.merge(old: existing, base: base, new: new))
        return (merged == existing ? Array(data) : Array(merged.serialized(.xcode).utf8), merger.dropped)
    }

    static func parse(_ bytes: [UInt8]) throws(IAPKitError) -> JSONValue {
        do { return try JSONValue.parse(Data(bytes)) } catch {
            throw .malformed(location: SourceLocation(file: "(export)"), reason: "exported JSON did not parse: \(error)")
        }
    }

    struct Merger {
        /// Whether keys the catalog has no place for are kept; those left out are listed in `dropped`.
        let carries: Bool
        var dropped: [String] = []

        /// Three-way: where the catalog's export did not change (`base` == `new`) the file's value stays; where it did,
        /// objects and lists of named items are merged item by item, and any other value is the catalog's.
        mutating func merge(old: JSONValue, base: JSONValue, new: JSONValue, key: String = "") -> JSONValue {
            // Not carrying, an unchanged value is still walked for the keys to leave out.
            if base == new && carries { return old }
            switch (old, base, new) {
            case let (.object(oldPairs), .object, .object(newPairs)):
                var result: [(String, JSONValue)] = []
                for (name, value) in oldPairs {
                    switch (base[name], new[name]) {
                    case let (was?, now?): result.append((name, merge(old: value, base: was, new: now, key: name)))
                    case (_?, nil): continue  // the catalog no longer writes it
                    case let (nil, now?): result.append((name, now))
                    case (nil, nil):  // a key the catalog has no place for
                        // Not carrying, the keys import named as not carried go; those it reads (a free offer's price
                        // text) and the simulator's settings stay.
                        if carries || key == "settings" || StoreKitImporter.Reader.knownKeys.contains(name) {
                            result.append((name, value))
                        } else if !dropped.contains(name) {
                            dropped.append(name)
                        }
                    }
                }
                for (name, value) in newPairs where old[name] == nil && base[name] != value { result.append((name, value)) }
                return .object(result)
            case let (.array(oldItems), .array(baseItems), .array(newItems)) where StoreKitUpdate.identity(of: .null, in: key) != nil:
                return .array(mergeItems(old: oldItems, base: baseItems, new: newItems, key: key))
            default:
                return base == new ? old : new
            }
        }

        /// Items matched by what names them (product ID, group name, locale, plan, offer), in the file's order; items
        /// the catalog added come last, and items it removed go.
        mutating func mergeItems(old: [JSONValue], base: [JSONValue], new: [JSONValue], key: String) -> [JSONValue] {
            func keyed(_ items: [JSONValue]) -> [(String, JSONValue)] {
                var seen: [String: Int] = [:]
                return items.map { item in
                    let id = StoreKitUpdate.identity(of: item, in: key) ?? ""
                    let count = seen[id, default: 0]
                    seen[id] = count + 1
                    return ("\(id)#\(count)", item)
                }
            }
            let baseByID = Dictionary(keyed(base), uniquingKeysWith: { first, _ in first })
            let newKeyed = keyed(new)
            let newByID = Dictionary(newKeyed, uniquingKeysWith: { first, _ in first })
            var result: [JSONValue] = []
            var placed = Set<String>()
            for (id, item) in keyed(old) {
                switch (baseByID[id], newByID[id]) {
                case let (was?, now?): result.append(merge(old: item, base: was, new: now, key: key)); placed.insert(id)
                case (_?, nil): continue  // removed from the catalog
                case let (nil, now?): result.append(now); placed.insert(id)
                case (nil, nil): result.append(item)  // never carried into the catalog: kept
                }
            }
            for (id, item) in newKeyed where !placed.contains(id) { result.append(item) }
            return result
        }
    }

    /// What names an item of the list `key`; nil for lists merged whole (an offer code's eligibility).
    static func identity(of item: JSONValue, in key: String) -> String? {
        func text(_ name: String) -> String { if case let .string(value)? = item[name] { return value } else { return "" } }
        var plan: String { text("billingPlanType").isEmpty ? "BILLED_UPFRONT" : text("billingPlanType") }
        switch key {
        case "products", "nonRenewingSubscriptions", "subscriptions": return text("productID")
        case "subscriptionGroups": return text("name")
        case "localizations", "policies":
            let code = text("locale")
            return StoreKitLocale.catalog(fromStoreKit: code) ?? code
        case "billingPlans", "introductoryOffers": return plan
        case "adHocOffers", "winbackOffers": return plan + " " + text("offerID")
        case "codeOffers": return plan + " " + text("referenceName")
        default: return nil
        }
    }

    /// Each subscription names the group it sits in by the group's `id`, which may be the file's.
    static func withGroupIDs(_ root: JSONValue) -> JSONValue {
        guard case var .object(pairs) = root, let index = pairs.firstIndex(where: { $0.0 == "subscriptionGroups" }),
            case let .array(groups) = pairs[index].1
        else { return root }
        pairs[index].1 = .array(
            groups.map { group in
                guard case var .object(groupPairs) = group, let id = group["id"],
                    let subs = groupPairs.firstIndex(where: { $0.0 == "subscriptions" }), case let .array(items) = groupPairs[subs].1
                else { return group }
                groupPairs[subs].1 = .array(
                    items.map { item in
                        guard case var .object(itemPairs) = item,
                            let field = itemPairs.firstIndex(where: { $0.0 == "subscriptionGroupID" })
                        else { return item }
                        itemPairs[field].1 = id
                        return .object(itemPairs)
                    })
                return .object(groupPairs)
            })
        return .object(pairs)
    }
}
