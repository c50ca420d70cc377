// What the library's build keys its grammars by, read the same way by both build tools: GrammarEmbedder
// (which embeds the grammar files in the library) and GrammarPrecompiler (which compiles them into the files
// a parser maps at start; Sources/GrammarPrecompiler holds a link to this file). A compiled grammar is found
// again only if the two agree byte for byte, so there is one copy of this code.
import Foundation

/// A file a build tool could not read: the message to print and the exit code to end with.
struct UnreadableInput: Error {
    let message: String
    let code: Int32
}

/// Every grammar file (`.yaml`, `.yml`) under `root`: its path relative to `root` and its text, in path order.
func grammarFiles(under root: URL) throws(UnreadableInput) -> [(path: String, text: String)] {
    var files: [(path: String, text: String)] = []
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    for case let url as URL in walker where url.pathExtension == "yaml" || url.pathExtension == "yml" {
        let path = url.standardizedFileURL.path
        let relative = String(path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw UnreadableInput(message: "\(path): not UTF-8 text", code: 65)
        }
        files.append((relative, text))
    }
    return files.sorted { $0.path < $1.path }
}

/// FNV-1a over the library's source files (their contents, in path order), the generated
/// EmbeddedGrammars.swift left out: the `compilerFingerprint` that keys every compiled grammar, so that a
/// library built from other sources never reads a grammar an older one compiled.
func libraryFingerprint(of sources: [String]) throws(UnreadableInput) -> UInt64 {
    var fingerprint: UInt64 = 0xCBF2_9CE4_8422_2325
    for path in sources.sorted() where !path.hasSuffix("EmbeddedGrammars.swift") {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UnreadableInput(message: "cannot read \(path)", code: 66)
        }
        for byte in data {
            fingerprint ^= UInt64(byte)
            fingerprint = fingerprint &* 0x100_0000_01B3
        }
    }
    return fingerprint
}
