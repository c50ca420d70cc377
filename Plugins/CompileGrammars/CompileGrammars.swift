import Foundation
import PackagePlugin

/// Compiles every built-in locale's grammar when the package builds (the GrammarPrecompiler tool), into
/// `<locale>.grammar` files that SwiftPM carries as the target's resources: a parser maps its locale's file
/// at start, so no process compiles a built-in grammar. A grammar error fails the build.
@main
struct CompileGrammars: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let grammars = context.package.directoryURL.appending(path: "Grammars")
        let fm = FileManager.default
        // A locale is a folder named language-REGION ("en-US"); "en" and "mul" hold what locales share.
        let locales = try fm.contentsOfDirectory(atPath: grammars.path)
            .filter { $0.contains("-") && !$0.hasPrefix(".") }
            .sorted()
        var inputs: [URL] = []
        if let walker = fm.enumerator(at: grammars, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where ["yaml", "yml"].contains(url.pathExtension) {
                inputs.append(url)
            }
        }
        // The library's sources: the tool hashes them into the fingerprint that keys a compiled grammar, as
        // EmbedGrammars does for the library (the same files, so the keys agree).
        let library = try context.package.targets(named: ["MediaParse"]).first as? SourceModuleTarget
        let sources = (library?.sourceFiles(withSuffix: "swift").map(\.url) ?? []).sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "Compiled")
        return [
            .buildCommand(
                displayName: "Compiling the grammars of \(locales.count) locales",
                executable: try context.tool(named: "GrammarPrecompiler").url,
                arguments: [output.path, grammars.path] + locales + ["--"] + sources.map(\.path),
                inputFiles: inputs.sorted { $0.path < $1.path } + sources,
                outputFiles: locales.map { output.appending(path: "\($0).grammar") }
            )
        ]
    }
}
