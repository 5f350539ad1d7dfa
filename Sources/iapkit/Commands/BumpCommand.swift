import ArgumentParser
import HostedContent
import IAPCore

struct BumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bump",
        abstract: "Raise ContentVersion in hosted-content folders.",
        discussion: """
            --patch (default): 1.0 -> 1.0.1, 1.0.1 -> 1.0.2; --minor: 1.0.1 -> 1.1; --major: 1.4 -> 2.0. \
            --set takes only a version above the folder's (devices fetch content again only for a higher one). \
            Only ContentVersion changes; every other key is kept. All folders are checked before any is written.

            Example:
              iapkit bump content/com.example.app.levels.forest --minor
            """
    )

    @Argument(help: "Hosted-content folders.")
    var folders: [String]

    @Flag(help: "Which part of the version to raise.")
    var part: ContentVersion.Bump = .patch

    @Option(help: "Set this exact version instead; it must be above the current one.")
    var set: String?

    func validate() throws {
        if folders.isEmpty { throw ValidationError("name at least one hosted-content folder") }
    }

    func run() throws {
        let change: ContentBumper.Change = set.map { .set($0) } ?? .bump(part)
        for result in try ContentBumper.bump(folders: folders, change: change) {
            try Terminal.output("\(result.folder): \(result.oldVersion) -> \(result.newVersion)\n")
        }
    }
}

extension ContentVersion.Bump: EnumerableFlag {}
