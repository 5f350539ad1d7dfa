import FlatPackage
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// `iapkit-manifest.json`: what each archive of a run is, for upload tools and for people checking a build.
extension Packager {
    func manifestJSON(_ built: [Built]) -> JSONValue {
        .object([
            ("tool", .object([("name", .string("iapkit")), ("version", .string(InstallerDocuments.generator.replacingAll("iapkit-", with: "")))])),
            ("format", .string(options.format.rawValue)),
            ("sourceDateEpoch", .int(options.epoch)),
            (
                "packages",
                .array(
                    built.map { item in
                        var fields: [(String, JSONValue)] = [
                            ("productId", .string(item.productID)),
                            ("contentVersion", .string(item.contentVersion)),
                            ("fileName", .string(Path.lastComponent(item.path))),
                            ("size", .int(Int(item.result.size))),
                            ("sha256", .string(item.result.sha256)),
                        ]
                        if let md5 = item.result.md5 { fields.append(("md5", .string(md5))) }
                        fields += [("contentDigest", .string(item.result.contentDigest)), ("fileCount", .int(item.result.fileCount))]
                        return .object(fields)
                    })
            ),
        ])
    }
}
