import IAPCore

extension CatalogFormat {
    public static let assetPack = CatalogObject(
        [
            CatalogKey(
                "id", .string(pattern: "^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$"), required: true,
                "assetPackID: A-Z a-z 0-9 and -, no leading or trailing hyphen"),
            CatalogKey(
                "source", .string, required: true, "The folder holding the pack's files, relative to the catalog; selectors are relative to it"),
            CatalogKey("files", .list(.object(fileSelector)), "File selectors; the whole source folder when absent"),
            CatalogKey(
                "downloadPolicy", .choice(of: AssetPack.DownloadPolicy.self), required: true,
                "When the system downloads the pack: with the app (essential, prefetch) or when the app asks (onDemand)."),
            CatalogKey(
                "installationEvents", .list(.choice(["firstInstallation", "subsequentUpdate"])),
                "For essential and prefetch packs; both events when absent"),
            CatalogKey("platforms", .list(.choice(["iOS", "macOS", "tvOS", "visionOS"])), "iOS when absent; must be the app's platforms"),
            CatalogKey("language", .string, "A BCP 47 language code (2026 manifests)"),
            CatalogKey("unlockedBy", .list(.string), "Product IDs whose purchase unlocks the pack (the pack must be onDemand)"),
            CatalogKey(
                "release", .choice(["app-store", "testflight"]),
                "app-store (default): asc submit sends processed versions to App Review; testflight: testers only"),
        ])

    public static let fileSelector = CatalogObject(
        [
            CatalogKey("file", .string),
            CatalogKey("directory", .string),
        ], exactlyOne: true)
}
