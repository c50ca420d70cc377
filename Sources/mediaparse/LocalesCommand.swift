import ArgumentParser
import Foundation
import MediaParse
import MediaParseTools

/// `mediaparse locales`: the locales there are and what their grammars cover.
struct Locales: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locales",
        abstract: "List the locales and what each grammar covers.",
        discussion: "With --markdown, prints the table of README.md (run from the source tree, so that Corpus/ is counted)."
    )

    @Option(help: ArgumentHelp("A folder of grammar files laid out like Grammars/ over the built-in ones.", valueName: "dir"))
    var grammars: [String] = []

    @Flag(help: "Print the README's Markdown table (with corpus sizes from --corpus).")
    var markdown = false

    @Flag(help: "Print JSON: an array of {locale, folders, sentences, intents}.")
    var json = false

    @Option(help: ArgumentHelp("The corpus folder counted by --markdown.", valueName: "dir"))
    var corpus = "Corpus"

    func run() throws {
        var catalog = GrammarCatalog.builtIn
        let summaries: [LocaleSummary]
        do {
            for dir in grammars { try catalog.overlay(directory: dir) }
            summaries = try catalog.localeSummaries()
        } catch {
            exitWithMessage("mediaparse locales: \(error)", status: ExitStatus.dataError)
        }
        if markdown {
            print(LocaleTable.markdown(summaries, corpus: try LocaleTable.corpusSizes(under: corpus)), terminator: "")
        } else if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(summaries), as: UTF8.self))
        } else {
            for s in summaries {
                let what = s.sentences == 0 ? "numbers, dates and durations only" : "\(s.sentences) sentences: " + s.intents.map(\.rawValue).joined(separator: " ")
                print("\(s.locale.padding(toLength: 7, withPad: " ", startingAt: 0))  \(what)")
            }
        }
    }
}
