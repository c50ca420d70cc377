import ArgumentParser
import Foundation
import MediaParse
import MediaParseCatalog
import MediaParseTools

/// `mediaparse bench`: speed and memory of the parser on a fixed utterance mix, against ICU alone.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure parse rate, latency, start-up and memory (use a release build).",
        discussion: """
            Utterances come from --utterances FILE, else Benchmarks/<locale>.txt (a fixed, committed mix, found in the current folder), else the texts of the locale's corpus (<corpus>/<locale>/*.yaml, --corpus DIR, default Corpus); the first line says which. From a copied binary outside the source tree, give --utterances or --corpus. The floor is ICU alone (matching-form folding plus word breaking, iterator reused) over the same utterances in the same run; the parser's cost is reported as a multiple of it.
            """
    )

    @Option(help: "Locale to measure.")
    var locale = "en-US"

    @Option(help: ArgumentHelp("Utterances, one a line (default: Benchmarks/<locale>.txt).", valueName: "file"))
    var utterances: String?

    @Option(help: ArgumentHelp("The corpus folder whose <locale>/*.yaml texts are the mix when there is no Benchmarks/<locale>.txt (default: Corpus).", valueName: "dir"))
    var corpus = "Corpus"

    @Option(help: "Timed passes over the mix; medians are reported.")
    var iterations = 7

    @Flag(help: "Skip the measurements with 10,000 user and 100,000 global vocabulary entries.")
    var noVocabulary = false

    @Flag(help: "Skip the end-to-end CLI measurement.")
    var noCLI = false

    @Option(help: ArgumentHelp("Grammar folders laid out like Grammars/ over the built-in ones (to measure a grammar being written).", valueName: "dir"))
    var grammars: [String] = []

    @Flag(help: "Print the figures as one JSON object (rates in utterances/s, times in seconds) instead of the table.")
    var json = false

    @Option(help: ArgumentHelp("Measure resolve alone instead: a generated catalogue of N items written as JSON Lines, imported into SQLite (timed), then 2,000 requests resolved on one thread in a new process (p50, p99, its memory).", valueName: "n"))
    var catalog: Int?

    /// The second half of `--catalog N`, run in a process of its own so that its memory is the resolver's.
    @Option(help: .hidden)
    var resolveCatalog: String?

    /// `--catalog N`: import and resolve figures of a generated catalogue.
    func benchCatalog(items: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mediaparse-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("catalog.jsonl").path, db = dir.appendingPathComponent("catalog.sqlite").path
        print("mediaparse bench --catalog: \(items) generated items, \(locale)")
        StatusLine.show("writing \(items) items as JSON Lines")
        try CatalogBenchmark.writeCatalog(count: items, to: file)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        StatusLine.show("importing \(items) items")
        var summary = ImportSummary()
        let importTime = try Benchmark.time {
            let c = try Catalog.open(path: db, create: true, locale: locale)
            summary = try c.importFile(file)
        }
        StatusLine.clear()
        let dbBytes = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
        print("import".padding(toLength: 46, withPad: " ", startingAt: 0)
              + String(format: "%.1f s for %d items (%.0f items/s); JSON Lines %.0f MB, SQLite %.0f MB", importTime, summary.imported,
                       Double(summary.imported) / importTime, Double(bytes) / 1e6, Double(dbBytes) / 1e6))
        // Resolving in a new process: its memory is the resolver's and the catalogue's alone.
        guard let me = Bundle.main.executablePath else { return }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: me)
        child.arguments = ["bench", "--resolve-catalog", db, "--catalog", String(items), "--locale", locale]
        try child.run()
        child.waitUntilExit()
    }

    /// Resolves 2,000 requests against the catalogue at `db` (made by `--catalog N`) and prints the figures.
    func resolveCatalog(at db: String, items: Int) throws {
        let requests = CatalogBenchmark.requests(count: 2_000, catalogSize: items, locale: locale)
        // Making the requests walks the generated catalogue; what it allocated goes back to the system
        // before the resolver's memory is counted.
        CatalogBenchmark.returnFreedMemory()
        let before = CatalogBenchmark.residentMemory()
        let resolver = Resolver(catalog: try Catalog.open(path: db, readOnly: true))
        StatusLine.show("resolving \(requests.count) requests")
        _ = try resolver.resolve(requests[0])  // the language's key maker, made once
        var times: [Double] = []
        var byKind: [String: [Double]] = [:]
        var found = 0
        for r in requests {
            let start = DispatchTime.now().uptimeNanoseconds
            let resolution = try resolver.resolve(r)
            let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            times.append(t)
            byKind[CatalogBenchmark.kind(of: r), default: []].append(t)
            if resolution?.items.isEmpty == false { found += 1 }
        }
        StatusLine.clear()
        times.sort()
        let p50 = times[times.count / 2], p99 = times[min(times.count - 1, times.count * 99 / 100)]
        print("resolve, 1 thread".padding(toLength: 46, withPad: " ", startingAt: 0)
              + String(format: "p50 %.2f ms, p99 %.2f ms, max %.1f ms (%d requests, %d found)", p50 * 1e3, p99 * 1e3, times.last! * 1e3, times.count, found))
        for (kind, list) in byKind.sorted(by: { $0.key < $1.key }) {
            let l = list.sorted()
            print(("  " + kind).padding(toLength: 46, withPad: " ", startingAt: 0)
                  + String(format: "p50 %.2f ms, p99 %.2f ms (%d)", l[l.count / 2] * 1e3, l[min(l.count - 1, l.count * 99 / 100)] * 1e3, l.count))
        }
        let after = CatalogBenchmark.residentMemory()
        print("memory of the resolving process".padding(toLength: 46, withPad: " ", startingAt: 0)
              + String(format: "resident %.0f MB after resolving (%.0f MB before the catalogue was opened)",
                       Double(after) / 1e6, Double(before) / 1e6))
    }

    func run() throws {
        if let resolveCatalog, let catalog { return try self.resolveCatalog(at: resolveCatalog, items: catalog) }
        if let catalog {
            guard catalog >= 100 else { throw ValidationError("--catalog takes a number of items, 100 or more") }
            return try benchCatalog(items: catalog)
        }
        var path = utterances ?? "Benchmarks/\(locale).txt"
        var mix: [String]
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            mix = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        } else if utterances == nil, case let folder = (corpus as NSString).appendingPathComponent(locale),
                  case let files = CorpusFile.files(under: folder), !files.isEmpty {
            // No committed mix: the locale's own corpus, every utterance of its tests.
            path = folder
            mix = try files.flatMap { try CorpusFile(path: $0).cases.map(\.text) }
        } else if let utterances {
            throw ValidationError("cannot read \(utterances)")
        } else {
            throw ValidationError("cannot read \(path) nor a corpus in \(corpus)/\(locale): run from the source tree, or give --utterances FILE (one utterance a line) or --corpus DIR")
        }
        guard !mix.isEmpty else { throw ValidationError("no utterances in \(path)") }
        var figures: [String: Double] = ["utterances": Double(mix.count), "iterations": Double(iterations)]
        func row(_ name: String, _ value: String, _ keyed: [String: Double] = [:]) {
            StatusLine.clear()
            figures.merge(keyed) { $1 }
            if !json { print(name.padding(toLength: 46, withPad: " ", startingAt: 0) + value) }
        }
        let host = ProcessInfo.processInfo
        if !json { print("mediaparse bench: \(mix.count) utterances from \(path), \(iterations) passes, medians; "
              + "\(host.activeProcessorCount) cores, \(host.physicalMemory / 1_073_741_824) GiB") }

        StatusLine.show("measuring the ICU floor")
        let floor = try Benchmark.icuFloor(locale: locale, utterances: mix, iterations: iterations)
        row("ICU floor (fold + word break), 1 thread", String(format: "%.0f utterances/s (%.2f µs each)", floor, 1e6 / floor), ["icuFloorRate": floor])

        var catalog = GrammarCatalog.builtIn
        for dir in grammars { try catalog.overlay(directory: dir) }
        // A grammar compiled (a cold cache) makes start-up seconds instead of milliseconds: counted, and said.
        var compiled = 0
        let notice = CompileNotice.handler
        let onCompile: (GrammarCompilation) -> Void = { event in
            if case .started = event { compiled += 1; StatusLine.clear() }
            notice?(event)
        }
        func compiledNote(_ n: Int) -> String {
            n == 0 ? "" : " (\(n) grammar\(n == 1 ? "" : "s") compiled: the disk cache was cold; run again for the cached figure)"
        }
        StatusLine.show("measuring start-up, \(locale)")
        _ = try MediaParser(locale: locale, catalog: catalog, cacheCompiledGrammar: true, onCompile: onCompile)
        let startup = try Benchmark.startup(locale: locale, catalog: catalog, repeats: 5)
        row("start-up, \(locale)", String(format: "%.1f ms", startup * 1000) + " (compiled grammar read from its file)", ["startup": startup])
        let all = GrammarCatalog.builtIn.regionalLocales
        var failed: [String] = []
        MediaParser.forgetRecentGrammars()
        compiled = 0
        StatusLine.show("measuring start-up, all \(all.count) locales")
        // Each locale timed on its own too: the slowest one is what an app that embeds that language waits.
        var slowest = (locale: "", seconds: 0.0)
        let allStartup = Benchmark.time {
            for l in all {
                let seconds = Benchmark.time {
                    do { _ = try MediaParser(locale: l, cacheCompiledGrammar: true, onCompile: onCompile) } catch { failed.append("\(l): \(error)") }
                }
                if seconds > slowest.seconds { slowest = (l, seconds) }
            }
        }
        for f in failed { FileHandle.standardError.write(Data("mediaparse bench: locale \(f)\n".utf8)) }
        let allCompiled = compiled
        row("start-up, all \(all.count) locales", String(format: "%.1f ms", allStartup * 1000) + " (slowest: \(slowest.locale), " + String(format: "%.1f ms)", slowest.seconds * 1000)
            + compiledNote(allCompiled),
            ["startupAllLocales": allStartup, "startupAllLocalesCompiled": Double(allCompiled), "startupSlowestLocale": slowest.seconds])

        let parser = try MediaParser(locale: locale, catalog: catalog, cacheCompiledGrammar: true)
        let size = parser.grammarSize
        row("grammar, \(locale)", "\(size.sentences) sentences; automaton of \(size.states) states, \(size.wordEdges) word edges, \(size.slotEdges) slot edges")
        StatusLine.show("measuring the parse rate (\(iterations) passes)")
        let plain = Benchmark.parseRate(parser, utterances: mix, iterations: iterations)
        row("parse, 1 thread", String(format: "%.0f utterances/s = %.1f× the ICU floor", plain.rate, floor / plain.rate), ["parseRate": plain.rate])
        row("latency p50 / p99", String(format: "%.1f µs / %.1f µs", plain.p50 * 1e6, plain.p99 * 1e6), ["latencyP50": plain.p50, "latencyP99": plain.p99])

        StatusLine.show("measuring the parse rate with every sentence written twice")
        let doubled = try MediaParser(locale: locale, catalog: Benchmark.catalogWithSentencesDoubled(locale: locale), cacheCompiledGrammar: true,
                                      onCompile: onCompile)
        let d = Benchmark.parseRate(doubled, utterances: mix, iterations: max(iterations / 2, 1))
        row("parse, every sentence written twice", String(format: "%.0f utterances/s (%.2f of the rate above)", d.rate, d.rate / plain.rate), ["parseRateSentencesDoubled": d.rate])

        if !noVocabulary {
            StatusLine.show("measuring with 10,000 user and 100,000 global vocabulary entries")
            let (user, global) = Benchmark.syntheticVocabulary(user: 10_000, global: 100_000)
            let withVocabulary = try MediaParser(locale: locale, catalog: catalog, cacheCompiledGrammar: true)
            let load = Benchmark.time {
                withVocabulary.vocabulary.setUserVocabulary(user)
                withVocabulary.vocabulary.loadGlobal(global)
            }
            row("vocabulary 10k user + 100k global: load", String(format: "%.0f ms (index build; file reading not included)", load * 1000), ["vocabularyLoad": load])
            let v = Benchmark.parseRate(withVocabulary, utterances: mix, iterations: iterations)
            row("parse with that vocabulary, 1 thread", String(format: "%.0f utterances/s (%.2f of the rate without)", v.rate, v.rate / plain.rate), ["parseRateWithVocabulary": v.rate])
        }
        row("peak memory (this process, all of the above)", String(format: "%.0f MB", Double(Benchmark.peakMemory()) / 1e6), ["peakMemoryBytes": Double(Benchmark.peakMemory())])

        if !noCLI, let me = Bundle.main.executablePath {
            StatusLine.show("measuring the CLI end to end")
            var lines: [String] = []
            while lines.count < 20_000 { lines += mix }
            let input = Data((lines.joined(separator: "\n") + "\n").utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: me)
            process.arguments = ["--locale", locale]
            let stdin = Pipe(), stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            let t = try Benchmark.time {
                try process.run()
                DispatchQueue.global().async {
                    stdin.fileHandleForWriting.write(input)
                    try? stdin.fileHandleForWriting.close()
                }
                _ = stdout.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
            }
            let threads = Parse.defaultJobs  // the CLI runs with its default `--jobs`
            row("CLI end to end (JSON out, start-up included)", String(format: "%.0f lines/s (%d lines in %.2f s, %d threads)", Double(lines.count) / t, lines.count, t, threads), ["cliRate": Double(lines.count) / t])
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
