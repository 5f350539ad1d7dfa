import Foundation
import IAPCore
import TestSupport
import Testing

/// Other programs run by iapkit (git for `--changed-since`, Apple's packaging tool): what they write comes back
/// whole and apart, however much they write to either stream, and however they end.
///
/// Each check runs in a process of its own (an exit test). In the test process other tests open and close
/// descriptors all the time, and Foundation's `Process` closes a Pipe's end that the Pipe closes again later: a
/// number closed twice can land on a pipe a check is reading, which then reads another program's output. iapkit
/// itself runs one program at a time and never meets this.
@Suite struct ChildProcessTests {
    @Test func outputAndErrorsComeBackApartWithTheStatus() async {
        await #expect(processExitsWith: .success) {
            let child = try ChildProcess.run("sh", ["-c", "printf out; printf err >&2; exit 3"], outputLimit: 1000)
            require(child.status == 3, "status \(child.status)")
            require(child.output == Array("out".utf8) && child.errors == Array("err".utf8), "\(child)")
            let merged = try ChildProcess.run("sh", ["-c", "printf out; printf err >&2"], outputLimit: 1000, mergingErrors: true)
            require(merged.output.sorted() == Array("outerr".utf8).sorted() && merged.errors.isEmpty, "\(merged)")
        }
    }

    @Test func bothStreamsFarBeyondAPipesBufferDoNotStall() async {
        await #expect(processExitsWith: .success) {
            // A megabyte of errors before a megabyte of output: a reader of one pipe at a time would wait forever.
            let child = try ChildProcess.run(
                "sh", ["-c", "head -c 1048576 /dev/zero >&2; head -c 1048576 /dev/zero"],
                outputLimit: 2 << 20)
            require(child.status == 0 && child.output.count == 1 << 20 && !child.outputTruncated, "output \(child.output.count)")
            require(child.errors.count == 64 << 10, "errors \(child.errors.count)")
        }
    }

    @Test func outputPastItsLimitIsCutAndSaysSo() async {
        await #expect(processExitsWith: .success) {
            let child = try ChildProcess.run("sh", ["-c", "head -c 5000 /dev/zero; exit 4"], outputLimit: 1000)
            require(child.output.count == 1000 && child.outputTruncated && child.status == 4, "\(child.output.count) \(child.status)")
        }
    }

    @Test func argumentsStayAsGivenAndRunInTheFolder() async {
        await #expect(processExitsWith: .success) {
            let child = try ChildProcess.run("printf", ["%s|", "a b", "\"$HOME\"", "$(false)", "-n"], in: "/", outputLimit: 1000)
            require(String(decoding: child.output, as: UTF8.self) == "a b|\"$HOME\"|$(false)|-n|", "\(child)")
            let folder = try ChildProcess.run("pwd", [], in: "/", outputLimit: 1000)
            require(String(decoding: folder.output, as: UTF8.self) == "/\n", "\(folder)")
        }
    }

    @Test func aSignalAndAMissingProgramAreStatusesAsShellsReportThem() async {
        await #expect(processExitsWith: .success) {
            // TERM, which a test runner may ignore: the program starts with every signal at its default.
            let killed = try ChildProcess.run("sh", ["-c", "kill -TERM $$"], outputLimit: 1000)
            require(killed.status == 128 + 15, "status \(killed.status)")
            require(try ChildProcess.run("iapkit-no-such-program", [], outputLimit: 1000).status == 127, "not 127")
        }
    }
}

/// Inside an exit test: says what went wrong on standard error and ends the process with a failure.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data(("ChildProcessTests: " + message() + "\n").utf8))
    exit(1)
}
