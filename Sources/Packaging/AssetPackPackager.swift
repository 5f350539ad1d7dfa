import AssetPacks
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
import IAPLint

/// `iapkit package --asset-packs`: for each asset pack of a catalog that lints clean, writes its manifest
/// (`ID.json`) and has Apple's packaging tool build `ID.aar` beside it, under a fresh temporary name (the tool refuses
/// to overwrite) renamed into place with the others; a pack whose inputs match what `iapkit.lock` recorded, with its
/// archive still there, is not rebuilt. `iapkit-manifest.json` lists every pack, and the lock the digests.
public struct AssetPackPackager: Sendable {
    public struct Options: Sendable {
        public var outputDirectory: String
        /// `iapkit.lock` beside the catalog.
        public var lockPath: String
        /// Finds the packaging tool, asked only when a pack must be built.
        public var tool: @Sendable () throws(IAPKitError) -> PackagingTool
        public init(outputDirectory: String, lockPath: String, tool: @escaping @Sendable () throws(IAPKitError) -> PackagingTool) {
            self.outputDirectory = outputDirectory
            self.lockPath = lockPath
            self.tool = tool
        }

        /// Apple's packaging tool at `toolPath`, else where `environment` (`PATH`, Xcode) finds it.
        public init(outputDirectory: String, lockPath: String, toolPath: String?, environment: [String: String]) {
            self.init(outputDirectory: outputDirectory, lockPath: lockPath) { () throws(IAPKitError) in
                try PackagingTool.locate(explicit: toolPath, environment: environment)
            }
        }
    }

    public struct Built: Sendable {
        public var packID: String
        public var archivePath: String
        public var manifestPath: String
        public var entry: ContentLock.AssetPackEntry
        /// False when the inputs had not changed and the archive was kept.
        public var rebuilt: Bool
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    /// The catalog at `path` after every catalog rule (the asset-pack rules among them): refused on errors.
    public static func catalog(at path: String, findings: @escaping FindingConsumer) throws(IAPKitError) -> Catalog {
        switch try LintGate.open(path, strictness: .catalog, findings: findings) {
        case let .success(catalog): return catalog
        case let .failure(refusal): throw .refused(reason: "nothing was packaged: \(refusal.summary)", findings: refusal.errors)
        }
    }

    public func package(_ catalog: Catalog, baseDirectory: String) throws(IAPKitError) -> [Built] {
        let output = options.outputDirectory
        _ = try FileTransaction.recover(journalDirectory: output)
        StagedFiles.shared.sweepOnce(output)
        StagedFiles.shared.sweepOnce(Path.parent(options.lockPath))
        var lock = try ContentLock.read(path: options.lockPath)
        let transaction = FileTransaction(journalDirectory: output)
        defer { transaction.discard() }
        var tool: PackagingTool?
        var built: [Built] = []
        for pack in catalog.assetPacks {
            // Lint has checked the ID's characters; check again where it names a file.
            guard let id = pack.id, AssetPack.identifierProblem(id) == nil else {
                throw .invalidArgument("`\(pack.id ?? "")` is not a valid asset pack ID, so it cannot name an archive")
            }
            let selection = try AssetPackSelector.select(pack, baseDirectory: baseDirectory)
            guard selection.problems.isEmpty else {
                throw .invalidArgument("asset pack `\(id)`: its file selectors do not match its folder; run `iapkit lint catalog`")
            }
            let digest = try selection.contentDigest()
            let archivePath = Path.join(output, id + ".aar")
            // The lock names the archive relative to its own folder, so `asc push` finds it from the catalog.
            let archiveName = Self.relative(archivePath, to: Path.parent(options.lockPath))
            let manifestPath = Path.join(output, AssetPackManifest.fileName(packID: id))
            if let entry = lock.assetPacks[id], entry.contentDigest == digest, entry.archive == archiveName,
                FileManager.default.fileExists(atPath: manifestPath),
                let existing = try? FileSHA256.compute(archivePath), existing.sha256 == entry.sha256
            {
                built.append(Built(packID: id, archivePath: archivePath, manifestPath: manifestPath, entry: entry, rebuilt: false))
                continue
            }
            if tool == nil { tool = try options.tool() }
            let manifest = try transaction.stage(manifestPath)
            try manifest.write(AssetPackManifest.data(pack))
            // Apple documents the tool's output with the .aar extension: the temporary name keeps it.
            let archive = try transaction.stage(archivePath, keepingExtension: true)
            // The tool refuses to overwrite: free the fresh temporary name for it; the transaction still owns the name.
            unlink(archive.temporaryPath)
            try tool!.package(
                manifest: manifest.temporaryPath, output: archive.temporaryPath,
                workingDirectory: selection.sourceFolder)
            // The tool wrote a file of its own at the temporary name: flush it before it is renamed into place.
            let written = try FileSHA256.compute(archive.temporaryPath)
            let fd = open(archive.temporaryPath, O_RDONLY)
            if fd >= 0 { fsync(fd); close(fd) }
            let entry = ContentLock.AssetPackEntry(contentDigest: digest, archive: archiveName, sha256: written.sha256, size: written.size)
            lock.assetPacks[id] = entry
            built.append(Built(packID: id, archivePath: archivePath, manifestPath: manifestPath, entry: entry, rebuilt: true))
        }
        let runManifest = try transaction.stage(Path.join(output, Packager.manifestName))
        try runManifest.write(Data(Self.manifestJSON(built).serialized(.pretty).utf8))
        try transaction.stage(options.lockPath).write(try lock.data(path: options.lockPath))
        try transaction.commit()
        return built
    }

    static func relative(_ path: String, to folder: String) -> String {
        func absolute(_ path: String) -> String {
            Path.standardized(path.hasPrefix("/") ? path : Path.join(FileManager.default.currentDirectoryPath, path))
        }
        let full = absolute(path), base = absolute(folder)
        if base == "/" { return String(full.dropFirst()) }
        return full.hasPrefix(base + "/") ? String(full.dropFirst(base.count + 1)) : full
    }

    static func manifestJSON(_ built: [Built]) -> JSONValue {
        .object([
            ("tool", .object([("name", .string("iapkit"))])),
            ("format", .string("aar")),
            (
                "assetPacks",
                .array(
                    built.map { item in
                        .object([
                            ("assetPackId", .string(item.packID)), ("fileName", .string(Path.lastComponent(item.archivePath))),
                            ("manifest", .string(Path.lastComponent(item.manifestPath))), ("size", .int(item.entry.size)),
                            ("sha256", .string(item.entry.sha256)), ("contentDigest", .string(item.entry.contentDigest)),
                        ])
                    })
            ),
        ])
    }
}
