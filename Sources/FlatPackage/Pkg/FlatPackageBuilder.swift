import CLibArchive
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HostedContent
import IAPCore

/// Writes `PRODUCT_ID.pkg`, a flat product archive equal in structure to `productbuild --content`:
/// xar { Distribution, PRODUCT_ID.pkg/ { Bom, Payload, PackageInfo } }, SHA-1 checksums, stored Payload.
public struct FlatPackageBuilder: Sendable {
    public var jobs: Int
    public var epoch: Int
    public var md5: Bool

    public init(jobs: Int, epoch: Int, md5: Bool = false) {
        self.jobs = jobs
        self.epoch = epoch
        self.md5 = md5
    }

    public func build(
        tree: ContentTree, identifier: String, to output: StagedFile,
        progress: ((UInt64) -> Void)? = nil
    ) throws(IAPKitError) -> ArchiveResult {
        let entries = PayloadEntry.entries(of: tree)
        // The Payload streams to a temporary file beside the output; the TOC, which comes first, needs its checksum.
        let payloadFile = try StagedFile(finalPath: output.finalPath + ".payload")
        defer { payloadFile.discard() }
        let payload = try PayloadPipeline(jobs: jobs, epoch: epoch)
            .write(tree: tree, entries: entries, to: payloadFile.handle, outputPath: payloadFile.temporaryPath, progress: progress)

        let bom = BomWriter.write(
            entries.map { entry in
                BomEntry(
                    path: entry.name, kind: entry.content.kind == .directory ? .directory : entry.content.kind == .symlink ? .symlink : .file,
                    mode: UInt16(truncatingIfNeeded: entry.mode), mtime: UInt32(truncatingIfNeeded: epoch), size: entry.recordedSize,
                    checksum: payload.checksums[entry.name] ?? 0, linkTarget: entry.content.symlinkTarget)
            })
        let kilobytes = PayloadEntry.installKBytes(entries)
        let distribution = Array(InstallerDocuments.distribution(identifier: identifier, installKBytes: kilobytes).utf8)
        let packageInfo = Array(
            InstallerDocuments.packageInfo(
                identifier: identifier, numberOfFiles: entries.count,
                installKBytes: kilobytes
            ).utf8)

        // Heap: TOC checksum, Distribution, Bom, Payload (stored), PackageInfo, in TOC order.
        var offset: UInt64 = 20
        func compressed(_ plain: [UInt8]) -> (bytes: [UInt8], data: XarEntry.Data) {
            let bytes = GzipStream.zlibCompress(plain)
            let data = XarEntry.Data(
                length: UInt64(bytes.count), offset: offset, size: UInt64(plain.count),
                encoding: "application/x-gzip", archivedSHA1: Insecure.SHA1.hash(data: bytes).hexString,
                extractedSHA1: Insecure.SHA1.hash(data: plain).hexString)
            offset += UInt64(bytes.count)
            return (bytes, data)
        }
        let distributionPart = compressed(distribution)
        let bomPart = compressed(bom)
        let payloadData = XarEntry.Data(
            length: payload.compressedLength, offset: offset, size: payload.compressedLength,
            encoding: "application/octet-stream", archivedSHA1: payload.sha1, extractedSHA1: payload.sha1)
        offset += payload.compressedLength
        let packageInfoPart = compressed(packageInfo)

        let toc = XarTOC.xml(
            entries: [
                XarEntry(name: "Distribution", data: distributionPart.data),
                XarEntry(
                    name: "\(identifier).pkg", isDirectory: true,
                    children: [
                        XarEntry(name: "Bom", data: bomPart.data),
                        XarEntry(name: "Payload", data: payloadData),
                        XarEntry(name: "PackageInfo", data: packageInfoPart.data),
                    ]),
            ], epoch: epoch)
        let compressedTOC = GzipStream.zlibCompress(toc)
        var header = Bytes()
        header.bytes += Array("xar!".utf8)
        header.u16(28); header.u16(1); header.u64(UInt64(compressedTOC.count)); header.u64(UInt64(toc.count)); header.u32(1)

        var writer = HashingWriter(handle: output.handle, path: output.temporaryPath, md5: md5)
        try writer.write(header.bytes)
        try writer.write(compressedTOC)
        try writer.write(Array(Insecure.SHA1.hash(data: compressedTOC)))
        try writer.write(distributionPart.bytes)
        try writer.write(bomPart.bytes)
        try writer.copy(from: payloadFile.temporaryPath, length: payload.compressedLength)
        try writer.write(packageInfoPart.bytes)
        return ArchiveResult(
            size: writer.written, sha256: writer.sha256Hex, md5: writer.md5Hex,
            contentDigest: ContentDigest.combine(tree: tree, fileDigests: payload.fileDigests),
            fileCount: entries.count)
    }
}

