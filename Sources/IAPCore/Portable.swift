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

/// Path text as `NSString`'s path methods treat it, for `/`-separated paths.
public enum Path {
    /// `directory/name`; an empty side gives the other, and slashes are not doubled.
    public static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        if name.isEmpty { return directory }
        var result = directory
        while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        var tail = Substring(name)
        while tail.hasPrefix("/") { tail = tail.dropFirst() }
        if result == "/" { return "/" + tail }
        return tail.isEmpty ? result : result + "/" + tail
    }

    /// Everything before the last component: `a/b` -> `a`, `/a` -> `/`, `a` -> ``.
    public static func parent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// The last component: `a/b/` -> `b`, `/` -> `/`.
    public static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of the last component without its period: `a.tar.gz` -> `gz`, `.hidden` -> ``.
    public static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? "" : String(ext)
    }

    /// Whether `path` is a folder (following links), as `fileExists(atPath:isDirectory:)` says.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `~` expanded, empty and `.` components dropped, and in an absolute path `..` taken back; no links resolved.
    public static func standardized(_ path: String) -> String {
        var text = path
        if text == "~" || text.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            text = home + text.dropFirst()
        }
        let absolute = text.hasPrefix("/")
        var parts: [Substring] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." && absolute {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? (text.isEmpty ? "" : ".") : joined
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (Unicode category Zs), and with `newlines` also line breaks:
    /// `CharacterSet.whitespaces` and `.whitespacesAndNewlines`.
    public func trimmingSpaces(andNewlines newlines: Bool = false) -> String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == " " || scalar == "\t" { return true }
            if newlines, (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028
                || scalar.value == 0x2029 { return true }
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
               scalars[index..<index + needle.count].elementsEqual(needle) {
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

/// Numbers written as `String(format:)` wrote them, without it (it is not in FoundationEssentials).
public enum Format {
    /// `1 territory price`, `3 territory prices`: a count with its noun, plural by adding `s`.
    public static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

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

/// An error a system call returned (errno), described as `strerror` describes it.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public init(_ code: Int32 = errno) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}

/// A mutual-exclusion lock on a pthread mutex (`NSLock` is not in FoundationEssentials; `Mutex` needs macOS 15).
public final class PThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}

/// A condition variable with its mutex (`NSCondition`, which is not in FoundationEssentials).
public final class PThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a signal; the lock must be held, and is held again on return.
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts `body` on a new detached thread (what `Thread { }.start()` did), with `stackSize` bytes of stack.
public func startThread(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(&thread, &attributes, { context in
        #if canImport(Darwin)
        let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
        #else
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
        #endif
        box.body()
        return nil
    }, context)
    precondition(status == 0, "cannot start a thread: \(SystemError(status))")
}

/// Writes to an open file descriptor, all of every buffer (what `FileHandle(fileDescriptor:)` did for iapkit).
public final class OutputHandle: @unchecked Sendable {
    public let fileDescriptor: Int32
    private var closed = false

    /// Takes ownership of `fileDescriptor`: it is closed by `close()` or when the handle goes away.
    public init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    deinit { if !closed { _ = systemClose(fileDescriptor) } }

    public func write<Bytes: DataProtocol>(contentsOf data: Bytes) throws(SystemError) {
        for region in data.regions {
            var failure: SystemError?
            region.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                do { try writeAll(buffer) } catch { failure = (error as? SystemError) ?? SystemError(EIO) }
            }
            if let failure { throw failure }
        }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) { try writeAll(buffer) }

    private func writeAll(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            let count = systemWrite(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError()
            }
            offset += count
        }
    }

    public func close() throws(SystemError) {
        guard !closed else { return }
        closed = true
        if systemClose(fileDescriptor) != 0 { throw SystemError() }
    }
}

@inline(__always) func systemClose(_ fd: Int32) -> Int32 { close(fd) }
/// `write(2)`, for code whose own names hide the C function.
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// `exit(3)`, for code whose own names hide the C function.
public func systemExit(_ code: Int32) -> Never { exit(code) }

/// `read(2)`, for code whose own names hide the C function.
@inline(__always) public func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

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
            if let index = months.firstIndex(of: String(word.prefix(3))), word.count == 3 { month = index + 1 }
            else if word.contains(":") {
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
              clock[2] <= 60 else { return nil }
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
