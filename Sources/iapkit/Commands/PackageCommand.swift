import ArgumentParser

struct PackageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "package", abstract: "Not built yet.")
}
