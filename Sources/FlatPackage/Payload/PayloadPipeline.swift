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

/// Streams a content folder into a gzip-compressed odc cpio Payload on disk, with flat memory.
///
/// Three stages keep both cores busy: this thread reads files into 1 MiB chunks of the cpio stream and computes
/// what needs the plain bytes (each file's POSIX cksum and SHA-256, the gzip CRC-32); worker threads compress
/// chunks independently (or store those that are mostly media); a writer thread appends them in order, hashing
/// the result with SHA-1 for the xar TOC. At most `2 × jobs + 2` chunks are in flight.
public struct PayloadPipeline: Sendable {
    public static let chunkSize = 1 << 20

    public struct Result: Sendable {
        public var compressedLength: UInt64
        public var uncompressedLength: UInt64
        public var sha1: String
        /// POSIX cksum of each file's bytes and each link's target, by payload name.
        public var checksums: [String: UInt32]
        /// SHA-256 of each file's bytes, by path relative to the folder, for the content digest.
        public var fileDigests: [String: String]
    }

    public var jobs: Int
    public var epoch: Int

    public init(jobs: Int, epoch: Int) {
        self.jobs = max(1, jobs)
        self.epoch = epoch
    }

    public func write(
        tree: ContentTree, entries: [PayloadEntry], to output: OutputHandle, outputPath: String,
        progress: ((UInt64) -> Void)? = nil
    ) throws(IAPKitError) -> Result {
        // The header is the writer's before its thread starts: it writes it first, whenever it gets to run.
        let state = PipelineState(output: output, outputPath: outputPath, maxInFlight: 2 * jobs + 2, header: GzipStream.header)
        let hasher = FileHasher(maxInFlight: 4)
        startThread(stackSize: 1 << 20) { state.runWriter() }

        var checksums: [String: UInt32] = [:]
        var digests: [String: String] = [:]
        var crc: UInt32 = 0
        var total: UInt64 = 0
        var chunk = ChunkBuilder(capacity: Self.chunkSize)
        var dictionary: [UInt8] = []
        var sequence = 0
        var readBytes: UInt64 = 0

        func submit(final: Bool) {
            guard !chunk.bytes.isEmpty else { return }
            let data = chunk.bytes
            hasher.submit(data, segments: chunk.segments)
            crc = data.withUnsafeBytes { GzipStream.crc32(crc, $0) }
            total += UInt64(data.count)
            let store = chunk.mediaBytes * 10 >= data.count * 9
            let index = sequence
            let primer = dictionary
            sequence += 1
            dictionary = Array(data.suffix(GzipStream.dictionarySize))
            state.acquireSlot()
            DispatchQueue.global().async {
                let compressed: [UInt8] = data.withUnsafeBytes { input in
                    if !store, let deflated = primer.withUnsafeBytes({ GzipStream.deflateChunk(input, dictionary: $0) }) {
                        return deflated
                    }
                    return GzipStream.storedChunk(input)
                }
                state.deliver(index: index, bytes: compressed)
            }
            chunk.reset()
        }

        var failure: IAPKitError?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        entryLoop: for (entryIndex, entry) in entries.enumerated() {
            if let error = state.failure { failure = error; break }
            let fileSize: UInt64 = entry.content.kind == .directory ? 0 : entry.content.size
            chunk.append(
                CpioHeader.bytes(
                    .init(
                        inode: entry.inode, mode: entry.mode, nlink: entry.nlink, mtime: epoch,
                        name: entry.name, fileSize: fileSize)))
            if chunk.isFull { submit(final: false) }
            switch entry.content.kind {
            case .symlink:
                let target = Array((entry.content.symlinkTarget ?? "").utf8)
                var checksum = PosixChecksum()
                checksum.update(target)
                checksums[entry.name] = checksum.value
                chunk.append(target)
                if chunk.isFull { submit(final: false) }
            case .file:
                let path = tree.absolutePath(of: entry.content)
                let fd: Int32
                do throws(IAPKitError) { fd = try InputFile.openRegular(path) } catch {
                    failure = error
                    break entryLoop
                }
                defer { close(fd) }
                let media = CompressedMedia.isCompressed(entry.content.name)
                if fileSize == 0 {
                    // A zero-length segment keeps the empty file in order with the bytes before it.
                    chunk.append(UnsafeRawBufferPointer(start: nil, count: 0), media: false, file: entryIndex, isLast: true)
                }
                var remaining = fileSize
                while remaining > 0 {
                    let want = Int(min(UInt64(chunk.space), remaining))
                    let count = read(fd, buffer.baseAddress, want)
                    if count < 0 {
                        failure = .io(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
                        break entryLoop
                    }
                    if count == 0 {
                        failure = .io(path: path, reason: "changed while being packaged (it became shorter); try again")
                        break entryLoop
                    }
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                    remaining -= UInt64(count)
                    chunk.append(bytes, media: media, file: entryIndex, isLast: remaining == 0)
                    readBytes += UInt64(count)
                    progress?(readBytes)
                    if chunk.isFull { submit(final: false) }
                }
            default:
                break
            }
        }
        if failure == nil {
            chunk.append(CpioHeader.trailer())
            submit(final: true)
        }
        state.finish(chunks: sequence, trailer: GzipStream.finalBlock + GzipStream.trailer(crc: crc, length: total))
        state.waitForWriter()
        hasher.wait()
        if let error = failure ?? state.failure { throw error }
        for (index, entry) in entries.enumerated() where entry.content.kind == .file {
            checksums[entry.name] = hasher.checksums[index]
            digests[entry.content.relativePath] = hasher.digests[index]
        }
        return Result(
            compressedLength: state.written, uncompressedLength: total, sha1: state.sha1Hex,
            checksums: checksums, fileDigests: digests)
    }
}

/// A chunk of the uncompressed cpio stream, and how much of it came from already-compressed media.
struct ChunkBuilder {
    let capacity: Int
    var bytes: [UInt8] = []
    var mediaBytes = 0
    /// Which byte ranges of this chunk belong to which file, for the per-file hashes.
    var segments: [FileSegment] = []

