import IAPCatalog
import IAPCore

/// `export asc`: the requests `push` sends to an app with no products, from the same plan and request builder.
///
/// Each entry is `{"method", "path", "body", "ref"}`. A resource created by an earlier request is `${ref}`; a price
/// point is `${pricePoint:REF:TERRITORY:PRICE}` (the point of REF whose USA customer price is PRICE, or its
/// equalization in TERRITORY), found by listing REF's price points once REF exists. A screenshot's upload is a
/// `PUT` of the file to each of the reservation's `uploadOperations`, then a `PATCH` with its MD5.
public enum RequestExport {
    public static func requests(for plan: Plan) -> JSONValue {
        let resolver = PlaceholderResolver()
        var entries: [JSONValue] = []
        for operation in plan.operations {
            let requests = RequestBuilder.requests(for: operation, resolver: resolver)
            for (index, request) in requests.enumerated() {
                var fields: [(String, JSONValue)] = [("method", .string(request.method)), ("path", .string(request.path))]
                if let body = request.jsonBody() { fields.append(("body", body)) }
                if index == requests.count - 1, let ref = operation.createdRef ?? operation.screenshotRef {
                    fields.append(("ref", .string(ref)))
                }
                entries.append(.object(fields))
            }
            if let ref = operation.screenshotRef, let screenshot = operation.screenshot {
                entries.append(.object([("method", .string("PUT")), ("path", .string("${\(ref).uploadOperations}")),
                                        ("file", .string(screenshot.path ?? screenshot.fileName))]))
                let commit = RequestBuilder.screenshotCommit(id: "${\(ref)}", subscription: operation.isSubscriptionScreenshot,
                                                             checksum: screenshot.checksum)
                entries.append(.object([("method", .string(commit.method)), ("path", .string(commit.path)),
                                        ("body", commit.jsonBody() ?? .null)]))
            }
        }
        return .array(entries)
    }
}

/// Names instead of ids, for requests written before anything exists.
struct PlaceholderResolver: IDResolver {
    func id(_ ref: ResourceRef) -> String { ref.description }
    func pricePoint(product: ResourceRef, subscription: Bool, cents: Int, territory: String) -> String {
        "${pricePoint:\(product.referenceName):\(territory):\(Price.format(cents: cents))}"
    }
}

extension ResourceRef {
    /// The ref's name without `${}`, or the id.
    var referenceName: String {
        switch self {
        case let .id(id): return id
        case let .created(name): return name
        }
    }
}

extension Operation {
    var screenshot: ScreenshotRecord? {
        switch self {
        case let .uploadInAppPurchaseScreenshot(_, screenshot, _), let .uploadSubscriptionScreenshot(_, screenshot, _): return screenshot
        default: return nil
        }
    }

    var isSubscriptionScreenshot: Bool {
        if case .uploadSubscriptionScreenshot = self { return true }
        return false
    }

    /// The name `export asc` gives a screenshot reservation.
    var screenshotRef: String? {
        switch self {
        case let .uploadInAppPurchaseScreenshot(product, _, _): return "screenshot:\(product.referenceName)"
        case let .uploadSubscriptionScreenshot(subscription, _, _): return "screenshot:\(subscription.referenceName)"
        default: return nil
        }
    }
}
