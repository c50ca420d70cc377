import Foundation
import Yams

/// Everything MediaParse knows about a language that is not grammar: how its text is cut into words, which
/// words are articles, and how it says numbers, ordinals, dates, durations, speeds and percentages.
///
/// It is read from the `locale.yaml` files of a locale's folder chain (`Grammars/de/locale.yaml`, then
/// `Grammars/de-AT/locale.yaml` on top), and handed to the tokenizer, the recognisers, the vocabulary
/// normaliser and the test scorer. No Swift code holds a word of any language: a new language is a
/// `locale.yaml` (and a grammar), never code. The keys are documented in `Grammars/README.md`.
public struct LanguageProfile: Sendable {
    /// The locale results report, BCP 47 ("de-AT").
    public var name: String
    /// Folders loaded, most general first (["de", "de-AT"]).
    public var chain: [String]
    /// ICU's name of the locale, for word breaking and numbers ("de_AT").
    public var icuLocale: String
    /// Clitics cut off the end of a word into a token of their own ("Khalid's" -> "Khalid" "'s").
    var splitSuffixes: [String] = []
    /// Clitics cut off the front ("l'album" -> "l'" "album").
    var splitPrefixes: [String] = []
    /// Every Han character and kana is a word of its own (Chinese, Japanese): utterances, templates and
    /// vocabulary are cut the same way, so matching does not depend on the dictionary segmentation.
    var characterWords = false
    /// An ICU transliterator applied to the matching form of every word ("Traditional-Simplified").
    var transform: String?
    /// Where `transform` was set, for errors.
    var transformLocation: SourceLocation?
    /// Leading articles and determiners ("the", "der", "les"), in matching form.
    public var articles: [String] = []
    /// How numbers and the forms made of them are said.
    var numbers = NumberForms()
    /// Fillers and wake words ignored wherever they stand, at a small cost (hassil's skip words): "um",
    /// "hey siri", "alexa". Texts as written; several words allowed.
    var skipWords: [String] = []
    /// Words of a template an utterance may leave out, at a cost (articles, some prepositions).
    var optionalWords: [String] = []
    /// How many words no template has may stand between matched words of a reading (0: none).
    var extraWords = 0
    /// Where a capital letter inside an utterance is no sign of a name (German writes every noun so): the
    /// words that, written with a capital before free text, still start a name there (articles,
    /// politeness, fillers: "spiel Bitte bleib", "von Die Toten Hosen"), in matching form. Empty: any word.
    var nameStartWords: [String] = []
    /// How `resolve` compares catalogue titles with what was asked (`resolve:` in `locale.yaml`).
    public var matching = MatchingRules()
}

/// How a language's titles and requests are compared when a request is resolved against a catalogue:
/// the words people add to titles or leave out of them. Texts as written in `locale.yaml`; the name keys
/// cut and fold them like any other text.
public struct MatchingRules: Sendable {
    /// Words that all mean "and" in a title ("&", "and", "+", "'n'"): read as one word.
    public var andWords: [String] = []
    /// Words that mark a part of a title people don't say ("Deluxe Edition", "Remastered 2011", "Live"):
    /// a bracketed or dash-separated part that holds one is left out of the title's main key.
    public var variantWords: [String] = []
    /// Words that introduce a featured artist ("feat.", "ft."): what follows is a second artist.
    public var featureWords: [String] = []
    /// Words at either end of a title or request that people add or leave out ("podcast", "audiobook").
    public var noiseWords: [String] = []
    /// Words said for a decimal point ("point", "Komma"): "one oh four point three" is the "104.3" of
    /// "Q104.3".
    public var decimalWords: [String] = []
    /// Words that are the same word for matching ("vol" = "volume", "pt" = "part"): each group is read as
    /// its first word.
    public var sameWords: [[String]] = []
    /// Endings a word may have or not and still be the same name ("Ärzte"/"Ärzten", "dragon"/"dragons"):
    /// a word and the same word without one of them meet, a little below the same word.
    public var wordEndings: [String] = []
    /// Rewrites of a folded word before its sound-alike key is taken ("ph" -> "f"), in order.
    public var soundRewrites: [(from: String, to: String)] = []
    /// An ICU transliterator the sound-alike key goes through first ("Han-Latin; Latin-ASCII": pinyin).
    public var soundTransform: String?
    /// Keep vowels in the sound-alike key (where dropping them leaves too little).
    public var soundKeepsVowels = false
    /// An ICU transliterator every word goes through before it is compared ("Katakana-Hiragana").
    public var transform: String?
    /// Where the transliterators were named, for errors.
    var transformLocation: SourceLocation?

    public init() {}
}

