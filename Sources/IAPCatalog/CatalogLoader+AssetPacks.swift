import IAPCore

/// How an `assetPacks` entry is read.
extension NodeReader {
    func readAssetPack(_ node: Node, path: CatalogPath) throws(IAPKitError) -> AssetPack? {
        let object = try Object(node, path: path, what: "an asset pack", allowed: CatalogFormat.assetPack.names, reader: self)
        guard object.valid else { return nil }
        defer { object.finish() }
        var pack = AssetPack(path: path, id: object.string("id", required: true), source: object.string("source", required: true))
        pack.files = try object.list("files") { node, path throws(IAPKitError) in try readFileSelector(node, path: path) }
        let policy: (value: AssetPack.DownloadPolicy?, unknownText: String?) = object.choice("downloadPolicy")
        pack.downloadPolicy = policy.value
        pack.downloadPolicyText = policy.unknownText
        pack.installationEvents = try strings(object, "installationEvents")
        pack.platforms = try strings(object, "platforms")
        pack.language = object.string("language")
        pack.unlockedBy = try strings(object, "unlockedBy")
        pack.release = object.string("release")
        return pack
    }

    private func strings(_ object: Object, _ key: String) throws(IAPKitError) -> [Located<String>] {
        try object.list(key) { node, path throws(IAPKitError) in
            try count()
            return string(node, at: path).map { Located($0, path: path) }
        }
    }

    private func readFileSelector(_ node: Node, path: CatalogPath) throws(IAPKitError) -> AssetPack.FileSelector? {
        let object = try Object(node, path: path, what: "a file selector", allowed: CatalogFormat.fileSelector.names, reader: self)
        guard object.valid else { return nil }
        defer { object.finish() }
        let file = object.string("file"), directory = object.string("directory")
        switch (file, directory) {
        case let (file?, nil): return AssetPack.FileSelector(path: path / "file", kind: .file, value: file)
        case let (nil, directory?): return AssetPack.FileSelector(path: path / "directory", kind: .directory, value: directory)
        default:
            report("a file selector names exactly one `file` or one `directory`", at: path)
            return nil
        }
    }
}
