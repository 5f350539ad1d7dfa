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

// What iapkit used from full Foundation, on FoundationEssentials and POSIX instead. Full Foundation on Linux links
// in ICU and its data (36 MB of the release binary); these few helpers are all the libraries needed of it.

/// Writes to an open file descriptor, all of every buffer (what `FileHandle(fileDescriptor:)` did for iapkit).
public final class OutputHandle: @unchecked Sendable {
    public let fileDescriptor: Int32
    private var closed = false

    /// Takes ownership of `fileDescriptor`: it is closed by `close()` or when the handle goes away.
    public init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// A file opened to add to its end (created when absent): each write of a line lands whole, after what is there.
    public static func appending(to path: String) throws(SystemError) -> OutputHandle {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemError() }
        return OutputHandle(fileDescriptor: descriptor)
    }

    deinit { if !closed { _ = systemClose(fileDescriptor) } }

    public func write<Bytes: DataProtocol>(contentsOf data: Bytes) throws(SystemError) {
        for region in data.regions {
            var failure: SystemError?
            region.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                do { try writeAll(buffer) } catch { failure = (error as? SystemError) ?? SystemError(EIO) }
            }
            if let failure { throw failure }
        }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) { try writeAll(buffer) }

    private func writeAll(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            let count = systemWrite(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError()
            }
            offset += count
        }
    }

    public func close() throws(SystemError) {
        guard !closed else { return }
        closed = true
        if systemClose(fileDescriptor) != 0 { throw SystemError() }
    }
}

@inline(__always) func systemClose(_ fd: Int32) -> Int32 { close(fd) }
/// `write(2)`, for code whose own names hide the C function.
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// `exit(3)`, for code whose own names hide the C function.
public func systemExit(_ code: Int32) -> Never { exit(code) }

/// `read(2)`, for code whose own names hide the C function.
@inline(__always) public func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
