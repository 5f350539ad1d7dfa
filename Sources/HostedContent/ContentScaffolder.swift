import Foundation
import IAPCatalog
import IAPCore

/// Creates hosted-content folders from a template: `PRODUCT_ID/ContentInfo.plist` and `PRODUCT_ID/Contents/`.
public struct ContentScaffolder: Sendable {
    /// The folder holding one subfolder per template (`templates/content`).
    public let templatesDirectory: String

    public init(templatesDirectory: String) { self.templatesDirectory = templatesDirectory }

    /// The names of the available templates.
    public func templateNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: templatesDirectory)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: templatesDirectory + "/" + name, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }

    /// Creates the folder and returns its path. Everything is staged beside the destination and renamed into
    /// place, so a refusal or failure creates nothing.
    @discardableResult
    public func create(productID: String, in outputDirectory: String, version: String = "1.0",
                       template: String = "default", force: Bool = false) throws(IAPKitError) -> String {
        if let problem = ProductIdentifier.problem(with: productID) {
            throw .invalidArgument("\(problem).")
        }
        guard let contentVersion = ContentVersion(version) else {
            throw .invalidArgument("`\(version)` is not a valid content version; \(ContentVersion.invalidHint).")
        }
        let templatePath = templatesDirectory + "/" + template
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: templatePath, isDirectory: &isDirectory), isDirectory.boolValue else {
            let known = templateNames()
            throw .invalidArgument("unknown template `\(template)`; available: \(known.isEmpty ? "none found in \(templatesDirectory)" : known.joined(separator: ", ")).")
        }
        let destination = (outputDirectory as NSString).appendingPathComponent(productID)
        let exists = FileManager.default.fileExists(atPath: destination)
        if exists && !force {
            throw .alreadyExists(path: destination, hint: "pass --force to replace it, or `iapkit bump` to raise its version")
        }

        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: outputDirectory, reason: "cannot create the folder: \(AtomicFile.describe(error))")
        }
        let staging = (outputDirectory as NSString).appendingPathComponent(".\(productID).iapkit-\(UUID().uuidString)")
        do {
            try fileManager.createDirectory(atPath: staging + "/" + ContentInfo.contentsFolder, withIntermediateDirectories: true)
            let info = ContentInfo(productID: productID, version: contentVersion)
            try info.data().write(to: URL(fileURLWithPath: staging + "/" + ContentInfo.fileName))
            try copyTemplate(from: templatePath, to: staging,
                             substitutions: ["{{productId}}": productID, "{{contentVersion}}": contentVersion.description])
            if exists {
                let old = staging + ".replaced"
                try fileManager.moveItem(atPath: destination, toPath: old)
                try fileManager.moveItem(atPath: staging, toPath: destination)
                try? fileManager.removeItem(atPath: old)
            } else {
                try fileManager.moveItem(atPath: staging, toPath: destination)
            }
        } catch {
            try? fileManager.removeItem(atPath: staging)
            if let error = error as? IAPKitError { throw error }
            throw .io(path: destination, reason: AtomicFile.describe(error))
        }
        return destination
    }

    /// Copies the template's files; text files get `{{productId}}` and `{{contentVersion}}` replaced.
    /// A template's own `ContentInfo.plist` is ignored: the scaffolder writes that file itself.
    private func copyTemplate(from template: String, to destination: String, substitutions: [String: String]) throws {
        let fileManager = FileManager.default
        let tree = try ContentTree.scan(template)
        for entry in tree.entries where !entry.relativePath.isEmpty && entry.relativePath != ContentInfo.fileName {
            let target = destination + "/" + entry.relativePath
            switch entry.kind {
            case .directory:
                try fileManager.createDirectory(atPath: target, withIntermediateDirectories: true)
            case .file:
                let data = try Data(contentsOf: URL(fileURLWithPath: tree.absolutePath(of: entry)))
                if var text = String(data: data, encoding: .utf8), !data.contains(0) {
                    for (placeholder, value) in substitutions { text = text.replacingOccurrences(of: placeholder, with: value) }
                    try Data(text.utf8).write(to: URL(fileURLWithPath: target))
                } else {
                    try data.write(to: URL(fileURLWithPath: target))
                }
            case .symlink, .other:
                continue
            }
        }
    }
}
