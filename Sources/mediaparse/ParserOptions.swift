import Foundation
import ArgumentParser
import MediaParse

/// The options that shape a parser, shared by `mediaparse` (parse) and `mediaparse test` through
/// `@OptionGroup`: the caller's app names, vocabulary files and extra grammar folders.
struct ParserOptions: ParsableArguments {
    @Option(name: .customLong("app-name"), help: "A name of the calling app (repeat for its alternative names).")
    var appNames: [String] = []

    @Option(name: .customLong("area"), help: "A room or place of the caller's home (repeat for more): \"Emma's room\".")
    var areaNames: [String] = []

    @Option(name: .customLong("device"), help: "A player of the caller's (repeat for more): \"Kitchen HomePod\".")
    var deviceNames: [String] = []

    @Option(name: .customLong("user-vocabulary"),
            help: ArgumentHelp("User vocabulary: a JSON object of INVocabularyStringType names to ordered lists of strings, most important first.", valueName: "file.json"))
    var userVocabulary: [String] = []

    @Option(name: .customLong("global-vocabulary"),
            help: ArgumentHelp("Global vocabulary: an AppIntentVocabulary.plist (XML or binary).", valueName: "file.plist"))
    var globalVocabulary: [String] = []

    @Option(help: ArgumentHelp("A folder of grammar files laid out like Grammars/ (DIR/en/*.yaml) that add to or replace the built-in ones.", valueName: "dir"))
    var grammars: [String] = []

    @Option(help: ArgumentHelp("The day that years said relative to today count from (\"songs from last year\"); default: today.",
                               valueName: "YYYY-MM-DD"))
    var today: Day?

    /// The built-in grammars with `--grammars` folders on top.
    ///
    /// - Throws: `GrammarError` naming a folder or file that cannot be used.
    func catalog() throws -> GrammarCatalog {
        var catalog = GrammarCatalog.builtIn
        for dir in grammars { try catalog.overlay(directory: dir) }
        return catalog
    }
}

extension ParserOptions {
    /// A parser of `locale` with these options (the compiled grammar cached on disk, as a CLI may), its
    /// vocabulary files loaded.
    ///
    /// - Throws: `UnsupportedLocaleError`, or `GrammarError` naming the file that is wrong.
    func parser(locale: String) throws -> MediaParser {
        let parser = try MediaParser(locale: locale, appNames: appNames, areaNames: areaNames, deviceNames: deviceNames,
                                     catalog: try catalog(), cacheCompiledGrammar: true, referenceDate: today?.date,
                                     onCompile: CompileNotice.handler)
        for file in userVocabulary { parser.vocabulary.setUserVocabulary(try UserVocabulary(contentsOfFile: file)) }
        for file in globalVocabulary { parser.vocabulary.loadGlobal(try GlobalVocabulary(contentsOfFile: file)) }
        return parser
    }

    /// `parser(locale:)`, or the contract's exit: status 64 for an unsupported locale, 65 for a bad file.
    func parserOrExit(locale: String) -> MediaParser {
        do {
            return try parser(locale: locale)
        } catch let error as UnsupportedLocaleError {
            exitWithMessage("mediaparse: \(error)", status: ExitStatus.usage)
        } catch {
            exitWithMessage("mediaparse: \(error)", status: ExitStatus.dataError)
        }
    }
}

/// Exit statuses of the contract.
enum ExitStatus {
    static let usage: Int32 = 64       // bad arguments, unsupported locale
    static let dataError: Int32 = 65   // a grammar or vocabulary file is wrong
    static let ioError: Int32 = 74     // the output cannot be written (a full disk)
}

/// Writes `message` on standard error and ends the process.
func exitWithMessage(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

/// The locales of the built-in grammars, for help texts (read from the catalog, never written by hand).
enum LocaleHelp {
    static var available: String {
        let catalog = GrammarCatalog.builtIn
        let locales = catalog.regionalLocales
        let parsing = locales.filter { catalog.hasSentenceFiles(locale: $0) }
        let numbersOnly = locales.filter { !parsing.contains($0) }
        var text = "Locales: " + parsing.joined(separator: ", ") + "."
        if !numbersOnly.isEmpty {
            text += " Numbers, dates and durations only (no grammar yet): " + numbersOnly.joined(separator: ", ") + "."
        }
        return text
    }
}

/// A calendar day given on the command line ("2026-06-15"), at noon UTC so that every time zone sees the
/// same day.
struct Day: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: y, month: m, day: d, hour: 12)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        self.date = date
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
