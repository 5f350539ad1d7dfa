import ArgumentParser
import CatalogExchange
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
import IAPLint

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write catalog JSON: a StoreKit configuration, App Store Connect requests, a server list, a bundle plist.",
        discussion: """
            Export refuses (exit 1) a catalog whose shape is wrong (schema, type or product-ID errors); run \
            `iapkit lint catalog` for every App Store Connect rule. `export storekit` refuses only what Xcode's StoreKit \
            testing cannot take (schema and type errors, a product ID twice or empty) and says App Store Connect's \
            errors as warnings.

            Examples:
              iapkit export storekit -o MyApp/Products.storekit
              iapkit export asc --app-id 1234567890 -o asc-requests.json
              iapkit export json catalog.yaml -o server/products.json
              iapkit export plist -o MyApp/ProductIDs.plist
            """,
        subcommands: [StoreKit.self, ASC.self, JSON.self, Plist.self]
    )

    struct Common: ParsableArguments {
        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        /// Loads the catalog and checks its shape; errors go to stderr and stop the export. Only problems that make
        /// the output itself wrong stop an export: a simulator configuration is useful long before every App Store
        /// Connect field is filled in (`iapkit lint catalog` checks those).
        func load(_ strictness: LintGate.Strictness = .shape) throws -> Catalog {
            try LintGate.catalog(
                catalog, strictness: strictness, advice: "fix them before exporting", reportsProducts: false,
                findings: { finding in
                    // What the simulator takes and App Store Connect refuses, said once here; lint says the rest.
                    guard strictness == .simulator, finding.severity == .warning else { return }
                    Terminal.warning("\(finding.location): \(finding.message) [\(finding.ruleID)]")
                })
        }

        func emit(_ text: String) throws { try emit(Array(text.utf8)) }

        func emit(_ bytes: [UInt8]) throws {
            if let output {
                try AtomicFile.write(bytes, to: output)
                Terminal.writeError("wrote \(output)\n")
            } else {
                try Terminal.output(bytes)
            }
        }
    }

    struct StoreKit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "storekit",
            abstract: "A StoreKit configuration for Xcode and the simulator, in Xcode's exact layout.",
            discussion: """
                Without --format-version, the catalog's storeKit.formatVersion (the imported file's), else the format of \
                the file at -o, else 4.0.

                Over an existing file (-o), only what the catalog describes changes: the file's identifiers and internal \
                IDs, simulator and synced settings, app policies, locales as written and what the catalog has no place \
                for stay, so a file imported and exported over itself comes back unchanged. --fresh writes a new file.

                Example:
                  iapkit export storekit --format-version 5.0 -o Products.storekit
                """)

        @OptionGroup var common: Common

        @Option(
            help:
                "StoreKit configuration format, \(StoreKitExporter.FormatVersion.range): 1.2, 2.0, 3.0, 4.0 (Xcode 16, the default), 5.0 (Xcode 26), 6.3 (Xcode 27)."
        )
        var formatVersion: StoreKitExporter.FormatVersion?

        @Flag(help: "Write a new file even where -o names an existing one, with iapkit's own IDs and settings.")
        var fresh = false

        func run() throws {
            // The simulator takes what App Store Connect refuses (a price off its grid, an empty name): those are warnings.
            var catalog = try common.load(.simulator)
            // The file at -o, updated rather than replaced.
            let update = try common.output.flatMap { output throws -> StoreKitUpdate? in
                guard !fresh, FileManager.default.fileExists(atPath: output) else { return nil }
                return try StoreKitUpdate(data: InputFile.read(output, limit: InputFile.Limit.json), file: output)
            }
            var version = formatVersion ?? update?.formatVersion ?? .v4_0
            if formatVersion == nil, let kept = catalog.storeKit?.formatVersion {
                guard let known = StoreKitExporter.FormatVersion(rawValue: kept) else {
                    throw IAPKitError.malformed(
                        location: catalog.location(of: .root / "storeKit" / "formatVersion"),
                        reason: "storeKit.formatVersion `\(kept)` is not one iapkit writes (\(StoreKitExporter.FormatVersion.range)); "
                            + "correct it, or pass --format-version \(StoreKitExporter.FormatVersion.newest)")
                }
                version = known
            }
            let exporter = StoreKitExporter(version: version)
            exporter.unsupported(in: catalog).forEach(Terminal.warning)
            // Nothing below reports a location: the YAML text goes before the output is built, lowering the peak.
            catalog.releaseSourceText()
            KeptUntilExit.keep(catalog)
            if let update, let output = common.output {
                let (bytes, dropped) = try update.changes(catalog, version: version)
                if !dropped.isEmpty {
                    Terminal.warning(
                        "not written in format \(version), older than the file's \(update.formatVersion?.rawValue ?? ""): "
                            + dropped.map { "`\($0)`" }.joined(separator: ", ")
                            + " (keys the catalog has no place for, which that format may not have)")
                }
                if let bytes {
                    try AtomicFile.write(bytes, to: output)
                    Terminal.writeError("updated \(output), keeping its IDs and settings (--fresh writes a new file)\n")
                } else {
                    Terminal.writeError("\(output) already matches the catalog; left unchanged\n")
                }
                return
            }
            try common.emit(exporter.exportBytes(catalog))
        }
    }

    struct ASC: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "asc",
            abstract: "The App Store Connect API requests `iapkit asc push` sends to an app with no products, in order.",
            discussion: """
                Each request is {"method", "path", "body", "ref"}; later bodies name earlier resources as ${ref}, and price \
                points as ${pricePoint:REF:TERRITORY:PRICE} (REF's point whose USA customer price is PRICE, or its \
                equalization in TERRITORY). For teams with their own uploader; `iapkit asc push` sends them itself.

                Example:
                  iapkit export asc --app-id 1234567890 -o asc-requests.json
                """)

        @OptionGroup var common: Common

        @Option(help: "The app's App Store Connect id (its Apple ID, a number).")
        var appID: String

        func run() async throws {
            let connection = SyncConnection()
            try common.emit(try await SyncWorkflow(catalogPath: common.catalog, connection: connection).requests(appID: appID))
        }
    }

    struct JSON: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "json",
            abstract: "The resolved catalog for an app's own server: defaults applied, prices as USD decimal strings.",
            discussion: "Example:\n  iapkit export json -o server/products.json")

        @OptionGroup var common: Common

        func run() throws { try common.emit(ServerCatalogExporter.json(try common.load())) }
    }

    struct Plist: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plist",
            abstract: "The product IDs as an XML property-list array, for the app bundle.",
            discussion: """
                With --asset-packs: a dictionary of asset pack ID to its DownloadPolicy and the product IDs whose \
                purchase unlocks it (UnlockedBy), for the app to know which packs a purchase opens.

                Examples:
                  iapkit export plist -o MyApp/ProductIDs.plist
                  iapkit export plist --asset-packs -o MyApp/AssetPacks.plist
                """)

        @OptionGroup var common: Common

        @Flag(help: "Write the asset packs and the products that unlock them instead of the product IDs.")
        var assetPacks = false

        func run() throws {
            let catalog = try common.load()
            try common.emit(assetPacks ? try AssetPackMap.plist(catalog) : try ServerCatalogExporter.plist(catalog))
        }
    }
}

extension StoreKitExporter.FormatVersion: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
