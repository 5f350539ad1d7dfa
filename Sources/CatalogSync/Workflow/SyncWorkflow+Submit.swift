import AppStoreConnect
import IAPCatalog
import IAPCore
import IAPLint

/// What `asc submit` came to.
public enum SubmitResult: Sendable {
    /// Everything of the catalog is already in review, reviewed, or for TestFlight only.
    case settled
    /// The person asked declined: nothing was submitted.
    case declined
    /// The review submission's id.
    case submitted(id: String, items: Int)
}

extension SyncWorkflow {
    /// The platforms `--platform` takes, by the catalog's names for them.
    static let platformCodes = ["iOS": "IOS", "macOS": "MAC_OS", "tvOS": "TV_OS", "visionOS": "VISION_OS"]

    /// `asc submit`: one review submission with every processed asset pack version and, with `withProducts`, the
    /// products ready to submit (and the app version `appVersion` when App Store Connect needs one). What is held
    /// back, and each item, is reported as a note; `confirm` hears how many items go to review.
    public func submitForReview(
        withProducts: Bool, appVersion: String?, platform: String?,
        confirm: @Sendable (_ items: Int, _ appID: String, _ platform: String) async throws -> Bool
    ) async throws -> SubmitResult {
        try connection.refuseReplay("submit")
        let loaded = try load(.shape)
        let chosen = platform ?? loaded.app.effectivePlatforms.first.flatMap { Self.platformCodes[$0] } ?? "IOS"
        guard Self.platformCodes.values.contains(chosen) else {
            throw IAPKitError.invalidArgument("--platform \(chosen) is not one of IOS, MAC_OS, TV_OS, VISION_OS")
        }
        let asc = try connection.client()
        let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
        let app = try await connection.app(reader, bundleID: loaded.app.bundleID, catalogAppID: loaded.app.appID)
        let snapshot = try await reader.snapshot(app: app)
        // Only the packs take part in the selection; the products are compared by state, not by record.
        var packs = CatalogRecords()
        packs.assetPacks = try AssetPackRecord.desired(catalog: loaded, baseDirectory: baseDirectory)
        var selection = ReviewSubmitter.select(
            snapshot, desired: packs, catalog: loaded,
            products: withProducts ? Set(loaded.allProducts.compactMap(\.productID)) : nil)
        for skipped in selection.skipped {
            events(.note("- \(skipped.location.map { "\($0): " } ?? "")\(skipped.text)"))
        }
        let submitter = ReviewSubmitter(asc: asc)
        if selection.needsAppVersion || appVersion != nil {
            let versions = try await submitter.appVersions(app: app, platform: chosen)
            let editable = versions.filter(\.editable)
            let choices =
                editable.isEmpty
                ? "the app has no App Store version on \(chosen) that can go to review; create one in App Store Connect"
                : "editable now: " + editable.map { "\($0.versionString) (\($0.state))" }.joined(separator: ", ")
            guard let wanted = appVersion else {
                throw IAPKitError.invalidArgument(
                    "App Store Connect reviews an app's first in-app purchase or subscription with a new "
                        + "app version: pass --app-version VERSION (\(choices)); nothing was submitted")
            }
            guard let version = versions.first(where: { $0.versionString == wanted }) else {
                throw IAPKitError.invalidArgument("the app has no App Store version \(wanted) on \(chosen); \(choices)")
            }
            guard version.editable else {
                throw IAPKitError.invalidArgument("App Store version \(wanted) is \(version.state) and cannot go to review; \(choices)")
            }
            selection.items.append(.init(kind: .appStoreVersion, id: version.id, name: "app version \(wanted)"))
        }
        guard !selection.items.isEmpty else {
            if selection.isSettled { return .settled }
            throw IAPKitError.invalidArgument("nothing is ready for review (see the reasons above); nothing was submitted")
        }
        for item in selection.items { events(.note("+ \(item.name)")) }
        for sentence in selection.unsubmittedUnlocks { events(.warning(sentence)) }
        guard try await confirm(selection.items.count, app.id, chosen) else { return .declined }
        let submission = try await submitter.submit(app: app, platform: chosen, items: selection.items)
        return .submitted(id: submission, items: selection.items.count)
    }
}
