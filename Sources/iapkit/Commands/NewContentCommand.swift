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
import HostedContent
import Packaging
import IAPCore

struct NewContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-content",
        abstract: "Create a hosted-content folder: ContentInfo.plist and Contents/.",
        discussion: """
            Templates live in templates/content/; text files in them get {{productId}} replaced (the version lives in \
            ContentInfo.plist alone, which bump raises).

            With --asset-pack ID it creates an asset pack instead: the folder OUTPUT/ID and its entry in the catalog's \
            assetPacks (an onDemand pack; --unlocked-by names the products whose purchase unlocks it). With \
            --from-hosted-content DIR it declares an existing hosted-content folder as an asset pack, its Contents/ \
            in place, unlocked by the folder's product, and says what carries over and what the app must change.

            Examples:
              iapkit new-content com.example.app.levels.forest --output content --template level-pack
              iapkit new-content --asset-pack forest --output packs --unlocked-by com.example.app.levels.forest
              iapkit new-content --from-hosted-content content/com.example.app.levels.forest
            """
    )

    @Argument(help: "The product ID the content belongs to; also the folder's name.")
    var productID: String?

    @Option(help: "Create an asset pack with this ID (its folder in --output, its entry in --catalog).")
    var assetPack: String?

    @Option(help: "Declare this hosted-content folder as an asset pack, its files in place.")
    var fromHostedContent: String?

    @Option(help: "The catalog an asset pack is added to.")
    var catalog: String = "catalog.yaml"

    @Option(help: "A product whose purchase unlocks the new asset pack (repeatable).")
    var unlockedBy: [String] = []

    @Option(name: .shortAndLong, help: "The folder to create the content folder in.")
    var output: String = "."

    @Option(help: "The first ContentVersion.")
    var contentVersion: String = "1.0"

    @Option(help: "The template under templates/content/.")
    var template: String = "default"

    @Flag(help: "Replace an existing folder.")
    var force = false

    func validate() throws {
        let packs = assetPack != nil || fromHostedContent != nil
        if packs && productID != nil {
            throw ValidationError("give a product ID for hosted content, or --asset-pack / --from-hosted-content, not both")
        }
        if !packs && productID == nil { throw ValidationError("give the product ID of the hosted content to create, or --asset-pack ID") }
        if !unlockedBy.isEmpty && assetPack == nil { throw ValidationError("--unlocked-by goes with --asset-pack") }
    }

    func run() throws {
        if assetPack != nil || fromHostedContent != nil { return try runAssetPack() }
        guard let productID else { return }
        let scaffolder = ContentScaffolder(templatesDirectory: try Resources.templates() + "/content")
        let path = try scaffolder.create(
            productID: productID, in: output, version: contentVersion,
            template: template, force: force)
        try Terminal.output("created \(path) (ContentVersion \(contentVersion), template \(template))\n")
    }

    private func runAssetPack() throws {
        let scaffolder = AssetPackScaffolder(catalogPath: catalog)
        let result: AssetPackScaffolder.Result
        if let folder = fromHostedContent {
            result = try scaffolder.migrate(hostedContent: folder, packID: assetPack)
            try Terminal.output("declared \(folder) as the asset pack `\(result.packID)` in \(catalog) (source \(result.source))\n")
        } else {
            result = try scaffolder.create(packID: assetPack ?? "", in: output, unlockedBy: unlockedBy)
            try Terminal.output("created \(Path.join(output, result.packID)) and the asset pack `\(result.packID)` in \(catalog)\n")
        }
        for note in result.notes { try Terminal.output("  - \(note)\n") }
    }
}
