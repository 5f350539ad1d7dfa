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
import IAPCore

/// Reads a file front to back in the caller's buffer, with the error messages every reader of content wants.
public enum FileChunks {
    public static func read(
        _ path: String, into buffer: UnsafeMutableRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(IAPKitError) -> Void
    ) throws(IAPKitError) {
        let fd = try InputFile.openRegular(path)
        defer { close(fd) }
        while true {
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count < 0 { throw .io(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))") }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
