import Foundation
import TestSupport
import Testing

/// Packages read by the reference folder's own xar checker, written apart from this project.
@Suite(.enabled(if: Reference.available, Reference.skipReason))
struct FlatPackageConformanceTests {
    @Test func referenceXarCheckerAcceptsThePackage() throws {
        let dir = TemporaryDirectory()
        try iapkit("new-content", "com.example.pack", "-o", dir.path)
        dir.write("com.example.pack/Contents/level.json", "{\"level\": 1}\n")
        let result = try iapkit("package", dir.file("com.example.pack"), "-o", dir.file("out"))
        #expect(result.status == 0, "\(result.stderr)")
        let dump = try run("/usr/bin/env", ["python3", Reference.xarDump, dir.file("out/com.example.pack.pkg")])
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.contains("cksum_alg=1(sha1)") && dump.stdout.contains("ok=True") && dump.stdout.contains("trailing=0"))
        #expect(!dump.stdout.contains("_ok=False"), "\(dump.stdout)")
    }
}
