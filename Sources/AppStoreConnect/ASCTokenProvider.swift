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

/// Makes the ES256 JSON Web Tokens App Store Connect expects and keeps one until shortly before it expires.
///
/// Header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`, payload `{"iss":ISSUER_ID,"iat":NOW,"exp":NOW+LIFETIME,
/// "aud":"appstoreconnect-v1"}`, signed with the P-256 key as a raw `r || s` signature, all base64url without
/// padding. Apple refuses tokens that live longer than 20 minutes, so the default lifetime is 19.
/// An actor: concurrent requests share one token and a renewal happens once.
public actor ASCTokenProvider {
    public static let audience = "appstoreconnect-v1"
    public static let defaultLifetime: Duration = .seconds(19 * 60)
    /// Renew this long before expiry, so a token never expires on its way to the server.
    public static let defaultRenewalMargin: Duration = .seconds(60)

    private let keyID: String
    private let issuerID: String
    private let key: P256.Signing.PrivateKey
    private let lifetime: Duration
    private let renewalMargin: Duration
    private let now: @Sendable () -> Date
    private var current: (token: String, issuedAt: Date, expiresAt: Date)?

    /// Checks the credentials now, so a bad key fails before any request.
    /// - Parameter now: the clock; tests inject one to check renewal timing.
    public init(
        credentials: ASCCredentials, lifetime: Duration = defaultLifetime,
        renewalMargin: Duration = defaultRenewalMargin,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(ASCError) {
        self.key = try credentials.signingKey()
        self.keyID = credentials.keyID
        self.issuerID = credentials.issuerID
        // Never longer than Apple accepts.
        self.lifetime = min(lifetime, .seconds(20 * 60))
        self.renewalMargin = renewalMargin
        self.now = now
    }

    /// The current token, or a new one when there is none or it expires within the renewal margin.
    public func token() throws(ASCError) -> String {
        let date = now()
        if let current, date < current.expiresAt.addingTimeInterval(-Self.seconds(renewalMargin)),
            date >= current.issuedAt.addingTimeInterval(-60)
        {
            return current.token
        }
        return try issue(at: date)
    }

    /// A new token after App Store Connect answered 401 to `rejected`. When another request already replaced that
    /// token, the replacement is returned instead of signing yet another.
    public func renewedToken(replacing rejected: String) throws(ASCError) -> String {
        if let current, current.token != rejected { return current.token }
        return try issue(at: now())
    }

    /// When the current token expires, if there is one.
    public var currentExpiry: Date? { current?.expiresAt }

    private func issue(at date: Date) throws(ASCError) -> String {
        // JWT times are whole seconds.
        let issuedAt = Int(date.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt + Int(Self.seconds(lifetime))
        let token = try Self.makeToken(
            keyID: keyID, issuerID: issuerID, key: key, issuedAt: issuedAt,
            expiresAt: expiresAt)
        current = (
            token, Date(timeIntervalSince1970: TimeInterval(issuedAt)),
            Date(timeIntervalSince1970: TimeInterval(expiresAt))
        )
        return token
    }

    static func makeToken(
        keyID: String, issuerID: String, key: P256.Signing.PrivateKey, issuedAt: Int,
        expiresAt: Int
    ) throws(ASCError) -> String {
        struct Header: Encodable { let alg = "ES256", kid: String, typ = "JWT" }
        struct Payload: Encodable { let iss: String, iat: Int, exp: Int, aud: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let header = try encoder.encode(Header(kid: keyID))
            let payload = try encoder.encode(Payload(iss: issuerID, iat: issuedAt, exp: expiresAt, aud: audience))
            let signingInput = base64URL(header) + "." + base64URL(payload)
            let signature = try key.signature(for: Data(signingInput.utf8))
            return signingInput + "." + base64URL(signature.rawRepresentation)
        } catch {
            throw .authentication(.signingFailed)
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingAll("+", with: "-")
            .replacingAll("/", with: "_")
            .replacingAll("=", with: "")
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
