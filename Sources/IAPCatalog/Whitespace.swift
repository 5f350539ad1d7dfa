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

extension String {
    /// `trimmingCharacters(in: .whitespaces)` (spaces of Unicode category Zs and tabs), without Foundation's
    /// bridging in the usual case of nothing to trim: lint asks this of every name and price.
    public var trimmingWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        if !first.isWhitespace && !last.isWhitespace { return self }
        return trimmingSpaces()
    }

    /// Whether the text is empty or only spaces and tabs.
    public var isBlank: Bool { unicodeScalars.allSatisfy(\.isWhitespace) }
}

extension Unicode.Scalar {
    /// A member of `CharacterSet.whitespaces`.
    fileprivate var isWhitespace: Bool {
        // The space separators (Zs) above ASCII, listed so that most letters are ruled out without a table look-up.
        switch value {
        case 0x20, 0x09: return true
        case ..<0x80: return false
        case 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
