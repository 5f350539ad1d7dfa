/// Headers of the POSIX portable ASCII ("odc", magic 070707) cpio format that Apple's Payload uses: 76 ASCII
/// octal bytes, the NUL-terminated name, then the data, with no padding anywhere.
public enum CpioHeader {
    public static let trailerName = "TRAILER!!!"

    public struct Fields: Sendable {
        public var inode: Int
        public var mode: UInt32
        public var nlink: Int
        public var mtime: Int
        public var name: String
        public var fileSize: UInt64

        public init(inode: Int, mode: UInt32, nlink: Int, mtime: Int, name: String, fileSize: UInt64) {
            self.inode = inode
            self.mode = mode
            self.nlink = nlink
            self.mtime = mtime
            self.name = name
            self.fileSize = fileSize
        }
    }

    /// The header and name bytes of one entry (uid, gid, dev and rdev are always 0: root:wheel, reproducible).
    public static func bytes(_ fields: Fields) -> [UInt8] {
        let name = Array(fields.name.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(76 + name.count + 1)
        func octal(_ value: UInt64, _ width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var rest = value
            var index = width - 1
            while rest > 0 && index >= 0 {
                digits[index] = UInt8(ascii: "0") + UInt8(rest & 7)
                rest >>= 3
                index -= 1
            }
            out += digits
        }
        out += Array("070707".utf8)
        octal(0, 6)  // dev
        octal(UInt64(fields.inode & 0o777777), 6)  // ino
        octal(UInt64(fields.mode), 6)
        octal(0, 6)  // uid
        octal(0, 6)  // gid
        octal(UInt64(fields.nlink), 6)
        octal(0, 6)  // rdev
        octal(UInt64(max(0, fields.mtime)), 11)
        octal(UInt64(name.count + 1), 6)
        octal(fields.fileSize, 11)
        out += name
        out.append(0)
        return out
    }

    public static func trailer() -> [UInt8] {
        bytes(Fields(inode: 0, mode: 0, nlink: 1, mtime: 0, name: trailerName, fileSize: 0))
    }

    /// The largest file an 11-digit octal size field holds (8 GiB - 1).
    public static let maximumFileSize: UInt64 = 0o77777777777
}
