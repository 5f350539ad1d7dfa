import AssetPacks
import AppStoreConnect
import AppStoreConnectAPI
import Crypto
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
import IAPCatalog
import IAPCore

/// The app's asset packs (App Store Connect's background assets) and their versions.
///
/// App Store Connect numbers a pack's versions and keeps no digest iapkit sets, so iapkit uploads each archive
/// under a name that carries the content digest (`ID-HEX.aar`, see `AssetPackRecord`): the plan reads the latest
/// version's `assetFile` and creates a new version only when the catalog's content differs from it, or when the
/// latest version failed. The same content is never uploaded twice.
enum BackgroundAssetKind: AppResourceKind {
    typealias Schemas = Components.Schemas

    static func ref(_ id: String) -> String { "backgroundAsset:\(id)" }

    // MARK: Read

    /// The list of packs (each pack's versions add one more, unknown before the list).
    static var estimatedReads: Int { 1 }

    static func read(into snapshot: inout StoreSnapshot, reader: StoreReader) async throws(SyncError) {
        let app = snapshot.app.id
        let packs = try await reader.pages("listing asset packs") {
            try await $0.appsBackgroundAssetsGetToManyRelated(path: .init(id: app), query: .init(limit: StoreReader.pageSize)).ok.body.json
        } next: {
            $0.links.next
        }.flatMap(\.data)
        snapshot.assetPacks = try await reader.concurrently(packs) { pack throws(SyncError) in
            let identifier = pack.attributes?.assetPackIdentifier ?? pack.id
            let pages = try await reader.pages("listing the versions of asset pack \(identifier)") {
                try await $0.backgroundAssetsVersionsGetToManyRelated(
                    path: .init(id: pack.id),
                    query: .init(
                        limit: StoreReader.pageSize,
                        include: [.assetFile, .internalBetaRelease, .externalBetaRelease, .appStoreRelease])
                ).ok.body.json
            } next: {
                $0.links.next
            }
            var files: [String: String] = [:]
            var releaseStates: [String: String] = [:]
            for item in pages.flatMap({ $0.included ?? [] }) {
                switch item {
                case let .backgroundAssetUploadFiles(file): if let name = file.attributes?.fileName { files[file.id] = name }
                case let .backgroundAssetVersionInternalBetaReleases(release):
                    releaseStates["internal:" + release.id] = release.attributes?.state?.rawValue
                case let .backgroundAssetVersionExternalBetaReleases(release):
                    releaseStates["external:" + release.id] = release.attributes?.state?.rawValue
                case let .backgroundAssetVersionAppStoreReleases(release):
                    releaseStates["appStore:" + release.id] = release.attributes?.state?.rawValue
                default: break
                }
            }
            let versions = pages.flatMap(\.data).map { version in
                let fileName = version.relationships?.assetFile?.data.flatMap { files[$0.id] }
                var read = StoreAssetPackVersion(
                    resourceID: version.id, number: Int(version.attributes?.version ?? "") ?? 0,
                    state: version.attributes?.state?.rawValue ?? "AWAITING_UPLOAD",
                    contentDigest: fileName.flatMap { AssetPackRecord.digest(fromUploadFileName: $0, id: identifier) })
                let links = version.relationships
                for (audience, id) in [
                    ("internal", links?.internalBetaRelease?.data?.id), ("external", links?.externalBetaRelease?.data?.id),
                    ("appStore", links?.appStoreRelease?.data?.id),
                ] {
                    if let id, let state = releaseStates["\(audience):\(id)"] { read.releases[audience] = state }
                }
                return read
            }.sorted { $0.number < $1.number }
            return StoreAssetPack(
                id: identifier, resourceID: pack.id, versions: versions,
                usedBytes: Int(pack.attributes?.usedBytes ?? 0))
        }
    }

    // MARK: Plan

    /// App Store Connect's limits per app: pack IDs, and bytes counted as the sum of each pack's largest version.
    static let maximumPacks = 100
    static let maximumBytes = 200_000_000_000

