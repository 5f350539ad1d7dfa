/// The checksum of POSIX `cksum(1)`, which the Bom stores per file: CRC-32 with polynomial 0x04C11DB7, not
/// reflected, initial value 0, the data then its length (little-endian, only the bytes needed), all bits inverted.
/// Not zlib's CRC-32. Slicing-by-8 tables keep it near memory speed.
public struct PosixChecksum: Sendable {
    private var crc: UInt32 = 0
    private var length: UInt64 = 0

    public init() {}

    static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var crc = UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
            tables[0][byte] = crc
        }
        for byte in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][byte]
                tables[slice][byte] = (previous << 8) ^ tables[0][Int(previous >> 24)]
            }
        }
        return tables
    }()

    /// One flat table of 8×256 entries, read without bounds checks in the hot loop.
    nonisolated(unsafe) static let flat: UnsafeMutablePointer<UInt32> = {
        let pointer = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 * 256)
        for slice in 0..<8 { for byte in 0..<256 { pointer[slice * 256 + byte] = tables[slice][byte] } }
        return pointer
    }()

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        length &+= UInt64(buffer.count)
        crc = Self.update(crc, base.assumingMemoryBound(to: UInt8.self), buffer.count)
    }

    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    static func update(_ start: UInt32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        let t = flat
        var crc = start
        var p = bytes
        var remaining = count
        while remaining >= 8 {
            let a = (UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])) ^ crc
            let b = UInt32(p[4]) << 24 | UInt32(p[5]) << 16 | UInt32(p[6]) << 8 | UInt32(p[7])
            crc =
                t[7 * 256 + Int(a >> 24)] ^ t[6 * 256 + Int((a >> 16) & 0xFF)]
                ^ t[5 * 256 + Int((a >> 8) & 0xFF)] ^ t[4 * 256 + Int(a & 0xFF)]
                ^ t[3 * 256 + Int(b >> 24)] ^ t[2 * 256 + Int((b >> 16) & 0xFF)]
                ^ t[1 * 256 + Int((b >> 8) & 0xFF)] ^ t[Int(b & 0xFF)]
            p += 8
            remaining -= 8
        }
        while remaining > 0 {
            crc = (crc << 8) ^ t[Int((crc >> 24) ^ UInt32(p[0]))]
            p += 1
            remaining -= 1
        }
        return crc
    }

    /// The value `cksum` prints.
    public var value: UInt32 {
        var crc = crc
        var length = length
        while length > 0 {
            crc = (crc << 8) ^ Self.flat[Int((crc >> 24) ^ UInt32(length & 0xFF))]
            length >>= 8
        }
        return ~crc
    }
}
