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
            commandName: "submit",
            abstract: "Submit the processed asset pack versions (and, with --with-iaps, products ready to submit) for App Store review.",
            discussion: """
                One review submission holds every asset pack whose latest version App Store Connect has processed \
                (COMPLETE) with the catalog's content (packs declared `release: testflight` stay out); with --with-iaps \
                also the in-app purchases and subscriptions App Store Connect shows as ready to submit, and for every \
                other catalog product what holds it back, with its catalog line. An app's first in-app purchase or \
                subscription goes to review with a new app version: --app-version names it. If adding an item fails, \
                the submission is cancelled. When everything is already in review, it says so and exits 0. On a \
                terminal it asks first; elsewhere it needs --yes.

                Examples:
                  iapkit asc submit --yes
                  iapkit asc submit catalog.yaml --with-iaps --app-version 2.4 --yes
                """)

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Flag(help: "Add the in-app purchases and subscriptions that are ready to submit.")
        var withIaps = false

        @Option(help: ArgumentHelp("Add this App Store version of the app (its version string, such as 2.4) to the submission, "
                                   + "as App Store Connect requires for an app's first in-app purchase or subscription.",
                                   valueName: "version"))
        var appVersion: String?

        @Option(help: "IOS, MAC_OS, TV_OS or VISION_OS (default: the app's first platform).")
        var platform: String?

        @Flag(help: "Submit without asking (needed without a terminal).")
        var yes = false

        @OptionGroup var connection: Connection

        func run() async throws {
            try connection.refuseReplay("submit")
            let loaded = try AscCommand.loadCatalog(catalog, fullLint: false)
            let codes = ["iOS": "IOS", "macOS": "MAC_OS", "tvOS": "TV_OS", "visionOS": "VISION_OS"]
            let chosen = platform ?? loaded.app.effectivePlatforms.first.flatMap { codes[$0] } ?? "IOS"
            guard codes.values.contains(chosen) else {
                throw IAPKitError.invalidArgument("--platform \(chosen) is not one of IOS, MAC_OS, TV_OS, VISION_OS")
            }
            let asc = try connection.client()
            let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
            let app = try await connection.app(reader, bundleID: loaded.app.bundleID, catalogAppID: loaded.app.appID)
            let snapshot = try await reader.snapshot(app: app)
            var desired = CatalogRecords()
            desired.assetPacks = try AssetPackRecord.desired(catalog: loaded, baseDirectory: Path.parent(catalog))
            var selection = ReviewSubmitter.select(snapshot, desired: desired, catalog: loaded,
                                                   products: withIaps ? Set(loaded.allProducts.compactMap(\.productID)) : nil)
            for skipped in selection.skipped {
                Terminal.writeError("- \(skipped.location.map { "\($0): " } ?? "")\(skipped.text)\n")
            }
            let submitter = ReviewSubmitter(asc: asc)
            if selection.needsAppVersion || appVersion != nil {
                let versions = try await submitter.appVersions(app: app, platform: chosen)
                let editable = versions.filter(\.editable)
                let choices = editable.isEmpty ? "the app has no App Store version on \(chosen) that can go to review; create one in App Store Connect"
                    : "editable now: " + editable.map { "\($0.versionString) (\($0.state))" }.joined(separator: ", ")
                if let wanted = appVersion {
                    guard let version = versions.first(where: { $0.versionString == wanted }) else {
                        throw IAPKitError.invalidArgument("the app has no App Store version \(wanted) on \(chosen); \(choices)")
                    }
                    guard version.editable else {
                        throw IAPKitError.invalidArgument("App Store version \(wanted) is \(version.state) and cannot go to review; \(choices)")
                    }
                    selection.items.append(.init(kind: .appStoreVersion, id: version.id, name: "app version \(wanted)"))
                } else {
                    throw IAPKitError.invalidArgument("App Store Connect reviews an app's first in-app purchase or subscription with a new "
                        + "app version: pass --app-version VERSION (\(choices)); nothing was submitted")
                }
            }
            guard !selection.items.isEmpty else {
                if selection.isSettled {
                    try Terminal.output("Nothing to submit: everything of the catalog is already in review, reviewed, or for TestFlight only.\n")
                    return
                }
                throw IAPKitError.invalidArgument("nothing is ready for review (see the reasons above); nothing was submitted")
            }
            for item in selection.items { Terminal.writeError("+ \(item.name)\n") }
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
            let submission = try await submitter.submit(app: app, platform: chosen, items: selection.items)
            try Terminal.output("submitted review submission \(submission) with \(selection.items.count) item(s)\n")
        }
    }
}
