import AppStoreConnect
import IAPCatalog

/// A product's attributes App Store Connect answered with a value this iapkit does not know (a newer API version's
/// period or state): the client left them unread on that product alone. Each becomes a note on it and, where the
/// catalog holds the value, an unanswered field: pull keeps the catalog's value and plan shows `?`, never an empty
/// value or a default.
enum UnreadAttributes {
    /// An attribute that fills a record field: its name in App Store Connect and in the plan, how plan shows the
    /// catalog's value, and how pull keeps it.
    struct Field: Sendable {
        var api: String
        var name: String
        var text: @Sendable (ProductRecord) -> String?
        var keep: @Sendable (inout ProductRecord, ProductRecord) -> Void

        static func of<Value>(
            _ api: String, _ name: String, _ path: WritableKeyPath<ProductRecord, Value> & Sendable,
            _ text: @escaping @Sendable (Value) -> String?
        ) -> Field {
            Field(api: api, name: name, text: { text($0[keyPath: path]) }, keep: { $0[keyPath: path] = $1[keyPath: path] })
        }
    }

    /// Every attribute that fills a record field, each declared by the kind that owns it; any other (`state`) is read
    /// for messages only.
    static let fields = ProductAttributes.unreadFields + SubscriptionKind.unreadFields

    /// Notes each unread attribute of `product`, a resource of `type` (`inAppPurchases`, `subscriptions`).
    static func note(_ product: inout StoreProduct, type: String, resource: ResourceName, asc: AppStoreConnectClient) {
        for unread in asc.unreadAttributes(type: type, id: product.ids.resource) {
            let said = "App Store Connect answered its \(unread.attribute) with \(unread.value), a value this iapkit does not know"
            if let field = fields.first(where: { $0.api == unread.attribute }) {
                product.unanswered.insert(field.name)
                product.notes.append(
                    StoreNote(
                        resource: resource, managed: false,
                        text: said + "; its \(field.name) is unknown (?), not none: a newer iapkit may read it", field: field.name))
            } else {
                // Nothing the catalog holds: the catalog still says what App Store Connect has.
                product.notes.append(StoreNote(resource: resource, managed: true, text: said))
            }
        }
    }

    /// The catalog's value of record field `name`, as plan shows it.
    static func value(_ name: String, of record: ProductRecord) -> String? {
        fields.first { $0.name == name }?.text(record)
    }

    /// What App Store Connect did not answer keeps the kept catalog's value.
    static func keep(_ unanswered: Set<String>, of record: inout ProductRecord, from old: ProductRecord) {
        for field in fields where unanswered.contains(field.name) { field.keep(&record, old) }
    }
}
