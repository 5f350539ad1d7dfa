import ArgumentParser
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

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter catalog.yaml that lints clean.",
        discussion: """
            Also writes catalog.schema.json beside it, so editors complete and check the catalog.

            Example:
              iapkit init MyApp/Store
            """
    )

    @Argument(help: "The folder to write catalog.yaml into.")
    var directory: String = "."

    @Flag(help: "Replace an existing catalog.yaml.")
    var force = false

    func run() throws {
        let catalogPath = Path.join(directory, "catalog.yaml")
        if FileManager.default.fileExists(atPath: catalogPath) && !force {
            throw IAPKitError.alreadyExists(path: catalogPath, hint: "pass --force to replace it")
        }
        let template = try Resources.templates() + "/catalog.yaml"
        let catalog = try InputFile.read(template, limit: InputFile.Limit.templateFile)
        try AtomicFile.write(Array(CatalogFormat.schema.serialized(.pretty).utf8), to: Path.join(directory, CatalogSchemaFile.name))
        try AtomicFile.write(catalog, to: catalogPath)
        try Terminal.output("wrote \(catalogPath)\nnext: edit it, then run `iapkit lint catalog \(catalogPath)`\n")
    }
}
