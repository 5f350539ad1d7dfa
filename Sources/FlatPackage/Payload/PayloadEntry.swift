import HostedContent

/// An entry of the Payload and the Bom, derived from the content folder's walk.
public struct PayloadEntry: Sendable {
    /// `.` or `./relative/path`.
    public var name: String
    public var content: ContentEntry
    public var inode: Int
    /// Full st_mode with type bits: directories and files keep their permissions; links are 0o120755.
    public var mode: UInt32
    public var nlink: Int
    /// The size Apple's tools record: file bytes, link target length, 32 × (children + 2) for a directory.
    public var recordedSize: UInt64

    public static func entries(of tree: ContentTree) -> [PayloadEntry] {
        tree.entries.enumerated().compactMap { index, entry in
            let name = entry.relativePath.isEmpty ? "." : "./" + entry.relativePath
            switch entry.kind {
            case .directory:
                return PayloadEntry(
                    name: name, content: entry, inode: index + 1, mode: 0o040000 | UInt32(entry.permissions),
                    nlink: entry.childCount + 2, recordedSize: UInt64(32 * (entry.childCount + 2)))
            case .file:
                return PayloadEntry(
                    name: name, content: entry, inode: index + 1, mode: 0o100000 | UInt32(entry.permissions),
                    nlink: 1, recordedSize: entry.size)
            case .symlink:
                return PayloadEntry(name: name, content: entry, inode: index + 1, mode: 0o120755, nlink: 1, recordedSize: entry.size)
            case .other:
                return nil
            }
        }
    }

    /// `installKBytes`: every entry but `.` rounded up to 512-byte blocks, summed, in KiB rounded up.
    public static func installKBytes(_ entries: [PayloadEntry]) -> UInt64 {
        let blocks = entries.filter { $0.name != "." }.reduce(UInt64(0)) { $0 + ($1.recordedSize + 511) / 512 }
        return (blocks * 512 + 1023) / 1024
    }
}

/// Files whose bytes are already compressed: they are stored, never recompressed.
public enum CompressedMedia {
    public static let extensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "heic", "heif", "avif", "mp4", "m4v", "mov", "m4a", "mp3", "aac", "ogg",
        "opus", "flac", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "pkg", "car", "ktx2", "astc", "pvr", "woff2",
    ]

    public static func isCompressed(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
