#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AssetPacks
import HostedContent
import IAPCatalog
import IAPCore

/// `iapkit new-content --asset-pack`: a pack's folder and its `assetPacks` entry in the catalog, or an existing
/// hosted-content folder declared as an asset pack with its files where they are. The catalog is edited as text
/// (its comments and layout stay), the result is read back before it replaces the file, and the file is replaced
/// atomically.
public struct AssetPackScaffolder: Sendable {
    public var catalogPath: String
    public init(catalogPath: String) { self.catalogPath = catalogPath }

    public struct Result: Sendable {
        public var packID: String
        /// The pack's source folder, as the catalog names it (relative to the catalog).
        public var source: String
        /// The entry added to the catalog.
        public var entry: String
        /// What carried over and what the app must change (migration), or what to do next.
        public var notes: [String]
    }

    /// A new, empty pack folder `OUTPUT/ID` and its entry.
    public func create(packID: String, in outputDirectory: String, unlockedBy: [String]) throws(IAPKitError) -> Result {
        if let problem = AssetPack.identifierProblem(packID) { throw .invalidArgument(problem) }
        let folder = Path.join(outputDirectory, packID)
        if FileManager.default.fileExists(atPath: folder) {
            throw .alreadyExists(path: folder, hint: "choose another asset pack ID, or declare a hosted-content folder with --from-hosted-content")
        }
        let source = relativeToCatalog(folder)
        let entry = Self.entry(id: packID, source: source, unlockedBy: unlockedBy)
        let updated = try withEntry(entry, id: packID)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .io(path: folder, reason: "cannot create the folder: \(AtomicFile.describe(error))")
        }
        try AtomicFile.write(updated, to: catalogPath)
        return Result(
            packID: packID, source: source, entry: entry,
            notes: [
                "put the pack's files in \(folder); paths inside it are the paths the app asks AssetPackManager for, "
                    + "and every pack of the app shares one namespace on the device",
                "then `iapkit lint catalog \(catalogPath)` and `iapkit package --catalog \(catalogPath) --asset-packs`",
            ])
    }

    /// Declares the hosted-content folder `folder` (ContentInfo.plist + Contents/) as an asset pack: its Contents/
    /// become the pack, in place; the product it belonged to unlocks it.
    public func migrate(hostedContent folder: String, packID: String?) throws(IAPKitError) -> Result {
        let info = try ContentInfo.read(folder: folder)
        guard let productID = info.productID else {
            throw .malformed(
                location: SourceLocation(file: Path.join(folder, ContentInfo.fileName)),
                reason: "has no IAPProductIdentifier, so the product that unlocks the pack is unknown")
        }
        let contents = Path.join(folder, ContentInfo.contentsFolder)
        guard Path.isDirectory(contents) else { throw .io(path: contents, reason: "does not exist; a hosted-content folder has Contents/") }
        let id = packID ?? Self.packID(forProduct: productID)
        if let problem = AssetPack.identifierProblem(id) { throw .invalidArgument(problem + "; choose one with --asset-pack") }
        let source = relativeToCatalog(contents)
        let entry = Self.entry(id: id, source: source, unlockedBy: [productID])
        let updated = try withEntry(entry, id: id)
        try AtomicFile.write(updated, to: catalogPath)
        var notes = [
            "carried over: the files of \(contents), in place, as the pack `\(id)` (downloadPolicy onDemand), "
                + "unlocked by \(productID)",
            "not carried over: ContentVersion \(info.versionText ?? "?") (App Store Connect numbers pack versions; "
                + "iapkit uploads a new version when the files change) and ContentInfo.plist (kept for `iapkit package`, not shipped)",
            "the app must change: instead of SKDownload, after verifying the purchase of \(productID) call "
                + "AssetPackManager.shared.ensureLocalAvailability(of:) for `\(id)` and read files with url(for:) by their path "
                + "inside Contents/ (without the `Contents/` prefix); add the Background Assets downloader extension",
            "all packs share one namespace on the device: `iapkit lint catalog` reports paths two packs ship",
        ]
        if catalogProductType(productID) == nil {
            notes.append("the catalog has no product \(productID): add it, or `asset-pack-unlock` reports the pack")
        }
        return Result(packID: id, source: source, entry: entry, notes: notes)
    }

    /// A pack ID from a product ID: its last component, with what App Store Connect refuses turned into hyphens.
    public static func packID(forProduct productID: String) -> String {
        let last = productID.split(separator: ".").last.map(String.init) ?? productID
        let mapped = String(
            last.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "-"
            })
        let trimmed = mapped.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return trimmed.isEmpty ? "pack" : trimmed
    }

    static func entry(id: String, source: String, unlockedBy: [String]) -> String {
        var lines = ["  - id: \(id)", "    source: \(yamlScalar(source))", "    downloadPolicy: onDemand"]
        if !unlockedBy.isEmpty { lines.append("    unlockedBy: [\(unlockedBy.map(yamlScalar).joined(separator: ", "))]") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A plain scalar when it reads back as the same text, else a double-quoted one.
    static func yamlScalar(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "./_-".unicodeScalars.contains($0))
            }
        return plain ? text : "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    private func relativeToCatalog(_ path: String) -> String {
        func absolute(_ path: String) -> String {
            Path.standardized(path.hasPrefix("/") ? path : Path.join(FileManager.default.currentDirectoryPath, path))
        }
        let base = absolute(Path.parent(catalogPath)), full = absolute(path)
        return full.hasPrefix(base + "/") ? String(full.dropFirst(base.count + 1)) : full
    }

    private func catalogProductType(_ productID: String) -> ProductType? {
        guard let catalog = try? CatalogLoader.load(path: catalogPath, findings: { _ in }) else { return nil }
        return catalog.allProducts.first { $0.productID == productID }?.type
    }

    /// The catalog's text with `entry` added to `assetPacks` (the section is added at the end when absent), read
    /// back to check the pack is there and the ID was free.
    func withEntry(_ entry: String, id: String) throws(IAPKitError) -> String {
        let data = try InputFile.read(catalogPath, limit: InputFile.Limit.catalog)
        let existing = try CatalogLoader.load(data: data, file: catalogPath, findings: { _ in })
        if existing.assetPacks.contains(where: { $0.id == id }) {
            throw .alreadyExists(path: catalogPath, hint: "it declares the asset pack `\(id)` already")
        }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let start = lines.firstIndex(where: { $0.hasPrefix("assetPacks:") }) {
            guard lines[start].trimmingSpaces() == "assetPacks:" else {
                throw .invalidArgument("\(catalogPath): `assetPacks` is not written as a block list; add the entry by hand:\n\(entry)")
            }
            // The section runs until the next line at the left margin that is neither a comment nor a list item.
            var end = start
            var index = start + 1
            while index < lines.count {
                let line = lines[index]
                if let first = line.first, first != " ", first != "#", first != "-" { break }
                if !line.trimmingSpaces().isEmpty && !line.hasPrefix("#") { end = index }
                index += 1
            }
            lines.insert(contentsOf: entry.split(separator: "\n").map(String.init), at: end + 1)
        } else {
            lines += ["", "assetPacks:"] + entry.split(separator: "\n").map(String.init)
        }
        let text = lines.joined(separator: "\n") + "\n"
        let updated = try CatalogLoader.load(data: Data(text.utf8), file: catalogPath, findings: { _ in })
        guard updated.assetPacks.contains(where: { $0.id == id }) else {
            throw .invalidArgument("\(catalogPath): could not add the asset pack to `assetPacks`; add the entry by hand:\n\(entry)")
        }
        return text
    }
}
