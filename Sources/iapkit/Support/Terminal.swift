#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore

/// Everything the CLI prints goes through here: messages to stderr, colour only on a terminal and never with a non-empty NO_COLOR.
enum Terminal {
    static func prepareProcess() {
        // A closed standard descriptor would be reused by the next file opened, and output meant for it would land
        // in that file: hold each one with /dev/null opened read-only, so writing to it fails (EBADF) as it should.
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) < 0 {
            let placeholder = open("/dev/null", O_RDONLY)
            if placeholder >= 0 && placeholder != descriptor { dup2(placeholder, descriptor); close(placeholder) }
        }
        // Swift never calls setlocale; libarchive needs a UTF-8 locale for non-ASCII names, and zips take the
        // time zone into their timestamps.
        setlocale(LC_CTYPE, "C.UTF-8")
        setenv("TZ", "UTC", 1)
        tzset()
        SignalCleanup.install()
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    static func colourAllowed(forTerminal isTerminal: Bool) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        // no-color.org: NO_COLOR turns colour off when it is set and not empty.
        return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Set when a write to standard error failed; the run then ends with exit 2 (there is nowhere left to say why).
    nonisolated(unsafe) static var standardErrorFailed = false

    /// Writes to standard error. A failure cannot be reported, only remembered for the exit code.
    static func writeError(_ text: String) {
        if case .failure = write(Array(text.utf8), to: STDERR_FILENO) { standardErrorFailed = true }
    }

    static func error(_ message: String) {
        let label = colourAllowed(forTerminal: stderrIsTerminal) ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
        writeError("\(label) \(message)\n")
    }

    /// Asks a yes-or-no question on the terminal (no is the default); without a terminal there is no one to ask,
    /// and `refusal` says which flag answers instead.
    static func confirm(_ question: String, withoutTerminal refusal: String) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { throw IAPKitError.invalidArgument(refusal) }
        writeError(question + " [y/N] ")
        return readLine().map { ["y", "yes"].contains($0.lowercased()) } ?? false
    }

    static func warning(_ message: String) {
        let label = colourAllowed(forTerminal: stderrIsTerminal) ? "\u{1B}[1;33mwarning:\u{1B}[0m" : "warning:"
        writeError("\(label) \(message)\n")
    }

    static func output(_ text: String) throws(OutputFailure) { try output(Array(text.utf8)) }

    /// Writes to standard output; a full disk, a closed descriptor or a reader that went away is an `OutputFailure`.
    static func output(_ bytes: [UInt8]) throws(OutputFailure) {
        if case let .failure(failure) = write(bytes, to: STDOUT_FILENO) { throw failure }
    }

    /// Every byte, retrying short writes and EINTR.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Result<Void, OutputFailure> {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(OutputFailure(code: errno))
            }
            offset += count
        }
        return .success(())
    }

    /// Ends the process; a failed write to standard error turns success into exit 2.
    static func exit(_ code: Int32) -> Never {
        systemExit(standardErrorFailed ? 2 : code)
    }
}

/// Standard output could not be written. A reader that went away (`iapkit lint | head -1`) ends the run quietly;
/// anything else is an I/O failure reported on standard error.
struct OutputFailure: Error {
    var code: Int32
    var isBrokenPipe: Bool { code == EPIPE }
    var description: String { "standard output: cannot write: \(String(cString: strerror(code)))" }
}

/// On SIGINT or SIGTERM, removes every temporary file and folder still open, then exits 130/143: an interrupted
/// run leaves nothing at any final path.
///
/// The signal only wakes a dispatch queue; the work happens there, not in a signal handler. It takes the staged-file
/// lock and keeps it, so the main thread cannot create a temporary file after the clean-up or be half-way through a
/// commit when the process ends (a commit in progress finishes first), and it leaves with `_exit` so no
/// destructor runs while the main thread is still working.
enum SignalCleanup {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    /// What an interrupted run says about work that is not a file (a push: what reached App Store Connect).
    nonisolated(unsafe) private static var note: (@Sendable () -> String)?
    private static let noteLock = PThreadLock()

    /// Sets, or with nil clears, the sentence an interruption prints instead of the one about files.
    static func setInterruptionNote(_ note: (@Sendable () -> String)?) { noteLock.withLock { self.note = note } }

    static func install() {
        // A closed pipe is a write error (EPIPE) handled where the write happens, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                StagedFiles.shared.interruptAndRemoveAll()
                if let note = noteLock.withLock({ note }) {
                    Terminal.writeError("\ninterrupted. \(note())\n")
                } else {
                    Terminal.writeError("\ninterrupted; partial output removed\n")
                }
                _exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
