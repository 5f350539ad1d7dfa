import Foundation
import TestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func printsTheVersion() throws {
        let result = try iapkit("--version")
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
    }

    @Test(arguments: ["init", "new-content", "lint", "bump", "package", "export", "import"])
    func everyCommandHasHelpWithAnExample(command: String) throws {
        let result = try iapkit(command, "--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("iapkit \(command)"), "\(result.stdout)")
    }

    /// The parser wraps help text to the terminal: prose is written as paragraphs, never broken by hand.
    @Test(arguments: [
        ["package"], ["export"], ["asc", "plan"], ["asc", "push"], ["asc", "submit"],
        ["localizations", "import"], ["new-content"],
    ])
    func helpTextIsWrappedToTheTerminal(command: [String]) throws {
        let result = try iapkit(command + ["--help"], environment: ["COLUMNS": "60"])
        #expect(result.status == 0)
        let description = result.stdout.components(separatedBy: "USAGE:")[0]
        let long = description.split(separator: "\n").filter { $0.count > 60 }
        #expect(long.isEmpty, "lines over 60 columns: \(long)")
        // And a wide terminal gets long lines: no paragraph is broken at a fixed width.
        let wide = try iapkit(command + ["--help"], environment: ["COLUMNS": "200"]).stdout.components(separatedBy: "USAGE:")[0]
        #expect(wide.split(separator: "\n").contains { $0.count > 120 }, "\(wide)")
    }

    @Test func badArgumentsExitWithTwo() throws {
        let result = try iapkit("lint", "catalog", "--format", "xml")
        #expect(result.status == 2)
        #expect(result.stderr.contains("xml"))
        #expect(try iapkit("no-such-command").status == 2)
        // A near miss names the command that was meant, at any level.
        let typo = try iapkit("lnt")
        #expect(typo.status == 2 && typo.stderr.contains("`lnt` is not an iapkit command; did you mean `iapkit lint`?"), "\(typo.stderr)")
        let nested = try iapkit("asc", "plna")
        #expect(nested.status == 2 && nested.stderr.contains("did you mean `iapkit asc plan`?"), "\(nested.stderr)")
    }

    @Test func initWritesACatalogThatLintsClean() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("init", dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        // Clean even with --strict, the README's CI setting: its known gaps are accepted with their reasons.
        let lint = try iapkit("lint", "catalog", dir.file("catalog.yaml"), "--strict")
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.hasSuffix("0 errors, 0 warnings in 3 products\n"), "\(lint.stdout)")
        // The starter catalog points editors at the schema written beside it, and satisfies it.
        let catalog = try String(contentsOfFile: dir.file("catalog.yaml"), encoding: .utf8)
        #expect(catalog.hasPrefix("# yaml-language-server: $schema=catalog.schema.json"))
        _ = try python(
            """
            import json, sys, yaml, jsonschema
            jsonschema.validate(yaml.safe_load(open(sys.argv[1])), json.load(open(sys.argv[2])))
            """, [dir.file("catalog.yaml"), dir.file("catalog.schema.json")])
        // A second init refuses to overwrite.
        #expect(try iapkit("init", dir.path).status == 2)
    }
}
