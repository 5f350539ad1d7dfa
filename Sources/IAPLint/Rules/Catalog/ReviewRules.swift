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

struct ReviewNoteRule: ProductRule {
    static let id = "review-note"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect limits the review note to 4000 characters."
    static let summary = "A review note is over 4000 characters."
    static let maximumLength = 4000
    static let examples = RuleExamples(
        triggering: [Example.product("  review:\n    note: ↓\(String(repeating: "n", count: 4001))\n    screenshot: shot.png")],
        nonTriggering: [Example.product("  review:\n    note: \(String(repeating: "n", count: 4000))\n    screenshot: shot.png")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let review = product.review, let note = review.note, note.utf8.count > Self.maximumLength,
            note.count > Self.maximumLength
        else { return }
        context.report(
            Self.self, "review note has \(note.count) characters; App Store Connect allows at most \(Self.maximumLength)",
            at: review.path / "note", product: product)
    }
}

struct ReviewScreenshotRule: ProductRule {
    static let id = "review-screenshot"
    static let severity = RuleSeverity(.warning, "error when absent or not an image")
    static let rationale = "App Review needs a screenshot of the purchase in the app before the product can be submitted."
    static let summary = "No review screenshot (a warning), or one that is absent or not PNG/JPEG by its bytes (an error)."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  ↓review:\n    note: Tap One."), Example.product("  review:\n    note: Tap One.\n    screenshot: ↓missing.png"),
            Example.product("  review:\n    note: Tap One.\n    screenshot: ↓fake.png"),
            Example.product("  review:\n    note: Tap One.\n    screenshot: ↓pipe.png"),
        ],
        nonTriggering: [Example.product("  review:\n    note: Tap One.\n    screenshot: shot.png")])

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let screenshot = product.review?.screenshot, !screenshot.isEmpty else {
            context.report(
                Self.self, .warning,
                "\(product.productID.map { "`\($0)`" } ?? "this product") has no review "
                    + "screenshot; App Store Connect requires one before submission",
                at: product.review?.path ?? product.path, product: product)
            return
        }
        // Made only for a finding: most screenshots are fine.
        var path: CatalogPath { product.review!.path / "screenshot" }
        // Only the first bytes are read, and only from a regular file: a FIFO here would block lint forever.
        let head: Data
        switch context.head(ofFile: screenshot) {
        case let .success(bytes):
            head = bytes
        case let .failure(error):
            let reason = if case let .io(_, text) = error { text } else { error.description }
            context.report(
                Self.self,
                reason == "does not exist"
                    ? "review screenshot \(screenshot) does not exist (paths are relative to the catalog)"
                    : "review screenshot \(screenshot) \(reason)", at: path, product: product)
            return
        }
        if !Self.isPNG(head) && !Self.isJPEG(head) {
            context.report(
                Self.self, "review screenshot \(screenshot) is not a PNG or JPEG image (judged by its bytes, not its name)",
                at: path, product: product)
        }
    }

    static func isPNG(_ data: Data) -> Bool { data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
    static func isJPEG(_ data: Data) -> Bool { data.starts(with: [0xFF, 0xD8, 0xFF]) }
}
