/// One path of a bill of materials, as the Bom stores it and `lsbom` prints it.
public struct BomEntry: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable {
        case file = 1, directory = 2, symlink = 3, device = 4
    }

    /// `.`, `./ContentInfo.plist`, `./Contents/a.txt`...
    public var path: String
    public var kind: Kind
    /// Full st_mode, type bits included (0o100644, 0o40755, 0o120755).
    public var mode: UInt16
    public var uid: UInt32
    public var gid: UInt32
    public var mtime: UInt32
    /// File bytes; symlink target length; 32 × (children + 2) for a directory.
    public var size: UInt64
    /// POSIX cksum of a file's bytes or a link's target; 0 for directories.
    public var checksum: UInt32
    public var linkTarget: String?

    public init(
        path: String, kind: Kind, mode: UInt16, uid: UInt32 = 0, gid: UInt32 = 0, mtime: UInt32, size: UInt64,
        checksum: UInt32, linkTarget: String? = nil
    ) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.mtime = mtime
        self.size = size
        self.checksum = checksum
        self.linkTarget = linkTarget
    }

    /// The line `lsbom` prints by default: path, octal mode, uid/gid, then size and checksum for files and links.
    public var lsbomLine: String {
        var line = "\(path)\t\(String(mode, radix: 8))\t\(uid)/\(gid)"
        if kind == .file || kind == .symlink { line += "\t\(size)\t\(checksum)" }
        if kind == .symlink, let linkTarget { line += "\t\(linkTarget)" }
        return line
    }
}
