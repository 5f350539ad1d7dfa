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
import IAPCore

/// Apple's asset-pack packaging tool, which turns a manifest into an `.aar`: `xcrun ba-package` on macOS; on Linux
/// the `ba-package` of "Managed Background Assets Developer Tools for Linux", which each user downloads from Apple
/// with an Apple ID. iapkit runs it and never imitates it: the archive's layout is Apple's and undocumented.
public struct PackagingTool: Sendable {
    /// The program, and the arguments before `package` (`xcrun` needs `ba-package`).
    public let executable: String
    public let leadingArguments: [String]

    public init(executable: String, leadingArguments: [String] = []) {
        self.executable = executable
        self.leadingArguments = leadingArguments
    }

    public static let environmentVariable = "IAPKIT_BA_PACKAGE"
    public static let whereToGetIt =
        "Apple's asset-pack packaging tool is needed: on macOS it is `xcrun ba-package` "
        + "(Xcode 26 or later); on Linux download \"Managed Background Assets Developer Tools for Linux\" from "
        + "https://developer.apple.com/download/all/ (an Apple ID is needed) and pass its `ba-package` with --ba-package PATH "
        + "or set \(environmentVariable)"

    /// The tool `--ba-package` names, else `IAPKIT_BA_PACKAGE`, else `ba-package` on PATH, else (macOS) `xcrun
    /// ba-package`. Throws, saying where to get it, when there is none.
    public static func locate(explicit: String?, environment: [String: String]) throws(IAPKitError) -> PackagingTool {
        if let given = explicit ?? environment[environmentVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard access(given, X_OK) == 0, !Path.isDirectory(given) else {
                throw .invalidArgument("\(given): not an executable file. " + whereToGetIt)
            }
            return PackagingTool(executable: given)
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = Path.join(String(folder), "ba-package")
            if access(candidate, X_OK) == 0, !Path.isDirectory(candidate) { return PackagingTool(executable: candidate) }
        }
        #if os(macOS)
        if access("/usr/bin/xcrun", X_OK) == 0 { return PackagingTool(executable: "/usr/bin/xcrun", leadingArguments: ["ba-package"]) }
        #endif
        throw .invalidArgument(whereToGetIt)
    }

    /// Runs `package MANIFEST -o OUTPUT` in `workingDirectory` (the tool resolves the manifest's selectors there).
    /// The tool refuses to overwrite, so `output` must not exist. Throws with what the tool said when it fails or
    /// writes nothing.
    public func package(manifest: String, output: String, workingDirectory: String) throws(IAPKitError) {
        let arguments = leadingArguments + ["package", absolute(manifest), "-o", absolute(output)]
        let (status, said) = try Self.run(executable, arguments, in: workingDirectory)
        let text = said.trimmingSpaces(andNewlines: true)
        guard status == 0 else {
            throw .io(
                path: output,
                reason: "the packaging tool (\(executable)) failed with status \(status)"
                    + (text.isEmpty ? " and said nothing" : ": \(text)"))
        }
        guard FileManager.default.fileExists(atPath: output) else {
            throw .io(
                path: output,
                reason: "the packaging tool (\(executable)) exited 0 but wrote no archive"
                    + (text.isEmpty ? "" : ": \(text)"))
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Path.join(FileManager.default.currentDirectoryPath, path)
    }

    /// Runs the program in `directory`: its status and what it said on stdout and stderr together.
    static func run(_ program: String, _ arguments: [String], in directory: String) throws(IAPKitError) -> (Int32, String) {
        let child = try ChildProcess.run(program, arguments, in: directory, outputLimit: 64 << 10, mergingErrors: true)
        return (child.status, String(decoding: child.output, as: UTF8.self))
    }
}
