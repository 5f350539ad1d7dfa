#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore

/// `iapkit.lock`, next to the catalog: the content digest and version `iapkit package` last built for each
/// product. The `content-version-unchanged` rule compares against it; commit it with the catalog.
public struct ContentLock: Sendable, Equatable {
    public static let fileName = "iapkit.lock"

    public struct Entry: Sendable, Equatable, Codable {
        public var contentVersion: String
        public var digest: String
        public init(contentVersion: String, digest: String) {
            self.contentVersion = contentVersion
            self.digest = digest
        }
    }

    public var entries: [String: Entry]

    /// What `iapkit package --asset-packs` last built for an asset pack: the digest of its inputs (manifest and
    /// selected files) and the archive Apple's tool made from them.
    public struct AssetPackEntry: Sendable, Equatable, Codable {
        public var contentDigest: String
        /// The archive's file name in the output folder, its SHA-256 and size.
        public var archive: String
        public var sha256: String
        public var size: Int
        public init(contentDigest: String, archive: String, sha256: String, size: Int) {
            self.contentDigest = contentDigest
            self.archive = archive
            self.sha256 = sha256
            self.size = size
        }
    }

    /// Asset packs by pack ID.
    public var assetPacks: [String: AssetPackEntry] = [:]

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    private struct File: Codable {
        var lockVersion: Int
        var content: [String: Entry]
        /// Absent from locks without asset packs, so those read and write as before.
        var assetPacks: [String: AssetPackEntry]?
    }

    /// The lock file that belongs to a catalog file.
    public static func path(forCatalog catalogPath: String) -> String {
        Path.standardized(Path.join(Path.parent(catalogPath), fileName))
    }

    /// Reads the lock; a missing file is an empty lock.
    public static func read(path: String) throws(IAPKitError) -> ContentLock {
        guard FileManager.default.fileExists(atPath: path) else { return ContentLock() }
        let data = try InputFile.read(path, limit: InputFile.Limit.lock)
        do {
            let file = try JSONDecoder().decode(File.self, from: data)
            guard file.lockVersion == 1 else {
                throw IAPKitError.malformed(
                    location: SourceLocation(file: path),
                    reason: "has lockVersion \(file.lockVersion); this iapkit reads version 1")
            }
            var lock = ContentLock(entries: file.content)
            lock.assetPacks = file.assetPacks ?? [:]
            return lock
        } catch let error as IAPKitError {
            throw error
        } catch {
            throw .malformed(
                location: SourceLocation(file: path),
                reason: "is not a valid iapkit lock file (delete it and run `iapkit package` again)")
        }
    }

    /// Writes the lock atomically.
    public func write(path: String) throws(IAPKitError) {
        try AtomicFile.write(data(path: path), to: path)
    }

    /// The file's bytes, keys sorted so the file diffs cleanly; `path` names it in errors.
    public func data(path: String) throws(IAPKitError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(
                File(
                    lockVersion: 1, content: entries,
                    assetPacks: assetPacks.isEmpty ? nil : assetPacks))
        } catch {
            throw .io(path: path, reason: "cannot encode the lock: \(error)")
        }
        return data + Data("\n".utf8)
    }
}
