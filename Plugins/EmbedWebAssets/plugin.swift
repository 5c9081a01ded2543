import Foundation
import PackagePlugin

/// Compiles the web UI in `Web/` into the target that uses this plugin, so
/// the installed hub serves it with nothing on disk to lose or tamper with.
@main
struct EmbedWebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "Web")
        var inputs: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: web, includingPropertiesForKeys: [.isRegularFileKey]) {
            while let url = enumerator.nextObject() as? URL {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    inputs.append(url)
                }
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedWebFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Web/ into \(target.name)",
                executable: try context.tool(named: "hearth-embed-web").url,
                arguments: [web.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
