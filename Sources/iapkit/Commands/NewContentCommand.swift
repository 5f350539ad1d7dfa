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
import IAPCore

struct NewContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-content",
        abstract: "Create a hosted-content folder: ContentInfo.plist and Contents/.",
        discussion: """
            Templates live in templates/content/; text files in them get {{productId}} and {{contentVersion}} replaced.

            Example:
              iapkit new-content com.example.app.levels.forest --output content --template level-pack
            """
    )

    @Argument(help: "The product ID the content belongs to; also the folder's name.")
    var productID: String

    @Option(name: .shortAndLong, help: "The folder to create the content folder in.")
    var output: String = "."

    @Option(help: "The first ContentVersion.")
    var contentVersion: String = "1.0"

    @Option(help: "The template under templates/content/.")
    var template: String = "default"

    @Flag(help: "Replace an existing folder.")
    var force = false

    func run() throws {
        let scaffolder = ContentScaffolder(templatesDirectory: try Resources.templates() + "/content")
        let path = try scaffolder.create(productID: productID, in: output, version: contentVersion,
                                         template: template, force: force)
        try Terminal.output("created \(path) (ContentVersion \(contentVersion), template \(template))\n")
    }
}
