import Foundation
import IAPCore

/// Finds the files iapkit ships beside its executable: `templates/` and `schemas/`.
enum Resources {
    /// `$IAPKIT_HOME`, else the nearest folder above the executable that holds `templates/content`
    /// (a checkout's `.build/release/iapkit`), else `PREFIX/share/iapkit` for an installed binary.
    static func home() throws(IAPKitError) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let home = environment["IAPKIT_HOME"], !home.isEmpty { return home }
        var directory = URL(fileURLWithPath: executablePath()).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("templates/content").path) {
                return directory.path
            }
            let shared = directory.appendingPathComponent("share/iapkit")
            if FileManager.default.fileExists(atPath: shared.appendingPathComponent("templates/content").path) {
                return shared.path
            }
            directory.deleteLastPathComponent()
        }
        throw .io(path: "templates/", reason: "cannot find iapkit's templates; set IAPKIT_HOME to the folder that holds templates/")
    }

    static func templates() throws(IAPKitError) -> String { try home() + "/templates" }
    static func schemas() throws(IAPKitError) -> String { try home() + "/schemas" }

    private static func executablePath() -> String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
