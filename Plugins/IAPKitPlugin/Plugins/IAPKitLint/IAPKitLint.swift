import Foundation
import PackagePlugin

/// `swift package iapkit-lint [--catalog PATH] [IAPKIT LINT OPTIONS...]`
///
/// Runs `iapkit lint catalog` on the package's catalog: `--catalog PATH` (relative to the package), else
/// `catalog.yaml` at the package's root, else the only `catalog.yaml` below it (outside `.build`). Every other
/// argument goes to iapkit (`--strict`, `--format github`, `-o FILE`). Findings print as iapkit prints them; errors
/// (or warnings with `--strict`) fail the command.
@main
struct IAPKitLint: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var rest = arguments
        var catalog: String?
        if let index = rest.firstIndex(of: "--catalog") {
            guard index + 1 < rest.count else { throw PluginError("--catalog needs a path") }
            catalog = rest[index + 1]
            rest.removeSubrange(index...(index + 1))
        }
        let root = context.package.directoryURL
        let path = try catalog.map { root.appending(path: $0).path } ?? findCatalog(in: root)
        let tool = try context.tool(named: "iapkit")

        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["lint", "catalog", path] + rest
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 1: throw PluginError("iapkit lint found problems in \(path)")
        default: throw PluginError("iapkit lint could not check \(path) (exit \(process.terminationStatus))")
        }
    }

    private func findCatalog(in root: URL) throws -> String {
        let atRoot = root.appending(path: "catalog.yaml")
        if FileManager.default.fileExists(atPath: atRoot.path) { return atRoot.path }
        var found: [String] = []
        let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: nil,
            options: [.skipsHiddenFiles])
        while let url = walker?.nextObject() as? URL {
            if url.lastPathComponent == ".build" || url.lastPathComponent.hasPrefix(".build-") {
                walker?.skipDescendants()
            } else if url.lastPathComponent == "catalog.yaml" {
                found.append(url.path)
            }
        }
        guard found.count == 1 else {
            throw PluginError(
                found.isEmpty
                    ? "no catalog.yaml in \(root.path); create one with `iapkit init` or pass --catalog PATH"
                    : "several catalog.yaml files (\(found.joined(separator: ", "))); pass --catalog PATH")
        }
        return found[0]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
