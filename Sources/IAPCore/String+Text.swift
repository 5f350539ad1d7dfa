#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What iapkit used from full Foundation, on FoundationEssentials and POSIX instead. Full Foundation on Linux links
// in ICU and its data (36 MB of the release binary); these few helpers are all the libraries needed of it.

extension String {
    /// Without leading and trailing spaces and tabs (Unicode category Zs), and with `newlines` also line breaks:
    /// `CharacterSet.whitespaces` and `.whitespacesAndNewlines`.
    public func trimmingSpaces(andNewlines newlines: Bool = false) -> String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == " " || scalar == "\t" { return true }
            if newlines,
                (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028
                    || scalar.value == 0x2029
            {
                return true
            }
            return scalar.value >= 0x80 && scalar.properties.generalCategory == .spaceSeparator
        }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[start...end])
    }

    /// Every occurrence of `target` replaced, matched scalar by scalar (`replacingOccurrences(of:with:)`, which is
    /// not in FoundationEssentials; the standard library's `replacing` matches whole characters, so it would miss the
    /// `\r` of a `\r\n`).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        guard let first = needle.first else { return self }
        let scalars = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == first, index + needle.count <= scalars.count,
                scalars[index..<index + needle.count].elementsEqual(needle)
            {
                result.append(contentsOf: replacement.unicodeScalars)
                index += needle.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// The range of the last occurrence of `needle`.
    public func lastRange(of needle: String) -> Range<String.Index>? {
        guard !needle.isEmpty else { return nil }
        var index = endIndex
        while index > startIndex {
            index = self.index(before: index)
            if self[index...].hasPrefix(needle) { return index..<self.index(index, offsetBy: needle.count) }
        }
        return nil
    }
}
