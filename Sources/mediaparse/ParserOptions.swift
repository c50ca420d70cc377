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

    /// The built-in grammars with `--grammars` folders on top.
    ///
    /// - Throws: `GrammarError` naming a folder or file that cannot be used.
    func catalog() throws -> GrammarCatalog {
        var catalog = GrammarCatalog.builtIn
        for dir in grammars { try catalog.overlay(directory: dir) }
        return catalog
    }
}