    static func plan(_ desired: CatalogRecords, store: StoreSnapshot, builder: inout PlanBuilder) {
        let live = Dictionary(store.assetPacks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        if let reason = overLimit(desired, live: store.assetPacks) {
            builder.add(.refused, .backgroundAsset, nil, detail: "\(desired.assetPacks.count) packs", reason: reason)
            return
        }
        for pack in desired.assetPacks {
            let digestField = { (from: String?) in
                Change.Field("content digest", from: from.map(AssetPackRecord.short), to: AssetPackRecord.short(pack.contentDigest))
            }
            guard let existing = live[pack.id] else {
                builder.add(
                    .create, .backgroundAsset, nil, path: pack.path, detail: pack.id,
                    fields: [Change.Field("assetPackIdentifier", from: nil, to: pack.id)],
                    operations: [Create(identifier: pack.id, app: store.app.id)])
                builder.add(
                    .create, .backgroundAssetVersion, nil, path: pack.path, detail: pack.id, fields: [digestField(nil)],
                    operations: [UploadVersion(pack: .created(ref(pack.id)), record: pack)])
                continue
            }
            let latest = existing.versions.last
            // The newest version that did not fail: what customers get (or will, once it is processed).
            let current = existing.versions.last { $0.state != "FAILED" && $0.state != "AWAITING_UPLOAD" }
            if current?.contentDigest == pack.contentDigest {
                builder.add(.unchanged, .backgroundAssetVersion, nil, path: pack.path, detail: pack.id)
                continue
            }
            var reason: String?
            if let latest, latest.state == "FAILED" {
                reason = "version \(latest.number) failed in App Store Connect; a new version replaces it"
            } else if let latest, latest.state == "AWAITING_UPLOAD" {
                reason = "version \(latest.number) never got its upload; a new version replaces it"
            }
            builder.add(
                current == nil ? .create : .update, .backgroundAssetVersion, nil, path: pack.path, detail: pack.id,
                fields: [digestField(current?.contentDigest)], reason: reason,
                operations: [UploadVersion(pack: .id(existing.resourceID), record: pack)])
        }
        let wanted = Set(desired.assetPacks.map(\.id))
        for pack in store.assetPacks where !wanted.contains(pack.id) {
            builder.unmanaged(.backgroundAsset, nil, detail: pack.id)
        }
    }

    /// Why App Store Connect would refuse the packs after this push, or nil: more than 100 pack IDs, or more than
    /// 200 GB counting each pack at its largest version (what App Store Connect holds, or the new archive if larger).
    static func overLimit(_ desired: CatalogRecords, live: [StoreAssetPack]) -> String? {
        let wanted = Dictionary(desired.assetPacks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let ids = Set(live.map(\.id)).union(wanted.keys)
        if ids.count > maximumPacks {
            return "the app would have \(ids.count) asset packs in App Store Connect (those it has and the catalog's); it takes \(maximumPacks)"
        }
        let used = Dictionary(live.map { ($0.id, $0.usedBytes) }, uniquingKeysWith: { a, _ in a })
        let total = ids.reduce(0) { sum, id in sum + max(used[id] ?? 0, wanted[id]?.archive?.size ?? 0) }
        guard total > maximumBytes else { return nil }
        return "the asset packs would count \(Format.fixed(Double(total) / 1e9, decimals: 1)) GB in App Store Connect, each pack at its "
            + "largest version; App Store Connect takes 200 GB per app"
    }

    // MARK: Operations

    /// `POST /v1/backgroundAssets`.
    struct Create: WriteOperation {
        var identifier: String
        var app: String
        var summary: String { "create asset pack \(identifier)" }
        var createdRef: String? { BackgroundAssetKind.ref(identifier) }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let body = Schemas.BackgroundAssetCreateRequest(
                data: .init(
                    _type: .backgroundAssets, attributes: .init(assetPackIdentifier: identifier),
                    relationships: .init(app: .init(data: .init(_type: .apps, id: app)))))
            let id = try await context.send { try await $0.backgroundAssetsCreateInstance(body: .json(body)).created.body.json.data.id }
            context.record(created: id, as: BackgroundAssetKind.ref(identifier))
        }
    }

    /// A new version: its manifest (which App Store Connect checks first), then the archive, each reserved, sent
    /// part by part and committed with its SHA-256; then the version is polled until App Store Connect has
    /// processed it (`COMPLETE`) or refused it (`FAILED`, reported; the next push replaces it).
    struct UploadVersion: WriteOperation {
        var pack: ResourceRef
        var record: AssetPackRecord
        var summary: String { "upload asset pack \(record.id) (\(AssetPackRecord.short(record.contentDigest)))" }
        var createdRef: String? { "backgroundAssetVersion:\(record.id)" }
        /// The version, two files of three requests plus their extra parts, and a few reads while it processes.
        var estimatedRequests: Int { 1 + 3 + 3 + max(0, (record.archive?.size ?? 0) / (64 << 20)) + 3 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            guard let archive = record.archive ?? (context.isRecording ? .init(path: record.uploadFileName, sha256: "", size: 0) : nil) else {
                throw .unexpectedResponse(operation: summary, status: nil, reason: "asset pack \(record.id): " + AssetPackPush.unbuiltReason())
            }
            let versionRef = "backgroundAssetVersion:\(record.id)"
            let packID = context.id(pack)
            let created = try await context.send {
                try await $0.backgroundAssetVersionsCreateInstance(
                    body: .json(
                        .init(
                            data: .init(
                                _type: .backgroundAssetVersions,
                                relationships: .init(backgroundAsset: .init(data: .init(_type: .backgroundAssets, id: packID))))))
                ).created.body.json.data
            }
            context.record(created: created.id, as: versionRef)
            let version = context.id(.created(versionRef))
            let manifest = record.manifest
            // The manifest `package --asset-packs` wrote beside the archive holds these bytes (the lock's digest covers
            // them): a saved plan names it by that path, which resolves wherever the archive does.
            let manifestName = AssetPackManifest.fileName(packID: record.id)
            try await uploadFile(
                .manifest, name: manifestName, size: manifest.count, sha256: Self.sha256(manifest),
                version: version, path: record.archive.map { Path.join(Path.parent($0.path), manifestName) } ?? manifestName, context
            ) { offset, length in
                manifest.subdata(in: offset..<(offset + length))
            }
            let path = archive.path
            try await uploadFile(
                .asset, name: record.uploadFileName, size: archive.size, sha256: archive.sha256,
                version: version, path: path, context
            ) { offset, length throws(ASCError) in
                try Self.read(path, offset: offset, length: length)
            }
            guard !context.isRecording else { return }
            try await waitForProcessing(version: version, context)
        }

        private func uploadFile(
            _ type: Schemas.BackgroundAssetUploadFileCreateRequest.DataPayload.AttributesPayload.AssetTypePayload,
            name: String, size: Int, sha256: String, version: String, path: String, _ context: WriteContext,
            part: (Int, Int) throws(ASCError) -> Data
        ) async throws(ASCError) {
            let body = Schemas.BackgroundAssetUploadFileCreateRequest(
                data: .init(
                    _type: .backgroundAssetUploadFiles, attributes: .init(assetType: type, fileName: name, fileSize: Int64(size)),
                    relationships: .init(backgroundAssetVersion: .init(data: .init(_type: .backgroundAssetVersions, id: version)))))
            let reserved = try await context.send {
                try await $0.backgroundAssetUploadFilesCreateInstance(body: .json(body)).created.body.json.data
            }
            let ref = "backgroundAssetUploadFile:\(record.id):\(type.rawValue)"
            context.record(created: reserved.id, as: ref)
            let operations = (reserved.attributes?.uploadOperations ?? []).map { item in
                Schemas.UploadOperation(
                    method: item.method, url: item.url, length: item.length.map { Int($0) },
                    offset: item.offset.map { Int($0) }, requestHeaders: item.requestHeaders)
            }
            try await context.upload(file: path, size: size, operations: operations, ref: ref, part: part)
            let id = context.id(.created(ref))
            let commit = Schemas.BackgroundAssetUploadFileUpdateRequest(
                data: .init(
                    _type: .backgroundAssetUploadFiles, id: id,
                    attributes: .init(sourceFileChecksums: .init(file: .init(hash: sha256, algorithm: .sha256)), uploaded: true)))
            let committed = try await context.send {
                try await $0.backgroundAssetUploadFilesUpdateInstance(path: .init(id: id), body: .json(commit)).ok.body.json.data
            }
            if committed.attributes?.assetDeliveryState?.state == .failed {
                let errors = (committed.attributes?.assetDeliveryState?.errors ?? []).map { Self.describe($0.code, $0.description) }
                throw .unexpectedResponse(
                    operation: summary, status: nil,
                    reason: "App Store Connect refused the \(type == .manifest ? "manifest" : "archive") \(name): "
                        + (errors.isEmpty ? "no reason given" : errors.joined(separator: "; ")))
            }
        }

        /// Reads the version until it is processed, waiting longer each time (up to 30 s between reads, 30 minutes
        /// in all); a version still processing then is left to the next plan.
        private func waitForProcessing(version: String, _ context: WriteContext) async throws(ASCError) {
            var delay = Duration.milliseconds(500)
            var waited = Duration.zero
            while true {
                let read = try await context.send {
                    try await $0.backgroundAssetVersionsGetInstance(path: .init(id: version)).ok.body.json.data
                }
                let state = read.attributes?.state
                let number = read.attributes?.version ?? "?"
                switch state {
                case .complete?:
                    return
                case .failed?:
                    let details = (read.attributes?.stateDetails?.errors ?? []).map { Self.describe($0.code, $0.description) }
                    throw .unexpectedResponse(
                        operation: summary, status: nil,
                        reason: "App Store Connect could not process version \(number) of asset pack \(record.id)"
                            + (details.isEmpty ? "" : ": " + details.joined(separator: "; "))
                            + "; fix the pack and push again: a new version replaces the failed one")
                default:
                    guard waited < .seconds(1800) else { return }
                    context.onWait?(delay, "asset pack \(record.id) version \(number): \(state?.rawValue ?? "PROCESSING")")
                    do { try await Task.sleep(for: delay) } catch { throw .cancelled }
                    waited += delay
                    delay = min(delay * 2, .seconds(30))
                }
            }
        }

        static func describe(_ code: String?, _ text: String?) -> String {
            [code, text].compactMap { (part: String?) -> String? in part }.joined(separator: ": ")
        }

        static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { Format.hex($0, width: 2) }.joined() }

        /// `length` bytes of the file at `offset`, read with pread so the archive is never held whole.
        static func read(_ path: String, offset: Int, length: Int) throws(ASCError) -> Data {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw .unexpectedResponse(operation: "upload of \(path)", status: nil, reason: "cannot open: \(SystemError())")
            }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: length)
            var done = 0
            while done < length {
                let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, length - done, off_t(offset + done)) }
                guard count > 0 else {
                    throw .unexpectedResponse(operation: "upload of \(path)", status: nil, reason: "the file is shorter than it was when built")
                }
                done += count
            }
            return Data(bytes)
        }
    }
}

/// What `asc push` checks before it writes: every pack it would upload has an archive built from the catalog's
/// content (`iapkit package --asset-packs`).
public enum AssetPackPush {
    public static func unbuilt(_ plan: Plan) -> [String] {
        plan.operations.compactMap { ($0 as? BackgroundAssetKind.UploadVersion).flatMap { $0.record.archive == nil ? $0.record.id : nil } }
    }

    /// A pack whose archive is missing or older than its files would stop push before it writes: a refused change,
    /// so plan shows it (and a saved plan, and `plan --check`, refuse it) before push runs.
    static func refusals(_ plan: Plan, catalogPath: String) -> [Change] {
        unbuilt(plan).map { id in
            Change(action: .refused, resource: .backgroundAssetVersion, detail: id, reason: unbuiltReason(catalogPath: catalogPath))
        }
    }

    static func unbuiltReason(catalogPath: String = "CATALOG") -> String {
        "no archive matches the pack's content (missing, or older than its files): "
            + "run `iapkit package --catalog \(catalogPath) --asset-packs` before `asc push`"
    }
}
