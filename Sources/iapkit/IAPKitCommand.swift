import ArgumentParser
import CatalogSync
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
import IAPCatalog
import IAPCore
import IAPLint

@main
struct IAPKitCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "iapkit",
        abstract: "Author, check, package and export Apple in-app purchase catalogs.",
        discussion: """
            Exit codes: 0 nothing to do, or done; 1 findings (lint errors, or warnings with --strict), a plan that differs \
            under --check, or a plan with a change App Store Connect would refuse; 2 the command could not run; 75 App Store \
            Connect's hourly request budget cannot pay for the work now (run it again at the time given, or pass --wait).
            """,
        version: version,
        subcommands: [
            InitCommand.self, NewContentCommand.self, LintCommand.self, BumpCommand.self,
            PackageCommand.self, ExportCommand.self, ImportCommand.self, LocalizationsCommand.self, AscCommand.self,
        ]
    )

    /// "`lnt` is not an iapkit command; did you mean `lint`?" for a word close to a subcommand's name, where a
    /// command takes only subcommands (not `lint`, whose default subcommand takes a file).
    static func mistypedSubcommand(_ arguments: [String]) -> String? {
        var command: any ParsableCommand.Type = IAPKitCommand.self
        var path = "iapkit"
        for word in arguments {
            let configuration = command.configuration
            guard !word.hasPrefix("-"), !configuration.subcommands.isEmpty, configuration.defaultSubcommand == nil else { return nil }
            let names = configuration.subcommands.map { $0.configuration.commandName ?? $0._commandName }
            guard let index = names.firstIndex(of: word) else {
                guard word != "help", let nearest = Suggestions.nearest(to: word, in: names) else { return nil }
                return "`\(word)` is not an \(path) command; did you mean `\(path) \(nearest)`?"
            }
            command = configuration.subcommands[index]
            path += " " + word
        }
        return nil
    }

    /// Runs a command and turns every failure into a message on stderr and exit code 2; the library never exits.
    static func main() async {
        Terminal.prepareProcess()
        if let typo = mistypedSubcommand(Array(CommandLine.arguments.dropFirst())) {
            Terminal.error(typo)
            Terminal.exit(2)
        }
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let refusal as LintGate.Refusal {
            // A catalog the lint gate refused: its errors, then what to do (exit 1).
            Terminal.writeError(
                TextReporter().report(
                    refusal.errors,
                    context: ReportContext(
                        toolVersion: version, products: refusal.products, productIDs: [], subject: refusal.path)))
            Terminal.error("\(refusal.path) has errors; \(refusal.advice)")
            Terminal.exit(1)
        } catch let error as any ToolError {
            Terminal.error(error.description)
            Terminal.exit(error.exitCode)
        } catch let failure as OutputFailure {
            // A reader that stopped reading wants no more output, an error message included.
            if !failure.isBrokenPipe { Terminal.error(failure.description) }
            Terminal.exit(2)
        } catch let code as ExitCode {
            Terminal.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                do { try Terminal.output(message + "\n") } catch {
                    if !error.isBrokenPipe { Terminal.error(error.description) }
                    Terminal.exit(2)
                }
                Terminal.exit(0)
            }
            // Bad arguments are exit 2, like every other failure to do the job.
            Terminal.writeError(message + "\n")
            Terminal.exit(2)
        }
        Terminal.exit(0)
    }
}
