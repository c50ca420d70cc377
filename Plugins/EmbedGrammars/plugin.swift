import Foundation
import PackagePlugin

/// Compiles the package's `Grammars/` folder into the MediaParse target as Swift source, so the grammars
/// ship inside every build (no resource bundle to lose when the binary is copied elsewhere).
@main
struct EmbedGrammars: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let grammars = context.package.directoryURL.appending(path: "Grammars")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedGrammars.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: grammars, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where ["yaml", "yml"].contains(url.pathExtension) {
                inputs.append(url)
            }
        }
        // The library's own sources, hashed into a fingerprint that keys the on-disk grammar cache: a new
        // build of the compiler never reads a grammar compiled by an older one.
        let sources = ((target as? SourceModuleTarget)?.sourceFiles(withSuffix: "swift").map(\.url) ?? [])
            .sorted { $0.path < $1.path }
        return [
            .buildCommand(
                displayName: "Embedding grammars from \(grammars.path)",
                executable: try context.tool(named: "GrammarEmbedder").url,
                arguments: [grammars.path, output.path] + sources.map(\.path),
                inputFiles: inputs.sorted { $0.path < $1.path } + sources,
                outputFiles: [output]
            )
        ]
    }
}
