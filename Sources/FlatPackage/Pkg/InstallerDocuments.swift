import IAPCore
/// The Distribution and PackageInfo documents `productbuild --content` embeds, with its exact layout: 4-space
/// indentation, lower-case `utf-8` declaration, no trailing newline.
public enum InstallerDocuments {
    public static let generator = "iapkit-0.1.0"

    public static func distribution(identifier: String, installKBytes: UInt64) -> String {
        let id = escape(identifier)
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <installer-gui-script minSpecVersion="1">
                <pkg-ref id="\(id)">
                    <bundle-version/>
                </pkg-ref>
                <options customize="never" require-scripts="false" hostArchitectures="x86_64,arm64"/>
                <choices-outline>
                    <line choice="default">
                        <line choice="\(id)"/>
                    </line>
                </choices-outline>
                <choice id="default"/>
                <choice id="\(id)" visible="false">
                    <pkg-ref id="\(id)"/>
                </choice>
                <pkg-ref id="\(id)" version="0" onConclusion="none" installKBytes="\(installKBytes)" updateKBytes="0">#\(id).pkg</pkg-ref>
            </installer-gui-script>
            """
    }

    public static func packageInfo(identifier: String, numberOfFiles: Int, installKBytes: UInt64) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <pkg-info overwrite-permissions="true" relocatable="false" identifier="\(escape(identifier))" postinstall-action="none" version="0" format-version="2" generator-version="\(generator)" auth="root">
            <payload numberOfFiles="\(numberOfFiles)" installKBytes="\(installKBytes)"/>
            <bundle-version/>
            <upgrade-bundle/>
            <update-bundle/>
            <atomic-update-bundle/>
            <strict-identifier/>
            <relocate/>
        </pkg-info>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;")
            .replacingAll(">", with: "&gt;").replacingAll("\"", with: "&quot;")
    }
}
