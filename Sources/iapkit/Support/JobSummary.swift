#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// The page GitHub Actions shows for a job (`$GITHUB_STEP_SUMMARY`): plans are added to it in Markdown.
enum JobSummary {
    /// Appends `markdown` inside GitHub Actions; elsewhere does nothing. Other steps of the job write their own parts.
    static func append(_ markdown: String) throws {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        do {
            let summary = try OutputHandle.appending(to: path)
            try summary.write(contentsOf: Array(markdown.utf8))
            try summary.close()
        } catch {
            Terminal.warning("GITHUB_STEP_SUMMARY names \(path), which cannot be written (\(error)); the job summary has no plan")
        }
    }
}
