@testable import CatalogSync
import Foundation
import IAPCatalog
import Testing

/// The asset-pack kind on its own, with no network: which version changes a plan holds for each state App Store
/// Connect can be in, and that the digest survives the trip through the uploaded file's name.
@Suite struct AssetPackPlanTests {
    static let app = StoreApp(id: "6400000001", bundleID: "com.example.packs")
    static let digestA = "sha256:" + String(repeating: "a", count: 64)
    static let digestB = "sha256:" + String(repeating: "b", count: 64)

    static func plan(wanted: String, versions: [StoreAssetPackVersion]?) -> [Change] {
        var desired = CatalogRecords()
        desired.assetPacks = [AssetPackRecord(id: "level1", contentDigest: wanted)]
        var store = StoreSnapshot(app: app, territories: ["USA"])
        if let versions { store.assetPacks = [StoreAssetPack(id: "level1", resourceID: "pack-1", versions: versions)] }
        let catalog = Catalog(file: "catalog.yaml")
        return Planner(catalog: catalog, desired: desired).plan(against: store).changes.filter { $0.resource.rawValue.hasPrefix("backgroundAsset") }
    }

    static func version(_ number: Int, _ state: String, _ digest: String?) -> StoreAssetPackVersion {
        StoreAssetPackVersion(resourceID: "v\(number)", number: number, state: state, contentDigest: digest)
    }

    @Test func aNewPackIsCreatedWithItsFirstVersion() {
        let changes = Self.plan(wanted: Self.digestA, versions: nil)
        #expect(changes.map { "\($0.action) \($0.resource)" } == ["create backgroundAsset", "create backgroundAssetVersion"])
        #expect(changes[1].operations.count == 1 && changes[1].fields.first?.to == "aaaaaaaaaaaa…")
    }

    @Test func theSameContentIsNeverUploadedTwice() {
        for state in ["COMPLETE", "PROCESSING"] {
            let changes = Self.plan(wanted: Self.digestA, versions: [Self.version(1, state, Self.digestA)])
            #expect(changes.map(\.action) == [.unchanged], "\(state)")
        }
        // An older version with the same content does not count: the newest one that did not fail is what ships.
        let back = Self.plan(wanted: Self.digestA, versions: [Self.version(1, "COMPLETE", Self.digestA), Self.version(2, "COMPLETE", Self.digestB)])
        #expect(back.map(\.action) == [.update])
    }

    @Test func changedContentIsOneNewVersion() {
        let changes = Self.plan(wanted: Self.digestB, versions: [Self.version(1, "COMPLETE", Self.digestA)])
        #expect(changes.count == 1 && changes[0].action == .update && changes[0].operations.count == 1)
        #expect(changes[0].fields == [Change.Field("content digest", from: "aaaaaaaaaaaa…", to: "bbbbbbbbbbbb…")])
        #expect(changes[0].detail == "level1")
    }

    @Test func aFailedOrAbandonedVersionIsReplaced() {
        let failed = Self.plan(wanted: Self.digestA, versions: [Self.version(1, "FAILED", Self.digestA)])
        #expect(failed.map(\.action) == [.create])
        #expect(failed[0].reason?.contains("version 1 failed") == true)
        let waiting = Self.plan(wanted: Self.digestB, versions: [Self.version(1, "COMPLETE", Self.digestA), Self.version(2, "AWAITING_UPLOAD", nil)])
        #expect(waiting.map(\.action) == [.update])
        #expect(waiting[0].reason?.contains("version 2 never got its upload") == true)
    }

    @Test func theDigestTravelsInTheUploadedFileName() {
        let record = AssetPackRecord(id: "level-1", contentDigest: Self.digestA)
        #expect(record.uploadFileName == "level-1-" + String(repeating: "a", count: 64) + ".aar")
        #expect(AssetPackRecord.digest(fromUploadFileName: record.uploadFileName, id: "level-1") == Self.digestA)
        #expect(AssetPackRecord.digest(fromUploadFileName: "level-1.aar", id: "level-1") == nil)
        #expect(AssetPackRecord.digest(fromUploadFileName: record.uploadFileName, id: "level") == nil)
    }

    @Test func thePlanRefusesWhatWouldPassAppStoreConnectsLimits() {
        var desired = CatalogRecords()
        let big = AssetPackRecord.Archive(path: "big.aar", sha256: "", size: 60_000_000_000)
        desired.assetPacks = [AssetPackRecord(id: "level1", contentDigest: Self.digestA, archive: big)]
        var store = StoreSnapshot(app: Self.app, territories: ["USA"])
        // Another pack holds 150 GB at its largest version: with 60 GB more, the app is over 200 GB.
        store.assetPacks = [StoreAssetPack(id: "movies", resourceID: "pack-2", usedBytes: 150_000_000_000)]
        let plan = Planner(catalog: Catalog(file: "catalog.yaml"), desired: desired).plan(against: store)
        #expect(plan.count(.refused) == 1 && plan.operations.isEmpty)
        #expect(plan.changes.first?.reason?.contains("210.0 GB") == true, "\(plan.changes.map { $0.reason ?? "" })")
        // A pack counts once, at its largest version: a smaller new version of the big pack fits.
        store.assetPacks = [StoreAssetPack(id: "level1", resourceID: "pack-1", usedBytes: 150_000_000_000)]
        let fits = Planner(catalog: Catalog(file: "catalog.yaml"), desired: desired).plan(against: store)
        #expect(fits.count(.refused) == 0 && fits.operations.count == 1)
        store.assetPacks = (1...100).map { StoreAssetPack(id: "pack\($0)", resourceID: "p\($0)") }
        let many = Planner(catalog: Catalog(file: "catalog.yaml"), desired: desired).plan(against: store)
        #expect(many.count(.refused) == 1 && many.changes.first?.reason?.contains("101 asset packs") == true)
    }

    @Test func packsOnlyInAppStoreConnectAreUnmanaged() {
        var store = StoreSnapshot(app: Self.app, territories: ["USA"])
        store.assetPacks = [StoreAssetPack(id: "legacy", resourceID: "pack-9")]
        let plan = Planner(catalog: Catalog(file: "catalog.yaml"), desired: CatalogRecords()).plan(against: store)
        #expect(plan.changes.map { "\($0.action) \($0.resource) \($0.detail ?? "")" } == ["unmanaged backgroundAsset legacy"])
    }
}
