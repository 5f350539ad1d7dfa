import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HostedContent
import IAPCatalog
import IAPCore

/// What a pack's file selectors take from its source folder: the entries (files, folders, links, anything else the
/// walk found, for the content-safety rules), the selectors that take nothing or reach outside the folder, and the
/// pack's content digest.
public struct AssetPackSelection: Sendable {
    public enum Problem: Sendable, Equatable {
        /// The source folder does not exist or is not a folder.
        case sourceMissing(reason: String)
        /// The selector names nothing, or a folder with no file in it.
        case noMatch(AssetPack.FileSelector)
        /// The selector is absolute, climbs out with `..`, or goes through a link.
        case outside(AssetPack.FileSelector, reason: String)
        /// A `file` selector names a folder, or a `directory` selector a file.
        case wrongKind(AssetPack.FileSelector, actual: String)
    }

    public let pack: AssetPack
    /// The source folder, usable from the current directory.
    public let sourceFolder: String
    /// Selected entries in the walk's order, each once, paths relative to the source folder.
    public let entries: [ContentEntry]
    public let problems: [Problem]

    /// The selected regular files.
    public var files: [ContentEntry] { entries.filter { $0.kind == .file } }
    public var totalBytes: UInt64 { entries.reduce(0) { $0 + ($1.kind == .file ? $1.size : 0) } }
    /// The selected entries as a tree (for digests and the content rules).
    public var tree: ContentTree { ContentTree(root: sourceFolder, entries: entries) }

    /// A SHA-256 over the manifest iapkit writes and every selected entry (path, kind, mode, each file's own
    /// SHA-256): what the archive is built from. The archive's bytes are the tool's business and need not be
    /// reproducible; this digest is.
    public func contentDigest() throws(IAPKitError) -> String {
        let entriesDigest = try ContentDigest.compute(tree: tree)
        var hasher = SHA256()
        hasher.update(data: AssetPackManifest.data(pack))
        hasher.update(data: Data(("\n" + entriesDigest + "\n").utf8))
        return ContentDigest.prefix + hasher.finalize().hexString
    }
}

public enum AssetPackSelector {
    /// Walks the pack's source folder (never following links) and applies its selectors.
    public static func select(_ pack: AssetPack, baseDirectory: String) throws(IAPKitError) -> AssetPackSelection {
        let source = pack.source ?? "."
        let folder = source.hasPrefix("/") ? source : Path.join(baseDirectory, source)
        guard Path.isDirectory(folder) else {
            return AssetPackSelection(
                pack: pack, sourceFolder: folder, entries: [],
                problems: [
                    .sourceMissing(
                        reason: FileManager.default.fileExists(atPath: folder)
                            ? "is not a folder" : "does not exist")
                ])
        }
        let tree = try ContentTree.scan(folder)
        let byPath = Dictionary(tree.entries.map { ($0.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
        var taken = Set<String>()
        var problems: [AssetPackSelection.Problem] = []
        for selector in pack.effectiveSelectors {
            guard let plain = AssetPackManifest.normalized(selector.value) else {
                problems.append(.outside(selector, reason: selector.value.hasPrefix("/") ? "is an absolute path" : "climbs out with `..`"))
                continue
            }
            let relative = plain == "." ? "" : plain
            if let link = linkOnTheWay(relative, byPath) {
                problems.append(.outside(selector, reason: "goes through the link `\(link)`"))
                continue
            }
            guard let entry = byPath[relative] else {
                problems.append(.noMatch(selector))
                continue
            }
            switch (selector.kind, entry.kind) {
            case (.file, .file), (.file, .symlink), (.file, .other):
                taken.insert(relative)
            case (.file, .directory):
                problems.append(.wrongKind(selector, actual: "a folder"))
            case (.directory, .directory):
                let prefix = relative.isEmpty ? "" : relative + "/"
                var files = 0
                for item in tree.entries where item.relativePath.hasPrefix(prefix) || item.relativePath == relative {
                    guard !item.relativePath.isEmpty else { continue }
                    taken.insert(item.relativePath)
                    if item.kind == .file { files += 1 }
                }
                if files == 0 { problems.append(.noMatch(selector)) }
            case (.directory, _):
                problems.append(.wrongKind(selector, actual: entry.kind == .symlink ? "a link" : "a file"))
            }
        }
        // Folders above a selected entry are part of its path, not content; keep the entries taken, in walk order.
        let entries = tree.entries.filter { taken.contains($0.relativePath) }
        return AssetPackSelection(pack: pack, sourceFolder: folder, entries: entries, problems: problems)
    }

    /// The first folder on the way to `relative` that is a link (the tool would follow it out of the folder).
    private static func linkOnTheWay(_ relative: String, _ byPath: [String: ContentEntry]) -> String? {
        var prefix = ""
        let parts = relative.split(separator: "/")
        for part in parts.dropLast() {
            prefix = prefix.isEmpty ? String(part) : prefix + "/" + part
            if byPath[prefix]?.kind == .symlink { return prefix }
        }
        return nil
    }
}

/// The SHA-256 and size of a file iapkit did not write (the packaging tool's archive).
public enum FileSHA256 {
    public static func compute(_ path: String) throws(IAPKitError) -> (sha256: String, size: Int) {
        var hasher = SHA256()
        var size = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        try FileChunks.read(path, into: buffer) { chunk in
            hasher.update(bufferPointer: chunk)
            size += chunk.count
        }
        return (hasher.finalize().hexString, size)
    }
}
