import ArgumentParser
import Foundation
import MediaParse
import MediaParseCatalog
import MediaParseTools

/// `mediaparse test`: regression testing of grammars against labelled utterances.
struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run labelled utterances and report what the grammar gets right and wrong.",
        discussion: """
            PATHS are files or folders (default: --corpus, else Corpus in the current folder). It prints first a summary per locale (passed, failed, time), then each failure with the file:line of its case and a diff of what it expects (-) and what the parser gave (+), the request kinds each language covers, and a last line 'N passed, M failed'. --figures adds precision, recall and F1 per intent and field (shown by default for snips, conll and jsonl sets), --coverage the grammar's sentences, rules and list entries no case exercised.

            Formats: corpus is ours (YAML, see Corpus/README.md in the source tree); snips is Snips NLU JSON; conll is CoNLL with BIO labels and '# text =' / '# intent =' comments (as xSID ships); jsonl is one {"text", "intent", "slots": [[label, value], ...]} object a line. Their labels are mapped to the contract's fields (artist to artistName, track, song and podcast to mediaName, playlist to the destination of add requests, genre to genreNames, app to appName); labels without a field are not compared.

            Exit status: 0 when all pass (with --baseline: when no figure fell below the baseline), 1 on failures or regressions, 2 on bad arguments or unreadable files.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case corpus, snips, conll, jsonl
    }

    @Argument(help: "Corpus files or folders.")
    var paths: [String] = []

    @Option(help: ArgumentHelp("The corpus folder to test when no PATHS are given (default: Corpus, in the current folder).", valueName: "dir"))
    var corpus: String?

    @Option(help: "Format of the files.")
    var format: Format = .corpus

    @Option(help: "Locale of snips, conll and jsonl files (corpus files name their own; a jsonl line's \"locale\" key overrides it).")
    var locale = "en-US"

    @Option(help: ArgumentHelp("Compare the figures with this file: only a figure that falls below it fails the run.", valueName: "file.json"))
    var baseline: String?

    @Flag(help: "Write this run's figures to the --baseline file.")
    var updateBaseline = false

    @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "file.xml"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the figures as JSON.", valueName: "file.json"))
    var json: String?

    @OptionGroup var options: ParserOptions

    @Option(help: "Print at most this many failures.")
    var maxFailures = 100

    @Flag(help: "Add the grammar's sentences, rules and list entries that no case exercised.")
    var coverage = false

    @Flag(help: ArgumentHelp("Leave out the grammar coverage (the default; kept for scripts that pass it).", visibility: .hidden))
    var noCoverage = false

    @Flag(help: "Add precision, recall and F1 per locale, intent and field (the default for snips, conll and jsonl sets).")
    var figures = false

    @Flag(help: "Fail when a language with a grammar has no case of a request kind (Corpus/kinds.yaml).")
    var requireKinds = false

    @Flag(help: "Leave out the resolution corpora (resolve/requests.yaml: a catalogue and requests with the item each must find).")
    var skipResolve = false

    func validate() throws {
        if updateBaseline, baseline == nil { throw ValidationError("--update-baseline needs --baseline FILE") }
        if maxFailures < 0 { throw ValidationError("--max-failures takes 0 or more") }
    }

    func run() throws {
        var progress: ProgressBar?
        let cases: [TestCase]
        let tester: CorpusTester
        var kinds: RequestKinds?
        do {
            tester = CorpusTester(catalog: try options.catalog(), cacheCompiledGrammar: true, onCompile: { event in
                progress?.finish()
                CompileNotice.handler?(event)
            })
            if format == .corpus, let table = roots.lazy.compactMap(RequestKinds.find(for:)).first {
                kinds = try RequestKinds(path: table)
            }
            cases = try loadCases(knownKinds: kinds?.ids)
        } catch let error as GrammarError {
            fail("\(error)")
        }
        if cases.isEmpty, format == .corpus, roots.allSatisfy(ResolutionCorpus.isRequestsFile) {
            // Resolution corpora named alone.
            if runResolutionCorpora() { throw ExitCode(1) }
            return
        }
        guard !cases.isEmpty else { fail("no labelled utterances found in \(roots.joined(separator: ", "))") }
        let fileCount = Set(cases.map(\.location.file)).count
        print("mediaparse test: \(cases.count) case\(cases.count == 1 ? "" : "s") from \(fileCount) file\(fileCount == 1 ? "" : "s") in \(roots.joined(separator: ", "))"
              + (kinds.map { " (request kinds: \($0.path))" } ?? ""))

        var run = TestRun()
        let bar = ProgressBar(total: cases.count)
        progress = bar
        do {
            try tester.run(cases, into: &run) { bar.update($0) }
        } catch let error as UnsupportedLocaleError {
            bar.finish()
            fail("\(error)")
        } catch let error as GrammarError {
            bar.finish()
            fail("\(error)")
        }
        bar.finish()

        let report = TestReport(run: run)
        print(report.summaryText(), terminator: "")
        let failures = run.failures
        if !failures.isEmpty {
            print("\nFailures (\(failures.count)):")
            for f in failures.prefix(maxFailures) { print(f.diffReport) }
            if failures.count > maxFailures { print("… and \(failures.count - maxFailures) more (--max-failures)") }
        }
        if figures || format != .corpus { print(report.figuresText(), terminator: "") }
        if coverage { print(report.coverageText(), terminator: "") }
        var kindsMissing = false
        if let kinds {
            let reports = kinds.report(run.outcomes)
            print(kinds.reportText(reports), terminator: "")
            kindsMissing = reports.contains { !$0.missing.isEmpty }
        }

        let resolutionFailed = format == .corpus && !skipResolve ? runResolutionCorpora() : false

        if let junit { try write(report.junitXML(), to: junit) }
        if let json { try write(report.figuresJSON(), to: json) }

        var regressions: [String] = []
        if let baseline {
            if updateBaseline {
                try write(report.figuresJSON(), to: baseline)
                print("\nbaseline written to \(baseline)")
            } else {
                guard let data = FileManager.default.contents(atPath: baseline) else { fail("\(baseline): cannot read the baseline") }
                do {
                    regressions = try report.regressions(against: data)
                } catch {
                    fail("\(baseline): not a baseline written by --update-baseline (\(error))")
                }
                print(regressions.isEmpty ? "\nno figure fell below the baseline (\(baseline))"
                                          : "\nregressions against \(baseline):\n" + regressions.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        print("\(run.outcomes.count - failures.count) passed, \(failures.count) failed")
        var failed = baseline != nil && !updateBaseline ? !regressions.isEmpty : !failures.isEmpty
        if resolutionFailed { failed = true }
        if requireKinds, kindsMissing {
            print("some request kinds have no case (--require-kinds)")
            failed = true
        }
        if failed { throw ExitCode(1) }
    }

    /// Scores every resolution corpus under the roots (or named as a path): top-1, top-5 and notFound
    /// per locale, by trap, and the misses. True when one is below the targets or cannot be run.
    private func runResolutionCorpora() -> Bool {
        var files: [String] = []
        for root in roots {
            if ResolutionCorpus.isRequestsFile(root) { files.append(root) } else { files += ResolutionCorpus.files(under: root) }
        }
        guard !files.isEmpty else { return false }
        let t = ResolutionScore.targets
        print("\nResolution corpora (targets: top-1 \(t.top1), top-5 \(t.top5), absent -> notFound \(t.notFound)):")
        var failed = false
        var misses: [String] = []
        for file in files.sorted() {
            do {
                let corpus = try ResolutionCorpus(path: file)
                let score = try ResolutionScorer.score(corpus, catalog: try options.catalog(), cacheCompiledGrammar: true)
                print((score.meetsTargets ? "  ok   " : "  FAIL ") + score.summaryLine)
                for p in score.problems.prefix(5) { print("       catalogue row skipped: \(p)") }
                if !score.problems.isEmpty { failed = true }
                if !score.meetsTargets { failed = true }
                if figures { for line in score.trapLines { print("     " + line) } }
                misses += score.misses.map(score.missText)
            } catch {
                print("  FAIL \(file): \(error)")
                failed = true
            }
        }
        if !misses.isEmpty {
            print("\nResolution misses (\(misses.count)):")
            for m in misses.prefix(maxFailures) { print(m) }
            if misses.count > maxFailures { print("… and \(misses.count - maxFailures) more (--max-failures)") }
        }
        return failed
    }

    /// What to test: the paths given, else `--corpus`, else `Corpus` here.
    private var roots: [String] { paths.isEmpty ? [corpus ?? "Corpus"] : paths + (corpus.map { [$0] } ?? []) }

    private func loadCases(knownKinds: Set<String>?) throws -> [TestCase] {
        var files: [String] = []
        let extensions: Set<String> = switch format {
        case .corpus: ["yaml", "yml"]
        case .snips: ["json"]
        case .conll: ["conll", "conllu", "bio", "txt", "tsv"]
        case .jsonl: ["jsonl"]
        }
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
                let hint = paths.isEmpty && corpus == nil
                    ? " (run from the source tree, or name the corpus: mediaparse test path/to/Corpus, or --corpus DIR)" : ""
                throw GrammarError("no such file or folder\(hint)", at: SourceLocation(file: root))
            }
            if isDirectory.boolValue {
                for case let f as String in FileManager.default.enumerator(atPath: root) ?? NSEnumerator()
                where extensions.contains((f as NSString).pathExtension)
                    && !(format == .corpus && (RequestKinds.isTableFile(f) || ResolutionCorpus.isResolutionPath(f))) {
                    files.append((root as NSString).appendingPathComponent(f))
                }
            } else if !(format == .corpus && ResolutionCorpus.isRequestsFile(root)) {
                files.append(root)
            }
        }
        var cases: [TestCase] = []
        for file in files.sorted() {
            var loaded: [TestCase]
            switch format {
            case .corpus: loaded = TestCase.cases(of: try CorpusFile(path: file, knownKinds: knownKinds))
            case .snips: loaded = try LabelledSetImporter.snips(path: file, locale: locale)
            case .conll: loaded = try LabelledSetImporter.conll(path: file, locale: locale)
            case .jsonl: loaded = try LabelledSetImporter.jsonLines(path: file, locale: locale)
            }
            for i in loaded.indices {
                loaded[i].appNames += options.appNames
                loaded[i].areaNames += options.areaNames
                loaded[i].deviceNames += options.deviceNames
                loaded[i].userVocabulary += options.userVocabulary
                loaded[i].globalVocabulary += options.globalVocabulary
            }
            cases += loaded
        }
        return cases
    }

    private func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            fail("\(path): cannot write (\(error.localizedDescription))")
        }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("mediaparse test: \(message)\n".utf8))
        Foundation.exit(2)
    }
}
