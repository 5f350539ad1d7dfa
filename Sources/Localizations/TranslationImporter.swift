#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import IAPLint

/// `iapkit localizations import`: merges the texts of translation files into the catalog. Every text is checked
/// first (`check`), as lint would check it, and each problem is a finding located in the translation file; the
/// caller decides from the findings whether the run passes, and only then merges (`merge`) and writes (`write`).
/// The catalog is edited as text (comments and order stay), never in its primary locale, read back to check it holds
/// exactly the merged texts, and replaced atomically; with nothing to change it is not touched at all.
public struct TranslationImporter: Sendable {
    public static let fileRule = "translation-file"
    public static let unitRule = "translation-unit"
    public static let duplicateRule = "translation-duplicate"
    public static let localeRule = "translation-locale"
    public static let lengthRule = "translation-length"
    public static let untranslatedRule = "translation-untranslated"

    /// The rules' ids with what they report, for reports that list rules.
    public static let rules: [(id: String, summary: String)] = [
        (
            fileRule,
            "A translation file that is not well-formed XML, declares entities or a DTD subset, uses an undeclared entity, goes past iapkit's XML limits (attributes per element, depth, text size), or is not XLIFF 1.2 or a translation sheet."
        ),
        (unitRule, "A trans-unit id or row the catalog does not have (an unknown product, group or field)."),
        (
            duplicateRule,
            "The same text translated twice into one locale, in one file or across files: an error when the two differ, a warning when they agree."
        ),
        (localeRule, "A target locale App Store Connect does not have, the primary locale, or a source locale other than the primary one."),
        (lengthRule, "A translation over App Store Connect's limit, counted in characters as App Store Connect counts them."),
        (
            untranslatedRule,
            "A unit still untranslated (an empty target, or a `new` target that repeats the source) that neither the catalog nor another file of the import translates; it is left out."
        ),
    ]

    public var catalogPath: String
    public init(catalogPath: String) { self.catalogPath = catalogPath }

    /// The files read and checked against the catalog; nothing merged or written yet.
    public struct Check {
        public var findings: [Finding]
        fileprivate var editor: CatalogTextEditor
        fileprivate var set: TranslationSet
        fileprivate var accepted: [(unit: TranslationUnit, locale: String, text: String)]
    }

    /// The catalog with the accepted texts merged, read back and checked.
    public struct Merge: Sendable {
        /// The new catalog text; nil when it would not change.
        public var text: [UInt8]?
        /// Texts changed in existing localizations, and localizations added.
        public var updatedTexts: Int
        public var addedLocalizations: Int
    }

    /// Reads the catalog and every file and checks each text. Texts with an error are left out of what `merge`
    /// merges. Throws when the catalog cannot be read; a translation file that cannot be read is a finding.
    public func check(files: [String]) throws(IAPKitError) -> Check {
        let data = try InputFile.read(catalogPath, limit: InputFile.Limit.catalog)
        let editor = try CatalogTextEditor(data: data, file: catalogPath)
        let set = try TranslationSet(editor.catalog)
        var findings: [Finding] = []
        func report(_ rule: String, _ message: String, at location: SourceLocation, severity: Severity = .error) {
            findings.append(Finding(ruleID: rule, severity: severity, message: message, location: location))
        }
        var accepted: [(unit: TranslationUnit, locale: String, text: String)] = []
        // Where each unit's text for a locale was first taken from, across all the files.
        var firstSeen: [String: (index: Int, location: SourceLocation)] = [:]
        // Untranslated units, with where their warning goes among the findings.
        var untranslated: [(position: Int, unit: TranslationUnit, locale: String, location: SourceLocation)] = []
        for path in files {
            let file: TranslationFile
            do { file = try TranslationFiles.read(path) } catch {
                guard case let .malformed(location, reason) = error else { throw error }
                report(Self.fileRule, "\(Path.lastComponent(path)) \(reason)", at: location)
                continue
            }
            var refusedLocales = Set<String>()
            for declared in file.locales {
                if let problem = AppStoreTexts.localeProblem(declared.locale) {
                    report(Self.localeRule, problem, at: declared.location)
                    refusedLocales.insert(declared.locale)
                } else if declared.locale == set.primaryLocale {
                    report(
                        Self.localeRule,
                        "`\(declared.locale)` is the catalog's primary locale; its texts are edited in the catalog, "
                            + "never imported", at: declared.location)
                    refusedLocales.insert(declared.locale)
                }
                if let source = declared.source, source != set.primaryLocale {
                    report(
                        Self.localeRule,
                        "the file translates from `\(source)`, but the catalog's primary locale is "
                            + "`\(set.primaryLocale)`; export again from this catalog", at: declared.location)
                    refusedLocales.insert(declared.locale)
                }
            }
            for imported in file.texts where !refusedLocales.contains(imported.locale) {
                guard let unit = set.unit(id: imported.unitID) else {
                    report(Self.unitRule, unknownUnit(imported.unitID, in: set), at: imported.location)
                    continue
                }
                let text = imported.text ?? ""
                let untranslatedState = ["new", "needs-translation"].contains(imported.state ?? "")
                if text.isBlank || (untranslatedState && text == unit.source) {
                    // Said only of texts the catalog still lacks once every file is read (see below).
                    untranslated.append((findings.count, unit, imported.locale, imported.location))
                    continue
                }
                if let scalar = text.unicodeScalars.first(where: Catalog.isControlCharacter) {
                    report(
                        ControlCharacterRule.id,
                        "the \(imported.locale) text of `\(unit.id)` holds the control character "
                            + "\(ControlCharacterRule.name(scalar)); remove it: App Store Connect takes none in its texts",
                        at: imported.location)
                    continue
                }
                if AppStoreTexts.exceeds(text, limit: unit.limit) {
                    report(
                        Self.lengthRule,
                        "the \(imported.locale) text of `\(unit.id)` has \(AppStoreTexts.length(of: text)) "
                            + "characters; App Store Connect allows at most \(unit.limit)", at: imported.location)
                    continue
                }
                // A second text for the same unit and locale: neither may silently win.
                let key = unit.id + "\u{0}" + imported.locale
                if let first = firstSeen[key] {
                    if accepted[first.index].text == text {
                        report(
                            Self.duplicateRule,
                            "`\(unit.id)` is translated into \(imported.locale) again, as at \(first.location); "
                                + "the repeat is left out", at: imported.location, severity: .warning)
                    } else {
                        report(
                            Self.duplicateRule,
                            "`\(unit.id)` is translated into \(imported.locale) a second time, differently from "
                                + "\(first.location); keep one translation", at: imported.location)
                    }
                    continue
                }
                firstSeen[key] = (accepted.count, imported.location)
                accepted.append((unit, imported.locale, text))
            }
        }
        // A text left untranslated in one file that the catalog has, or another file of this import gives, is not
        // missing: an XLIFF that filled French leaves a later sheet's empty French column unremarked.
        for entry in untranslated.reversed() {
            let has =
                !(entry.unit.translations[entry.locale] ?? "").isEmpty
                || firstSeen[entry.unit.id + "\u{0}" + entry.locale] != nil
            guard !has else { continue }
            findings.insert(
                Finding(
                    ruleID: Self.untranslatedRule, severity: .warning,
                    message: "`\(entry.unit.id)` is not translated into \(entry.locale) yet; it is left out",
                    location: entry.location), at: entry.position)
        }
        return Check(findings: findings, editor: editor, set: set, accepted: accepted)
    }

