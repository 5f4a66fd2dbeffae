/// The identity keys that pick one panel out of those plugged in, and why those: the most
/// stable that tells it apart from every other panel. In order of stability:
///
/// 1. `ID_PATH` alone: the port the panel is plugged into. Two identical panels (one
///    vendor:product, no serial) have different ones, and replugging them in another order
///    keeps each port's screen.
/// 2. the serial, with vendor and product (serials are unique per vendor and product, at best):
///    follows the panel to another port.
/// 3. vendor, product and the kernel's phys: a panel with neither (a uinput panel, a virtual
///    device) has only its phys to tell it apart.
/// 4. vendor and product alone, for a panel without any of those whose model is the only one.
///
/// A key counts only when no other panel has the same values for it; when none does, the
/// panel cannot be told apart (two nodes of one device with the same path, serial and phys).
public struct PanelMatch: Hashable, Sendable {
    /// Which keys the selector carries; each is matched exactly (AND).
    public enum Keys: Hashable, Sendable {
        case idPath(String)
        /// `property` is `ID_SERIAL_SHORT` or `ID_SERIAL`, the one the value came from.
        case serial(String, property: String, vendor: String, product: String, fromUdev: Bool)
        case phys(String, vendor: String, product: String, fromUdev: Bool)
        /// Vendor and product alone: only for a panel with none of the keys above whose model
        /// no other panel shares (a second such panel plugged in later would match too).
        case model(vendor: String, product: String, fromUdev: Bool)
    }

    public var keys: Keys
    /// Why these keys, for the installer: "two panels share 0eef:c000; ID_PATH tells them apart".
    public var reason: String

    public init(keys: Keys, reason: String) {
        (self.keys, self.reason) = (keys, reason)
    }

    /// Why a panel cannot be told apart from another.
    public struct Ambiguity: Error, Hashable, Sendable, CustomStringConvertible {
        /// The indices (into the panels given) of the panels it cannot be told from.
        public var others: [Int]
        public var description: String
    }

    /// The keys that select `panels[index]` and no other of `panels` (every direct-touch panel
    /// plugged in, the panel itself included), or why there are none.
    public static func choose(for index: Int, among panels: [PanelIdentity]) -> Result<PanelMatch, Ambiguity> {
        let panel = panels[index]
        let others = panels.indices.filter { $0 != index }
        let sameModel = others.filter { panels[$0].vendorProduct == panel.vendorProduct }
        /// Why the keys before the one chosen did not do: "it has no ID_PATH and its serial is another panel's too".
        func unusable(idPath: Bool, serial: Bool = false) -> String {
            var reasons: [String] = []
            if idPath {
                reasons.append(panel.idPath == nil ? "it has no ID_PATH" : "its ID_PATH is another panel's too")
            }
            if serial {
                reasons.append(panel.serial == nil ? "no serial" : "its serial is another \(panel.vendorProduct)'s too")
            }
            return reasons.joined(separator: " and ")
        }
        let shared = sameModel.isEmpty
            ? "no other panel is \(panel.vendorProduct)"
            : "\(sameModel.count + 1) panels share \(panel.vendorProduct)"

        if let idPath = panel.idPath {
            let clashes = others.filter { panels[$0].idPath == idPath }
            if clashes.isEmpty {
                let why = sameModel.isEmpty
                    ? "ID_PATH, the port it is plugged into, is the most stable identity (\(shared))"
                    : "\(shared); ID_PATH (the port each is plugged into) tells them apart"
                return .success(PanelMatch(keys: .idPath(idPath), reason: why))
            }
        }
        if let serial = panel.serial, let property = panel.serialProperty {
            let clashes = others.filter {
                panels[$0].serial == serial && panels[$0].vendorProduct == panel.vendorProduct
            }
            if clashes.isEmpty {
                let missing = unusable(idPath: true)
                return .success(PanelMatch(
                    keys: .serial(serial, property: property, vendor: panel.vendor, product: panel.product,
                                  fromUdev: panel.vendorProductFromUdev),
                    reason: "\(shared); \(missing), and its \(property) with vendor and product tells it apart"))
            }
        }
        if let phys = panel.phys {
            let clashes = others.filter { panels[$0].phys == phys && panels[$0].vendorProduct == panel.vendorProduct }
            if clashes.isEmpty {
                let missing = unusable(idPath: true, serial: true)
                    + (panel.idPath == nil && panel.serial == nil ? " (a uinput or virtual panel has only phys)" : "")
                return .success(PanelMatch(
                    keys: .phys(phys, vendor: panel.vendor, product: panel.product, fromUdev: panel.vendorProductFromUdev),
                    reason: "\(shared); \(missing), and its phys with vendor and product tells it apart"))
            }
        }
        if sameModel.isEmpty {
            return .success(PanelMatch(
                keys: .model(vendor: panel.vendor, product: panel.product, fromUdev: panel.vendorProductFromUdev),
                reason: "\(unusable(idPath: true, serial: true)) and no phys; \(shared), so vendor and product tell it apart "
                    + "(a second \(panel.vendorProduct) plugged in later would not be)"))
        }
        let twins = sameModel.filter {
            panels[$0].idPath == panel.idPath && panels[$0].serial == panel.serial && panels[$0].phys == panel.phys
        }
        let clashing = twins.isEmpty ? sameModel : twins
        return .failure(Ambiguity(
            others: clashing,
            description: "\(shared), and none of ID_PATH, serial and phys is both present on this panel and "
                + "different from the other\(clashing.count == 1 ? "'s" : "s'"), so no stable identity tells it apart"))
    }
}
