import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HostedContent
import IAPCore

/// A plan written to a file (`asc plan --out`) for review, and applied as reviewed (`asc push --plan`).
///
/// It holds what push will send and what it was computed from: the catalog's digest, each upload's size and digest,
/// and every change with the old value App Store Connect had for each field it writes. Push plans again from what
/// App Store Connect holds for the products the plan touches, and sends the operations only when every change comes
/// out the same; anything else is staleness, refused before the first write. No key, token or upload bytes.
public struct SavedPlan: Sendable {
    /// The file's `format`: tells a plan from any other JSON.
    public static let format = "iapkit-plan"
    public static let formatVersion = 1

    public struct Upload: Sendable, Equatable {
        /// As the request export names it: relative to the catalog's folder.
        public var path: String
        public var size: Int
        public var sha256: String
        public init(path: String, size: Int, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// One change as reviewed: what `show` prints, and its signature, compared at push.
    public struct SavedChange: Sendable {
        public var change: Change
        /// Each operation's summary and the requests it sends.
        public var operations: [(summary: String, requests: Int)]

        public var signature: String { SavedPlan.signature(change) }
        /// The signature's SHA-256: how an interrupted push's journal names the change.
        public var signatureDigest: String { SavedPlan.signatureDigest(of: change) }
    }

    public static func signatureDigest(of change: Change) -> String { sha256(Data(signature(change).utf8)) }

    public var app: StoreApp
    /// The catalog as `plan` was given it, and the SHA-256 of its bytes.
    public var catalogPath: String
    public var catalogSHA256: String
    public var createdAt: String
    public var uploads: [Upload]
    public var changes: [SavedChange]
    /// Territory prices plan could not check (no product of their kind yet); push checks them first.
    public var uncheckedPrices: [UncheckedPrice]
    /// The requests push sends (`export asc`'s shape, ids of resources created on the way as `${ref}`).
    public var requests: JSONValue
    /// `--take catalog`: the plan was made to push the catalog's values over App Store Connect's changes since the base.
    public var take: TakenSide?

    public init(plan: Plan, catalogPath: String, catalogSHA256: String, createdAt: String, uploads: [Upload], requests: JSONValue) {
        app = plan.app
        self.catalogPath = catalogPath
        self.catalogSHA256 = catalogSHA256
        self.createdAt = createdAt
        self.uploads = uploads
        self.requests = requests
        uncheckedPrices = plan.uncheckedPrices
        changes = plan.changes.map { SavedChange(change: $0, operations: $0.operations.map { ($0.summary, $0.estimatedRequests) }) }
    }

    /// The actions push acts on or reports as its own; unchanged and unmanaged resources are not part of the review.
    static let reviewed: Set<Change.Action> = [.create, .update, .delete, .waiting, .refused]

    /// The products the plan's changes touch, for push to read again: the changes' products, and a group's
    /// subscriptions when the group itself changes (`groups`: each group's name and subscriptions, from the catalog).
    public func touchedProducts(groups: [(name: String, subscriptions: [String])]) -> Set<String> {
        var products = Set<String>()
        for saved in changes where Self.reviewed.contains(saved.change.action) {
            if let id = saved.change.productID {
                products.insert(id)
            } else if saved.change.resource.isGroupResource, let detail = saved.change.detail {
                // `Fruit Club` or `Fruit Club en-US`: group names hold spaces.
                for group in groups where detail == group.name || detail.hasPrefix(group.name + " ") {
                    products.formUnion(group.subscriptions)
                }
            }
        }
        return products
    }

    /// What push reads again: the touched products, and the app's own resources (asset packs, promoted purchases,
    /// the grace period) only when the plan changes one, so a plan made with `--product` is compared as it was made.
    public func scope(touched: Set<String>) -> PlanScope {
        let appLevel = changes.contains { saved in
            Self.reviewed.contains(saved.change.action) && saved.change.productID == nil && !saved.change.resource.isGroupResource
        }
        return appLevel || touched.isEmpty ? PlanScope(changed: touched) : PlanScope(patterns: touched.sorted())
    }

    /// The plan as `plan` printed it, rebuilt from the file (its operations stand in by their summaries).
    public var plan: Plan {
        Plan(
            app: app,
            changes: changes.map { saved in
                var change = saved.change
                change.operations = saved.operations.map { SavedOperation(summary: $0.summary, estimatedRequests: $0.requests) }
                return change
            }, uncheckedPrices: uncheckedPrices)
    }

    struct SavedOperation: PlannedOperation {
        var summary: String
        var estimatedRequests: Int
    }

    // MARK: Comparing with a new plan

    /// One change's identity and content, without its catalog location (the same catalog read from another folder).
    static func signature(_ change: Change) -> String {
        var text = [
            change.action.rawValue, change.resource.rawValue, change.productID ?? "", change.path ?? "", change.detail ?? "",
            change.reason ?? "",
        ].joined(separator: "\u{1F}")
        // By name: the order is presentation.
        for field in change.fields.sorted(by: { $0.name < $1.name }) {
            text += "\u{1E}\(field.name)\u{1F}\(field.fromUnanswered ? "?" : field.from ?? "\u{0}")\u{1F}\(field.to ?? "\u{0}")"
        }
        return text
    }

    /// Why `fresh` (planned again before push) is not this plan, each reason naming the product and the field;
    /// empty when push may send the operations. `done` counts the operations of each change (by signature digest)
    /// an interrupted `push --plan` already sent: those changes are expected to be gone from `fresh`.
    /// What the operations the journal does not record as done send, by their estimates, and how many there are.
    public func remainingWrites(done: [String: Int]) -> (requests: Int, operations: Int) {
        var requests = 0, operations = 0
        for saved in changes where Self.reviewed.contains(saved.change.action) && saved.change.action != .refused {
            for operation in saved.operations.dropFirst(done[saved.signatureDigest] ?? 0) {
                requests += operation.requests
                operations += 1
            }
        }
        return (requests, operations)
    }

    public func staleness(against fresh: Plan, done: [String: Int] = [:]) -> [String] {
        var expected: [String: Int] = [:]
        var savedByKey: [String: Change] = [:]
        for saved in changes where Self.reviewed.contains(saved.change.action) {
            let finished =
                (done[saved.signatureDigest] ?? 0) >= max(saved.operations.count, 1) && saved.change.action != .waiting
                && saved.change.action != .refused
            if !finished { expected[saved.signature, default: 0] += 1 }
            savedByKey[Self.key(saved.change)] = saved.change
        }
        // Products this push created before it was interrupted: App Store Connect now answers their defaults where
        // the plan saw nothing, and a create whose level was deferred is an update, so their changes are held to
        // what they write, not to what they found.
        let created = Set(
            changes.filter { saved in
                saved.change.action == .create && (saved.change.resource == .inAppPurchase || saved.change.resource == .subscription)
                    && (done[saved.signatureDigest] ?? 0) > 0
            }.compactMap(\.change.productID))
        // A created product's create change, by resource and product: what finishes it may sit at a key's line.
        let creates = Dictionary(
            changes.filter { $0.change.action == .create }.map { ([$0.change.resource.rawValue, $0.change.productID ?? ""], $0.change) },
            uniquingKeysWith: { first, _ in first })
        var reasons: [String] = []
        var unmatched: [Change] = []
        for change in fresh.changes where Self.reviewed.contains(change.action) {
            let signature = Self.signature(change)
            if let count = expected[signature], count > 0 {
                expected[signature] = count - 1
            } else {
                unmatched.append(change)
            }
        }
        var explained = Set<String>()
        for change in unmatched {
            let key = Self.key(change)
            if let id = change.productID, created.contains(id), let before = savedByKey[key] ?? creates[[change.resource.rawValue, id]],
                Self.writes(change, within: before)
            {
                explained.insert(key)
                continue
            }
            if let before = savedByKey[key] {
                explained.insert(key)
                reasons.append(Self.difference(planned: before, now: change))
            } else {
                reasons.append("\(Self.name(change)): not in the plan, now \(Self.describe(change))")
            }
        }
        // A planned change with nothing left to do is done: App Store Connect holds the planned values (the catalog is
        // the one planned, checked by its digest), as after a write it applied and whose answer was lost.
        return reasons
    }

    /// Whether every field `change` writes is one `planned` writes, with the same new value.
    static func writes(_ change: Change, within planned: Change) -> Bool {
        change.fields.allSatisfy { field in planned.fields.contains { $0.name == field.name && $0.to == field.to } }
    }

    static func key(_ change: Change) -> String {
        [change.resource.rawValue, change.productID ?? "", change.detail ?? "", change.path ?? ""].joined(separator: "\u{1F}")
    }

    /// `com.example.gems inAppPurchaseLocalization [fr-FR]`
    static func name(_ change: Change) -> String {
        [change.productID, change.resource.rawValue, change.detail.map { "[\($0)]" }].compactMap { $0 }.joined(separator: " ")
    }

    static func describe(_ change: Change) -> String {
        let fields = change.fields.map { "\($0.name) \(PlanReport.quote($0.from)) -> \(PlanReport.quote($0.to))" }.joined(separator: ", ")
        return change.action.rawValue + (fields.isEmpty ? "" : " (\(fields))")
    }

    /// What differs between the change as planned and as planned now, field by field.
    static func difference(planned: Change, now: Change) -> String {
        var parts: [String] = []
        if planned.action != now.action { parts.append("planned as \(planned.action.rawValue), now \(now.action.rawValue)") }
        let before = Dictionary(planned.fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Dictionary(now.fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in (planned.fields.map(\.name) + now.fields.map(\.name)).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            guard let old = before[name] else {
                parts.append("\(name) not in the plan, now \(PlanReport.quote(after[name]?.from)) -> \(PlanReport.quote(after[name]?.to))")
                continue
            }
            guard let new = after[name] else {
                parts.append("\(name) planned (\(PlanReport.quote(old.from)) -> \(PlanReport.quote(old.to))), now nothing to change")
                continue
            }
            if old.from != new.from || old.fromUnanswered != new.fromUnanswered {
                parts.append(
                    "\(name) was \(old.fromUnanswered ? "?" : PlanReport.quote(old.from)) in App Store Connect when planned, now "
                        + (new.fromUnanswered ? "?" : PlanReport.quote(new.from)))
            } else if old.to != new.to {
                parts.append("\(name) planned to become \(PlanReport.quote(old.to)), now \(PlanReport.quote(new.to))")
            }
        }
        if parts.isEmpty, planned.reason != now.reason { parts.append("now \(now.reason ?? "without a reason")") }
        return "\(name(now)): " + (parts.isEmpty ? "changed" : parts.joined(separator: "; "))
    }

    // MARK: The file

    /// Whether `push --plan` may send it: false when a change is one App Store Connect would refuse (`!`).
    public var isAppliable: Bool { !changes.contains { $0.change.action == .refused } }

    public var json: JSONValue {
        .object(
            [
                ("format", .string(Self.format)),
                ("formatVersion", .int(Self.formatVersion)),
                ("createdAt", .string(createdAt)),
                // A plan with a change App Store Connect would refuse is kept for review, never pushed.
                ("appliable", .bool(isAppliable)),
                ("app", .object([("id", .string(app.id)), ("bundleId", .string(app.bundleID))])),
                ("catalog", .object([("path", .string(catalogPath)), ("sha256", .string(catalogSHA256))])),
                ("uploads", .array(uploads.map { .object([("path", .string($0.path)), ("size", .int($0.size)), ("sha256", .string($0.sha256))]) })),
                (
                    "changes",
                    .array(
                        changes.map { saved in
                            guard case var .object(fields) = PlanReport.change(saved.change) else { return .null }
                            // JSON objects have no order: the fields' order as plan printed them.
                            fields.append(("fieldOrder", .array(saved.change.fields.map { .string($0.name) })))
                            fields.append(
                                (
                                    "operations",
                                    .array(saved.operations.map { .object([("summary", .string($0.summary)), ("requests", .int($0.requests))]) })
                                ))
                            return .object(fields)
                        })
                ),
                ("uncheckedPrices", .array(uncheckedPrices.map(\.json))),
                ("requests", requests),
            ] + (take.map { [("take", .string($0.rawValue))] } ?? []))
    }

    /// Why a file is not a plan this iapkit can apply.
    public struct Damaged: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var reason: String
        public var description: String { "\(file): \(reason); make the plan again with `iapkit asc plan --out \(file)`" }
    }

    public static func parse(_ data: Data, file: String) throws(Damaged) -> SavedPlan {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw Damaged(file: file, reason: "is not a saved plan (not JSON: \(error))")
        }
        guard case .string(Self.format)? = root["format"] else {
            throw Damaged(file: file, reason: "is not a saved plan (no `\"format\": \"\(Self.format)\"`)")
        }
        switch root["formatVersion"] {
        case .int(Self.formatVersion)?: break
        case let .int(version)?:
            throw Damaged(file: file, reason: "is a saved plan of format version \(version); this iapkit reads version \(Self.formatVersion)")
        case nil:
            throw Damaged(file: file, reason: "has no `formatVersion`: a saved plan this iapkit reads has `\"formatVersion\": \(Self.formatVersion)`")
        case _?:
            throw Damaged(file: file, reason: "has a `formatVersion` that is not a whole number; this iapkit reads version \(Self.formatVersion)")
        }
        func string(_ value: JSONValue?, _ what: String) throws(Damaged) -> String {
            guard case let .string(text)? = value else { throw Damaged(file: file, reason: "has no \(what)") }
            return text
        }
        func int(_ value: JSONValue?, _ what: String) throws(Damaged) -> Int {
            guard case let .int(number)? = value else { throw Damaged(file: file, reason: "has no \(what)") }
            return number
        }
        func array(_ value: JSONValue?, _ what: String) throws(Damaged) -> [JSONValue] {
            guard case let .array(items)? = value else { throw Damaged(file: file, reason: "has no \(what) list") }
            return items
        }
        let app = StoreApp(id: try string(root["app"]?["id"], "app.id"), bundleID: try string(root["app"]?["bundleId"], "app.bundleId"))
        var uploads: [Upload] = []
        for (index, item) in try array(root["uploads"], "uploads").enumerated() {
            uploads.append(
                Upload(
                    path: try string(item["path"], "uploads[\(index)].path"), size: try int(item["size"], "uploads[\(index)].size"),
                    sha256: try string(item["sha256"], "uploads[\(index)].sha256")))
        }
        var changes: [SavedChange] = []
        for (index, item) in try array(root["changes"], "changes").enumerated() {
            let at = "changes[\(index)]"
            guard let action = Change.Action(rawValue: try string(item["action"], at + ".action")) else {
                throw Damaged(file: file, reason: "has an unknown action at \(at)")
            }
            var fields: [Change.Field] = []
            guard case let .object(pairs)? = item["fields"] else { throw Damaged(file: file, reason: "has no \(at).fields") }
            for (name, value) in pairs {
                var field = Change.Field(name, from: value["from"].flatMap(Self.text), to: value["to"].flatMap(Self.text))
                if case .bool(true)? = value["unanswered"] { field.fromUnanswered = true }
                fields.append(field)
            }
            if case let .array(order)? = item["fieldOrder"] {
                let names = order.compactMap(Self.text)
                fields.sort { (names.firstIndex(of: $0.name) ?? names.count) < (names.firstIndex(of: $1.name) ?? names.count) }
            }
            var operations: [(summary: String, requests: Int)] = []
            for (number, operation) in try array(item["operations"], at + ".operations").enumerated() {
                operations.append(
                    (
                        try string(operation["summary"], "\(at).operations[\(number)].summary"),
                        try int(operation["requests"], "\(at).operations[\(number)].requests")
                    ))
            }
            guard let resource = ResourceName(rawValue: try string(item["resource"], at + ".resource")) else {
                throw Damaged(file: file, reason: "has an unknown resource at \(at)")
            }
            var change = Change(
                action: action, resource: resource,
                productID: item["productId"].flatMap(Self.text), path: item["path"].flatMap(Self.text),
                location: item["location"].flatMap(Self.text).flatMap(Self.location),
                detail: item["detail"].flatMap(Self.text), fields: fields, reason: item["reason"].flatMap(Self.text))
            change.origin = item["origin"].flatMap(Self.text).flatMap(ChangeOrigin.init)
            changes.append(SavedChange(change: change, operations: operations))
        }
        var plan = SavedPlan(
            plan: Plan(app: app, changes: []), catalogPath: try string(root["catalog"]?["path"], "catalog.path"),
            catalogSHA256: try string(root["catalog"]?["sha256"], "catalog.sha256"),
            createdAt: try string(root["createdAt"], "createdAt"), uploads: uploads, requests: root["requests"] ?? .array([]))
        plan.changes = changes
        plan.take = root["take"].flatMap(Self.text).flatMap(TakenSide.init)
        if case let .array(items)? = root["uncheckedPrices"] {
            plan.uncheckedPrices = items.compactMap { item in
                guard let kind = item["kind"].flatMap(text).flatMap(PriceGrid.init), let id = item["productId"].flatMap(text),
                    let territory = item["territory"].flatMap(text), let price = item["price"].flatMap(text)
                else { return nil }
                return UncheckedPrice(
                    kind: kind, productID: id, territory: territory, price: price,
                    location: item["location"].flatMap(text).flatMap(location))
            }
        }
        return plan
    }