/// How a language says numbers beyond what ICU's spell-out rules read by themselves, as written in
/// `locale.yaml`'s `numbers:` (texts as written; the recogniser cuts them into words like utterances).
struct NumberForms: Sendable {
    /// Characters that separate the decimals besides "." ("1,5"); nil: ICU's separator for the locale.
    var decimalSeparators: [String]?
    /// Words ICU does not know, read as one it does ("fourty" -> "forty", "两" -> "二").
    var aliases: [(from: String, to: String)] = []
    /// "and a half" -> 0.5, "anderthalb" -> 1.5: alone, after a number or after a unit.
    var fractions: [(text: String, value: Double)] = []
    /// Words that stand for one before a unit ("a minute", "eine Minute").
    var articlesAsOne: [String] = []
    /// Units of time in seconds ("minutes" -> 60); a unit may be several words.
    var durationUnits: [(text: String, seconds: Double)] = []
    /// Words after a number that make it a radio frequency ("fm", "ukw").
    var frequencyBands: [String] = []
    /// Words that join the halves of a year ("nineteen oh five").
    var yearZeroWords: [String] = []
    /// Words that mark the decimal point of a number whose decimals are said one by one ("一点五").
    var decimalWords: [String] = []
    /// Years said digit by digit ("二零零八年").
    var yearsDigitByDigit = false
    /// Letters that complete a number word's stem before a glued ending ("sevent" + "y" + "ies").
    var stemEndings: [String] = []
    /// The forms of the kinds made of a number: ordinals, decades, speeds, percentages, years.
    var derived: [RecognizerKind: DerivedForms] = [:]
    /// Years counted from the year of the day a request is parsed ("last year", "vor zwei Jahren", "去年").
    var relativeYears: [RelativeYearForm] = []
}

/// A phrase naming years by their distance from this one: "this year" 0, "last year" −1, "{number} years
/// ago" −1 for each, "the last {number} years" from −1 for each up to 0.
struct RelativeYearForm: Sendable {
    /// The phrase, in template syntax, with at most one `{number}`.
    var text: String
    var location: SourceLocation
    /// The first and last year of the range, counted from this year; with `{number}`, counted for each.
    var from: Int
    var to: Int
}

/// The ways one kind (a decade, a speed …) is said around a number.
struct DerivedForms: Sendable {
    /// One word made of a number and letters or signs stuck to it: "80er", "3rd", "x1,5", "seventies".
    var glued: [GluedForm] = []
    /// Several words around a number, in template syntax: "années {number}", "{number} 年代", "{decade} jahre".
    var phrases: [(text: String, location: SourceLocation)] = []
}

/// A glued form: `prefix`, a number, `suffix`, all in one word.
struct GluedForm: Sendable, Hashable {
    /// What the number part may be.
    enum Part: String, Sendable, Hashable {
        /// Digits (with the locale's decimal separators).
        case digits
        /// A number in words, read by ICU.
        case words
        /// Either.
        case number
    }
    var prefix: String
    var part: Part
    var suffix: String

    /// Reads "{digits}st", "x{number}", "{words}ies". Affixes are folded with `fold`.
    init?(_ text: String, fold: (String) -> String) {
        for part in [Part.digits, .words, .number] {
            let marker = "{\(part.rawValue)}"
            guard let range = text.range(of: marker) else { continue }
            let prefix = String(text[..<range.lowerBound]), suffix = String(text[range.upperBound...])
            guard !prefix.contains("{"), !suffix.contains("{"), !(prefix.isEmpty && suffix.isEmpty) else { return nil }
            self.prefix = fold(prefix)
            self.part = part
            self.suffix = fold(suffix)
            return
        }
        return nil
    }
}

extension LanguageProfile {
    /// The kinds whose forms `numbers:` may describe, by their key there.
    static let derivedKinds: [String: RecognizerKind] = [
        "ordinal": .ordinal, "decade": .decade, "speed": .speed, "percent": .percent, "year": .year,
    ]

