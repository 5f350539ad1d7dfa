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

/// Numbers written as `String(format:)` wrote them, without it (it is not in FoundationEssentials).
public enum Format {
    /// `1 territory price`, `3 territory prices`: a count with its noun, plural by adding `s`.
    public static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

    /// A range of counts as English: `1 to 12 periods`, or `only 1 period` when it holds one number.
    public static func range(_ range: ClosedRange<Int>, _ noun: String) -> String {
        range.lowerBound == range.upperBound
            ? "only " + count(range.lowerBound, noun) : "\(range.lowerBound) to \(range.upperBound) \(noun)s"
    }

    /// `value` in decimal, left-padded with zeros to `width` digits (`%04d`).
    public static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }

    /// `value` in hexadecimal, padded with zeros to `width` digits (`%04x`, `%02X`).
    public static func hex<Value: BinaryInteger>(_ value: Value, width: Int, uppercase: Bool = false) -> String {
        let digits = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `value` rounded to `decimals` places after the point (`%.1f`, `%.2f`).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded(.toNearestOrEven)
        guard scaled < 9e15 else { return "\(value)" }
        let whole = Int(scaled)
        let integer = whole / Int(scale), fraction = whole % Int(scale)
        let sign = value < 0 && whole != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(integer)" : "\(sign)\(integer)." + padded(fraction, width: decimals)
    }
}
