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

    /// The path itself, however it is written (`content/x`, `./content/x/`, through a link): every link resolved, or,
    /// for a path that does not exist, made absolute and standardized.
    public static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        return standardized(path.hasPrefix("/") ? path : join(FileManager.default.currentDirectoryPath, path))
    }
}
