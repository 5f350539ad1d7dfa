import IAPCatalog
import IAPCore

/// Where a product is sold: explicit territories (ISO 3166-1 alpha-3), and whether new territories are added.
public struct AvailabilityRecord: Sendable, Equatable {
    public var territories: [String]
    public var availableInNewTerritories: Bool

    public init(territories: [String], availableInNewTerritories: Bool) {
        self.territories = territories.sorted()
        self.availableInNewTerritories = availableInNewTerritories
    }

    /// Sold nowhere: what App Store Connect holds for a product whose availability was never set, and for one
    /// removed from sale. The two are one state to the catalog (`availability: {territories: []}`).
    public static let nowhere = AvailabilityRecord(territories: [], availableInNewTerritories: false)
}
