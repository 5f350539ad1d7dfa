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

/// Reads input files the way hostile input demands: only regular files (a FIFO would block, a device never ends),
/// never more than a stated number of bytes, and errors that name the file.
public enum InputFile {
    /// What each reader accepts at most.
    public enum Limit {
        /// A property list (ContentInfo.plist is a few hundred bytes; Apple's own plists are far below this).
        public static let propertyList = 1 << 20
        /// A catalog: real ones are kilobytes; generated 20,000-product catalogs are a few megabytes.
        public static let catalog = 128 << 20
        /// A StoreKit configuration or other JSON input.
        public static let json = 64 << 20
        /// A file of a content template, or a resource shipped beside the binary.
        public static let templateFile = 16 << 20
        /// A lock file.
        public static let lock = 16 << 20
    }

    /// The whole file, refused when it is not a regular file or holds more than `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(IAPKitError) -> Data {
        let fd = try openRegular(path)
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        if Int64(info.st_size) > Int64(limit) { throw tooLarge(path, size: Int64(info.st_size), limit: limit) }
        // Read straight into a buffer sized from stat: a large file is copied once, by the kernel.
        let expected = Int(max(0, min(Int64(info.st_size), Int64(limit))))
        var data = Data(count: expected)
        var filled = 0
        while filled < expected {
            let count = data.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + filled, expected - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                data.count = filled
                return data
            }
            filled += count
        }
        // The file may have grown since stat: what follows is read in pieces.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            // The file may grow while it is read; the limit holds for what is read, not only for what stat said.
            if data.count + count > limit { throw tooLarge(path, size: Int64(data.count + count), limit: limit) }
            data.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    /// At most the first `count` bytes of a regular file (magic numbers), and its size.
    public static func head(_ path: String, count: Int) throws(IAPKitError) -> (bytes: Data, size: Int64) {
        let fd = try openRegular(path)
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = systemRead(fd, &bytes, count)
        guard read >= 0 else { throw .io(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))") }
        return (Data(bytes[0..<read]), Int64(info.st_size))
    }

    /// Opens without blocking (opening a FIFO for reading would wait for a writer) and accepts only a regular file:
    /// a file swapped for a FIFO after a folder was walked cannot hang the reader. The caller closes the descriptor.
    public static func openRegular(_ path: String) throws(IAPKitError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw .io(path: path, reason: code == ENOENT ? "does not exist" : "cannot be read: \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .io(path: path, reason: "cannot be read: \(reason)")
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            throw .io(path: path, reason: "is \(describe(fileType: type)), not a regular file; refusing to read it")
        }
        // Regular files ignore O_NONBLOCK, but clear it so reads behave as usual everywhere.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// "a FIFO", "a folder"... for messages.
    public static func describe(fileType type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "a special file"
        }
    }

    private static func tooLarge(_ path: String, size: Int64, limit: Int) -> IAPKitError {
        .io(path: path, reason: "is larger than iapkit reads for this kind of file (\(size) bytes; the limit is \(limit) bytes)")
    }
}
