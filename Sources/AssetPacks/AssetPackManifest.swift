#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// The manifest Apple's packaging tool (`ba-package`) reads for one pack, written from the catalog: `assetPackID`,
/// `downloadPolicy` (`essential` or `prefetch` with `installationEventTypes`, or `onDemand` as `{}`),
/// `fileSelectors` relative to the pack's source folder (the tool runs there), `platforms`, and `language` when the
/// catalog gives one. iapkit writes the manifest and runs the tool; it never writes the archive itself.
public enum AssetPackManifest {
    /// `ID.json`, beside `ID.aar` in the output folder.
    public static func fileName(packID: String) -> String { packID + ".json" }

    public static func json(_ pack: AssetPack) -> JSONValue {
        var fields: [(String, JSONValue)] = [("assetPackID", .string(pack.id ?? ""))]
        let policy = pack.downloadPolicy ?? .onDemand
        switch policy {
        case .onDemand:
            fields.append(("downloadPolicy", .object([("onDemand", .object([]))])))
        case .essential, .prefetch:
            let events = pack.installationEvents.isEmpty ? AssetPack.installationEventTypes : pack.installationEvents.map(\.value)
            fields.append(
                (
                    "downloadPolicy",
                    .object([
                        (
                            policy.rawValue,
                            .object([
                                ("installationEventTypes", .array(events.map(JSONValue.string)))
                            ])
                        )
                    ])
                ))
        }
        fields.append(
            (
                "fileSelectors",
                .array(
                    pack.effectiveSelectors.map { selector in
                        .object([(selector.kind.rawValue, .string(normalized(selector.value) ?? selector.value))])
                    })
            ))
        fields.append(("platforms", .array((pack.platforms.isEmpty ? ["iOS"] : pack.platforms.map(\.value)).map(JSONValue.string))))
        if let language = pack.language { fields.append(("language", .string(language))) }
        return .object(fields)
    }

    /// The manifest's bytes, as written to disk and digested.
    public static func data(_ pack: AssetPack) -> Data { Data((json(pack).serialized(.pretty)).utf8) }

    /// A selector path made plain (`./a//b/` -> `a/b`, the folder itself `.`), or nil when it leaves the source
    /// folder (absolute, or more `..` than folders).
    public static func normalized(_ value: String) -> String? {
        guard !value.hasPrefix("/") else { return nil }
        var parts: [Substring] = []
        for part in value.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