    /// Merges the accepted texts into the catalog's text and reads the result back; writes nothing.
    public func merge(_ check: Check) throws(IAPKitError) -> Merge {
        var editor = check.editor
        var result = Merge(text: nil, updatedTexts: 0, addedLocalizations: 0)
        // Texts for locales the owner has go into their entries; the rest make one new entry per owner and locale.
        var added: [(path: CatalogPath, locale: String, pairs: [(key: String, value: String)])] = []
        var expected: [String: [String: String]] = [:]
        for (unit, locale, text) in check.accepted {
            expected[unit.id, default: [:]][locale] = text
            if let index = unit.entries[locale] {
                guard unit.translations[locale] != text else { continue }
                try editor.set(unit.field.rawValue, to: text, in: unit.localizationsPath.index(index))
                result.updatedTexts += 1
            } else if let position = added.firstIndex(where: { $0.path == unit.localizationsPath && $0.locale == locale }) {
                added[position].pairs.removeAll { $0.key == unit.field.rawValue }
                added[position].pairs.append((unit.field.rawValue, text))
            } else {
                added.append((unit.localizationsPath, locale, [("locale", locale), (unit.field.rawValue, text)]))
            }
        }
        for entry in added { try editor.append(entry.pairs, to: entry.path) }
        result.addedLocalizations = added.count
        guard editor.hasEdits else { return result }

        let text = editor.text()
        try verify(text, expected: expected, primary: check.set)
        result.text = text
        return result
    }

    /// Replaces the catalog with the merged text, when there is one; returns whether it did.
    @discardableResult
    public func write(_ merge: Merge) throws(IAPKitError) -> Bool {
        guard let text = merge.text else { return false }
        try AtomicFile.write(text, to: catalogPath)
        return true
    }

    /// Reads the edited catalog back: it must load, keep the primary locale's texts, and hold every merged text with
    /// every other translation as it was.
    private func verify(_ text: [UInt8], expected: [String: [String: String]], primary before: TranslationSet) throws(IAPKitError) {
        let reloaded = try CatalogLoader.load(data: Data(text), file: catalogPath, findings: { _ in })
        let after = try TranslationSet(reloaded)
        func refused(_ what: String) -> IAPKitError {
            .invalidArgument(
                "\(catalogPath): the merged catalog did not read back as expected (\(what)), so it was left "
                    + "unchanged; merge these translations by hand")
        }
        guard before.units.map({ [$0.id, $0.source] }) == after.units.map({ [$0.id, $0.source] }) else {
            throw refused("its texts in \(before.primaryLocale) moved or changed")
        }
        for (old, new) in zip(before.units, after.units) {
            let wanted = old.translations.merging(expected[old.id] ?? [:]) { $1 }
            if let locale = Set(wanted.keys).union(new.translations.keys).sorted().first(where: { wanted[$0] != new.translations[$0] }) {
                throw refused("`\(old.id)` in \(locale)")
            }
        }
    }

    private func unknownUnit(_ id: String, in set: TranslationSet) -> String {
        guard let slash = id.lastIndex(of: "/"), !id.isEmpty else {
            return "`\(id)` is not a trans-unit id of this catalog; ids look like `PRODUCT_ID/name`"
        }
        let owner = String(id[..<slash]), field = String(id[id.index(after: slash)...])
        if !set.units.contains(where: { $0.id.hasPrefix(owner + "/") }) {
            return owner.hasPrefix(TranslationSet.groupPrefix)
                ? "the catalog has no subscription group `\(owner.dropFirst(TranslationSet.groupPrefix.count))`"
                : "the catalog has no product `\(owner)` with texts in \(set.primaryLocale)"
        }
        let fields = set.units.filter { $0.id.hasPrefix(owner + "/") }.map { "`\($0.field.rawValue)`" }
        return "`\(owner)` has no text `\(field)` to translate; its texts are " + fields.joined(separator: ", ")
    }
}
