import ArgumentParser
import Foundation
import MediaParse
import MediaParseCatalog

/// Where a catalogue comes from: a SQLite file made by `mediaparse catalog import`, or a JSON Lines or
/// CSV file read into memory. Shared by `resolve`, `serve` and `bench`.
struct CatalogOptions: ParsableArguments {
    @Option(name: .customLong("catalog"),
            help: ArgumentHelp("The app's catalogue: a SQLite file from `mediaparse catalog import`, or a .jsonl or .csv file read into memory.", valueName: "file"))
    var path: String?

    /// Opens the catalogue, reporting bad rows of a JSON Lines or CSV file on standard error.
    func open(locale: String, catalog: GrammarCatalog) throws -> Catalog? {
        guard let path else { return nil }
        let lower = path.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".csv") {
            let (c, summary) = try Catalog.load(file: path, locale: locale, catalog: catalog)
            for p in summary.problems.prefix(20) { FileHandle.standardError.write(Data("mediaparse: \(p) (row skipped)\n".utf8)) }
            if summary.problems.count > 20 {
                FileHandle.standardError.write(Data("mediaparse: … and \(summary.problems.count - 20) more rows skipped\n".utf8))
            }
            return c
        }
        return try Catalog.open(path: path, readOnly: true, catalog: catalog)
    }
}

/// `mediaparse resolve`: parse each utterance and resolve it against the app's catalogue.
struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Parse utterances and resolve them against the app's catalogue.",
        discussion: """
            Reads one utterance per line, like the parse command, and writes its result with a "resolution": the items it may mean, best first (the first is the one to play, the rest alternatives), or "notFound": true with the closest "nearMisses". Results that ask for nothing a catalogue holds (commands, "like this song") have no resolution.

            Example:
              echo "play hello by adele" | mediaparse resolve --catalog items.jsonl
            """
    )

    @Option(help: ArgumentHelp("The locale, as for the parse command.", valueName: "locale"))
    var locale = "en-US"

    @OptionGroup var catalogOptions: CatalogOptions

    @Option(help: ArgumentHelp("Give up to N alternatives after the first item.", valueName: "n"))
    var alternatives = 4

    @Flag(help: "Indent the JSON.")
    var pretty = false

    @OptionGroup(title: "Parser options") var options: ParserOptions

    func validate() throws {
        guard catalogOptions.path != nil else { throw ValidationError("resolve needs --catalog FILE (a SQLite catalogue, or a .jsonl or .csv file)") }
        guard alternatives >= 0 else { throw ValidationError("--alternatives takes a number of 0 or more") }
    }

    func run() throws {
        let parser = options.parserOrExit(locale: locale)
        let resolver: Resolver
        do {
            guard let catalog = try catalogOptions.open(locale: parser.locale, catalog: try options.catalog()) else { return }
            resolver = Resolver(catalog: catalog)
        } catch {
            exitWithMessage("mediaparse: \(error)", status: ExitStatus.dataError)
        }
        var reader = LineReader(fd: 0)
        var output = OutputBuffer()
        while let line = reader.next(beforeBlocking: { output.flush() }) {
            var bytes = line.bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            guard let text = String(validating: bytes, as: UTF8.self), !line.isCut else {
                var result = ParseResult(utterance: String(decoding: bytes, as: UTF8.self), locale: parser.locale, intent: nil)
                result.error = line.isCut ? "line too long; not parsed" : "the line is not valid UTF-8 (\(line.length) bytes); not parsed"
                output.write(result.jsonLine(pretty: pretty))
                continue
            }
            // The readings as likely as the first are resolved too; the parse shows the first alone.
            var result = parser.parse(text, alternatives: Resolver.readingsWanted)
            do {
                result.resolution = try resolver.resolve(result, alternatives: alternatives)
            } catch {
                result.error = "could not resolve: \(error)"
            }
            result.alternatives = nil
            output.write(result.jsonLine(pretty: pretty))
        }
        output.flush()
    }
}

/// `mediaparse catalog`: build and inspect the SQLite catalogue.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Build the app's catalogue as a SQLite file (import) and count it (stats).",
        subcommands: [Import.self, Stats.self, Keys.self]
    )

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import JSON Lines or CSV rows into a SQLite catalogue (created when missing; an item with the same identifier is replaced).",
            discussion: "Bad rows are reported with file:line and skipped; the others are imported, all in one transaction, so an interrupted import leaves the catalogue as it was."
        )

        @Argument(help: ArgumentHelp("Catalogue rows: .jsonl (JSON Lines) or .csv files.", valueName: "file"))
        var files: [String]

        @Option(help: ArgumentHelp("The SQLite catalogue to write.", valueName: "catalog.sqlite"))
        var into: String

        @Option(help: ArgumentHelp("The locale whose rules make the keys of items without a language (a new catalogue only).", valueName: "locale"))
        var locale = "en-US"

        @Option(help: ArgumentHelp("A folder of grammar files over the built-in ones (for `resolve:` rules).", valueName: "dir"))
        var grammars: [String] = []

        func run() throws {
            var grammarCatalog = GrammarCatalog.builtIn
            do {
                for dir in grammars { try grammarCatalog.overlay(directory: dir) }
                let catalog = try Catalog.open(path: into, create: true, locale: locale, catalog: grammarCatalog)
                var skipped = 0
                let started = Date()
                for file in files {
                    let summary = try catalog.importFile(file)
                    for p in summary.problems { FileHandle.standardError.write(Data("mediaparse: \(p) (row skipped)\n".utf8)) }
                    skipped += summary.problems.count
                    FileHandle.standardError.write(Data("\(file): \(summary.imported) items imported (\(summary.replaced) replaced), \(summary.problems.count) rows skipped\n".utf8))
                }
                let stats = try catalog.stats()
                FileHandle.standardError.write(Data(String(format: "%@: %d items in all, %.1f s\n", into, stats.items, Date().timeIntervalSince(started)).utf8))
                if skipped > 0 { throw ExitCode(ExitStatus.dataError) }
            } catch let error as ExitCode {
                throw error
            } catch {
                exitWithMessage("mediaparse: \(error)", status: ExitStatus.dataError)
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count a SQLite catalogue's items by type (JSON).")

        @Argument(help: ArgumentHelp("The SQLite catalogue.", valueName: "catalog.sqlite"))
        var file: String

        func run() throws {
            do {
                let stats = try Catalog.open(path: file, readOnly: true).stats()
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                print(String(decoding: try encoder.encode(stats), as: UTF8.self))
            } catch {
                exitWithMessage("mediaparse: \(error)", status: ExitStatus.dataError)
            }
        }
    }
}

extension CatalogCommand {
    /// `mediaparse catalog keys`: the name keys of each line, as resolve compares them (for writing a
    /// language's `resolve:` rules).
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Print the name keys of each line of standard input: the words and sound-alike keys resolve compares."
        )

        @Option(help: ArgumentHelp("The locale whose rules make the keys.", valueName: "locale"))
        var locale = "en-US"

        @Option(help: ArgumentHelp("A folder of grammar files over the built-in ones (for `resolve:` rules).", valueName: "dir"))
        var grammars: [String] = []

        func run() throws {
            var catalog = GrammarCatalog.builtIn
            do {
                for dir in grammars { try catalog.overlay(directory: dir) }
                let keys = try NameKeyPrinter(locale: locale, catalog: catalog)
                while let line = readLine() { print(keys.describe(line)) }
            } catch {
                exitWithMessage("mediaparse: \(error)", status: ExitStatus.dataError)
            }
        }
    }
}
