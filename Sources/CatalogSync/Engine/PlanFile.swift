#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AssetPacks
import IAPCore

/// Saved plans (`asc plan --out`, `asc push --plan`): what goes into the file, and what push checks before it
/// sends the file's operations.
public enum PlanFile {
    /// The plan as a file: its changes, the requests push sends for them (recorded as `export asc` records them),
    /// the catalog's digest and each upload's size and digest.
    public static func make(_ plan: Plan, catalogPath: String, createdAt: String) async throws(SyncError) -> SavedPlan {
        let catalog = try digest(catalogPath, what: "the catalog")
        let requests = try await RequestExport.requests(for: plan)
        var uploads: [SavedPlan.Upload] = []
        if case let .array(entries) = requests {
            for entry in entries {
                guard case let .string(path)? = entry["file"], !uploads.contains(where: { $0.path == relative(path, to: catalogPath) }) else {
                    continue
                }
                let file = try digest(path, what: "a file to upload")
                uploads.append(SavedPlan.Upload(path: relative(path, to: catalogPath), size: file.size, sha256: file.sha256))
            }
        }
        return SavedPlan(
            plan: plan, catalogPath: catalogPath, catalogSHA256: catalog.sha256, createdAt: createdAt,
            uploads: uploads, requests: requests)
    }

    /// What changed on this side since the plan was made: the catalog file, and each file to upload. Empty when
    /// nothing did.
    public static func changedInputs(_ saved: SavedPlan, catalogPath: String) -> [String] {
        var reasons: [String] = []
        if let catalog = try? digest(catalogPath, what: "the catalog") {
            if catalog.sha256 != saved.catalogSHA256 {
                reasons.append("\(catalogPath) differs from the catalog the plan was made from")
            }
        } else {
            reasons.append("\(catalogPath) cannot be read")
        }
        for upload in saved.uploads {
            let path = Path.join(Path.parent(catalogPath), upload.path)
            guard let file = try? digest(path, what: "a file to upload") else {
                reasons.append("\(upload.path), to be uploaded, is gone")
                continue
            }
            if file.size != upload.size || file.sha256 != upload.sha256 {
                reasons.append("\(upload.path), to be uploaded, changed since the plan was made (\(file.size) bytes, planned \(upload.size))")
            }
        }
        return reasons
    }

    /// `review/gems.png` for `docs/review/gems.png` when the catalog is `docs/catalog.yaml`.
    static func relative(_ path: String, to catalogPath: String) -> String {
        let folder = Path.parent(catalogPath)
        guard !folder.isEmpty, folder != "." else { return path }
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }

    /// Read in chunks: an asset pack's archive may be gigabytes.
    static func digest(_ path: String, what: String) throws(SyncError) -> (sha256: String, size: Int) {
        do { return try FileSHA256.compute(path) } catch {
            throw .store(context: "reading \(what) \(path)", reason: error.description)
        }
    }
}
