import ArgumentParser
import CatalogExchange
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

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn an existing StoreKit configuration into a catalog.",
        subcommands: [StoreKit.self]
    )

    struct StoreKit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "storekit",
            abstract: "Read a .storekit file (format \(StoreKitExporter.FormatVersion.range)) and write catalog YAML.",
            discussion: """
                What the catalog cannot hold (simulator settings, signing keys, group descriptions, keys it has no place \
                for) is reported as a warning; `iapkit export storekit -o` over the same file keeps it. \
                Prices in another storefront's currency become that territory's prices, never a USD price. With -o, \
                catalog.schema.json is written beside the catalog when absent.

                Example:
                  iapkit import storekit MyApp/Products.storekit --bundle-id com.example.myapp -o catalog.yaml
                """)

        @Argument(help: "The .storekit file.")
        var file: String

        @Option(name: .shortAndLong, help: "Write the catalog to this file instead of standard output.")
        var output: String?

        @Option(help: "The app's bundle ID (guessed from the product IDs when absent).")
        var bundleID: String?

        @Flag(help: "Replace an existing catalog file.")
        var force = false

        func run() throws {
            if let output, FileManager.default.fileExists(atPath: output), !force {
                throw IAPKitError.alreadyExists(path: output, hint: "pass --force to replace it")
            }
            let result = try StoreKitImporter(bundleID: bundleID).importFile(file)
            defer { KeptUntilExit.keep(result) }
            result.notes.forEach(Terminal.warning)
            let header =
                try CatalogSchemaFile.comment(for: output)
                + "# Imported from \(Path.lastComponent(file)) by iapkit import storekit.\n"
            let yaml = try CatalogYAMLWriter.bytes(result.catalog, header: header)
            if let output {
                try AtomicFile.write(yaml, to: output)
                Terminal.writeError("wrote \(output); check it with `iapkit lint catalog \(output)`\n")
            } else {
                try Terminal.output(yaml)
            }
        }
    }
}
