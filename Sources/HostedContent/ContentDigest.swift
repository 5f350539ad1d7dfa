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
import IAPCore

/// A SHA-256 over what a customer would receive: every entry's path, kind and mode as git keeps it (644, or 755 for
/// a folder or an executable), each file's own SHA-256, each link's target. Timestamps, ownership and the umask of
/// the checkout are left out, so a fresh checkout gives the same digest.
/// `iapkit.lock` records it; the `content-version-unchanged` rule compares against it.
public enum ContentDigest {
    public static let prefix = "sha256:"

    /// Combines per-file SHA-256 digests (keyed by relative path) with the tree's structure.
    public static func combine(tree: ContentTree, fileDigests: [String: String]) -> String {
        var hasher = SHA256()
        for entry in tree.entries {
            var line = "\(entry.kind.rawValue)\t./\(entry.relativePath)\t\(String(entry.permissions & 0o777, radix: 8))"
            switch entry.kind {
            case .file: line += "\t\(entry.size)\t\(fileDigests[entry.relativePath] ?? "")"
            case .symlink: line += "\t\(entry.symlinkTarget ?? "")"
            default: break
            }
            hasher.update(data: Data((line + "\n").utf8))
        }
        return prefix + hasher.finalize().hexString
    }

    /// Reads every file and computes the digest.
    public static func compute(tree: ContentTree) throws(IAPKitError) -> String {
        var digests: [String: String] = [:]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for entry in tree.entries where entry.kind == .file {
            var hasher = SHA256()
            try FileChunks.read(tree.absolutePath(of: entry), into: buffer) { chunk in hasher.update(bufferPointer: chunk) }
            digests[entry.relativePath] = hasher.finalize().hexString
        }
        return combine(tree: tree, fileDigests: digests)
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
