#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// A product's promotional image, checked offline as App Store Connect checks it on upload.
struct PromotionalImageRule: ProductRule {
    static let id = "promotional-image"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect takes only opaque 1024×1024 PNG or JPEG images for promoted purchases and offers."
    static let summary = "A promotional image that is absent, not PNG or JPEG by its bytes, not 1024×1024 pixels, or has transparency."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  promotionalImage: ↓missing.png"), Example.product("  promotionalImage: ↓fake.png"),
            Example.product("  promotionalImage: ↓small.png"), Example.product("  promotionalImage: ↓alpha.png"),
        ],
        nonTriggering: [Example.product("  promotionalImage: promo.png")])

    static let side = 1024
    /// What is read of the file: a PNG's chunks before its pixels, a JPEG's segments before its frame.
    static let headBytes = 65_536

    func check(_ product: Product, in context: CatalogLintContext) {
        guard let image = product.promotionalImage, !image.isEmpty else { return }
        let path = product.path / "promotionalImage"
        let head: Data
        do throws(IAPKitError) {
            head = try InputFile.head(context.resolve(image), count: Self.headBytes).bytes
        } catch {
            let reason = if case let .io(_, text) = error { text } else { error.description }
            context.report(
                Self.self,
                reason == "does not exist"
                    ? "promotional image \(image) does not exist (paths are relative to the catalog)"
                    : "promotional image \(image) \(reason)", at: path, product: product)
            return
        }
        guard let info = ImageHeader(head) else {
            context.report(
                Self.self, "promotional image \(image) is not a PNG or JPEG image (judged by its bytes, not its name)",
                at: path, product: product)
            return
        }
        if info.width != Self.side || info.height != Self.side {
            context.report(
                Self.self,
                "promotional image \(image) is \(info.width)×\(info.height) pixels; App Store Connect takes "
                    + "\(Self.side)×\(Self.side)", at: path, product: product)
        }
        if info.hasAlpha {
            context.report(
                Self.self, "promotional image \(image) has transparency; App Store Connect takes an opaque image",
                at: path, product: product)
        }
    }
}

/// The size and transparency of a PNG or JPEG, from its first bytes.
struct ImageHeader: Equatable {
    var width: Int
    var height: Int
    var hasAlpha: Bool

    init?(_ data: Data) {
        let bytes = [UInt8](data)
        func big(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // IHDR comes first: width, height, bit depth, colour type (4 and 6 carry alpha); a tRNS chunk before the
            // pixels makes a colour transparent.
            guard let width = big(16, 4), let height = big(20, 4), bytes.count > 25 else { return nil }
            var alpha = bytes[25] == 4 || bytes[25] == 6
            var offset = 8
            while let length = big(offset, 4), offset + 8 <= bytes.count {
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                if type == "tRNS" { alpha = true }
                if type == "IDAT" || type == "IEND" { break }
                offset += 12 + length
            }
            self.init(width: width, height: height, hasAlpha: alpha)
            return
        }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        // A JPEG has no alpha; its size is in the first start-of-frame segment (SOF0…SOF15 but DHT, JPG and DAC).
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            guard let length = big(offset + 2, 2) else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = big(offset + 5, 2), let width = big(offset + 7, 2) else { return nil }
                self.init(width: width, height: height, hasAlpha: false)
                return
            }
            offset += 2 + length
        }
        return nil
    }

    init(width: Int, height: Int, hasAlpha: Bool) {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
    }
}
