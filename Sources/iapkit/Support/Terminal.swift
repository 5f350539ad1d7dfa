import Foundation
import IAPCore

/// Everything the CLI prints goes through here: messages to stderr, colour only on a terminal and never with NO_COLOR.
enum Terminal {
    static func prepareProcess() {
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
        return isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func error(_ message: String) {
        let label = colourAllowed(forTerminal: stderrIsTerminal) ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
        writeError("\(label) \(message)\n")
    }

    static func warning(_ message: String) {
        let label = colourAllowed(forTerminal: stderrIsTerminal) ? "\u{1B}[1;33mwarning:\u{1B}[0m" : "warning:"
        writeError("\(label) \(message)\n")
    }

    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Bytes to standard output, written from their own storage (a large export is not copied again).
    static func output(_ bytes: [UInt8]) {
        try? FileHandle.standardOutput.write(contentsOf: bytes)
    }
}

/// On SIGINT or SIGTERM, removes every temporary file still being written, then exits 130/143:
/// an interrupted run leaves nothing at any final path.
enum SignalCleanup {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                StagedFiles.shared.removeAll()
                Terminal.writeError("\ninterrupted; partial output removed\n")
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
