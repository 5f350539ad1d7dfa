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

/// Writes files all-or-nothing: data goes to a temporary file in the destination directory and is
/// renamed into place, so an interrupted or failing run never leaves a partial file at a final path.
public enum AtomicFile {
    /// Writes `data` (a `Data`, or an array of bytes without copying it) to `path` atomically, creating the parent
    /// directory if needed. A file being replaced keeps its mode and owner; `permissions` is for a new file.
    public static func write<Bytes: DataProtocol>(_ data: Bytes, to path: String, permissions: Int = 0o644) throws(IAPKitError) {
        let staged = try StagedFile(finalPath: path, permissions: permissions)
        try staged.write(data)
        try staged.commit()
    }

    public static func write(_ text: String, to path: String) throws(IAPKitError) {
        try write(Data(text.utf8), to: path)
    }

    /// A short reason for a Foundation or POSIX error ("No such file or directory").
    public static func describe(_ error: any Error) -> String {
        if let system = error as? SystemError { return system.description }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        #if canImport(FoundationEssentials)
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
                return String(cString: strerror(posix.code.rawValue))
            }
        }
        return (error as? LocalizedError)?.errorDescription ?? String(describing: error)
        #else
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
        #endif
    }
}

/// A temporary file beside its final path, committed by rename or discarded.
/// Every open staged file is registered so an interruption can remove it (see `StagedFiles`).
public final class StagedFile: @unchecked Sendable {
    public let finalPath: String
    public let temporaryPath: String
    public let handle: OutputHandle
    private var done = false
    private var finished = false

    public init(finalPath: String, permissions: Int = 0o644, keepingExtension: Bool = false) throws(IAPKitError) {
        let url = URL(fileURLWithPath: finalPath)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: directory, reason: "cannot create directory: \(AtomicFile.describe(error))")
        }
        let (fd, path) = try StagedFiles.shared.createFile(
            directory: directory, name: url.lastPathComponent, finalPath: finalPath,
            keepingExtension: keepingExtension)
        // A replaced file keeps its mode and, where the process may set it, its owner.
        var existing = stat()
        if stat(finalPath, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFREG {
            fchmod(fd, existing.st_mode & 0o7777)
            if existing.st_uid != getuid() || existing.st_gid != getgid() { _ = fchown(fd, existing.st_uid, existing.st_gid) }
        } else {
            fchmod(fd, mode_t(permissions))
        }
        temporaryPath = path
        self.finalPath = finalPath
        handle = OutputHandle(fileDescriptor: fd)
    }

    /// Writes all of `data`, with the final path in the error.
    public func write<Bytes: DataProtocol>(_ data: Bytes) throws(IAPKitError) {
        do { try handle.write(contentsOf: data) } catch {
            discard()
            throw .io(path: finalPath, reason: "cannot write: \(AtomicFile.describe(error))")
        }
    }

    /// Flushes to disk and closes, ready to be renamed; throws (and removes the temporary file) on a write error.
    /// Finishing again does nothing, so a file staged among many can let go of its descriptor before the commit.
    public func finish() throws(IAPKitError) {
        guard !finished else { return }
        finished = true
        if fsync(handle.fileDescriptor) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw .io(path: finalPath, reason: "cannot write: \(reason)")
        }
        try? handle.close()
    }

    /// Flushes to disk and renames into place.
    public func commit() throws(IAPKitError) {
        guard !done else { return }
        try finish()
        try StagedFiles.shared.commit([self])
    }

    /// Called by `StagedFiles` once the file is at its final path.
    func markCommitted() { done = true }

    /// Removes the temporary file; the final path is never touched.
    public func discard() {
        guard !done else { return }
        done = true
        try? handle.close()
        StagedFiles.shared.remove(temporaryPath)
    }

    deinit { discard() }
}

/// The temporary files and folders this process has open, so an interruption can remove them, and the rules
/// for their names, so a later run can recognise and remove those a killed run left.
///
/// Creating, committing and removing all happen under one lock, and an interruption takes that lock and never
/// gives it back: a temporary file is either registered before the interruption (and removed) or never created,
/// and a commit of several files either finishes before the interruption or never starts.
public final class StagedFiles: @unchecked Sendable {
    public static let shared = StagedFiles()
    private let lock = PThreadLock()
    private var paths: Set<String> = []
    private var interrupted = false
    private var swept: Set<String> = []

    /// `.NAME.iapkit-PID-XXXXXX`: hidden, marked as ours, and naming the process that owns it.
    static let marker = ".iapkit-"

