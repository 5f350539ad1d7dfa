import Crypto
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
import IAPCatalog
import IAPCore

/// The App Review screenshot: compared by content (MD5, as App Store Connect's `sourceFileChecksum`).
public struct ScreenshotRecord: Sendable, Equatable {
    public var fileName: String
    public var checksum: String
    /// The file on disk (catalog side only).
    public var path: String?
    public var size: Int

    public init(fileName: String, checksum: String, path: String? = nil, size: Int = 0) {
        self.fileName = fileName
        self.checksum = checksum
        self.path = path
        self.size = size
    }

    public static func == (lhs: ScreenshotRecord, rhs: ScreenshotRecord) -> Bool { lhs.checksum == rhs.checksum }
}

extension ScreenshotRecord {
    /// Reads a review screenshot and computes the MD5 App Store Connect checks uploads against. Only regular files
    /// are read, so a path that names a FIFO or a device cannot make the command hang.
    public init(file path: String) throws(IAPKitError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .io(path: path, reason: "review screenshot does not exist") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, reason: "review screenshot is not a regular file") }
        guard info.st_size <= Self.maximumBytes else {
            throw .io(path: path, reason: "review screenshot is larger than \(Self.maximumBytes / 1_000_000) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, reason: "cannot be read") }
        let digest = Insecure.MD5.hash(data: data).map { Format.hex($0, width: 2) }.joined()
        self.init(fileName: Path.lastComponent(path), checksum: digest, path: path, size: data.count)
    }

    /// Screenshots are a few megabytes; anything far larger is not a screenshot.
    public static let maximumBytes: Int64 = 50_000_000
}
