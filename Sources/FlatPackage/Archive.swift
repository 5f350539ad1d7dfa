/// The two upload archives iapkit writes: Apple's flat package (`pkg`, `FlatPackageBuilder`) and a zip for
/// self-hosted content (`zip`, `ZipArchiver`).
public enum ArchiveFormat: String, Sendable, CaseIterable {
    case pkg, zip

    /// The timestamps each format can hold: a Bom stores 32-bit unsigned times; a zip's extended timestamp is
    /// a signed 32-bit number (its DOS date would not even reach 2108).
    public var epochRange: ClosedRange<Int> {
        switch self {
        case .pkg: return 0...Int(UInt32.max)
        case .zip: return 0...Int(Int32.max)
        }
    }
}

/// What building one archive produced, for the manifest and the lock.
public struct ArchiveResult: Sendable {
    public var size: UInt64
    public var sha256: String
    public var md5: String?
    public var contentDigest: String
    public var fileCount: Int
}
