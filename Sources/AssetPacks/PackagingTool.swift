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
    public static let whereToGetIt = "Apple's asset-pack packaging tool is needed: on macOS it is `xcrun ba-package` "
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
            throw .io(path: output, reason: "the packaging tool (\(executable)) failed with status \(status)"
                          + (text.isEmpty ? " and said nothing" : ": \(text)"))
        }
        guard FileManager.default.fileExists(atPath: output) else {
            throw .io(path: output, reason: "the packaging tool (\(executable)) exited 0 but wrote no archive"
                          + (text.isEmpty ? "" : ": \(text)"))
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Path.join(FileManager.default.currentDirectoryPath, path)
    }

    /// Spawns the program through `/bin/sh` only to change directory first (the arguments stay positional, never
    /// parsed by the shell), collects what it writes to stdout and stderr, and waits for it.
    static func run(_ program: String, _ arguments: [String], in directory: String) throws(IAPKitError) -> (Int32, String) {
        let argv = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", directory, program] + arguments
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw .io(path: program, reason: "cannot create a pipe: \(SystemError())") }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, &cArguments, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw .io(path: program, reason: "cannot run: \(SystemError(spawned))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(pipeEnds[0], $0.baseAddress, $0.count) }
            if count > 0 {
                if output.count < 64 << 10 { output += buffer[0..<count] }
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, spelled out: the macros do not reach Swift.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, String(decoding: output, as: UTF8.self))
    }
}