    /// A new temporary file `.NAME.iapkit-PID-XXXXXX` beside `finalPath`; with `keepingExtension`, NAME loses its
    /// extension and the temporary name ends with it (`.pack.iapkit-PID-XXXXXX.aar`), for tools that insist on it.
    func createFile(directory: String, name: String, finalPath: String, keepingExtension: Bool = false) throws(IAPKitError) -> (Int32, String) {
        sweepOnce(directory)
        lock.lock(); defer { lock.unlock() }
        if interrupted { throw .interrupted }
        var stem = name
        var suffix = ""
        if keepingExtension, let dot = name.lastIndex(of: "."), dot != name.startIndex {
            stem = String(name[..<dot])
            suffix = String(name[dot...])
        }
        var template = Array("\(directory)/.\(stem)\(Self.marker)\(getpid())-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else {
            throw .io(path: finalPath, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        paths.insert(path)
        return (fd, path)
    }

    /// Creates a temporary folder beside `finalPath`, removed on interruption unless handed over with `release`.
    public func createDirectory(beside finalPath: String) throws(IAPKitError) -> String {
        let url = URL(fileURLWithPath: finalPath)
        let directory = url.deletingLastPathComponent().path
        sweepOnce(directory)
        lock.lock(); defer { lock.unlock() }
        if interrupted { throw .interrupted }
        var template = Array("\(directory)/.\(url.lastPathComponent)\(Self.marker)\(getpid())-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .io(path: finalPath, reason: "cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkdtemp makes the folder private (0700); the folder it becomes gets the usual mode.
        let mask = umask(0)
        umask(mask)
        chmod(path, 0o777 & ~mask)
        paths.insert(path)
        return path
    }

    /// Runs `body` (renames) under the lock, so an interruption waits until it is complete. The `registered`
    /// temporary paths are handed to `body`: an interruption no longer removes them (a failed rename leaves them to
    /// their owner's `discard`, or to a journal).
    public func withCommitLock<T>(forgetting registered: [String], _ body: () throws(IAPKitError) -> T) throws(IAPKitError) -> T {
        lock.lock(); defer { lock.unlock() }
        if interrupted { throw .interrupted }
        for path in registered { paths.remove(path) }
        return try body()
    }

    /// Renames finished staged files into place, all under the lock.
    func commit(_ files: [StagedFile]) throws(IAPKitError) {
        try withCommitLock(forgetting: files.map(\.temporaryPath)) { () throws(IAPKitError) in
            for file in files {
                if rename(file.temporaryPath, file.finalPath) != 0 {
                    let reason = String(cString: strerror(errno))
                    throw IAPKitError.io(path: file.finalPath, reason: "cannot move into place: \(reason)")
                }
                file.markCommitted()
            }
            StagedFiles.syncDirectories(of: files.map(\.finalPath))
        }
    }

    /// Removes one temporary file or folder and forgets it.
    public func remove(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        paths.remove(path)
        Self.removeTree(path)
    }

    /// For the interruption handler: removes every temporary file and folder and keeps the lock, so nothing new is
    /// created or committed before the process exits.
    public func interruptAndRemoveAll() {
        lock.lock()
        interrupted = true
        for path in paths { Self.removeTree(path) }
        paths.removeAll()
    }

    /// Removes temporaries that a killed iapkit left in `directory`: ours by name, owned by a process that is gone.
    /// Done once per directory per run, before the first file is staged there.
    public func sweepOnce(_ directory: String) {
        lock.lock()
        let first = swept.insert(directory).inserted
        lock.unlock()
        guard first, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            guard let owner = Self.owner(ofTemporaryName: name), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            Self.removeTree(directory + "/" + name)
        }
    }

    /// The process id in a temporary name of ours, or nil when the name is not one.
    static func owner(ofTemporaryName name: String) -> pid_t? {
        guard name.hasPrefix("."), let range = name.lastRange(of: marker) else { return nil }
        let parts = name[range.upperBound...].split(separator: "-")
        // `PID-XXXXXX`, or `PID-XXXXXX.ext` for a name that kept its extension.
        guard parts.count == 2, parts[1].prefix { $0 != "." }.count == 6, let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    static func removeTree(_ path: String) {
        if unlink(path) == 0 { return }
        if errno == EISDIR || errno == EPERM { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Makes renames durable: fsync on each distinct parent folder.
    static func syncDirectories(of paths: [String]) {
        for directory in Set(paths.map(Path.parent)) {
            let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY)
            if fd >= 0 { fsync(fd); close(fd) }
        }
    }
}
