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

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    private struct File: Codable {
        var lockVersion: Int
        var content: [String: Entry]
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
                throw IAPKitError.malformed(location: SourceLocation(file: path),
                                            reason: "has lockVersion \(file.lockVersion); this iapkit reads version 1")
            }
            return ContentLock(entries: file.content)
        } catch let error as IAPKitError {
            throw error
        } catch {
            throw .malformed(location: SourceLocation(file: path),
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
        do { data = try encoder.encode(File(lockVersion: 1, content: entries)) } catch {
            throw .io(path: path, reason: "cannot encode the lock: \(error)")
        }
        return data + Data("\n".utf8)
    }
}
