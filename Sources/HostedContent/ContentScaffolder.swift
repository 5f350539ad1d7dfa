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

/// Creates hosted-content folders from a template: `PRODUCT_ID/ContentInfo.plist` and `PRODUCT_ID/Contents/`.
public struct ContentScaffolder: Sendable {
    /// The folder holding one subfolder per template (`templates/content`).
    public let templatesDirectory: String

    public init(templatesDirectory: String) { self.templatesDirectory = templatesDirectory }

    /// What templates may no longer hold: a copy of the version that `bump` would leave behind.
    static let versionPlaceholder = "{{contentVersion}}"

    /// The names of the available templates.
    public func templateNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: templatesDirectory)) ?? []
        return names.filter { templateFolder(named: $0) != nil }.sorted()
    }

    /// Creates the folder and returns its path. Everything is staged beside the destination and renamed into
    /// place, so a refusal or failure creates nothing.
    @discardableResult
    public func create(
        productID: String, in outputDirectory: String, version: String = "1.0",
        template: String = "default", force: Bool = false
    ) throws(IAPKitError) -> String {
        if let problem = ProductIdentifier.problem(with: productID) {
            throw .invalidArgument("\(problem).")
        }
        guard let contentVersion = ContentVersion(version) else {
            throw .invalidArgument("`\(version)` is not a valid content version; \(ContentVersion.invalidHint).")
        }
        guard let templatePath = templateFolder(named: template) else {
            let known = templateNames()
            throw .invalidArgument(
                "unknown template `\(template)`; available: \(known.isEmpty ? "none" : known.joined(separator: ", ")) "
                    + "(a template is the name of a folder in \(templatesDirectory)).")
        }
        try refuseVersionCopies(in: templatePath)
        let destination = Path.join(outputDirectory, productID)
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
        let staging = try StagedFiles.shared.createDirectory(beside: destination)
        do {
            try fileManager.createDirectory(atPath: staging + "/" + ContentInfo.contentsFolder, withIntermediateDirectories: true)
            let info = ContentInfo(productID: productID, version: contentVersion)
            try info.data().write(to: URL(fileURLWithPath: staging + "/" + ContentInfo.fileName))
            try copyTemplate(from: templatePath, to: staging, substitutions: ["{{productId}}": productID])
            // The old folder moves aside onto an empty temporary folder (rename replaces an empty folder); both renames
            // happen under the commit lock, so an interruption never finds the old folder gone and the new not there.
            let aside = exists ? try StagedFiles.shared.createDirectory(beside: destination) : nil
            try StagedFiles.shared.withCommitLock(forgetting: [staging]) { () throws(IAPKitError) in
                if let aside, rename(destination, aside) != 0 {
                    throw IAPKitError.io(path: destination, reason: "cannot move the old folder aside: \(String(cString: strerror(errno)))")
                }
                if rename(staging, destination) != 0 {
                    let reason = String(cString: strerror(errno))
                    if let aside { rename(aside, destination) }
                    throw IAPKitError.io(path: destination, reason: "cannot move into place: \(reason)")
                }
            }
            if let aside { StagedFiles.shared.remove(aside) }
        } catch {
            StagedFiles.shared.remove(staging)
            if let error = error as? IAPKitError { throw error }
            throw .io(path: destination, reason: AtomicFile.describe(error))
        }
        return destination
    }

    /// The template's folder, only when `name` is one plain folder name inside the templates folder: not a path,
    /// not hidden, not a link, and still inside once every link above it is resolved.
    func templateFolder(named name: String) -> String? {
        guard OutputPath.isPlainName(name) else { return nil }
        let path = templatesDirectory + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        let root = URL(fileURLWithPath: templatesDirectory).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return resolved.hasPrefix(root + "/") ? path : nil
    }

    /// The version lives in ContentInfo.plist alone, which `iapkit bump` raises: a template that would write
    /// `{{contentVersion}}` into a file is refused before anything is created, since that copy would go stale on the
    /// first bump.
    private func refuseVersionCopies(in template: String) throws(IAPKitError) {
        let tree = try ContentTree.scan(template)
        for entry in tree.entries where entry.kind == .file && entry.relativePath != ContentInfo.fileName {
            let data = try InputFile.read(tree.absolutePath(of: entry), limit: InputFile.Limit.templateFile)
            guard String(decoding: data, as: UTF8.self).contains(Self.versionPlaceholder) else { continue }
            throw .invalidArgument(
                "the template \(Path.lastComponent(template)) writes \(Self.versionPlaceholder) into \(entry.relativePath), "
                    + "which `iapkit bump` would leave stale: the version lives in ContentInfo.plist alone (the app reads it "
                    + "there, or from the download); take the placeholder out of the template")
        }
    }

    /// Copies the template's files; text files get `{{productId}}` replaced. A template's own `ContentInfo.plist` is
    /// ignored: the scaffolder writes that file itself.
    private func copyTemplate(from template: String, to destination: String, substitutions: [String: String]) throws {
        let fileManager = FileManager.default
        let tree = try ContentTree.scan(template)
        for entry in tree.entries where !entry.relativePath.isEmpty && entry.relativePath != ContentInfo.fileName {
            let target = destination + "/" + entry.relativePath
            switch entry.kind {
            case .directory:
                try fileManager.createDirectory(atPath: target, withIntermediateDirectories: true)
            case .file:
                let data = try InputFile.read(tree.absolutePath(of: entry), limit: InputFile.Limit.templateFile)
                if var text = String(data: data, encoding: .utf8), !data.contains(0) {
                    for (placeholder, value) in substitutions { text = text.replacingAll(placeholder, with: value) }
                    try Data(text.utf8).write(to: URL(fileURLWithPath: target))
                } else {
                    try data.write(to: URL(fileURLWithPath: target))
                }
            case .symlink, .other:
                continue  // A link could point anywhere: templates copy only their own files.
            }
        }
    }
}
