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

/// Replaces several files as one: after a commit either every final path holds the new file or every one still
/// holds the old, even when the process is interrupted or killed at any moment.
///
/// Each file is staged under a temporary name beside its final path (so each rename stays on one file system) and
/// written in full. Commit then writes a journal, `.iapkit-commit.json`, naming every rename: the journal's own
/// atomic rename is the commit point. The renames follow, and the journal is removed last. A run killed before the
/// journal exists leaves only temporary files, which the next run removes (the old set stands); a run killed after
/// it leaves the journal, and the next run finishes the renames before doing anything else (the new set stands).
/// Interruptions (SIGINT/SIGTERM) wait for a commit in progress, so they never leave a journal.
public final class FileTransaction: @unchecked Sendable {
    public static let journalName = ".iapkit-commit.json"

    /// Where the journal lives: the folder that holds most of the files, where the next run looks.
    public let journalDirectory: String
    private var staged: [StagedFile] = []

    public init(journalDirectory: String) { self.journalDirectory = journalDirectory }

    /// A new temporary file for `finalPath`, committed with the others (its temporary name ends with the final
    /// name's extension with `keepingExtension`).
    public func stage(_ finalPath: String, permissions: Int = 0o644, keepingExtension: Bool = false) throws(IAPKitError) -> StagedFile {
        let file = try StagedFile(finalPath: finalPath, permissions: permissions, keepingExtension: keepingExtension)
        staged.append(file)
        return file
    }

    /// Removes every temporary file; no final path changes.
    public func discard() {
        staged.forEach { $0.discard() }
        staged = []
    }

    deinit { discard() }

    /// Flushes every file, then moves all of them into place as one (with none staged, there is nothing to do).
    public func commit() throws(IAPKitError) {
        guard !staged.isEmpty else { return }
        for file in staged { try file.finish() }
        let files = staged
        let journalPath = Path.join(journalDirectory, Self.journalName)
        let renames = files.map { (from: relative($0.temporaryPath), to: relative($0.finalPath)) }
        let journal = JSONValue.object([
            ("owner", .int(Int(getpid()))),
            ("renames", .array(renames.map { .object([("from", .string($0.from)), ("to", .string($0.to))]) })),
        ])
        let journalFile = try StagedFile(finalPath: journalPath)
        try journalFile.write(Data(journal.serialized(.pretty).utf8))
        try journalFile.finish()
        try StagedFiles.shared.withCommitLock(forgetting: files.map(\.temporaryPath) + [journalFile.temporaryPath]) { () throws(IAPKitError) in
            guard rename(journalFile.temporaryPath, journalPath) == 0 else {
                throw IAPKitError.io(path: journalPath, reason: "cannot move into place: \(String(cString: strerror(errno)))")
            }
            journalFile.markCommitted()
            StagedFiles.syncDirectories(of: [journalPath])
            // From here on the new set is decided: a failure leaves the journal and the temporary files for the next
            // run to finish, so none of them may be discarded now.
            files.forEach { $0.markCommitted() }
            for file in files {
                guard rename(file.temporaryPath, file.finalPath) == 0 else {
                    throw IAPKitError.io(
                        path: file.finalPath,
                        reason: "cannot move into place: \(String(cString: strerror(errno))); "
                            + "the next run finishes the commit from \(journalPath)")
                }
            }
            StagedFiles.syncDirectories(of: files.map(\.finalPath))
            unlink(journalPath)
            StagedFiles.syncDirectories(of: [journalPath])
        }
        staged = []
    }

    /// Finishes a commit that a killed run left in `directory`, if any; returns whether there was one.
    @discardableResult
    public static func recover(journalDirectory directory: String) throws(IAPKitError) -> Bool {
        let journalPath = Path.join(directory, journalName)
        guard FileManager.default.fileExists(atPath: journalPath) else { return false }
        let data = try InputFile.read(journalPath, limit: InputFile.Limit.lock)
        guard let root = try? JSONValue.parse(data), case let .object(fields) = root,
            case let .array(renames)? = fields.first(where: { $0.0 == "renames" })?.1
        else {
            throw .malformed(
                location: SourceLocation(file: journalPath),
                reason: "is not a commit journal iapkit wrote; remove it if no iapkit is running")
        }
        if case let .int(owner)? = fields.first(where: { $0.0 == "owner" })?.1, owner != Int(getpid()),
            kill(pid_t(owner), 0) == 0
        {
            return false  // Still committing in another process.
        }
        var finals: [String] = []
        for case let .object(pair) in renames {
            guard case let .string(from)? = pair.first(where: { $0.0 == "from" })?.1,
                case let .string(to)? = pair.first(where: { $0.0 == "to" })?.1
            else { continue }
            let source = absolute(from, in: directory), target = absolute(to, in: directory)
            // A missing temporary file was already renamed before the run was killed.
            guard StagedFiles.owner(ofTemporaryName: Path.lastComponent(source)) != nil,
                access(source, F_OK) == 0
            else { continue }
            if rename(source, target) != 0 {
                throw .io(path: target, reason: "cannot finish the interrupted commit: \(String(cString: strerror(errno)))")
            }
            finals.append(target)
        }
        StagedFiles.syncDirectories(of: finals)
        unlink(journalPath)
        StagedFiles.syncDirectories(of: [journalPath])
        return true
    }

    /// Paths in the journal's folder are stored by name, so the folder can move; others absolutely.
    private func relative(_ path: String) -> String {
        let folder = Path.parent(path)
        if Self.standard(folder) == Self.standard(journalDirectory) { return Path.lastComponent(path) }
        return Self.standard(path)
    }

    private static func absolute(_ stored: String, in directory: String) -> String {
        stored.hasPrefix("/") ? stored : Path.join(directory, stored)
    }

    private static func standard(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + (path.isEmpty ? "." : path)
        return Path.standardized(full)
    }
}
