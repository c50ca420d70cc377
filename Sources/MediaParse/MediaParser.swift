import Foundation

/// Parses spoken media requests of one locale into SiriKit-shaped results.
///
/// Loading reads and compiles the locale's grammar once; `parse` may then be called from any number of
/// threads at the same time (ICU's stateful iterators are pooled per thread of use).
///
/// ```swift
/// let parser = try MediaParser(locale: "en-US", appNames: ["ControlAudio"])
/// let result = parser.parse("play Khalid in ControlAudio")
/// print(result.jsonLine())
/// ```
public final class MediaParser: Sendable {
    /// The locale results report, BCP 47 ("en-US").
    public let locale: String
    /// Utterances longer than this many Unicode scalars are not parsed (the result says so).
    public static let maxScalars = 2_000
    /// Utterances of more words than this are not parsed (the result says so).
    public static let maxWords = 64

    /// The vocabulary overlay: the user's and the app's names, which override the default reading of the
    /// words they cover. Change it at any time (a playlist renamed or deleted): the next parse knows.
    public let vocabulary: VocabularyStore

    let grammar: CompiledGrammar
    /// The caller's app, room and player names, matched at parse time (never compiled into the grammar).
    let callerNames: CallerNames
    let runtime: LanguageRuntime
    /// What utterances may leave out or add (from the profile), prepared for the matcher.
    let tolerance: Tolerance
    /// The matcher of a parse that asks for at most one alternative (made once: it holds the grammar's
    /// tables, and taking them costs a retain each).
    let matcher: Matcher
    /// The matchers' memory of earlier parses, one set per thread parsing at the moment.
    let matchBuffers = Locked<[MatchBuffers]>([])
    var tokenizer: Tokenizer { runtime.tokenizer }
    var numbers: NumberRecognizer { runtime.numbers }
    /// The day "this year", "last year" and "two years ago" count from; nil: the day of each parse.
    public let referenceDate: Date?
    /// The year of `referenceDate`, or of today, in the Gregorian calendar of the machine's time zone.
    var thisYear: Int { CalendarYear.of(referenceDate ?? Date()) }
    var pool: ICUSessionPool { runtime.pool }
    /// What the parser knows of its language besides the grammar (articles, number forms …).
    public var profile: LanguageProfile { runtime.profile }

    /// Loads and compiles the grammar of `locale` ("en-US", "en_GB", or a language alone: "en").
    ///
    /// - Parameters:
    ///   - locale: BCP 47 ("de-DE") or ICU ("de_DE"); a language alone ("de") picks its default region.
    ///   - appNames: the calling app's names (its name and `INAlternativeAppNames`), added to the built-in
    ///     list of well-known audio apps.
    ///   - areaNames: the caller's own rooms and places ("Emma's room", "garden"), added to every list the
    ///     grammar reads `target.area` from.
    ///   - deviceNames: the caller's own players ("Kitchen HomePod", "Living Room TV"), added to every list
    ///     the grammar reads `target.device` from.
    ///   - catalog: where grammars come from: the built-in ones unless told otherwise.
    ///   - cacheCompiledGrammar: keep the compiled grammar on disk and read it back next time, so that a
    ///     new process starts in milliseconds (the CLI does; a library writes no files unless asked). Where:
    ///     `$MEDIAPARSE_CACHE` (or `off`), else `$XDG_CACHE_HOME/mediaparse`, else `~/.cache/mediaparse`. A
    ///     grammar read back is the one compiled from the same files by the same build of the library. The
    ///     file is mapped into memory and read where it lies: the process holds only the pages its parses
    ///     read (an English parser, about 1 MB of the 16 MB file). Without it, parsers of one process still
    ///     share a grammar compiled once (in memory).
    ///   - referenceDate: the day that years said relative to today count from ("songs from last year", "die
    ///     Hits von diesem Jahr", "去年的歌"); nil, the default, uses the day of each parse. Give one to
    ///     make results reproducible (tests) or to parse for a user in another time zone.
    ///   - onCompile: told when the grammar is neither in memory nor in the disk cache and must be compiled
    ///     (seconds for the larger languages), and when that is done: a command-line tool tells the person
    ///     waiting. Called on the caller's thread, before this initialiser returns.
    /// - Throws: `UnsupportedLocaleError` when no grammar serves the locale; `GrammarError` (with file, line
    ///   and column) when a grammar file is wrong.
    public convenience init(locale: String = "en-US", appNames: [String] = [], areaNames: [String] = [],
                            deviceNames: [String] = [], catalog: GrammarCatalog = .builtIn,
                            cacheCompiledGrammar: Bool = false, referenceDate: Date? = nil,
                            onCompile: ((GrammarCompilation) -> Void)? = nil) throws {
        try self.init(locale: locale, appNames: appNames, areaNames: areaNames, deviceNames: deviceNames, catalog: catalog,
                      cache: GrammarCache(directory: cacheCompiledGrammar ? GrammarCache.standardDirectory : nil,
                                         memory: .shared, shipped: GrammarCache.shippedDirectory),
                      referenceDate: referenceDate, onCompile: onCompile)
    }

