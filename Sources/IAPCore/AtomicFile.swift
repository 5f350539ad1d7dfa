import Foundation

/// Writes files all-or-nothing: data goes to a temporary file in the destination directory and is
/// renamed into place, so an interrupted or failing run never leaves a partial file at a final path.
public enum AtomicFile {
    /// Writes `data` (a `Data`, or an array of bytes without copying it) to `path` atomically, creating the parent
    /// directory if needed.
    public static func write<Bytes: DataProtocol>(_ data: Bytes, to path: String, permissions: Int = 0o644) throws(IAPKitError) {
        let staged = try StagedFile(finalPath: path, permissions: permissions)
        do {
            try staged.handle.write(contentsOf: data)
        } catch {
            staged.discard()
            throw .io(path: path, reason: describe(error))
        }
        try staged.commit()
    }

    public static func write(_ text: String, to path: String) throws(IAPKitError) {
        try write(Data(text.utf8), to: path)
    }

    /// A short reason for a Foundation or POSIX error ("No such file or directory").
    public static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}

/// A temporary file beside its final path, committed by rename or discarded.
/// Every open staged file is registered so a signal handler can remove it (see `StagedFiles`).
public final class StagedFile: @unchecked Sendable {
    public let finalPath: String
    public let temporaryPath: String
    public let handle: FileHandle
    private var done = false

    public init(finalPath: String, permissions: Int = 0o644) throws(IAPKitError) {
        let url = URL(fileURLWithPath: finalPath)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: directory, reason: "cannot create directory: \(AtomicFile.describe(error))")
        }
        var template = Array("\(directory)/.\(url.lastPathComponent).iapkit-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .io(path: finalPath, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        fchmod(fd, mode_t(permissions))
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.finalPath = finalPath
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        StagedFiles.shared.register(temporaryPath)
    }

    /// Flushes to disk and renames into place.
    public func commit() throws(IAPKitError) {
        guard !done else { return }
        done = true
        defer { StagedFiles.shared.unregister(temporaryPath) }
        if fsync(handle.fileDescriptor) != 0 {
            let reason = String(cString: strerror(errno))
            try? handle.close()
            unlink(temporaryPath)
            throw .io(path: finalPath, reason: "cannot write: \(reason)")
        }
        try? handle.close()
        if rename(temporaryPath, finalPath) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw .io(path: finalPath, reason: "cannot move into place: \(reason)")
        }
    }

    /// Removes the temporary file; the final path is never touched.
    public func discard() {
        guard !done else { return }
        done = true
        try? handle.close()
        unlink(temporaryPath)
        StagedFiles.shared.unregister(temporaryPath)
    }

    deinit { discard() }
}

/// The temporary files currently open, so that SIGINT/SIGTERM can remove them before exiting.
public final class StagedFiles: @unchecked Sendable {
    public static let shared = StagedFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []

    func register(_ path: String) { lock.lock(); paths.insert(path); lock.unlock() }
    func unregister(_ path: String) { lock.lock(); paths.remove(path); lock.unlock() }

    /// Removes every staged file. Called from a signal handler's dispatch source, not from the handler itself.
    public func removeAll() {
        lock.lock()
        let current = paths
        paths.removeAll()
        lock.unlock()
        for path in current { unlink(path) }
    }
}
