import IAPCatalog
import IAPCore
import PropertyList

/// The asset packs and the products that unlock them, for the app: after verifying a purchase it looks up which
/// packs to download (App Store Connect links no pack to a product).
public enum AssetPackMap {
    /// `assetPacks` of `export json`: each pack with its policy, platforms, language and the products unlocking it.
    public static func json(_ catalog: Catalog) -> JSONValue {
        .array(
            catalog.assetPacks.map { pack in
                var fields: [(String, JSONValue)] = [
                    ("id", .optional(pack.id)),
                    ("downloadPolicy", .optional(pack.downloadPolicy?.rawValue)),
                    ("platforms", .array((pack.platforms.isEmpty ? ["iOS"] : pack.platforms.map(\.value)).map(JSONValue.string))),
                ]
                if let language = pack.language { fields.append(("language", .string(language))) }
                fields.append(("unlockedBy", .array(pack.unlockedBy.map { .string($0.value) })))
                return .object(fields)
            })
    }

    /// The packs a product's purchase unlocks, in catalog order.
    public static func packs(unlockedBy productID: String?, in catalog: Catalog) -> [String] {
        guard let productID else { return [] }
        return catalog.assetPacks.filter { $0.unlockedBy.contains { $0.value == productID } }.compactMap(\.id)
    }

    /// `export plist --asset-packs`: a dictionary of pack ID to its download policy and the products unlocking it.
    public static func plist(_ catalog: Catalog) throws(IAPKitError) -> [UInt8] {
        let packs = catalog.assetPacks.compactMap { pack -> (key: String, value: PropertyListValue)? in
            guard let id = pack.id else { return nil }
            return (
                id,
                .dictionary(
                    PropertyListDictionary([
                        ("DownloadPolicy", .string(pack.downloadPolicy?.rawValue ?? "onDemand")),
                        ("UnlockedBy", .array(pack.unlockedBy.map { .string($0.value) })),
                    ]))
            )
        }
        return Array(try PropertyListWriter.write(.dictionary(PropertyListDictionary(packs))))
    }
}
