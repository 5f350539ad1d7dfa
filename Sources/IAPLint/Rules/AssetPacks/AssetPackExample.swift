/// Catalogs for the asset-pack rules' examples: a non-consumable `com.example.app.level1`, a consumable
/// `com.example.app.gems`, and the packs given. Lines `#@ SPEC` (YAML comments) describe files beside the catalog
/// in `ContentExample`'s notation (`path: text`, `path -> target`, `@fifo path`, `@sparse path BYTES`, …), which the
/// example tests create before linting.
public enum AssetPackExample {
    public static let files = "#@ packs/level1/Levels/1.json: {}\n#@ packs/level2/Levels/2.json: {}\n"

    /// One `assetPacks` entry: an on-demand pack the non-consumable unlocks, plus `extra` keys (`    key: value` lines).
    public static func pack(
        _ id: String = "level1", source: String = "packs/level1", policy: String = "onDemand",
        unlockedBy: String? = "[com.example.app.level1]", extra: String = ""
    ) -> String {
        var text = "  - id: \(id)\n    source: \(source)\n    downloadPolicy: \(policy)\n"
        if let unlockedBy { text += "    unlockedBy: \(unlockedBy)\n" }
        return text + extra
    }

    public static func catalog(_ packs: [String] = [pack()], app: String = "", files: String = files) -> String {
        """
        schemaVersion: 1
        app:
          bundleId: com.example.app
          primaryLocale: en-US
        \(app)products:
          - {productId: com.example.app.level1, referenceName: Level One, type: non-consumable, price: 0.99}
          - {productId: com.example.app.gems, referenceName: Gems, type: consumable, price: 0.99}
        assetPacks:

        """ + packs.joined() + files
    }
}
