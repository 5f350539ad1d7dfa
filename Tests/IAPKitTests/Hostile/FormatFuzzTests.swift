import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Mutated inputs in the formats added after the first hardening pass, run through the built `iapkit` as a user
/// would run it: XLIFF and CSV translations (`localizations import`), lint baselines (`lint --baseline
/// --write-baseline`), and traces (`asc plan | pull --replay`). Every run must end by itself with exit 0, 1, 2 (or
/// 75 for a plan over the hour's budget) within 5 seconds of work, and a run that fails must leave every file as it
/// was. A run's seconds are its own processor time (user and system, from `wait4`), which a busy machine does not
/// stretch; its wall time is kept too, and a run still going after 60 s is killed and counted as slow.
///
/// `make test` runs a few dozen inputs; `make fuzz` runs `IAPKIT_FUZZ_INPUTS` (default 5,000) on `IAPKIT_FUZZ_JOBS`
/// processes at a time. `IAPKIT_FUZZ_SEED` replays a run; an input that breaks a rule is kept in
/// `.build/fuzz-failures/` with the command that failed.
@Suite(.serialized) struct FormatFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let inputs = Int(environment["IAPKIT_FUZZ_INPUTS"] ?? "") ?? 40
    static let jobs = max(1, Int(environment["IAPKIT_FUZZ_JOBS"] ?? "") ?? 2)
    static let seed = UInt64(environment["IAPKIT_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64(UInt32.max))
    /// A run that works longer than this fails.
    static let slow = Double(environment["IAPKIT_FUZZ_SLOW"] ?? "") ?? 5
    /// A run still going after this is killed.
    static let hang = 60.0
    static let failures = Paths.repository + "/.build/fuzz-failures"

    enum Kind: String, CaseIterable { case xliff, csv, baseline, planTrace, pullTrace }

    /// What one run did.
    struct Outcome {
        var kind: Kind
        var status: Int32
        var signalled: Bool
        /// Processor time, and time on the clock.
        var seconds: Double
        var wall: Double
        var changed: [String]
    }

    /// Counts over every run, shared by the workers.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        var runs = 0, crashes = 0, slowRuns = 0, writingFailures = 0, longest = 0.0, longestWall = 0.0
        var statuses: [String: Int] = [:]
        var problems: [String] = []

        func add(_ outcome: Outcome, input: [UInt8], arguments: [String]) {
            lock.lock()
            defer { lock.unlock() }
            runs += 1
            longest = max(longest, outcome.seconds)
            longestWall = max(longestWall, outcome.wall)
            statuses["\(outcome.kind.rawValue) \(outcome.signalled ? "signal " : "")\(outcome.status)", default: 0] += 1
            var broken: [String] = []
            let allowed: Set<Int32> = outcome.kind == .planTrace ? [0, 1, 2, 75] : [0, 1, 2]
            if outcome.signalled || !allowed.contains(outcome.status) {
                crashes += 1
                broken.append("ended with \(outcome.signalled ? "signal" : "status") \(outcome.status)")
            }
            if outcome.seconds > FormatFuzzTests.slow || outcome.wall > FormatFuzzTests.hang {
                slowRuns += 1
                broken.append("worked \(outcome.seconds) s in \(outcome.wall) s")
            }
            if outcome.status != 0 && !outcome.changed.isEmpty {
                writingFailures += 1
                broken.append("failed with \(outcome.status) and changed \(outcome.changed)")
            }
            guard !broken.isEmpty else { return }
            try? FileManager.default.createDirectory(atPath: FormatFuzzTests.failures, withIntermediateDirectories: true)
            let kept = FormatFuzzTests.failures + "/\(outcome.kind.rawValue)-\(problems.count)"
            _ = FileManager.default.createFile(atPath: kept, contents: Data(input))
            problems.append("\(broken.joined(separator: ", ")): iapkit \(arguments.joined(separator: " ")) (input kept in \(kept))")
        }

        func note(_ problem: String) { lock.withLock { problems.append(problem) } }
    }

    /// The seeds: files as iapkit writes them for the example catalog, filled in as a translator would.
    struct Seeds {
        var xliff: [UInt8]
        var csv: [UInt8]
        var baseline: [UInt8]
        var planTrace: [UInt8]
        var pullTrace: [UInt8]

        init(project: TemporaryDirectory) throws {
            let catalog = project.file("catalog.yaml")
            #expect(
                try iapkit("localizations", "export", catalog, "--format", "xliff", "--locale", "de-DE", "-o", project.file("seed.xliff")).status == 0
            )
            #expect(
                try iapkit("localizations", "export", catalog, "--format", "csv", "--locale", "de-DE", "-o", project.file("seed.csv")).status == 0)
            let xliffText = try String(contentsOfFile: project.file("seed.xliff"), encoding: .utf8)
                .replacingOccurrences(of: "<target state=\"new\"/>", with: "<target state=\"translated\">Übersetzt &amp; geprüft</target>")
            xliff = Array(xliffText.utf8)
            csv = Array(
                try String(contentsOfFile: project.file("seed.csv"), encoding: .utf8)
                    .replacingOccurrences(of: ",\r\n", with: ",\"Übersetzt, \"\"neu\"\"\"\r\n").utf8)
            baseline = Array(
                """
                {
                  "version": 1,
                  "findings": [
                    {"rule": "review-screenshot", "file": "\(catalog)", "productId": "com.example.fruitstand.banana",
                     "message": "no review screenshot", "count": 2},
                    {"rule": "product-id-prefix", "file": "\(catalog)", "productId": null, "message": "m"}
                  ]
                }

                """.utf8)
            planTrace = Array(try Data(contentsOf: URL(fileURLWithPath: AscTraceTests.planTrace)))
            pullTrace = Array(try Data(contentsOf: URL(fileURLWithPath: AscTraceTests.pullTrace)))
            try? FileManager.default.removeItem(atPath: project.file("seed.xliff"))
            try? FileManager.default.removeItem(atPath: project.file("seed.csv"))
        }
    }

    /// Pieces that reach the readers' edges, by format.
    static let tokens: [Kind: [String]] = [
        .xliff: [
            "<", ">", "&", "&amp;", "&nbsp;", "&#0;", "&#x1F600;", "<![CDATA[", "]]>", "<!--", "-->", "<?pi x?>",
            "<!DOCTYPE xliff SYSTEM \"http://127.0.0.1:9/x.dtd\">", "<!DOCTYPE xliff [", "]>", "<!ENTITY e \"x\">",
            "<group>", "</group>", "<trans-unit id=\"com.example.fruitstand.kiwi/name\"><target>K</target></trans-unit>",
            "target-language=\"fr_FR\"", "state=\"new\"", " a=\"1\"", "\"", "'", "\0", "\u{1}", "\u{FFFF}", "\u{FEFF}",
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "xmlns:q=\"urn:q\"", "<q:x/>",
        ],
        .csv: [
            ",", "\"", "\"\"", "\r\n", "\n", "\r", "\u{FEFF}", "\0", "\u{1}", "de-DE", "en-US", "fr_FR", "id",
            "com.example.fruitstand.kiwi/name,35,,Kiwi Levels,Doppelt\r\n", "subscriptionGroup/Fruit Club/name", "\u{FF}",
        ],
        .baseline: [
            "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "0", "1e400", "9223372036854775807",
            "-9223372036854775808", "\"count\": 99999999999999999999", "\"version\": 2", "\"findings\": {}",
            "\"rule\": 5", "\\u0000", "\\ud800",
        ],
        .planTrace: [
            "\"status\":-1", "\"status\":1000", "\"status\":0", "\"status\":null", "\"status\":\"200\"", "\"status\":429",
            "\"status\":409", "\"status\":500", "\"x-rate-limit\":\"user-hour-lim:10;user-hour-rem:0;\"",
            "\"retry-after\":\"999999\"", "\"responseBody\":null", "\"responseBody\":{\"text\":\"<html>\"}",
            "\"responseBody\":{\"json\":{\"data\":null}}", "\"responseBody\":{\"json\":{\"errors\":[]}}",
            "\"type\":\"x\"", "\"id\":null", "{\"log\":{\"entries\":[]}}", "\n", "\"", "{", "}", "[", "]",
        ],
    ]

    static func tokens(for kind: Kind) -> [String] {
        kind == .pullTrace ? tokens[.planTrace]! : tokens[kind]!
    }

    /// One kind of edit, and how often each format gets it: traces mostly get edits that keep their lines JSON, so
    /// most runs replay far into the trace rather than stopping at its first line.
    enum Edit: CaseIterable { case byte, cut, token, repeatPiece, truncate, lines, flood, letter, status }

    static func weights(_ kind: Kind) -> [(Edit, Int)] {
        switch kind {
        case .planTrace, .pullTrace:
            return [(.byte, 1), (.cut, 1), (.token, 2), (.repeatPiece, 1), (.truncate, 1), (.lines, 3), (.flood, 1), (.letter, 6), (.status, 4)]
        default:
            return [(.byte, 4), (.cut, 3), (.token, 6), (.repeatPiece, 3), (.truncate, 1), (.lines, 1), (.flood, 1), (.letter, 3), (.status, 0)]
        }
    }

    static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    static let statuses = [
        "-1", "1000", "0", "null", "\"200\"", "429", "409", "500", "503", "404", "200", "201", "204", "302", "99", "600",
        "200.5", "1e3", "true",
    ]

    /// A few edits of `seed`: bytes changed, cut, repeated, tokens put in, letters swapped, statuses replaced, and
    /// now and then a flood of one token (attributes, nesting, columns, lines) past the readers' limits.
    static func mutate(_ seed: [UInt8], kind: Kind, using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        let pieces = tokens(for: kind)
        let table = weights(kind)
        // Fewer edits to a trace: one wrong line already stops a replay.
        let trace = kind == .planTrace || kind == .pullTrace
        for _ in 0..<Int.random(in: 1...(trace ? 2 : 5), using: &generator) {
            var pick = Int.random(in: 0..<table.reduce(0) { $0 + $1.1 }, using: &generator)
            let edit = table.first {
                pick -= $0.1; return pick < 0
            }!.0
            let index = Int.random(in: 0...bytes.count, using: &generator)
            switch edit {
            case .byte:
                if index < bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            case .cut:
                bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...64, using: &generator)))
            case .token:
                bytes.insert(contentsOf: Array(pieces.randomElement(using: &generator)!.utf8), at: index)
            case .repeatPiece:
                // A piece of the file repeated: a unit, a row or an exchange twice.
                let start = Int.random(in: 0...bytes.count, using: &generator)
                let end = min(bytes.count, start + Int.random(in: 1...2000, using: &generator))
                bytes.insert(contentsOf: bytes[start..<end], at: index)
            case .truncate:
                bytes.removeSubrange(index...)
            case .lines:
                // Whole exchanges or rows swapped, dropped or repeated.
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                guard lines.count > 2 else { continue }
                let a = Int.random(in: 0..<lines.count, using: &generator), b = Int.random(in: 0..<lines.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: lines.swapAt(a, b)
                case 1: lines.remove(at: a)
                default: lines.insert(lines[a], at: b)
                }
                bytes = Array(lines.joined(separator: [0x0A]))
            case .letter:
                // An id, a name, a number or a key changed while the file stays well-formed.
                guard let at = bytes[min(index, bytes.count)...].firstIndex(where: { Self.letters.contains($0) }) else { continue }
                bytes[at] = Self.letters.randomElement(using: &generator)!
            case .status:
                let marker = Array("\"status\":".utf8)
                var at = index
                while at + marker.count < bytes.count, !bytes[at..<at + marker.count].elementsEqual(marker) { at += 1 }
                guard at + marker.count < bytes.count else { continue }
                let value = at + marker.count
                let end = bytes[value...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? bytes.count
                bytes.replaceSubrange(value..<end, with: Array(Self.statuses.randomElement(using: &generator)!.utf8))
            case .flood:
                let flood: String
                switch kind {
                case .xliff: flood = ["  a\(index)=\"\"", "<group>", "x", "<g>", "&amp;"].randomElement(using: &generator)!
                case .csv: flood = [",", "\r\n", "x", "\"\"", "com.example.fruitstand.kiwi/name,35,,K,V\r\n"].randomElement(using: &generator)!
                case .baseline:
                    flood = ["[", "{\"rule\":\"r\",\"file\":\"f\",\"message\":\"m\",\"count\":1000000},", " "].randomElement(using: &generator)!
                case .planTrace, .pullTrace: flood = ["[", "{\"a\":", "x", " "].randomElement(using: &generator)!
                }
                let times = Int.random(in: 1_000...300_000, using: &generator)
                bytes.insert(contentsOf: Array(String(repeating: flood, count: times).utf8).prefix(3 << 20), at: index)
            }
        }
        return bytes
    }

    /// Runs `iapkit` with no input or output, killing it after `hang` seconds: how it ended, the processor time it
    /// used, and the time on the clock.
    static func run(_ arguments: [String]) throws -> (status: Int32, signalled: Bool, seconds: Double, wall: Double) {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(AscTraceTests.noCredentials.merging(["NO_COLOR": "1"]) { $1 }) { $1 }
        // The shell only points the standard streams at /dev/null and becomes iapkit (exec), so wait4 reports iapkit.
        let shell = ["/bin/sh", "-c", "exec \"$0\" \"$@\" </dev/null >/dev/null 2>&1", Paths.binary] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = shell.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let started = Date()
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if Date().timeIntervalSince(started) > hang { kill(pid, SIGKILL) }
            usleep(2_000)
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        // Exited: the status is in the second byte; otherwise the low seven bits name the signal.
        let signal = status & 0x7F
        return (
            signal == 0 ? (status >> 8) & 0xFF : signal, signal != 0, seconds(usage.ru_utime) + seconds(usage.ru_stime),
            Date().timeIntervalSince(started)
        )
    }

    /// One mutated input through its command, in a folder of its own beside the shared project.
    static func fuzz(_ kind: Kind, input: [UInt8], project: String, tally: Tally) throws {
        let dir = TemporaryDirectory()
        var arguments: [String]
        switch kind {
        case .xliff, .csv:
            try FileManager.default.copyItem(atPath: project + "/catalog.yaml", toPath: dir.file("catalog.yaml"))
            dir.write("input.\(kind.rawValue)", Data(input))
            arguments = ["localizations", "import", dir.file("input.\(kind.rawValue)"), dir.file("catalog.yaml")]
            if input.count % 3 == 0 { arguments.append("--strict") }
        case .baseline:
            dir.write("baseline.json", Data(input))
            arguments = [
                "lint", "catalog", project + "/catalog.yaml", "--strict", "--baseline", dir.file("baseline.json"),
                "--write-baseline", dir.file("new.json"),
            ]
        case .planTrace:
            dir.write("trace.jsonl", Data(input))
            arguments = ["asc", "plan", project + "/catalog.yaml", "--replay", dir.file("trace.jsonl")]
        case .pullTrace:
            dir.write("trace.jsonl", Data(input))
            arguments = [
                "asc", "pull", "--bundle-id", AscTraceTests.bundleID, "-o", dir.file("pulled/catalog.yaml"),
                "--replay", dir.file("trace.jsonl"),
            ]
        }
        let before = dir.contents(), projectBefore = TemporaryDirectory.contents(of: project)
        let (status, signalled, seconds, wall) = try run(arguments)
        let after = dir.contents(), projectAfter = TemporaryDirectory.contents(of: project)
        let changed =
            Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            + Set(projectBefore.keys).union(projectAfter.keys).filter { projectBefore[$0] != projectAfter[$0] }.map { "project/" + $0 }
        tally.add(
            Outcome(kind: kind, status: status, signalled: signalled, seconds: seconds, wall: wall, changed: changed),
            input: input, arguments: arguments)
    }

    @Test(.timeLimit(.minutes(180)))
    func mutatedInputsInTheNewFormatsNeitherCrashHangNorWriteWhenTheyFail() throws {
        let project = TemporaryDirectory()
        for item in ["catalog.yaml", "content", "review"] {
            try FileManager.default.copyItem(atPath: Paths.examples + "/" + item, toPath: project.file(item))
        }
        let seeds = try Seeds(project: project)
        let tally = Tally()
        let kinds = Kind.allCases
        let seed = Self.seed
        let projectPath = project.path
        DispatchQueue.concurrentPerform(iterations: Self.jobs) { job in
            var generator = SeededGenerator(seed: seed &+ UInt64(job) &* 0x1_0000_0001)
            var index = job
            while index < Self.inputs {
                let kind = kinds[index % kinds.count]
                let original: [UInt8]
                switch kind {
                case .xliff: original = seeds.xliff
                case .csv: original = seeds.csv
                case .baseline: original = seeds.baseline
                case .planTrace: original = seeds.planTrace
                case .pullTrace: original = seeds.pullTrace
                }
                let input = Self.mutate(original, kind: kind, using: &generator)
                do { try Self.fuzz(kind, input: input, project: projectPath, tally: tally) } catch {
                    tally.note("could not run \(kind): \(error)")
                }
                index += Self.jobs
            }
        }
        let summary =
            "fuzz (seed \(seed)): \(Self.inputs) inputs, \(tally.runs) runs, \(tally.crashes) crashes, "
            + "\(tally.slowRuns) runs over \(Int(Self.slow)) s (the most work \(String(format: "%.2f", tally.longest)) s; "
            + "the longest on the clock \(String(format: "%.2f", tally.longestWall)) s), "
            + "\(tally.writingFailures) failing runs that changed a file; exits: "
            + tally.statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        print(summary)
        #expect(tally.runs == Self.inputs, "\(summary)")
        #expect(tally.problems.isEmpty, "\(summary)\n\(tally.problems.prefix(20).joined(separator: "\n"))")
        withExtendedLifetime(project) {}
    }
}
