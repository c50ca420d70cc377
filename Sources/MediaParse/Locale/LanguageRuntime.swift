/// What reading a language takes at run time, built once from its `LanguageProfile`: ICU sessions for its
/// locale (word breaking, spell-out, the optional transliterator), the tokenizer and the number recogniser.
/// The parser and the vocabulary store share one, so that utterances and phrases are read the same way.
struct LanguageRuntime: Sendable {
    let profile: LanguageProfile
    let pool: ICUSessionPool
    let tokenizer: Tokenizer
    let numbers: NumberRecognizer

    /// - Parameters:
    ///   - numberWords: the words ICU's spell-out rules write for the locale, when a compiled grammar holds
    ///     them (nil asks ICU, which is most of a start-up's time).
    ///   - transformTable: the profile's transliterator's answers for single characters, when a compiled
    ///     grammar holds them: the transliterator is then opened only if other text needs it.
    /// - Throws: `TextError` when ICU cannot open the locale or the transform; `GrammarError` when a number
    ///   form of the profile is wrong.
    init(profile: LanguageProfile, numberWords: NumberWords? = nil, transformTable: TransformTable? = nil) throws {
        self.profile = profile
        do {
            pool = try ICUSessionPool(locale: profile.icuLocale, transform: profile.transform, table: transformTable)
        } catch let error as TextError where profile.transform != nil {
            throw GrammarError("ICU has no transliterator '\(profile.transform!)' (\(error)); see ICU's list of transform IDs, e.g. Traditional-Simplified",
                               at: profile.transformLocation ?? SourceLocation(file: "locale.yaml"))
        }
        let tokenizer = Tokenizer(profile: profile)
        self.tokenizer = tokenizer
        numbers = try pool.withSession { session in
            try NumberRecognizer(forms: profile.numbers, icuLocale: profile.icuLocale, session: session, tokenizer: tokenizer,
                                 known: numberWords)
        }
    }

    /// The runtime of `locale` as `catalog`'s folders describe it.
    static func load(locale: String, catalog: GrammarCatalog) throws -> (runtime: LanguageRuntime, loader: GrammarLoader) {
        let (profile, loader) = try profile(locale: locale, catalog: catalog)
        return (try LanguageRuntime(profile: profile), loader)
    }

    /// The profile of `locale` as `catalog`'s folders describe it, and the loader that read it (which reads
    /// the grammar files next).
    static func profile(locale: String, catalog: GrammarCatalog) throws -> (profile: LanguageProfile, loader: GrammarLoader) {
        let loader = GrammarLoader(catalog: catalog)
        let (name, chain) = try loader.resolve(locale)
        return (try loader.settings(name: name, chain: chain), loader)
    }
}
