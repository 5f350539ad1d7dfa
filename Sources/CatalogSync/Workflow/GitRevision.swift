#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// A file as it was at a git revision (`git show REV:./FILE`, run in the file's folder), for `--changed-since` and
/// `--base` (`option` names the one given, for its messages).
enum GitRevision {
    static func file(_ path: String, at revision: String, option: String = "--changed-since") throws -> Data {
        let folder = Path.parent(path).isEmpty ? "." : Path.parent(path)
        let name = Path.lastComponent(path)
        guard !revision.hasPrefix("-"), !revision.contains(":") else {
            throw IAPKitError.invalidArgument("\(option) \(revision) is not a git revision")
        }
        let git: ChildProcess
        do {
            git = try ChildProcess.run("git", ["show", "\(revision):./\(name)"], in: folder, outputLimit: InputFile.Limit.catalog)
        } catch {
            throw IAPKitError.invalidArgument("\(option) needs git: \(error.description)")
        }
        // 127: the shell found no git to run.
        guard git.status != 127 else { throw IAPKitError.invalidArgument("\(option) needs git, and there is none on PATH") }
        guard git.status == 0 else {
            let message = String(decoding: git.errors, as: UTF8.self)
            let reason = message.split(separator: "\n").first.map(String.init) ?? "git show failed"
            throw IAPKitError.invalidArgument("\(option) \(revision): cannot read \(path) at that revision (\(reason))")
        }
        guard !git.outputTruncated else {
            throw IAPKitError.invalidArgument("\(option) \(revision): \(path) at that revision is larger than a catalog may be")
        }
        return Data(git.output)
    }
}
