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

/// Builds output paths that cannot leave their folder, whatever the input: the last check before a file is made.
public enum OutputPath {
    /// `directory/name`, refused unless `name` is one visible path component (no `/`, not `.` or `..`, no leading
    /// period, no NUL).
    public static func join(_ directory: String, _ name: String) throws(IAPKitError) -> String {
        guard isPlainName(name) else {
            throw .invalidArgument("`\(name)` cannot name a file in \(directory): it must be one plain name, without `/` or a leading period")
        }
        return Path.join(directory, name)
    }

    /// Whether `name` names an entry directly inside a folder and nothing else.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
    }
}
