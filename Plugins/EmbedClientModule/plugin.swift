import PackagePlugin

/// Embeds the web client module in the bridge at build time: the minified module
/// `web/dist/gestured.min.js` and its source map (both made by `scripts/build-web.sh` and
/// committed), so the installed `gestured-web` serves them with no file beside it and can never
/// serve a module of another version.
@main
struct EmbedClientModule: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "embed-text").url
        let files = [("gestured.min.js", "ClientModuleText.swift", "clientModuleText"),
                     ("gestured.min.js.map", "ClientModuleMapText.swift", "clientModuleMapText")]
        return files.map { file, swiftFile, name in
            let input = context.package.directoryURL.appending(path: "web/dist/\(file)")
            let output = context.pluginWorkDirectoryURL.appending(path: swiftFile)
            return .buildCommand(displayName: "Embedding web/dist/\(file)", executable: tool,
                                 arguments: [input.path(), output.path(), name], inputFiles: [input], outputFiles: [output])
        }
    }
}
