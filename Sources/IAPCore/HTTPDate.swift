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

/// Dates as HTTP and App Store Connect write them, without `DateFormatter` (full Foundation, and ICU).
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An HTTP date (RFC 9110, section 5.6.7) in any of its three forms, always GMT:
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`.
    public static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        guard words.count >= 5 else { return nil }
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        for word in words.dropFirst() {
            if let index = months.firstIndex(of: String(word.prefix(3))), word.count == 3 {
                month = index + 1
            } else if word.contains(":") {
                let parts = word.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                clock = parts
            } else if let number = Int(word) {
                if day == nil && word.count <= 2 && month == nil || day == nil && month != nil && word.count <= 2 {
                    day = number
                } else {
                    year = word.count == 2 ? (number < 70 ? 2000 + number : 1900 + number) : number
                }
            } else if word != "gmt" && word != "utc" {
                return nil
            }
        }
        guard let day, let month, let year, let clock, (1...31).contains(day), clock[0] < 24, clock[1] < 60,
            clock[2] <= 60
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        let seconds = timegm(&parts)
        return seconds == -1 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `yyyy-MM-dd` in UTC, as App Store Connect's date fields take it.
    public static func day(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return Format.padded(Int(parts.tm_year) + 1900, width: 4) + "-" + Format.padded(Int(parts.tm_mon) + 1, width: 2)
            + "-" + Format.padded(Int(parts.tm_mday), width: 2)
    }
}