/// Writes an archive while computing the manifest's SHA-256 (and MD5 when asked) of every byte.
struct HashingWriter {
    let handle: OutputHandle
    let path: String
    private var sha256 = SHA256()
    private var md5: Insecure.MD5?
    private(set) var written: UInt64 = 0

    init(handle: OutputHandle, path: String, md5: Bool) {
        self.handle = handle
        self.path = path
        self.md5 = md5 ? Insecure.MD5() : nil
    }

    mutating func write(_ bytes: [UInt8]) throws(IAPKitError) {
        bytes.withUnsafeBytes { update($0) }
        do { try handle.write(contentsOf: bytes) } catch {
            throw .io(path: path, reason: "cannot write: \(AtomicFile.describe(error))")
        }
        written += UInt64(bytes.count)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha256.update(bufferPointer: bytes)
        md5?.update(bufferPointer: bytes)
    }

    /// Appends `length` bytes of another file: the kernel copies them (copy_file_range) on one thread while
    /// this one hashes them from the page cache.
    mutating func copy(from source: String, length: UInt64) throws(IAPKitError) {
        let fd = open(source, O_RDONLY)
        guard fd >= 0 else { throw .io(path: source, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let copier = KernelCopy(from: fd, to: handle.fileDescriptor, length: length)
        startThread { copier.run() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        var readFailed = false
        while offset < length {
            let count = pread(fd, buffer.baseAddress, Int(min(UInt64(buffer.count), length - offset)), off_t(offset))
            guard count > 0 else { readFailed = true; break }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += UInt64(count)
        }
        copier.wait()
        if readFailed { throw .io(path: source, reason: "cannot be read back") }
        if let reason = copier.failure { throw .io(path: path, reason: "cannot write: \(reason)") }
        written += length
    }

    var sha256Hex: String { sha256.finalize().hexString }
    var md5Hex: String? { md5?.finalize().hexString }
}

/// Copies bytes between descriptors inside the kernel, falling back to read/write where copy_file_range is
/// not supported.
final class KernelCopy: @unchecked Sendable {
    let source: Int32, destination: Int32, length: UInt64
    private(set) var failure: String?
    private let done = DispatchSemaphore(value: 0)

    init(from source: Int32, to destination: Int32, length: UInt64) {
        self.source = source
        self.destination = destination
        self.length = length
    }

    func run() {
        defer { done.signal() }
        var sourceOffset: off_t = 0
        var remaining = length
        #if os(Linux)
        while remaining > 0 {
            let count = copy_file_range(source, &sourceOffset, destination, nil, Int(min(remaining, 1 << 30)), 0)
            if count <= 0 { break }
            remaining -= UInt64(count)
        }
        #endif
        guard remaining > 0 else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while remaining > 0 {
            let count = pread(source, buffer.baseAddress, Int(min(UInt64(buffer.count), remaining)), sourceOffset)
            guard count > 0 else { failure = "the payload could not be read back"; return }
            var written = 0
            while written < count {
                let result = write(destination, buffer.baseAddress! + written, count - written)
                guard result > 0 else { failure = String(cString: strerror(errno)); return }
                written += result
            }
            sourceOffset += off_t(count)
            remaining -= UInt64(count)
        }
    }

    func wait() { done.wait() }
}
