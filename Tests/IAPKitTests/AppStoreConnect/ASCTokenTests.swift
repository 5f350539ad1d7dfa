import AppStoreConnect
import Foundation
import TestSupport
import Testing

@Suite struct ASCTokenTests {
    @Test func jwtVerifiesWithAnIndependentES256Implementation() async throws {
        let pem = try makeTestKeyPEM()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000.7))
        let credentials = ASCCredentials(
            keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a",
            privateKeyPEM: pem)
        let provider = try ASCTokenProvider(credentials: credentials, now: { clock.now })
        let token = try await provider.token()
        #expect(token.split(separator: ".").count == 3)
        #expect(!token.contains("="))

        let checker = TemporaryDirectory()
        let keyPath = checker.write("key.p8", pem)
        let output = try python(
            """
            import base64, json, sys
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec, utils
            def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
            token, key_path = sys.argv[1], sys.argv[2]
            header, payload, signature = token.split(".")
            raw = b64(signature)
            assert len(raw) == 64, len(raw)
            der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            key = serialization.load_pem_private_key(open(key_path, "rb").read(), password=None)
            key.public_key().verify(der, (header + "." + payload).encode(), ec.ECDSA(hashes.SHA256()))
            print(json.dumps({"header": json.loads(b64(header)), "payload": json.loads(b64(payload))}))
            """, [token, keyPath])
        let decoded = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: [String: Any]]
        let header = decoded["header"]!
        let payload = decoded["payload"]!
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "2X9R4HXF34")
        #expect(header["typ"] as? String == "JWT")
        #expect(header.count == 3)
        #expect(payload["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(payload["aud"] as? String == "appstoreconnect-v1")
        let issuedAt = try #require(payload["iat"] as? Int)
        let expiresAt = try #require(payload["exp"] as? Int)
        #expect(issuedAt == 1_700_000_000)
        #expect(expiresAt - issuedAt == 19 * 60)
        #expect(expiresAt - issuedAt <= 20 * 60)
    }

    @Test func tokenIsReusedThenRenewedAMinuteBeforeExpiry() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let credentials = ASCCredentials(keyID: "KEY", issuerID: "ISSUER", privateKeyPEM: try makeTestKeyPEM())
        let provider = try ASCTokenProvider(credentials: credentials, now: { clock.now })
        let first = try await provider.token()
        #expect(await provider.currentExpiry == Date(timeIntervalSince1970: 1_700_000_000 + 19 * 60))

        clock.advance(17 * 60)
        #expect(try await provider.token() == first)
        clock.advance(59)  // 17:59 after issue: still more than a minute left
        #expect(try await provider.token() == first)
        clock.advance(2)  // 18:01: within the last minute
        let second = try await provider.token()
        #expect(second != first)
        #expect(await provider.currentExpiry == Date(timeIntervalSince1970: 1_700_000_000 + 18 * 60 + 1 + 19 * 60))
    }

    @Test func renewalAfterA401SignsOnceForConcurrentRejections() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let credentials = ASCCredentials(keyID: "KEY", issuerID: "ISSUER", privateKeyPEM: try makeTestKeyPEM())
        let provider = try ASCTokenProvider(credentials: credentials, now: { clock.now })
        let rejected = try await provider.token()
        clock.advance(1)  // a new iat, so the new token differs
        let renewed = try await provider.renewedToken(replacing: rejected)
        #expect(renewed != rejected)
        // A second request rejected with the same old token gets the replacement, not a third token.
        #expect(try await provider.renewedToken(replacing: rejected) == renewed)
        #expect(try await provider.token() == renewed)
    }

    @Test func lifetimeIsCappedAtTwentyMinutes() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let credentials = ASCCredentials(keyID: "KEY", issuerID: "ISSUER", privateKeyPEM: try makeTestKeyPEM())
        let provider = try ASCTokenProvider(credentials: credentials, lifetime: .seconds(3600), now: { clock.now })
        _ = try await provider.token()
        #expect(await provider.currentExpiry == Date(timeIntervalSince1970: 1_700_000_000 + 20 * 60))
    }
}

@Suite struct ASCCredentialsTests {
    @Test func loadsAP8File() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("AuthKey_KEY.p8", try makeTestKeyPEM())
        let credentials = try ASCCredentials.load(keyID: "KEY", issuerID: "ISSUER", privateKeyPath: path)
        #expect(credentials.keyID == "KEY")
        #expect(credentials.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func keyTextNeverAppearsInErrorsOrDescriptions() throws {
        let directory = TemporaryDirectory()
        let goodKey = try makeTestKeyPEM()
        let p384Key = try makeTestKeyPEM(curve: "SECP384R1")
        let marker = "SECRET-KEY-MATERIAL-0123456789"
        let notAKey = "-----BEGIN PRIVATE KEY-----\n\(marker)\n-----END PRIVATE KEY-----\n"
        let cases: [(pem: String, expected: ASCCredentialsProblem)] = [
            (marker, .notPEM(path: directory.file("a.p8"))),
            (notAKey, .notP256PrivateKey(path: directory.file("a.p8"))),
            (p384Key, .notP256PrivateKey(path: directory.file("a.p8"))),
        ]
        for (pem, expected) in cases {
            let path = directory.write("a.p8", pem)
            let error = #expect(throws: ASCError.self) {
                try ASCCredentials.load(keyID: "KEY", issuerID: "ISSUER", privateKeyPath: path)
            }
            #expect(error == .credentials(expected))
            let text = error.map { "\($0) \(String(reflecting: $0)) \($0.localizedDescription)" } ?? ""
            #expect(!text.contains(marker))
            let lines = pem.split(separator: "\n")
            #expect(!text.contains(lines.count > 1 ? String(lines[1]) : pem))
        }

        let missing = #expect(throws: ASCError.self) {
            try ASCCredentials.load(keyID: "KEY", issuerID: "ISSUER", privateKeyPath: directory.file("none.p8"))
        }
        #expect(missing == .credentials(.unreadableKeyFile(path: directory.file("none.p8"), reason: "no such file")))

        let noIssuer = ASCCredentials(keyID: "KEY", issuerID: " ", privateKeyPEM: goodKey)
        let issuerError = #expect(throws: ASCError.self) { try ASCTokenProvider(credentials: noIssuer) }
        #expect(issuerError == .credentials(.missing(field: "issuer ID")))
        #expect(!"\(issuerError!)".contains(goodKey.split(separator: "\n")[1]))

        // The credentials themselves print and dump without the key.
        let credentials = ASCCredentials(keyID: "KEY", issuerID: "ISSUER", privateKeyPEM: goodKey)
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in ["\(credentials)", String(reflecting: credentials), dumped] {
            #expect(!text.contains(goodKey.split(separator: "\n")[1]))
            #expect(text.contains("KEY"))
        }
    }
}
