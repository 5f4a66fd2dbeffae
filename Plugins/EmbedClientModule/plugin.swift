import PackagePlugin

/// Embeds the web client module (`web/gestured.js`) in the bridge at build time, so the
/// installed `gestured-web` serves it with no file beside it and can never serve a module of
/// another version.
@main
struct EmbedClientModule: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "web/gestured.js")
        let output = context.pluginWorkDirectoryURL.appending(path: "ClientModuleText.swift")
        return [.buildCommand(displayName: "Embedding web/gestured.js",
                              executable: try context.tool(named: "embed-text").url,
                              arguments: [input.path(), output.path(), "clientModuleText"],
                              inputFiles: [input], outputFiles: [output])]
    }
}
