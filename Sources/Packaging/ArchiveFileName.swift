import FlatPackage
import IAPCatalog
import IAPCore

/// The file name of an archive. Only a product ID that passes App Store Connect's rules makes one, so the name has
/// no `/`, is not `.` or `..` and does not start with a period: joined to the output folder it stays inside it.
public struct ArchiveFileName: Sendable, Equatable {
    public let productID: String
    public let fileName: String

    public init?(productID: String, format: Packager.Format) {
        guard ProductIdentifier.problem(with: productID) == nil else { return nil }
        self.productID = productID
        fileName = "\(productID).\(format.rawValue)"
    }

    /// The archive's path in `directory`, proven to be inside it.
    public func path(in directory: String) throws(IAPKitError) -> String {
        try OutputPath.join(directory, fileName)
    }
}
