import Crypto
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
import IAPCore

/// An App Store Connect API key: its key ID, the team's issuer ID and the private key from the `.p8` file.
///
/// The private key's text is never part of a description, a mirror (`dump`) or an error.
public struct ASCCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var keyID: String
    public var issuerID: String
    /// The PKCS#8 PEM text of the P-256 private key (`-----BEGIN PRIVATE KEY-----` ...).
    public var privateKeyPEM: String

    public init(keyID: String, issuerID: String, privateKeyPEM: String) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.privateKeyPEM = privateKeyPEM
    }

    /// Reads the private key from a `.p8` file and checks that it is a usable P-256 key.
    public static func load(keyID: String, issuerID: String, privateKeyPath: String) throws(ASCError) -> ASCCredentials {
        let text: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: privateKeyPath))
            text = String(decoding: data, as: UTF8.self)
        } catch let error as CocoaError {
            // Only the failure's kind: the underlying message could quote more than the path.
            throw .credentials(.unreadableKeyFile(path: privateKeyPath, reason: Self.reason(error)))
        } catch {
            throw .credentials(.unreadableKeyFile(path: privateKeyPath, reason: "read failed"))
        }
        let credentials = ASCCredentials(keyID: keyID, issuerID: issuerID, privateKeyPEM: text)
        _ = try credentials.signingKey(path: privateKeyPath)
        return credentials
    }

    /// The parsed key, after checking the identifiers. Errors name the file, never the key's text.
    func signingKey(path: String? = nil) throws(ASCError) -> P256.Signing.PrivateKey {
        if keyID.trimmingSpaces().isEmpty { throw .credentials(.missing(field: "key ID")) }
        if issuerID.trimmingSpaces().isEmpty { throw .credentials(.missing(field: "issuer ID")) }
        guard privateKeyPEM.contains("-----BEGIN"), privateKeyPEM.contains("PRIVATE KEY-----") else {
            throw .credentials(.notPEM(path: path))
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw .credentials(.notP256PrivateKey(path: path))
        }
    }

    private static func reason(_ error: CocoaError) -> String {
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default: return "read failed"
        }
    }

    public var description: String { "ASCCredentials(keyID: \(keyID), issuerID: \(issuerID), privateKey: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["keyID": keyID, "issuerID": issuerID, "privateKeyPEM": "<redacted>"])
    }
}
