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

/// Checks on a file's bytes before parsing, without copying them into a String.
public enum UTF8Check {
    /// Whether `bytes` are well-formed UTF-8 (no overlongs, surrogates or values above U+10FFFF).
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            // Runs of ASCII, eight bytes at a time.
            while index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int, minimum: UInt32
            switch lead {
            case 0xC2...0xDF: (length, minimum) = (2, 0x80)
            case 0xE0...0xEF: (length, minimum) = (3, 0x800)
            case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
            default: return false
            }
            guard index + length <= count else { return false }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            index += length
        }
        return true
    }

    /// Whether valid UTF-8 `bytes` hold nothing but whitespace (as `Character.isWhitespace` judges it).
    static func isBlank(_ bytes: Data) -> Bool {
        guard let first = bytes.firstIndex(where: { !($0 == 0x20 || (0x09...0x0D).contains($0)) }) else { return true }
        guard bytes[first] >= 0x80 else { return false }
        // Unicode whitespace (a no-break space, a line separator): let String decide, from there on.
        return String(decoding: bytes[first...], as: UTF8.self).allSatisfy(\.isWhitespace)
    }
}
