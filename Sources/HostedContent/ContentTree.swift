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

/// One entry of a hosted-content folder, as listed by `ContentTree`.
public struct ContentEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case directory, file, symlink, other
    }

    /// Path relative to the folder, without a leading `./` ("" for the folder itself).
    public var relativePath: String
    public var kind: Kind
    /// Permission bits as git keeps them, whatever the checkout's umask: 0o755 for a folder, a link, or a file with
    /// any execute bit; 0o644 for any other file (`ContentTree.gitPermissions`). Digests and archives take these.
    public var permissions: UInt16
    /// Bytes of a regular file; target length of a symlink; 0 otherwise.
    public var size: UInt64
    public var symlinkTarget: String?
    /// Names of a directory's children, sorted bytewise.
    public var childCount: Int
    /// What `other` is, for messages ("a FIFO", "a socket"...).
    public var otherDescription: String?
    /// For a name that is not valid UTF-8: its bytes, printable ASCII as is and the rest as `\xNN`. Such an entry
    /// is `other` and is neither read nor walked into; `relativePath` holds a lossy rendering.
    public var invalidName: String?

    public var name: String { Path.lastComponent(relativePath) }
    public var depth: Int { relativePath.isEmpty ? 0 : relativePath.split(separator: "/").count }
}

/// A hosted-content folder walked in the order Apple's packagers use: the folder itself, then a depth-first,
/// pre-order walk with each directory's children sorted by name (bytewise). Symlinks are never followed.
public struct ContentTree: Sendable {
    public let root: String
    public let entries: [ContentEntry]

    public init(root: String, entries: [ContentEntry]) {
        self.root = root
        self.entries = entries
    }

    public static func scan(_ root: String) throws(IAPKitError) -> ContentTree {
        var entries: [ContentEntry] = []
        var info = stat()
        guard lstat(root, &info) == 0 else {
            throw .io(path: root, reason: errno == ENOENT ? "does not exist" : String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .io(path: root, reason: "is not a folder") }
        try walk(root, relative: "", info: info, into: &entries)
        return ContentTree(root: root, entries: entries)
    }

    /// The mode git records for an entry of this type and mode: 644, or 755 for a folder or any execute bit. A
    /// checkout under `umask 002` (group-writable files) or with setuid bits gives the same content as any other.
    public static func gitPermissions(type: mode_t, mode: mode_t) -> UInt16 {
        if type == S_IFDIR || type == S_IFLNK { return 0o755 }
        return mode & 0o111 != 0 ? 0o755 : 0o644
    }

    private static func walk(_ absolute: String, relative: String, info: stat, into entries: inout [ContentEntry]) throws(IAPKitError) {
        let type = info.st_mode & S_IFMT
        let permissions = gitPermissions(type: type, mode: info.st_mode)
        switch type {
        case S_IFDIR:
            let names = try listNames(absolute)
            entries.append(
                ContentEntry(
                    relativePath: relative, kind: .directory, permissions: permissions, size: 0,
                    symlinkTarget: nil, childCount: names.count))
            for raw in names {
                guard let name = validUTF8(raw) else {
                    // Decoding such a name and using it again would name a different (missing) file.
                    let lossy = String(decoding: raw, as: UTF8.self)
                    entries.append(
                        ContentEntry(
                            relativePath: relative.isEmpty ? lossy : relative + "/" + lossy, kind: .other,
                            permissions: 0, size: 0, symlinkTarget: nil, childCount: 0,
                            invalidName: escaped(raw)))
                    continue
                }
                let childPath = absolute + "/" + name
                var childInfo = stat()
                guard lstat(childPath, &childInfo) == 0 else {
                    throw .io(path: childPath, reason: String(cString: strerror(errno)))
                }
                try walk(childPath, relative: relative.isEmpty ? name : relative + "/" + name, info: childInfo, into: &entries)
            }
        case S_IFREG:
            entries.append(
                ContentEntry(
                    relativePath: relative, kind: .file, permissions: permissions,
                    size: UInt64(info.st_size), symlinkTarget: nil, childCount: 0))
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(absolute, &buffer, buffer.count - 1)
            guard count >= 0 else { throw .io(path: absolute, reason: "cannot read the link: \(String(cString: strerror(errno)))") }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            entries.append(
                ContentEntry(
                    relativePath: relative, kind: .symlink, permissions: 0o755,
                    size: UInt64(target.utf8.count), symlinkTarget: target, childCount: 0))
        default:
            entries.append(
                ContentEntry(
                    relativePath: relative, kind: .other, permissions: permissions, size: 0,
                    symlinkTarget: nil, childCount: 0, otherDescription: InputFile.describe(fileType: type)))
        }
    }

    /// The raw names in a folder, sorted bytewise, without `.` and `..`.
    private static func listNames(_ path: String) throws(IAPKitError) -> [[UInt8]] {
        guard let directory = opendir(path) else {
            throw .io(path: path, reason: "cannot list the folder: \(String(cString: strerror(errno)))")
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private static func validUTF8(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return Array(text.utf8) == bytes ? text : nil
    }

    private static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + Format.hex($0, width: 2, uppercase: true) }.joined()
    }

    public func absolutePath(of entry: ContentEntry) -> String {
        entry.relativePath.isEmpty ? root : root + "/" + entry.relativePath
    }

    /// Names that are never content, wherever they sit: Finder's and Explorer's leftovers, archive tools' and git's.
    public static let junkNames: Set<String> = [".DS_Store", "__MACOSX", "Thumbs.db", ".git"]

    /// Whether `iapkit package` leaves the entry out (the `content-junk` rule names each one): a junk name, anything
    /// inside one, or anything at the root beside ContentInfo.plist and Contents/.
    public static func isLeftOut(_ entry: ContentEntry) -> Bool {
        guard !entry.relativePath.isEmpty else { return false }
        let components = entry.relativePath.split(separator: "/")
        if components.contains(where: { junkNames.contains(String($0)) }) { return true }
        let first = String(components[0])
        return first != ContentInfo.fileName && first != ContentInfo.contentsFolder
    }

    /// The tree as it is packaged and digested: without the entries `isLeftOut` names, each folder counting the
    /// children that stay.
    public var packaged: ContentTree {
        guard entries.contains(where: Self.isLeftOut) else { return self }
        var kept = entries.filter { !Self.isLeftOut($0) }
        var children: [String: Int] = [:]
        for entry in kept where !entry.relativePath.isEmpty { children[Path.parent(entry.relativePath), default: 0] += 1 }
        for index in kept.indices where kept[index].kind == .directory {
            kept[index].childCount = children[kept[index].relativePath] ?? 0
        }
        return ContentTree(root: root, entries: kept)
    }

    /// Bytes of all regular files.
    public var totalFileBytes: UInt64 { entries.reduce(0) { $0 + ($1.kind == .file ? $1.size : 0) } }
}
