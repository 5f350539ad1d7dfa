#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Another program run to its end: how it ended and what it wrote. Spawned with `posix_spawn`, not Foundation's
/// `Process`, which on Linux lives in full Foundation and would bring ICU and its data into the release binary.
public struct ChildProcess: Sendable {
    /// The exit status, or 128 + the signal that ended it, as shells report it.
    public var status: Int32
    /// Standard output (with standard error when merged), up to its limit.
    public var output: [UInt8]
    /// Standard error when not merged, up to its limit.
    public var errors: [UInt8]
    /// Whether standard output went past its limit; what was kept is its start.
    public var outputTruncated: Bool

    /// Runs `program` (looked up on PATH when it names no folder) with `arguments` in `directory`, standard input
    /// empty, and waits for it. `/bin/sh` only changes directory first: the arguments stay positional, never parsed
    /// by the shell. Both pipes are read as the program writes, so neither can fill up and stall it.
    public static func run(
        _ program: String, _ arguments: [String], in directory: String = ".", outputLimit: Int,
        errorLimit: Int = 64 << 10, mergingErrors: Bool = false
    ) throws(IAPKitError) -> ChildProcess {
        let argv = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", directory, program] + arguments
        let outputPipe = try makePipe(for: program)
        var errorPipe: [Int32] = [-1, -1]
        if !mergingErrors {
            do { errorPipe = try makePipe(for: program) } catch {
                outputPipe.forEach { _ = close($0) }
                throw error
            }
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergingErrors ? outputPipe[1] : errorPipe[1], 2)
        // The program starts with every signal at its default and none blocked, whatever iapkit ignores (SIGPIPE).
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, environ)
        for end in [outputPipe[1], errorPipe[1]] where end >= 0 { close(end) }
        guard spawned == 0 else {
            for end in [outputPipe[0], errorPipe[0]] where end >= 0 { close(end) }
            throw .io(path: program, reason: "cannot run: \(SystemError(spawned))")
        }

        var result = ChildProcess(status: 0, output: [], errors: [], outputTruncated: false)
        var open = [pollfd(fd: outputPipe[0], events: Int16(POLLIN), revents: 0)]
        if errorPipe[0] >= 0 { open.append(pollfd(fd: errorPipe[0], events: Int16(POLLIN), revents: 0)) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !open.isEmpty {
            guard poll(&open, nfds_t(open.count), -1) >= 0 else {
                if errno == EINTR { continue }
                open.forEach { _ = close($0.fd) }
                break
            }
            for index in open.indices.reversed() where open[index].revents != 0 {
                let fd = open[index].fd
                let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let chunk = buffer[0..<count]
                    if fd == outputPipe[0] {
                        let room = max(0, outputLimit - result.output.count)
                        result.output += chunk.prefix(room)
                        if count > room { result.outputTruncated = true }
                    } else {
                        result.errors += chunk.prefix(max(0, errorLimit - result.errors.count))
                    }
                } else if count == 0 || errno != EINTR {
                    close(fd)
                    open.remove(at: index)
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, spelled out: the macros do not reach Swift.
        result.status = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return result
    }

    /// A pipe whose ends are numbered 3 or above and close on exec (the program gets its copies through `dup2`, which
    /// keeps them open). When iapkit itself runs with standard input or output closed, `pipe` hands out 0, 1 or 2,
    /// and the child's own standard streams would be set up over them.
    private static func makePipe(for program: String) throws(IAPKitError) -> [Int32] {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .io(path: program, reason: "cannot create a pipe: \(SystemError())") }
        for index in ends.indices {
            let lifted = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            let error = SystemError()
            close(ends[index])
            ends[index] = lifted
            if lifted < 0 {
                ends.filter { $0 >= 0 }.forEach { _ = close($0) }
                throw .io(path: program, reason: "cannot create a pipe: \(error)")
            }
        }
        return ends
    }
}