    /// Reads the `locale.yaml` files of `chain` (most general first); later files override earlier keys.
    ///
    /// - Throws: `GrammarError` naming the file, line and column of a wrong key or value.
    static func read(name: String, chain: [String], catalog: GrammarCatalog) throws -> LanguageProfile {
        var profile = LanguageProfile(name: name, chain: chain, icuLocale: name.replacingOccurrences(of: "-", with: "_"))
        for folder in chain {
            guard let file = catalog.folders[folder]?["locale.yaml"] else { continue }
            let yaml = try YAMLFile.settings(path: file.displayPath, text: file.text)
            guard let root = yaml.root else { continue }
            let entries = try yaml.mapping(root, "locale.yaml")
            try yaml.checkKeys(entries, allowed: ["locale", "fallback", "default_region", "icu_locale", "split_suffixes",
                                                  "split_prefixes", "character_words", "transform", "articles", "numbers",
                                                  "skip_words", "optional_words", "extra_words", "name_start_words", "resolve"],
                               in: "locale.yaml")
            for e in entries {
                switch e.key {
                case "icu_locale": profile.icuLocale = try yaml.string(e.value, "icu_locale")
                case "split_suffixes": profile.splitSuffixes = try yaml.strings(e.value, "split_suffixes").map(matchingForm)
                case "split_prefixes": profile.splitPrefixes = try yaml.strings(e.value, "split_prefixes").map(matchingForm)
                case "character_words": profile.characterWords = try yaml.bool(e.value, "character_words")
                case "transform":
                    let id = e.value.null != nil ? "" : try yaml.string(e.value, "transform")
                    profile.transform = id.isEmpty ? nil : id
                    profile.transformLocation = yaml.location(e.value)
                case "articles": profile.articles = try yaml.strings(e.value, "articles").map(matchingForm)
                case "numbers": try readNumbers(e.value, yaml: yaml, into: &profile.numbers)
                case "skip_words": profile.skipWords = try yaml.strings(e.value, "skip_words")
                case "optional_words": profile.optionalWords = try yaml.strings(e.value, "optional_words")
                case "resolve": try readMatching(e.value, yaml: yaml, into: &profile.matching)
                case "name_start_words": profile.nameStartWords = try yaml.strings(e.value, "name_start_words").map(matchingForm)
                case "extra_words":
                    let n = try yaml.int(e.value, "extra_words")
                    guard (0...4).contains(n) else {
                        throw GrammarError("extra_words is a number from 0 to 4 (extra words a reading may have)", at: yaml.location(e.value))
                    }
                    profile.extraWords = n
                default: break
                }
            }
        }
        return profile
    }

    private static func readMatching(_ node: Node, yaml: YAMLFile, into rules: inout MatchingRules) throws {
        let entries = try yaml.mapping(node, "resolve")
        try yaml.checkKeys(entries, allowed: ["and_words", "variant_words", "feature_words", "noise_words", "decimal_words", "same_words", "word_endings", "sound_alike", "transform"],
                           in: "resolve")
        for e in entries {
            switch e.key {
            case "and_words": rules.andWords = try yaml.strings(e.value, "and_words")
            case "variant_words": rules.variantWords = try yaml.strings(e.value, "variant_words")
            case "feature_words": rules.featureWords = try yaml.strings(e.value, "feature_words")
            case "noise_words": rules.noiseWords = try yaml.strings(e.value, "noise_words")
            case "decimal_words": rules.decimalWords = try yaml.strings(e.value, "decimal_words")
            case "word_endings": rules.wordEndings = try yaml.strings(e.value, "word_endings").map(matchingForm).sorted { $0.count > $1.count }
            case "same_words":
                rules.sameWords = try yaml.sequence(e.value, "same_words").map { group in
                    let words = try yaml.strings(group, "a group of same words")
                    guard words.count >= 2 else {
                        throw GrammarError("a group of same words lists two or more, like [vol, volume]", at: yaml.location(group))
                    }
                    return words
                }
            case "transform":
                let id = e.value.null != nil ? "" : try yaml.string(e.value, "transform")
                rules.transform = id.isEmpty ? nil : id
                rules.transformLocation = yaml.location(e.value)
            case "sound_alike":
                let sound = try yaml.mapping(e.value, "sound_alike")
                try yaml.checkKeys(sound, allowed: ["rewrites", "transform", "keep_vowels"], in: "sound_alike")
                for s in sound {
                    switch s.key {
                    case "keep_vowels": rules.soundKeepsVowels = try yaml.bool(s.value, "keep_vowels")
                    case "transform":
                        let id = s.value.null != nil ? "" : try yaml.string(s.value, "transform")
                        rules.soundTransform = id.isEmpty ? nil : id
                        rules.transformLocation = yaml.location(s.value)
                    default:
                        rules.soundRewrites = try yaml.sequence(s.value, "rewrites").map { pair in
                            let two = try yaml.strings(pair, "a rewrite")
                            guard two.count == 2, !two[0].isEmpty else {
                                throw GrammarError("a rewrite is a pair [from, to], like [ph, f]", at: yaml.location(pair))
                            }
                            return (matchingForm(two[0]), matchingForm(two[1]))
                        }
                    }
                }
            default: break
            }
        }
    }

