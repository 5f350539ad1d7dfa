import CZlib
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

/// Builds one gzip stream from independently compressed chunks, so both cores can compress at once (as pigz
/// does): each chunk is raw deflate primed with the previous 32 KiB as dictionary and ended with a sync flush
/// (byte-aligned), or, for data that does not shrink, copied into stored blocks. The header carries no name and
/// no time, so the same input always gives the same bytes.
public enum GzipStream {
    /// RFC 1952 header: deflate, no flags, MTIME 0, no extra flags, OS 3 (Unix).
    public static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
    /// An empty final stored block: ends the deflate stream at a byte boundary.
    public static let finalBlock: [UInt8] = [0x01, 0x00, 0x00, 0xFF, 0xFF]
    public static let level: Int32 = 6
    static let dictionarySize = 32 * 1024

    /// The trailer: CRC-32 and length (mod 2^32) of the uncompressed data, little-endian.
    public static func trailer(crc: UInt32, length: UInt64) -> [UInt8] {
        let size = UInt32(truncatingIfNeeded: length)
        return [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) }
            + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: size >> UInt32($0)) }
    }

    /// Raw deflate of `input` as non-final blocks ending byte-aligned; nil when it would not save at least 3%.
    public static func deflateChunk(_ input: UnsafeRawBufferPointer, dictionary: UnsafeRawBufferPointer?) -> [UInt8]? {
        var stream = z_stream()
        guard iapkit_deflateInit2(&stream, level, -15) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        if let dictionary, let base = dictionary.baseAddress, dictionary.count > 0 {
            deflateSetDictionary(&stream, base.assumingMemoryBound(to: Bytef.self), uInt(dictionary.count))
        }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 16
        var output = [UInt8](repeating: 0, count: bound)
        let limit = input.count - input.count / 33
        let produced: Int = output.withUnsafeMutableBytes { out in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(out.count)
            guard deflate(&stream, Z_SYNC_FLUSH) == Z_OK else { return Int.max }
            return out.count - Int(stream.avail_out)
        }
        guard produced <= limit else { return nil }
        output.removeLast(output.count - produced)
        return output
    }

    /// `input` as non-final stored blocks (at most 65,535 bytes each).
    public static func storedChunk(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count + (input.count / 65_535 + 1) * 5)
        var offset = 0
        while offset < input.count {
            let length = min(65_535, input.count - offset)
            output += [0x00, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + length)]))
            offset += length
        }
        return output
    }

    /// zlib's CRC-32 (the gzip trailer's), continued from `crc`.
    public static func crc32(_ crc: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return crc }
        var value = uLong(crc)
        var offset = 0
        while offset < buffer.count {
            let length = min(buffer.count - offset, Int(UInt32.max))
            value = CZlib.crc32(value, (base + offset).assumingMemoryBound(to: Bytef.self), uInt(length))
            offset += length
        }
        return UInt32(value)
    }

    /// zlib (RFC 1950) compression of a small in-memory buffer, for the xar TOC and x-gzip entries.
    public static func zlibCompress(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                compress2(
                    out.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                    input.baseAddress?.assumingMemoryBound(to: Bytef.self) ?? UnsafePointer(bitPattern: 1), uLong(data.count), level)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        output.removeLast(output.count - Int(length))
        return output
    }

    /// Inflates zlib data (used by the Bom and xar readers).
    public static func zlibDecompress(_ data: [UInt8], expectedSize: Int) -> [UInt8]? {
        var length = uLong(max(expectedSize, 1))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                uncompress(
                    out.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                    input.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(data.count))
            }
        }
        guard status == Z_OK else { return nil }
        output.removeLast(output.count - Int(length))
        return output
    }
}
