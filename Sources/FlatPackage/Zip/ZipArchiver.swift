import CLibArchive
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
import HostedContent
import IAPCore

/// Writes `PRODUCT_ID.zip` through libarchive, with the content folder at the archive root, for content the
/// app downloads from the team's own server. Media is stored, the rest deflated; times, owners and order are
/// pinned so the same folder gives the same bytes.
public struct ZipArchiver: Sendable {
    public var epoch: Int
    public var md5: Bool

    public init(epoch: Int, md5: Bool = false) {
        self.epoch = epoch
        self.md5 = md5
    }

    public func build(
        tree: ContentTree, rootName: String, to output: StagedFile,
        progress: ((UInt64) -> Void)? = nil
    ) throws(IAPKitError) -> ArchiveResult {
        guard let archive = archive_write_new() else { throw .io(path: output.finalPath, reason: "libarchive could not start") }
        defer { archive_write_free(archive) }
        func check(_ status: Int32, _ what: String) throws(IAPKitError) {
            if status < ARCHIVE_WARN {
                let message = archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
                throw .io(path: output.finalPath, reason: "\(what): \(message)")
            }
        }
        try check(archive_write_set_format_zip(archive), "zip format")
        // The handle's own descriptor: libarchive writes, we never close it here.
        try check(archive_write_open_fd(archive, output.handle.fileDescriptor), "open")

        var digests: [String: String] = [:]
        var read: UInt64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for entry in tree.entries {
            guard let item = archive_entry_new() else { continue }
            defer { archive_entry_free(item) }
            let name = entry.relativePath.isEmpty ? rootName + "/" : rootName + "/" + entry.relativePath + (entry.kind == .directory ? "/" : "")
            _ = archive_entry_update_pathname_utf8(item, name)
            archive_entry_set_mtime(item, time_t(epoch), 0)
            archive_entry_set_uid(item, 0)
            archive_entry_set_gid(item, 0)
            _ = archive_entry_update_uname_utf8(item, "root")
            _ = archive_entry_update_gname_utf8(item, "wheel")
            switch entry.kind {
            case .directory:
                archive_entry_set_filetype(item, iapkit_AE_IFDIR)
                archive_entry_set_perm(item, mode_t(entry.permissions))
            case .symlink:
                archive_entry_set_filetype(item, iapkit_AE_IFLNK)
                archive_entry_set_perm(item, 0o755)
                _ = archive_entry_update_symlink_utf8(item, entry.symlinkTarget ?? "")
            case .file:
                archive_entry_set_filetype(item, iapkit_AE_IFREG)
                archive_entry_set_perm(item, mode_t(entry.permissions))
                archive_entry_set_size(item, la_int64_t(entry.size))
            case .other:
                continue
            }
            if entry.kind == .file && CompressedMedia.isCompressed(entry.name) {
                try check(archive_write_zip_set_compression_store(archive), "store")
            } else {
                try check(archive_write_zip_set_compression_deflate(archive), "deflate")
            }
            try check(archive_write_header(archive, item), name)
            guard entry.kind == .file else { continue }
            var sha256 = SHA256()
            try FileChunks.read(tree.absolutePath(of: entry), into: buffer) { chunk throws(IAPKitError) in
                sha256.update(bufferPointer: chunk)
                let written = archive_write_data(archive, chunk.baseAddress, chunk.count)
                if written < 0 { try check(Int32(written), "writing \(name)") }
                read += UInt64(chunk.count)
                progress?(read)
            }
            digests[entry.relativePath] = sha256.finalize().hexString
        }
        try check(archive_write_close(archive), "finish")

        // Hash what libarchive wrote, for the manifest.
        var sha256 = SHA256()
        var md5Hasher = md5 ? Insecure.MD5() : nil
        let fd = open(output.temporaryPath, O_RDONLY)
        guard fd >= 0 else { throw .io(path: output.temporaryPath, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var size: UInt64 = 0
        while true {
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count <= 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            sha256.update(bufferPointer: chunk)
            md5Hasher?.update(bufferPointer: chunk)
            size += UInt64(count)
        }
        return ArchiveResult(
            size: size, sha256: sha256.finalize().hexString, md5: md5Hasher?.finalize().hexString,
            contentDigest: ContentDigest.combine(tree: tree, fileDigests: digests),
            fileCount: tree.entries.filter { $0.kind != .other }.count)
    }
}