    /// Compiles the built-in grammar of `locale` into `directory/<locale>.grammar`, as the package's build
    /// does (the CompileGrammars plugin runs the GrammarPrecompiler tool): the file a parser of the locale
    /// then maps at start instead of compiling (`GrammarCache.shipped`). Returns the file's size in bytes.
    ///
    /// - Throws: `UnsupportedLocaleError` or `GrammarError` as the initialiser does, and a `GrammarError`
    ///   when `locale` is served under another name (a folder name that is not a locale's).
    package static func compileBuiltIn(locale: String, into directory: URL) throws -> Int {
        let (runtime, loader) = try LanguageRuntime.load(locale: locale, catalog: .builtIn)
        let settings = runtime.profile
        guard settings.name == locale else {
            throw GrammarError("the folder \(locale) is served as the locale \(settings.name): name built-in locales as BCP 47 does",
                               at: SourceLocation(file: "Grammars/\(locale)"))
        }
        let key = GrammarCache.key(locale: settings.name, chain: settings.chain, catalog: .builtIn)
        let bytes = GrammarCache.encode(try compileGrammar(runtime: runtime, loader: loader), key: key)
        try Data(bytes).write(to: directory.appendingPathComponent("\(locale).grammar"), options: .atomic)
        return bytes.count
    }

    /// Reads the grammar files of the runtime's locale and compiles them: what a parser does when its
    /// grammar is neither shipped nor cached, and what the build does for the built-in ones.
    private static func compileGrammar(runtime: LanguageRuntime, loader: GrammarLoader, determinize: Bool = true,
                                       calls: Bool = true) throws -> CompiledGrammar {
        let definition = try runtime.pool.withSession { session in
            try loader.load(settings: runtime.profile) { runtime.tokenizer.words(of: $0, session: session) }
        }
        let table = runtime.profile.transform == nil ? nil : runtime.pool.withSession { TransformTable(session: $0) }
        return try GrammarCompiler.compile(definition, numberWords: runtime.numbers.spelled, transformTable: table,
                                           determinize: determinize, calls: calls)
    }