    init(capacity: Int) {
        self.capacity = capacity
        bytes.reserveCapacity(capacity)
    }

    var space: Int { max(1, capacity - bytes.count) }
    var isFull: Bool { bytes.count >= capacity }

    mutating func append(_ data: [UInt8]) { bytes += data }

    mutating func append(_ data: UnsafeRawBufferPointer, media: Bool, file: Int, isLast: Bool) {
        segments.append(FileSegment(file: file, range: bytes.count..<(bytes.count + data.count), isLast: isLast))
        if data.count > 0 { bytes.append(contentsOf: data) }
        if media { mediaBytes += data.count }
    }

    mutating func reset() {
        bytes = []
        bytes.reserveCapacity(capacity)
        mediaBytes = 0
        segments = []
    }
}

struct FileSegment: Sendable {
    var file: Int
    var range: Range<Int>
    var isLast: Bool
}

/// Computes each file's POSIX cksum and SHA-256 from the chunks, in order, on its own thread, so the
/// reading thread only reads.
final class FileHasher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "iapkit.file-hasher")
    private let slots: DispatchSemaphore
    private var checksum = PosixChecksum()
    private var sha256 = SHA256()
    private(set) var checksums: [Int: UInt32] = [:]
    private(set) var digests: [Int: String] = [:]

    init(maxInFlight: Int) { slots = DispatchSemaphore(value: maxInFlight) }

    func submit(_ bytes: [UInt8], segments: [FileSegment]) {
        guard !segments.isEmpty else { return }
        slots.wait()
        // Segments of empty files have empty ranges; they only finish their file.
        queue.async { [self] in
            bytes.withUnsafeBytes { buffer in
                for segment in segments {
                    if !segment.range.isEmpty {
                        let part = UnsafeRawBufferPointer(rebasing: buffer[segment.range])
                        checksum.update(part)
                        sha256.update(bufferPointer: part)
                    }
                    if segment.isLast { finishFile(segment.file) }
                }
            }
            slots.signal()
        }
    }

    private func finishFile(_ file: Int) {
        checksums[file] = checksum.value
        digests[file] = sha256.finalize().hexString
        checksum = PosixChecksum()
        sha256 = SHA256()
    }

    func wait() { queue.sync {} }
}

/// Shared between the reading thread, the compression workers and the writer thread.
final class PipelineState: @unchecked Sendable {
    private let condition = PThreadCondition()
    private let slots: DispatchSemaphore
    private var ready: [Int: [UInt8]] = [:]
    private let header: [UInt8]
    private var trailer: [UInt8]?
    private var chunkCount: Int?
    private var writerDone = false
    private let output: OutputHandle
    private let outputPath: String
    private var hasher = Insecure.SHA1()
    private(set) var written: UInt64 = 0
    private(set) var failure: IAPKitError?
    private(set) var sha1Hex = ""

    init(output: OutputHandle, outputPath: String, maxInFlight: Int, header: [UInt8]) {
        self.header = header
        self.output = output
        self.outputPath = outputPath
        slots = DispatchSemaphore(value: maxInFlight)
    }

    func acquireSlot() { slots.wait() }

    func deliver(index: Int, bytes: [UInt8]) {
        condition.lock()
        ready[index] = bytes
        condition.broadcast()
        condition.unlock()
    }

    func finish(chunks: Int, trailer: [UInt8]) {
        condition.lock()
        chunkCount = chunks
        self.trailer = trailer
        condition.broadcast()
        condition.unlock()
    }

    func waitForWriter() {
        condition.lock()
        while !writerDone { condition.wait() }
        condition.unlock()
    }

    private func emit(_ bytes: [UInt8]) {
        guard failure == nil, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        do {
            try output.write(contentsOf: bytes)
            written += UInt64(bytes.count)
        } catch {
            condition.lock()
            failure = .io(path: outputPath, reason: "cannot write: \(AtomicFile.describe(error))")
            condition.unlock()
        }
    }

    func runWriter() {
        emit(header)
        var next = 0
        while true {
            condition.lock()
            while ready[next] == nil && (chunkCount == nil || next < chunkCount!) { condition.wait() }
            if let count = chunkCount, next >= count {
                let tail = trailer ?? []
                condition.unlock()
                emit(tail)
                break
            }
            let bytes = ready.removeValue(forKey: next)!
            condition.unlock()
            emit(bytes)
            slots.signal()
            next += 1
        }
        sha1Hex = hasher.finalize().hexString
        condition.lock()
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }
}