    private static func readNumbers(_ node: Node, yaml: YAMLFile, into numbers: inout NumberForms) throws {
        let entries = try yaml.mapping(node, "numbers")
        let allowed: Set<String> = ["decimal_separators", "number_aliases", "fractions", "articles_as_one", "duration_units",
                                    "frequency_bands", "year_zero_words", "stem_endings",
                                    "decimal_words", "years_digit_by_digit", "relative_years"]
        try yaml.checkKeys(entries, allowed: allowed.union(derivedKinds.keys), in: "numbers")
        for e in entries {
            switch e.key {
            case "decimal_separators": numbers.decimalSeparators = try yaml.strings(e.value, "decimal_separators")
            case "number_aliases":
                numbers.aliases = try yaml.mapping(e.value, "number_aliases").map { a in
                    (matchingForm(a.key), matchingForm(try yaml.string(a.value, "an alias")))
                }
            case "fractions":
                numbers.fractions = try yaml.mapping(e.value, "fractions").map { ($0.key, try yaml.number($0.value, "a fraction")) }
            case "articles_as_one": numbers.articlesAsOne = try yaml.strings(e.value, "articles_as_one").map(matchingForm)
            case "duration_units":
                numbers.durationUnits = try yaml.mapping(e.value, "duration_units").map { u in
                    let seconds = try yaml.number(u.value, "seconds of a unit")
                    guard seconds > 0, seconds.isFinite else {
                        throw GrammarError("a unit lasts a positive number of seconds", at: yaml.location(u.value))
                    }
                    return (u.key, seconds)
                }
            case "frequency_bands": numbers.frequencyBands = try yaml.strings(e.value, "frequency_bands").map(matchingForm)
            case "year_zero_words": numbers.yearZeroWords = try yaml.strings(e.value, "year_zero_words").map(matchingForm)
            case "decimal_words": numbers.decimalWords = try yaml.strings(e.value, "decimal_words").map(matchingForm)
            case "years_digit_by_digit": numbers.yearsDigitByDigit = try yaml.bool(e.value, "years_digit_by_digit")
            case "stem_endings": numbers.stemEndings = try yaml.strings(e.value, "stem_endings").map(matchingForm)
            case "relative_years": numbers.relativeYears = try readRelativeYears(e.value, yaml: yaml)
            default:
                guard let kind = derivedKinds[e.key] else { break }
                numbers.derived[kind] = try readDerived(e.value, key: e.key, kind: kind, yaml: yaml)
            }
        }
    }

    /// `relative_years`: a phrase to a year (`-1`) or a range of years (`[-1, 0]`), counted from this year.
    private static func readRelativeYears(_ node: Node, yaml: YAMLFile) throws -> [RelativeYearForm] {
        try yaml.mapping(node, "relative_years").map { e in
            let location = yaml.textLocation(e.keyNode)
            func offset(_ n: Node) throws -> Int {
                let v = try yaml.number(n, "a count of years")
                guard v == v.rounded(), abs(v) <= 100 else {
                    throw GrammarError("a year is counted from this one by a whole number of years (-100 to 100)", at: yaml.location(n))
                }
                return Int(v)
            }
            if case .sequence = e.value {
                let ends = try yaml.sequence(e.value, "a range of years").map(offset)
                guard ends.count == 2, ends[0] <= ends[1] else {
                    throw GrammarError("a range of years is two counts from this year, the earlier first: [-5, 0]", at: yaml.location(e.value))
                }
                return RelativeYearForm(text: e.key, location: location, from: ends[0], to: ends[1])
            }
            let year = try offset(e.value)
            return RelativeYearForm(text: e.key, location: location, from: year, to: year)
        }
    }

    private static func readDerived(_ node: Node, key: String, kind: RecognizerKind, yaml: YAMLFile) throws -> DerivedForms {
        let entries = try yaml.mapping(node, key)
        try yaml.checkKeys(entries, allowed: ["glued", "phrases"], in: key)
        var forms = DerivedForms()
        for e in entries {
            for item in try yaml.sequence(e.value, "\(key).\(e.key)") {
                let text = try yaml.string(item, "a form of \(key)")
                if e.key == "glued" {
                    guard let form = GluedForm(text, fold: matchingForm) else {
                        throw GrammarError("a glued form is one word with one {digits}, {words} or {number} and letters or signs around it, like \"{digits}th\" or \"x{number}\"; not \"\(text)\"",
                                           at: yaml.textLocation(item))
                    }
                    if kind == .year {
                        throw GrammarError("years have no glued forms (4-digit and spelled years are read without them); use phrases",
                                           at: yaml.textLocation(item))
                    }
                    forms.glued.append(form)
                } else {
                    forms.phrases.append((text, yaml.textLocation(item)))
                }
            }
        }
        return forms
    }
}