    /// - Parameters:
    ///   - determinize: false matches on the epsilon-free automaton instead (for tests).
    ///   - inlineRules: true writes every expansion rule out where it is used, with no call (for tests).
    ///   The cache is not used with either: its files hold deterministic automata with calls.
    init(locale: String, appNames: [String] = [], areaNames: [String] = [], deviceNames: [String] = [],
         catalog: GrammarCatalog = .builtIn, cache given: GrammarCache, determinize: Bool = true, inlineRules: Bool = false,
         referenceDate: Date? = nil, onCompile: ((GrammarCompilation) -> Void)? = nil) throws {
        self.referenceDate = referenceDate
        let cache = determinize && !inlineRules ? given : GrammarCache(directory: nil)
        let (settings, loader) = try LanguageRuntime.profile(locale: locale, catalog: catalog)
        // The caller's names are not part of the grammar (`CallerNames`): every parser of a locale shares it.
        let key = GrammarCache.key(locale: settings.name, chain: settings.chain, catalog: catalog)
        var found = cache.memory?.grammar(key)
        if found == nil, let cached = cache.load(key, settings: settings) {
            found = cached
            cache.memory?.keep(cached, key: key)
        }
        // A grammar compiled before brings what ICU answered then (number words, the transliterator on single
        // characters); only a compile asks ICU again.
        let runtime = try LanguageRuntime(profile: settings, numberWords: found?.numberWords, transformTable: found?.transformTable)
        let tokenizer = runtime.tokenizer
        let pool = runtime.pool
        let grammar: CompiledGrammar
        if let found {
            grammar = found
        } else {
            onCompile?(.started(locale: settings.name, cacheDirectory: cache.directory?.path))
            let started = DispatchTime.now().uptimeNanoseconds
            let compiled = try Self.compileGrammar(runtime: runtime, loader: loader, determinize: determinize, calls: !inlineRules)
            cache.store(compiled, key: key)
            cache.memory?.keep(compiled, key: key)
            grammar = compiled
            onCompile?(.finished(locale: settings.name, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
        }
        self.grammar = grammar
        self.callerNames = try pool.withSession { session in
            try CallerNames(appNames: appNames, areaNames: areaNames, deviceNames: deviceNames, grammar: grammar) {
                tokenizer.words(of: $0, session: session)
            }
        }
        self.locale = settings.name
        self.runtime = runtime
        var tolerance = Tolerance(maxExtra: settings.extraWords)
        pool.withSession { session in
            tolerance.skipPhrases = settings.skipWords.map { tokenizer.words(of: $0, session: session) }.filter { !$0.isEmpty }
            tolerance.optionalWordIDs = settings.optionalWords.flatMap { tokenizer.words(of: $0, session: session) }
                .compactMap { grammar.wordIDs[WordKey($0)] }
        }
        self.tolerance = tolerance
        self.matcher = Matcher(grammar: grammar, beam: Self.beam(alternatives: 0), tolerance: tolerance)
        self.vocabulary = VocabularyStore(runtime: runtime)
    }

    /// Forgets the grammars this process keeps in memory, so that the next parser reads or compiles its own
    /// (to measure start-up as a new process has it).
    package static func forgetRecentGrammars() { RecentGrammars.shared.forget() }

    /// What the recognisers find in `text` (numbers, ordinals, years, decades, speeds, durations, percentages,
    /// frequencies), before any grammar: every reading, overlapping ones included.
    public func recognize(_ text: String) -> RecognizedText {
        pool.withSession { session in
            let utterance = tokenizer.tokenize(text, session: session)
            guard utterance.tokens.count <= Self.maxWords else { return RecognizedText(tokenCount: utterance.tokens.count, entities: []) }
            let entities = numbers.recognize(utterance.tokens, session: session, thisYear: thisYear).map { e in
                RecognizedEntity(kind: e.kind.rawValue, tokens: e.start..<e.end,
                                 span: utterance.tokens[e.start].start..<utterance.tokens[e.end - 1].end,
                                 text: utterance.originalText(tokens: e.start..<e.end), value: e.value)
            }
            return RecognizedText(tokenCount: utterance.tokens.count, entities: entities.sorted {
                ($0.tokens.lowerBound, $0.tokens.upperBound, $0.kind) < ($1.tokens.lowerBound, $1.tokens.upperBound, $1.kind)
            })
        }
    }

    /// Size of the compiled grammar: states, word edges, slot edges, epsilon edges, sentences.
    public var grammarSize: (states: Int, wordEdges: Int, slotEdges: Int, epsilons: Int, sentences: Int) {
        let a = grammar.automaton
        return (a.count, a.wordKeys.count, a.slotIDs.count, 0, grammar.sentences.count)
    }

    /// Partial readings the matcher keeps per state and position: enough for the alternatives asked.
    static func beam(alternatives: Int) -> Int { max(4, alternatives + 3) }

    /// The list the grammar uses for app names.
    static let appListName = "app"

    /// Parses one utterance. Never throws: text that cannot be parsed gives `intent: nil` (with `error` set
    /// when the text was too long to try).
    ///
    /// - Parameters:
    ///   - text: one utterance, as said (up to `maxScalars` characters).
    ///   - alternatives: how many further readings to return, best first.
    ///   - explain: add how the best reading matched (sentence, source, what each word did).
    public func parse(_ text: String, alternatives: Int = 0, explain: Bool = false) -> ParseResult {
        var none: GrammarCoverage? = nil
        return parse(text, alternatives: alternatives, explain: explain, coverage: &none)
    }

    /// Parses one utterance with `userVocabulary` in place of the store's user vocabulary, for this call
    /// only (a server's request that brings its user's names); the store's global vocabulary still applies,
    /// and other calls, before, after or at the same time, never see these names.
    public func parse(_ text: String, alternatives: Int = 0, explain: Bool = false,
                      userVocabulary: UserVocabulary) -> ParseResult {
        var none: GrammarCoverage? = nil
        return parse(text, alternatives: alternatives, explain: explain, coverage: &none,
                     ownUser: vocabulary.userOnlySnapshot(userVocabulary))
    }

    /// Parses and records in `coverage` which sentence, expansion rules and list entries the chosen
    /// reading used (for `mediaparse test`'s grammar coverage).
    package func parse(_ text: String, coverage: inout GrammarCoverage) -> ParseResult {
        var c: GrammarCoverage? = coverage
        let r = parse(text, alternatives: 0, explain: true, coverage: &c)
        coverage = c!
        return r
    }

    private func parse(_ text: String, alternatives: Int, explain: Bool, coverage: inout GrammarCoverage?,
                       ownUser: VocabularySnapshot? = nil) -> ParseResult {
        var result = ParseResult(utterance: text, locale: locale, intent: nil)
        let scalarCount = text.unicodeScalars.count
        if scalarCount > Self.maxScalars {
            result.error = "utterance too long: \(scalarCount) characters (the limit is \(Self.maxScalars)); not parsed"
            return result
        }
        let snapshot = vocabulary.snapshot()
        let (utterance, entities, hits) = pool.withSession { session in
            let u = tokenizer.tokenize(text, session: session)
            guard u.tokens.count <= Self.maxWords else { return (u, [Entity](), [VocabularyHit]()) }
            let e = numbers.recognize(u.tokens, session: session, thisYear: thisYear)
            var all = snapshot.isEmpty ? [] : snapshot.hits(in: u.tokens, entities: e, session: session)
            if let ownUser {
                all.removeAll { $0.entry.source == .user }
                if !ownUser.isEmpty { all += ownUser.hits(in: u.tokens, entities: e, session: session) }
            }
            let h = all.isEmpty ? [] : VocabularyHit.nonOverlapping(all)
            return (u, e, h)
        }
        if utterance.tokens.isEmpty { return result }
        if utterance.tokens.count > Self.maxWords {
            result.error = "utterance too long: \(utterance.tokens.count) words (the limit is \(Self.maxWords)); not parsed"
            return result
        }
        // The value's description (a string made for the purpose) only decides between entities of one kind
        // over the same words.
        let sortedEntities = entities.sorted {
            if ($0.start, $0.end, $0.kind.rawValue) != ($1.start, $1.end, $1.kind.rawValue) {
                return ($0.start, $0.end, $0.kind.rawValue) < ($1.start, $1.end, $1.kind.rawValue)
            }
            return $0.value.description < $1.value.description
        }
        let beam = Self.beam(alternatives: alternatives)
        let matcher = beam == self.matcher.beam ? self.matcher : Matcher(grammar: grammar, beam: beam, tolerance: tolerance)
        var input = matcher.prepare(utterance, entities: sortedEntities, vocabulary: hits.sorted { $0.start < $1.start })
        if !callerNames.isEmpty {
            callerNames.addHits(to: &input, keys: utterance.tokens.map(\.key))
            input.callerNames = callerNames
        }
        var buffers = matchBuffers.withLock { $0.popLast() } ?? MatchBuffers()
        var steps = buffers.steps
        buffers.steps = []
        steps.removeAll(keepingCapacity: true)
        steps.reserveCapacity(256)
        defer {
            // Kept for the next parse, unless a long utterance made it very large.
            buffers.steps = steps.capacity > 65_536 ? [] : steps
            matchBuffers.withLock { if $0.count < 64 { $0.append(buffers) } }
        }
        let candidates = Ranking.order(matcher.match(input, steps: &steps, buffers: &buffers), grammar: grammar, steps: steps,
                                       pauses: Ranking.pauses(in: utterance))
        let builder = ReadingBuilder(grammar: grammar)
        var readings: [ReadingBuilder.Reading] = []
        for candidate in candidates {
            // Enough readings for the alternatives asked; with none asked, a second only to tell whether the
            // best ties with it (`tied` below), which a candidate of lower rank cannot.
            if let best = readings.first, readings.count > alternatives, alternatives > 0 || candidate.rank != best.rank { break }
            // A few readings at most: comparing with each costs less than hashing every field of a result.
            guard let reading = builder.build(candidate, utterance: utterance, input: input, steps: steps, explain: false),
                  !readings.contains(where: { $0.result == reading.result }) else { continue }
            readings.append(reading)
            if readings.count > alternatives + 1 { break }
        }
        guard let best = readings.first else { return result }
        if coverage != nil { coverage!.record(best.step, sentence: best.sentence, steps: steps, grammar: grammar, wordIDs: input.wordIDs) }
        var chosen = best.result
        if explain, let candidate = candidates.first(where: { $0.rank == best.rank && $0.sentence == best.sentence }),
           let withExplanation = builder.build(candidate, utterance: utterance, input: input, steps: steps, explain: true) {
            chosen.explain = withExplanation.result.explain
        }
        let tied = readings.count > 1 && readings[1].rank == best.rank
        chosen.score = Ranking.score(best, words: utterance.tokens.count, tied: tied)
        chosen.utterance = text
        chosen.locale = locale
        if alternatives > 0 {
            let rest = readings.dropFirst().prefix(alternatives).map { r -> ParseResult in
                var alt = r.result
                // An alternative is never more certain than the reading chosen before it.
                let own = Ranking.score(r, words: utterance.tokens.count, tied: false) * 0.9
                alt.score = (min(own, chosen.score ?? 0) * 100).rounded() / 100
                return alt
            }
            if !rest.isEmpty { chosen.alternatives = Array(rest) }
        }
        return chosen
    }

}

/// What the recognisers read in a text (`MediaParser.recognize`).
/// The year of a day, asked of the calendar once per year seen: a parse that may hold "last year" asks for
/// it, and the calendar costs microseconds where the rest of a parse costs tens.
enum CalendarYear {
    private static let known = Locked<(year: Int, days: Range<Date>)?>(nil)

    static func of(_ day: Date) -> Int {
        known.withLock { known in
            if let k = known, k.days.contains(day) { return k.year }
            let calendar = Calendar(identifier: .gregorian)
            let year = calendar.component(.year, from: day)
            if let start = calendar.date(from: DateComponents(year: year)), let end = calendar.date(from: DateComponents(year: year + 1)),
               start <= day, day < end {
                known = (year, start..<end)
            }
            return year
        }
    }
}

public struct RecognizedText: Sendable {
    /// How many words the tokenizer made of the text.
    public var tokenCount: Int
    public var entities: [RecognizedEntity]
}

/// One reading of some words by a recogniser.
public struct RecognizedEntity: Sendable, Hashable {
    /// "number", "ordinal", "year", "decade", "speed", "duration", "percent", "frequency".
    public var kind: String
    /// The words it covers, `[start, end)` in the text's tokens.
    public var tokens: Range<Int>
    /// The same in Unicode scalars of the text.
    public var span: Range<Int>
    /// The words as written.
    public var text: String
    public var value: SlotValue

    /// The value as one number: the number itself; a year's or decade's first year; a duration's seconds.
    public var number: Double? {
        switch value {
        case let .number(n): return n
        case let .dateRange(start, _): return Double(start.prefix(4))
        default: return nil
        }
    }
}

/// A grammar compiled while a parser is made (found neither in the process's memory nor in the disk cache).
public enum GrammarCompilation: Sendable {
    /// Compiling starts: `cacheDirectory` is where the result will be kept for the next start (nil: nowhere).
    case started(locale: String, cacheDirectory: String?)
    /// Compiling took `seconds`.
    case finished(locale: String, seconds: Double)
}
