import ArgumentParser
import IAPCatalog
import IAPLint

/// Opens the catalog a command works on through the lint gate. A refused catalog's errors go to standard error,
/// then `path has errors; ADVICE`, and the command exits 1.
/// - Parameter reportsProducts: whether the errors' summary line counts the catalog's products.
func openCatalog(_ path: String, strictness: LintGate.Strictness, advice: String, reportsProducts: Bool) throws -> Catalog {
    switch try LintGate.open(path, strictness: strictness) {
    case let .success(catalog):
        return catalog
    case let .failure(refusal):
        Terminal.writeError(TextReporter().report(refusal.errors, context: ReportContext(
            toolVersion: IAPKitCommand.version, products: reportsProducts ? refusal.products : 0, productIDs: [], subject: path)))
        Terminal.error("\(path) has errors; \(advice)")
        throw ExitCode(1)
    }
}
