import Foundation
import IAPCore
import Testing

/// Other programs run by iapkit (git for `--changed-since`, Apple's packaging tool): what they write comes back
/// whole and apart, however much they write to either stream, and however they end.
@Suite struct ChildProcessTests {
    func shell(_ script: String, outputLimit: Int = 1 << 20, errorLimit: Int = 64 << 10, merging: Bool = false,
               in directory: String = ".") throws -> ChildProcess {
        try ChildProcess.run("sh", ["-c", script], in: directory, outputLimit: outputLimit, errorLimit: errorLimit,
                             mergingErrors: merging)
    }

    @Test func outputAndErrorsComeBackApartWithTheStatus() throws {
        let child = try shell("printf out; printf err >&2; exit 3")
        #expect(child.status == 3)
        #expect(String(decoding: child.output, as: UTF8.self) == "out")
        #expect(String(decoding: child.errors, as: UTF8.self) == "err")
        let merged = try shell("printf out; printf err >&2", merging: true)
        #expect(String(decoding: merged.output, as: UTF8.self).sorted() == Array("outerr").sorted())
        #expect(merged.errors.isEmpty)
    }

    @Test func bothStreamsFarBeyondAPipesBufferDoNotStall() throws {
        // A megabyte of errors before a megabyte of output: a reader of one pipe at a time would wait forever.
        let child = try shell("head -c 1048576 /dev/zero >&2; head -c 1048576 /dev/zero", outputLimit: 2 << 20)
        #expect(child.status == 0)
        #expect(child.output.count == 1 << 20 && !child.outputTruncated)
        #expect(child.errors.count == 64 << 10)
    }

    @Test func outputPastItsLimitIsCutAndSaysSo() throws {
        let child = try shell("head -c 5000 /dev/zero; exit 4", outputLimit: 1000)
        #expect(child.output.count == 1000 && child.outputTruncated)
        #expect(child.status == 4)
    }

    @Test func argumentsStayAsGivenAndRunInTheFolder() throws {
        let dir = TemporaryDirectory()
        let child = try ChildProcess.run("printf", ["%s|", "a b", "\"$HOME\"", "$(false)", "-n"], in: dir.path, outputLimit: 1000)
        #expect(String(decoding: child.output, as: UTF8.self) == "a b|\"$HOME\"|$(false)|-n|")
        let folder = try ChildProcess.run("pwd", [], in: dir.path, outputLimit: 1000)
        #expect(URL(fileURLWithPath: String(decoding: folder.output, as: UTF8.self).trimmingCharacters(in: .newlines))
            .resolvingSymlinksInPath().path == URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path)
    }

    @Test func standardInputIsEmpty() throws {
        let child = try ChildProcess.run("cat", [], outputLimit: 1000)
        #expect(child.status == 0 && child.output.isEmpty)
    }

    @Test func aSignalAndAMissingProgramAreStatusesAsShellsReportThem() throws {
        // TERM, which the test runner may ignore: the program starts with every signal at its default.
        #expect(try shell("kill -TERM $$").status == 128 + 15)
        #expect(try ChildProcess.run("iapkit-no-such-program", [], outputLimit: 1000).status == 127)
    }
}
