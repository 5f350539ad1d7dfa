import AppStoreConnect
import ArgumentParser
import CatalogSync
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
import SyncPlan

extension AscCommand {
    struct Submit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Submit the processed asset pack versions (and, with --with-iaps, products ready to submit) for App Store review.",
            discussion: """
                One review submission holds every asset pack whose latest version App Store Connect has processed \
                (COMPLETE) with the catalog's content; with --with-iaps also the in-app purchases and subscriptions \
                App Store Connect shows as ready to submit. If adding an item fails, the submission is cancelled. \
                On a terminal it asks first; elsewhere it needs --yes.

                Examples:
                  iapkit asc submit --yes
                  iapkit asc submit catalog.yaml --with-iaps --yes
                """)

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Flag(help: "Add the in-app purchases and subscriptions that are ready to submit.")
        var withIaps = false

        @Option(help: "IOS, MAC_OS, TV_OS or VISION_OS (default: the app's first platform).")
        var platform: String?

        @Flag(help: "Submit without asking (needed without a terminal).")
        var yes = false

        @OptionGroup var connection: Connection

        func run() async throws {
            try connection.refuseReplay("submit")
            let loaded = try AscCommand.loadCatalog(catalog, fullLint: false)
            let asc = try connection.client()
            let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
            let app = try await connection.app(reader, bundleID: loaded.app.bundleID, catalogAppID: loaded.app.appID)
            let snapshot = try await reader.snapshot(app: app)
            var desired = CatalogRecords()
            desired.assetPacks = try AssetPackRecord.desired(catalog: loaded, baseDirectory: Path.parent(catalog))
            let selection = ReviewSubmitter.select(snapshot, desired: desired,
                                                   products: withIaps ? Set(loaded.allProducts.compactMap(\.productID)) : nil)
            for note in selection.skipped { Terminal.writeError("- \(note)\n") }
            guard !selection.items.isEmpty else {
                throw IAPKitError.invalidArgument("nothing is ready for review; nothing was submitted")
            }
            for item in selection.items { Terminal.writeError("+ \(item.name)\n") }
            let codes = ["iOS": "IOS", "macOS": "MAC_OS", "tvOS": "TV_OS", "visionOS": "VISION_OS"]
            let chosen = platform ?? loaded.app.effectivePlatforms.first.flatMap { codes[$0] } ?? "IOS"
            guard codes.values.contains(chosen) else {
                throw IAPKitError.invalidArgument("--platform \(chosen) is not one of IOS, MAC_OS, TV_OS, VISION_OS")
            }
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw IAPKitError.invalidArgument("submit sends items for App Review; pass --yes to submit without a terminal")
                }
                Terminal.writeError("Submit \(selection.items.count) item(s) of app \(app.id) for review on \(chosen)? [y/N] ")
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    Terminal.writeError("Nothing was submitted.\n")
                    throw ExitCode(1)
                }
            }
            let submission = try await ReviewSubmitter(asc: asc).submit(app: app, platform: chosen, items: selection.items)
            try Terminal.output("submitted review submission \(submission) with \(selection.items.count) item(s)\n")
        }
    }
}
