// Compiles the built-in grammar of each locale named into OUTPUT_DIR/<locale>.grammar, when the package
// builds (the CompileGrammars plugin runs it for the MediaParseGrammars target). A parser maps that file
// at start instead of compiling, so no process pays for compiling a built-in grammar.
//
// Usage: GrammarPrecompiler OUTPUT_DIR GRAMMARS_DIR LOCALE… -- LIBRARY_SOURCE.swift…
// The library's sources give the fingerprint its grammars are keyed by (the same as GrammarEmbedder's).
// A grammar error fails the build, with the file, line and column of the grammar.
import Foundation

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("GrammarPrecompiler: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let separator = arguments.firstIndex(of: "--") else {
    fail("usage: GrammarPrecompiler OUTPUT_DIR GRAMMARS_DIR LOCALE… -- LIBRARY_SOURCE.swift…", code: 64)
}
let output = URL(fileURLWithPath: arguments[0], isDirectory: true)
let root = URL(fileURLWithPath: arguments[1], isDirectory: true).standardizedFileURL
let locales = Array(arguments[2..<separator])
let sources = Array(arguments[(separator + 1)...])

// The grammar files, as GrammarEmbedder embeds them in the library.
var files: [(path: String, text: String)] = []
if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) {
    for case let url as URL in walker where url.pathExtension == "yaml" || url.pathExtension == "yml" {
        let path = url.standardizedFileURL.path
        let relative = String(path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            fail("\(path): not UTF-8 text", code: 65)
        }
        files.append((relative, text))
    }
}
embeddedGrammarFiles = files.sorted { $0.path < $1.path }

// FNV-1a over the library's source files (their contents, in path order), as GrammarEmbedder computes it.
var fingerprint: UInt64 = 0xCBF2_9CE4_8422_2325
for path in sources.sorted() where !path.hasSuffix("EmbeddedGrammars.swift") {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)", code: 66) }
    for byte in data {
        fingerprint ^= UInt64(byte)
        fingerprint = fingerprint &* 0x100_0000_01B3
    }
}
compilerFingerprint = fingerprint

do {
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
} catch {
    fail("\(output.path): \(error)", code: 73)
}

/// What each locale gave: its file's size, or the error that stops the build.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Result<Int, Error>]
    init(count: Int) { values = Array(repeating: .success(0), count: count) }
    func set(_ i: Int, _ value: Result<Int, Error>) { lock.withLock { values[i] = value } }
    var all: [Result<Int, Error>] { lock.withLock { values } }
}
let results = Results(count: locales.count)
// Two at a time at most: the larger grammars take several hundred megabytes while they compile.
let lanes = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount, locales.count))
DispatchQueue.concurrentPerform(iterations: lanes) { lane in
    for i in stride(from: lane, to: locales.count, by: lanes) {
        results.set(i, Result { try MediaParser.compileBuiltIn(locale: locales[i], into: output) })
    }
}

var failed = false
for (locale, result) in zip(locales, results.all) {
    switch result {
    case .success(let bytes):
        print("\(locale): \(bytes / 1024) KB")
    case .failure(let error):
        FileHandle.standardError.write(Data("error: \(locale): \(error)\n".utf8))
        failed = true
    }
}
exit(failed ? 1 : 0)
