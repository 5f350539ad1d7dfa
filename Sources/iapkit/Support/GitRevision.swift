import Foundation
import IAPCore

/// A file as it was at a git revision (`git show REV:./FILE`, run in the file's folder), for `--changed-since`.
enum GitRevision {
    static func file(_ path: String, at revision: String) throws -> Data {
        let folder = Path.parent(path).isEmpty ? "." : Path.parent(path)
        let name = (path as NSString).lastPathComponent
        guard !revision.hasPrefix("-"), !revision.contains(":") else {
            throw IAPKitError.invalidArgument("--changed-since \(revision) is not a git revision")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder, "show", "\(revision):./\(name)"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw IAPKitError.invalidArgument("--changed-since needs git: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = message.split(separator: "\n").first.map(String.init) ?? "git show failed"
            throw IAPKitError.invalidArgument("--changed-since \(revision): cannot read \(path) at that revision (\(reason))")
        }
        return data
    }
}