    static func text(_ value: JSONValue) -> String? {
        if case let .string(text) = value { return text }
        return nil
    }

    /// `catalog.yaml:12:7` back into a location; fields' order in the file does not matter.
    static func location(_ text: String) -> SourceLocation? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else {
            return SourceLocation(file: text)
        }
        return SourceLocation(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column)
    }

    // MARK: An interrupted push's journal

    /// What `push --plan` has sent of a plan file (`FILE.applied` beside it): the operations done of each change, so
    /// running the same command again sends only the rest. One JSON line names the plan, then one line is added per
    /// change done: appending costs the same for the last change of a large push as for the first, and a line cut
    /// short by a crash is ignored.
    public struct Journal: Sendable, Equatable {
        /// The plan file's SHA-256: a journal of another plan is ignored.
        public var plan: String
        public var done: [String: Int]
        public init(plan: String, done: [String: Int] = [:]) {
            self.plan = plan
            self.done = done
        }

        /// The journal's first line.
        public var header: String { JSONValue.object([("plan", .string(plan))]).serialized(.compact) + "\n" }

        /// The line that records `operations` more operations of the change with `digest` as done.
        public static func line(digest: String, operations: Int) -> String {
            JSONValue.object([("done", .string(digest)), ("operations", .int(operations))]).serialized(.compact) + "\n"
        }

        public static func parse(_ data: Data) -> Journal? {
            let lines = data.split(separator: UInt8(ascii: "\n"))
            guard let first = lines.first, let root = try? JSONValue.parse(Data(first)), case let .string(plan)? = root["plan"]
            else { return nil }
            var journal = Journal(plan: plan)
            for line in lines.dropFirst() {
                guard let entry = try? JSONValue.parse(Data(line)), case let .string(digest)? = entry["done"],
                    case let .int(operations)? = entry["operations"]
                else { continue }
                journal.done[digest, default: 0] += operations
            }
            return journal
        }
    }

    /// SHA-256 of bytes, as lowercase hex.
    public static func sha256(_ data: Data) -> String { SHA256.hash(data: data).hexString }
}
