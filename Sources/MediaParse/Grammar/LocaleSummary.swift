import Foundation

/// What the grammars offer for one locale: for the CLI's help, `GET /locales` and the README's table of
/// locales, which are all made from this (never written by hand).
public struct LocaleSummary: Codable, Sendable, Hashable {
    /// BCP 47, a language and a region: "de-AT".
    public var locale: String
    /// The folders its grammar is read from, the language first: ["de", "de-AT"].
    public var folders: [String]
    /// How many sentences its grammar has (0: it reads numbers, dates and durations, but parses no request yet).
    public var sentences: Int
    /// The contract intents its sentences give, in the contract's order.
    public var intents: [MediaIntent]

    public init(locale: String, folders: [String], sentences: Int, intents: [MediaIntent]) {
        self.locale = locale
        self.folders = folders
        self.sentences = sentences
        self.intents = intents
    }
}

extension GrammarCatalog {
    /// The locales a parser can be made for, in BCP 47 form: every folder named language-REGION.
    public var regionalLocales: [String] {
        folders.keys.filter { $0.contains("-") }.sorted()
    }

    /// Whether the folders of `locale` hold any grammar file besides `locale.yaml` and lists, without
    /// reading them (cheap enough for `--help`).
    public func hasSentenceFiles(locale: String) -> Bool {
        let language = String(locale.prefix { $0 != "-" })
        return [language, locale].contains { folder in
            (folders[folder] ?? [:]).keys.contains { $0 != "locale.yaml" && !$0.hasPrefix("lists/") }
        }
    }

    /// Every regional locale with what its grammar covers. Reads the grammar files (no compiling).
    ///
    /// - Throws: `GrammarError` when a grammar file is wrong.
    public func localeSummaries() throws -> [LocaleSummary] {
        let loader = GrammarLoader(catalog: self)
        return try regionalLocales.map { locale in
            let (name, chain) = try loader.resolve(locale)
            let runtime = try LanguageRuntime(profile: try loader.settings(name: name, chain: chain))
            let definition = try runtime.pool.withSession { session in
                try loader.load(settings: runtime.profile) { runtime.tokenizer.words(of: $0, session: session) }
            }
            let said = Set(definition.sentences.compactMap { $0.intent.mediaIntent })
            return LocaleSummary(locale: name, folders: chain, sentences: definition.sentences.count,
                                 intents: MediaIntent.allCases.filter(said.contains))
        }
    }
}
