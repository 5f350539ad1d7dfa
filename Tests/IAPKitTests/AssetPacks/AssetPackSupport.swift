import TestSupport
import Foundation

/// The asset-pack fixture (a catalog with an essential, a prefetched and a purchase-unlocked pack) and the stand-in
/// for Apple's packaging tool, shared by the asset-pack tests.
enum AssetPackFixture {
    static let folder = Paths.fixtures + "/catalogs/asset-packs"
    /// The stand-in `ba-package` (Tests/Fixtures/tools); Apple's tool is used instead when IAPKIT_BA_PACKAGE names it.
    static let standIn = Paths.fixtures + "/tools/ba-package"

    /// A copy of the fixture to work in.
    static func project() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        for item in ["catalog.yaml", "packs", "review"] {
            try FileManager.default.copyItem(atPath: folder + "/" + item, toPath: dir.file(item))
        }
        return dir
    }

    /// The environment that points iapkit at the packaging tool and logs each run of the stand-in.
    static func toolEnvironment(log: String) -> [String: String] {
        let real = ProcessInfo.processInfo.environment["IAPKIT_BA_PACKAGE"] ?? ""
        return ["IAPKIT_BA_PACKAGE": real.isEmpty ? standIn : real, "BA_STANDIN_LOG": log]
    }

    /// Each archive's inode: a rebuilt archive is a new file renamed into place, one kept is the same file.
    static func inodes(_ folder: String) -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".aar") {
            var info = stat()
            if stat(folder + "/" + name, &info) == 0 { result[name] = UInt64(info.st_ino) }
        }
        return result
    }

    /// Whether the tests run the stand-in (which logs its runs) rather than Apple's tool.
    static var usingStandIn: Bool { (ProcessInfo.processInfo.environment["IAPKIT_BA_PACKAGE"] ?? "").isEmpty }

    /// The pack IDs the stand-in built, one a run, in order.
    static func builds(_ log: String) -> [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }
}
