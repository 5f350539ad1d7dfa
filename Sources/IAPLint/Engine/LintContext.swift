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
import AssetPacks
import HostedContent
import IAPCatalog
import IAPCore

/// What a catalog rule sees: the catalog, and a way to report findings at a catalog path.
public final class CatalogLintContext: @unchecked Sendable {
    public let catalog: Catalog
    /// The folder of the catalog file; relative paths in the catalog start here.
    public let baseDirectory: String
    private let consumer: FindingConsumer

    /// Every product, then every group's subscription, read in place from the catalog (no copy).
    public let allProducts: ProductList
    public let allSubscriptions: ProductList

    public init(catalog: Catalog, baseDirectory: String, consumer: @escaping FindingConsumer) {
        self.catalog = catalog
        allProducts = ProductList(catalog)
        allSubscriptions = ProductList(catalog, subscriptionsOnly: true)
        self.baseDirectory = baseDirectory
        self.consumer = consumer
    }

    /// A context over the same catalog for another thread of the product pass: it reports into buffers of its own
    /// (one per rule, as `other`'s), which `append` later joins to `other`'s.
    convenience init(sharing other: CatalogLintContext) {
        self.init(catalog: other.catalog, baseDirectory: other.baseDirectory, consumer: other.consumer)
        imageHeads = other.imageHeads
        beginBuffering(slots: other.buffers.count)
    }

    /// Adds what `other` reported, rule by rule, after what this context holds for the same rule.
    func append(_ other: CatalogLintContext) {
        for slot in other.buffers.indices where !other.buffers[slot].isEmpty { buffers[slot].append(contentsOf: other.buffers[slot]) }
    }

    public func report<R: RuleDescribing>(_ rule: R.Type, _ message: String, at path: CatalogPath, product: Product? = nil) {
        report(rule, .error, message, at: path, productID: product?.productID)
    }

    public func report<R: RuleDescribing>(
        _ rule: R.Type, _ severity: Severity, _ message: String,
        at path: CatalogPath, product: Product? = nil
    ) {
        report(rule, severity, message, at: path, productID: product?.productID)
    }

    public func report<R: RuleDescribing>(_ rule: R.Type, _ message: String, at path: CatalogPath, productID: String?) {
        report(rule, .error, message, at: path, productID: productID)
    }

    public func report<R: RuleDescribing>(
        _ rule: R.Type, _ severity: Severity, _ message: String,
        at path: CatalogPath, productID: String?
    ) {
        let finding = Finding(
            ruleID: R.id, severity: severity, message: message, location: catalog.location(of: path),
            path: path.description, productID: productID)
        if buffers.isEmpty { consumer(finding) } else { buffers[slot].append(finding) }
    }

    /// Hands on a finding a rule made itself (one about a file rather than a catalog value).
    func emit(_ finding: Finding) {
        if buffers.isEmpty { consumer(finding) } else { buffers[slot].append(finding) }
    }

    // Rules that share one pass interleave their findings; each rule's go to its own buffer, handed on in rule
    // order at the end, so reports list them as if every rule had run on its own.
    private var buffers: [[Finding]] = []
    /// The rule now running, as its place in the run.
    var slot = 0

    func beginBuffering(slots: Int) { buffers = Array(repeating: [], count: slots) }

    func flushBuffers() {
        let buffered = buffers
        buffers = []
        for findings in buffered { findings.forEach(consumer) }
    }

    /// Each asset pack's files as its selectors take them, walked once for every rule that needs them (nil when
    /// the folder could not be walked; the error says why).
    public private(set) lazy var assetPackSelections: [Result<AssetPackSelection, IAPKitError>] = catalog.assetPacks.map { pack in
        do throws(IAPKitError) { return .success(try AssetPackSelector.select(pack, baseDirectory: baseDirectory)) } catch {
            return .failure(error)
        }
    }

    /// What the first bytes of each review screenshot said, so a file many products share is opened once.
    private var imageHeads: [String: Result<Data, IAPKitError>] = [:]

    /// The first eight bytes of the regular file at a catalog-relative `path`, or why it cannot be read.
    public func head(ofFile path: String) -> Result<Data, IAPKitError> {
        if let known = imageHeads[path] { return known }
        let head: Result<Data, IAPKitError>
        do throws(IAPKitError) {
            head = .success(try InputFile.head(resolve(path), count: 8).bytes)
        } catch {
            head = .failure(error)
        }
        imageHeads[path] = head
        return head
    }

    /// A catalog-relative path made usable from the current directory.
    public func resolve(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : Path.join(baseDirectory, relative)
    }
}

/// What a content rule sees: one hosted-content folder, already walked and read.
public final class ContentLintContext: @unchecked Sendable {
    public let folder: String
    /// The folder's entries, or nil when the folder does not exist.
    public let tree: ContentTree?
    /// `ContentInfo.plist` when it could be read as a dictionary.
    public let info: ContentInfo?
    /// Why `ContentInfo.plist` could not be read, when it exists but is broken.
    public let infoError: IAPKitError?
    /// The product ID the catalog expects, when the folder was reached through a catalog.
    public let expectedProductID: String?
    /// What `iapkit package` last recorded for this product.
    public let lockEntry: ContentLock.Entry?
    /// Whether iapkit.lock lists any product's hosted content: iapkit packages this app's content, so a product the
    /// lock does not list has content App Store Connect never had.
    public let lockListsProducts: Bool
    private let consumer: FindingConsumer
    private let productID: String?

    init(
        folder: String, tree: ContentTree?, info: ContentInfo?, infoError: IAPKitError?, expectedProductID: String?,
        lockEntry: ContentLock.Entry?, lockListsProducts: Bool = false, consumer: @escaping FindingConsumer
    ) {
        self.folder = folder
        self.tree = tree
        self.info = info
        self.infoError = infoError
        self.expectedProductID = expectedProductID
        self.lockEntry = lockEntry
        self.lockListsProducts = lockListsProducts || lockEntry != nil
        self.consumer = consumer
        productID = expectedProductID ?? info?.productID
    }

    public var infoPath: String { Path.join(folder, ContentInfo.fileName) }

    /// The product the folder is for, as the catalog or ContentInfo.plist names it, or the folder's name.
    public var productIDForMessages: String { productID ?? Path.lastComponent(folder) }

    public func path(of entry: ContentEntry) -> String {
        entry.relativePath.isEmpty ? folder : Path.join(folder, entry.relativePath)
    }

    public func report<R: RuleDescribing>(_ rule: R.Type, _ message: String, file: String? = nil, line: Int? = nil) {
        report(rule, .error, message, file: file, line: line)
    }

    public func report<R: RuleDescribing>(
        _ rule: R.Type, _ severity: Severity, _ message: String,
        file: String? = nil, line: Int? = nil
    ) {
        consumer(
            Finding(
                ruleID: R.id, severity: severity, message: message,
                location: SourceLocation(file: file ?? folder, line: line), productID: productID))
    }
}
