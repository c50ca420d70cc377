// Compiles the built-in grammar of each locale named into OUTPUT_DIR/<locale>.grammar, when the package
// builds (the CompileGrammars plugin runs it for the MediaParseGrammars target). A parser maps that file
// at start instead of compiling, so no process pays for compiling a built-in grammar.
//
// Usage: GrammarPrecompiler OUTPUT_DIR LOCALE…
// A grammar error fails the build, with the file, line and column of the grammar.
import Foundation
import MediaParse

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: GrammarPrecompiler OUTPUT_DIR LOCALE…\n".utf8))
    exit(64)
}
let output = URL(fileURLWithPath: arguments[1], isDirectory: true)
let locales = Array(arguments.dropFirst(2))
do {
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
} catch {
    FileHandle.standardError.write(Data("GrammarPrecompiler: \(output.path): \(error)\n".utf8))
    exit(73)
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
let lanes = min(2, ProcessInfo.processInfo.activeProcessorCount, locales.count)
DispatchQueue.concurrentPerform(iterations: lanes) { lane in
    for i in stride(from: lane, to: locales.count, by: lanes) {
        let result = Result { try MediaParser.compileBuiltIn(locale: locales[i], into: output) }
        results.set(i, result)
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
