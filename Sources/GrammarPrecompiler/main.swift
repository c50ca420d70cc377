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

// The grammar files and the library's fingerprint, read as GrammarEmbedder reads them (LibraryInputs.swift).
do {
    embeddedGrammarFiles = try grammarFiles(under: root)
    compilerFingerprint = try libraryFingerprint(of: sources)
} catch {
    fail(error.message, code: error.code)
}

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
