#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IAPCatalog
import IAPCore

/// Finds the files iapkit ships beside its executable: `templates/` and `schemas/`.
///
/// In order: `$IAPKIT_SHARE` (or the older `$IAPKIT_HOME`); `../share/iapkit` beside the executable's real path,
/// which is where the release archive, Homebrew and the container image put it, wherever they were unpacked and
/// however the executable was linked onto PATH; then a checkout, the nearest folder above the executable that holds
/// `templates/content` (`.build/release/iapkit`).
enum Resources {
    static func home() throws(IAPKitError) -> String {
        let environment = ProcessInfo.processInfo.environment
        for variable in ["IAPKIT_SHARE", "IAPKIT_HOME"] {
            guard let folder = environment[variable], !folder.isEmpty else { continue }
            guard isHome(folder) else {
                throw .io(path: folder, reason: "\(variable) names a folder without templates/content and schemas/")
            }
            return folder
        }
        let executable = executablePath()
        let bin = Path.parent(executable)
        let installed = Path.standardized(Path.join(bin, "../share/iapkit"))
        if isHome(installed) { return installed }
        var directory = bin
        for _ in 0..<8 where !directory.isEmpty && directory != "/" {
            if isHome(directory) { return directory }
            directory = Path.parent(directory)
        }
        throw .io(
            path: installed,
            reason: "cannot find iapkit's templates: looked for share/iapkit beside \(bin) and "
                + "for a checkout above it. Unpack the whole release archive (bin/ and share/ together), or set "
                + "IAPKIT_SHARE to the folder that holds templates/ and schemas/")
    }

    static func templates() throws(IAPKitError) -> String { try home() + "/templates" }

    private static func isHome(_ folder: String) -> Bool {
        Path.isDirectory(folder + "/templates/content")
    }

    /// The executable's real path, links resolved: what the kernel ran, not what argv[0] says.
    static func executablePath() -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            buffer[count] = 0
            return String(cString: buffer)
        }
        #elseif canImport(Darwin)
        var size = UInt32(PATH_MAX) + 1
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) != 0 { buffer = [CChar](repeating: 0, count: Int(size)) }
        if _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        #endif
        let argument = CommandLine.arguments.first ?? "iapkit"
        if let resolved = realpath(argument, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return argument
    }
}

/// The catalog's JSON Schema beside a catalog, so the `$schema` comment written at its top names a file that exists:
/// written from the declarations this iapkit reads catalogs with (`schemas/catalog.schema.json` holds the same).
enum CatalogSchemaFile {
    static let name = "catalog.schema.json"

    /// Writes the schema beside `catalogPath` unless one is there already (a team may keep its own copy); with
    /// `files`, stages it there for the caller to commit with the catalog.
    static func ensure(beside catalogPath: String, staging files: FileTransaction? = nil) throws {
        let destination = Path.join(Path.parent(catalogPath), name)
        guard !FileManager.default.fileExists(atPath: destination) else { return }
        let schema = Array(CatalogFormat.schema.serialized(.pretty).utf8)
        if let files { try files.stage(destination).write(schema) } else { try AtomicFile.write(schema, to: destination) }
    }

    /// The header line editors with a YAML language server read: only for a catalog written to a file, after
    /// `ensure` put the schema beside it.
    static func comment(for catalogPath: String?, staging files: FileTransaction? = nil) throws -> String {
        guard let catalogPath else { return "" }
        try ensure(beside: catalogPath, staging: files)
        return "# yaml-language-server: $schema=\(name)\n"
    }
}
