import AppStoreConnect
import IAPCatalog

/// A product's attributes App Store Connect answered with a value this iapkit does not know (a newer API version's
/// period or state): the client left them unread on that product alone. Each becomes a note on it and, where the
/// catalog holds the value, an unanswered field: pull keeps the catalog's value and plan shows `?`, never an empty
/// value or a default.
enum UnreadAttributes {
    /// App Store Connect's attribute and the record field it fills; `state` fills none (it is read for messages).
    static let fields = [
        "name": "referenceName", "familySharable": "familySharable", "reviewNote": "reviewNote",
        "subscriptionPeriod": "period", "groupLevel": "groupLevel",
    ]

    /// Notes each unread attribute of `product`, a resource of `type` (`inAppPurchases`, `subscriptions`).
    static func note(_ product: inout StoreProduct, type: String, resource: String, asc: AppStoreConnectClient) {
        for unread in asc.unreadAttributes(type: type, id: product.ids.resource) {
            let said = "App Store Connect answered its \(unread.attribute) with \(unread.value), a value this iapkit does not know"
            if let field = fields[unread.attribute] {
                product.unanswered.insert(field)
                product.notes.append(
                    StoreNote(
                        resource: resource, managed: false, text: said + "; its \(field) is unknown (?), not none: a newer iapkit may read it",
                        field: field))
            } else {
                // Nothing the catalog holds: the catalog still says what App Store Connect has.
                product.notes.append(StoreNote(resource: resource, managed: true, text: said))
            }
        }
    }

    /// The catalog's value of record field `field`, as plan shows it.
    static func value(_ field: String, of record: ProductRecord) -> String? {
        switch field {
        case "referenceName": return record.referenceName
        case "familySharable": return String(record.familySharable)
        case "reviewNote": return record.reviewNote
        case "period": return record.period
        case "groupLevel": return record.groupLevel.map(String.init)
        default: return nil
        }
    }

    /// What App Store Connect did not answer keeps the kept catalog's value.
    static func keep(_ unanswered: Set<String>, of record: inout ProductRecord, from old: ProductRecord) {
        if unanswered.contains("referenceName") { record.referenceName = old.referenceName }
        if unanswered.contains("familySharable") { record.familySharable = old.familySharable }
        if unanswered.contains("reviewNote") { record.reviewNote = old.reviewNote }
        if unanswered.contains("period") { record.period = old.period }
        if unanswered.contains("groupLevel") { record.groupLevel = old.groupLevel }
    }
}
