import CatalogExchange
import Foundation
import IAPCatalog
import TestSupport
import Testing

/// The application ID in a `.storekit` file's settings becomes the catalog's `app.appId` only when it is App Store
/// Connect's, an Apple ID of digits: a synced file holds one, a file edited by hand may hold any text, which the
/// catalog's schema refuses and App Store Connect knows no app by.
@Suite struct StoreKitAppIDTests {
    /// A configuration of one consumable whose settings name `applicationID`.
    static func configuration(applicationID: String) -> String {
        """
        {"version": {"major": 3, "minor": 0}, "identifier": "5E1A7C2D", "nonRenewingSubscriptions": [],
         "settings": {"_applicationInternalID": "\(applicationID)", "_storefront": "USA"},
         "products": [
           {"displayPrice": "1.99", "familyShareable": false, "internalID": "4D2C9A11",
            "localizations": [{"description": "A bag of seeds", "displayName": "Seeds", "locale": "en_US"}],
            "productID": "com.example.orchard.seeds", "referenceName": "Seeds", "type": "Consumable"}],
         "subscriptionGroups": []}
        """
    }

    /// Imports the configuration with `applicationID` into a catalog beside it: the run and the catalog's text.
    static func imported(applicationID: String, in dir: TemporaryDirectory) throws -> (run: ProcessResult, catalog: String) {
        let source = dir.write("Products.storekit", configuration(applicationID: applicationID))
        let catalog = dir.file("catalog.yaml")
        return (try iapkit("import", "storekit", source, "-o", catalog), catalog)
    }

    @Test(arguments: ["7C9D2E41-3B6A-4F1D-9E8C-2A5B6C7D8E9F", "orchardapp", "orchard_app_002", "64490 12345", "١٢٣٤٥"])
    func anApplicationIDThatIsNotAnAppleIDIsLeftOutWithAWarning(applicationID: String) throws {
        let dir = TemporaryDirectory()
        let (run, catalog) = try Self.imported(applicationID: applicationID, in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the application ID `\(applicationID)`"), "\(run.stderr)")
        #expect(!(try String(contentsOfFile: catalog, encoding: .utf8)).contains("appId"))
        #expect(try python(CatalogSchemaTests.validateCatalogs, [catalog, Paths.catalogSchema]) == "valid\n")
        let result = try StoreKitImporter().importData(Data(Self.configuration(applicationID: applicationID).utf8), file: "Products.storekit")
        #expect(result.catalog.app.appID == nil)
        #expect(result.notes.filter { $0.contains("application ID") }.count == 1, "\(result.notes)")
    }

    @Test func anAppleIDIsKept() throws {
        let dir = TemporaryDirectory()
        let (run, catalog) = try Self.imported(applicationID: "6449012345", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("application ID"), "\(run.stderr)")
        #expect(try CatalogLoader.load(path: catalog, findings: { _ in }).app.appID == "6449012345")
        #expect(try python(CatalogSchemaTests.validateCatalogs, [catalog, Paths.catalogSchema]) == "valid\n")
    }
}
