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
import HostedContent
import IAPCatalog
import IAPCore

/// What a hosted-content folder named on its own (`lint content DIR`, `package DIR`) is checked against, so it is
/// checked as it is through its catalog: the catalog it belongs to (the one given, else the nearest `catalog.yaml`
/// in the folders above it, up to the checkout's root), the product that catalog names it for, and `iapkit.lock`
/// beside that catalog (or the lock given). A folder with no catalog above it and no lock given is checked alone.
public struct ContentFolderScope: Sendable, Equatable {
    /// The catalog's file name a folder's parents are searched for.
    public static let catalogFileName = "catalog.yaml"

    public var folder: String
    /// The catalog given or found, if any.
    public var catalogPath: String?
    /// The lock given, or `iapkit.lock` beside the catalog; nil when there is neither.
    public var lockPath: String?
    /// The product the catalog names this folder for (its `hostedContent`), when it names it.
    public var expectedProductID: String?

    /// Finds the folder's catalog and lock. A catalog given must load (exit 2 otherwise); one found above the folder
    /// only names the product when it loads, since `lint catalog` reports a broken one.
    public static func find(folder: String, catalog: String? = nil, lock: String? = nil) throws(IAPKitError) -> ContentFolderScope {
        let catalogPath = catalog ?? nearestCatalog(above: folder)
        var scope = ContentFolderScope(
            folder: folder, catalogPath: catalogPath,
            lockPath: lock ?? catalogPath.map { ContentLock.path(forCatalog: $0) })
        guard let catalogPath else { return scope }
        let loaded: Catalog
        if catalog != nil {
            loaded = try CatalogLoader.load(path: catalogPath, findings: { _ in })
        } else {
            guard let found = try? CatalogLoader.load(path: catalogPath, findings: { _ in }) else { return scope }
            loaded = found
        }
        let identity = Path.resolved(folder)
        let base = Path.parent(catalogPath)
        for product in loaded.allProducts where product.type == .nonConsumable {
            guard let hosted = product.hostedContent, let id = product.productID else { continue }
            if Path.resolved(hosted.hasPrefix("/") ? hosted : Path.join(base, hosted)) == identity {
                scope.expectedProductID = id
                break
            }
        }
        return scope
    }

    /// The nearest `catalog.yaml` in the folders above `folder`, stopping after the checkout's root (the first
    /// folder holding `.git`) or at the file system's root.
    static func nearestCatalog(above folder: String) -> String? {
        var directory = Path.parent(Path.resolved(folder))
        while !directory.isEmpty {
            let candidate = Path.join(directory, catalogFileName)
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { return relativeToWorkingDirectory(candidate) }
            if directory == "/" || FileManager.default.fileExists(atPath: Path.join(directory, ".git")) { return nil }
            directory = Path.parent(directory)
        }
        return nil
    }

    /// `catalog.yaml` rather than `/home/…/catalog.yaml` when it is below the working folder, for messages.
    private static func relativeToWorkingDirectory(_ path: String) -> String {
        let here = Path.resolved(FileManager.default.currentDirectoryPath)
        return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }
}
