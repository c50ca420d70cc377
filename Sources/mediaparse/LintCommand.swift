import ArgumentParser
import Foundation
import MediaParse
import MediaParseTools

/// `mediaparse lint`: what a reviewer of a grammar would point out, before it is compiled or measured.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check grammar files: long lines, unused or duplicated rules and lists, vague rule names, a mistyped icu_locale.",
        discussion: """
            Checks every locale with grammar sentences (or those given with --locale), built-in grammars with any --grammars folders on top. Each finding is printed as FILE:LINE:COLUMN: message.

            Exit status: 0 when nothing was found, 1 when something was, 2 when a grammar file cannot be read.
            """
    )

    @Option(help: "A locale to check (repeat for more; default: every locale with grammar sentences).")
    var locale: [String] = []

    @Option(help: ArgumentHelp("A folder of grammar files laid out like Grammars/ over the built-in ones.", valueName: "dir"))
    var grammars: [String] = []

    func run() throws {
        var catalog = GrammarCatalog.builtIn
        var findings: [String] = []
        do {
            for dir in grammars { try catalog.overlay(directory: dir) }
            let locales = locale.isEmpty ? catalog.regionalLocales.filter { catalog.hasSentenceFiles(locale: $0) } : locale
            var printed = Set<String>()
            let lint = GrammarLint(catalog: catalog)
            for l in locales {
                // Region folders share their language's files: a finding there is printed once.
                for f in try lint.check(locale: l) where printed.insert(f.description).inserted {
                    findings.append(f.description)
                }
            }
            for f in findings { print(f) }
            print("\(locales.count) locale\(locales.count == 1 ? "" : "s") checked, \(findings.count) finding\(findings.count == 1 ? "" : "s")")
        } catch let error as GrammarError {
            FileHandle.standardError.write(Data("mediaparse lint: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as UnsupportedLocaleError {
            FileHandle.standardError.write(Data("mediaparse lint: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if !findings.isEmpty { throw ExitCode(1) }
    }
}
