import Foundation
import MediaParse

/// The names an item answers to.
enum NameField: String, Sendable {
    /// The title without the parts people don't say; `full`: the whole title, when that differs.
    case title, full
    /// The title up to its first bracket ("Montero" of "MONTERO (Call Me By Your Name)").
    case short
    case alias, artist, featured, album
}

/// The keys of one item, made once at import and stored with it.
struct ItemKeys: Sendable {
    var names: [(field: NameField, key: NameKey)] = []
    var genres: [String] = []
    /// Whether the full-text index also holds each name's sounds joined: for languages whose sound keys come
    /// through a transliterator (Japanese kana), where a name in one script meets a name in another only so.
    var joinedSounds = false

    /// One line per name: field, words, sounds, separated by tabs.
    var encoded: String {
        (names.map { "\($0.field.rawValue)\t\($0.key.words.joined(separator: " "))\t\($0.key.sounds.joined(separator: " "))\t\($0.key.whole)\t\($0.key.stems == $0.key.words ? "" : $0.key.stems.joined(separator: " "))" }
            + genres.map { "genre\t\($0)\t" }).joined(separator: "\n")
    }

    init(names: [(field: NameField, key: NameKey)], genres: [String], joinedSounds: Bool = false) {
        self.names = names
        self.genres = genres
        self.joinedSounds = joinedSounds
    }

    init(encoded: String) {
        for line in encoded.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0] == "genre" { genres.append(String(parts[1])); continue }
            guard parts.count >= 3, let field = NameField(rawValue: String(parts[0])) else { continue }
            let words = parts[1].split(separator: " ", omittingEmptySubsequences: false).map(String.init), sounds = parts[2].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            let stems = parts.count > 4 && !parts[4].isEmpty ? parts[4].split(separator: " ", omittingEmptySubsequences: false).map(String.init) : words
            names.append((field, NameKey(words: words, sounds: sounds.count == words.count ? sounds : words,
                                         whole: parts.count > 3 ? String(parts[3]) : nil, stems: stems.count == words.count ? stems : words)))
        }
    }

    /// What the full-text index holds: every word, and each name's words joined ("acdc").
    var ftsWords: String {
        var out: [String] = []
        for n in names {
            out += n.key.words
            if n.key.words.count > 1, n.key.words.count <= 4 { out.append(n.key.compact) }
            if n.key.whole != n.key.compact, n.key.whole.count <= 40 { out.append(n.key.whole) }
        }
        return out.joined(separator: " ")
    }

    /// Every word's sound key, and (`joinedSounds`) each name's sounds joined with letters repeated across
    /// words said once, the form a name written in another script meets ("King Gnu" -> "kngn" = "キングヌー").
    var ftsSounds: String {
        var out: [String] = []
        for n in names {
            out += n.key.sounds.filter { !$0.isEmpty }
            if joinedSounds, n.key.sounds.count > 1, n.key.sounds.count <= 4 { out.append(Resolver.collapsed(n.key.sounds.joined())) }
        }
        return out.joined(separator: " ")
    }

    /// The genres in the index, and the stems of all names (so "Ärzten" finds "Ärzte").
    var ftsGenres: String { genres.joined(separator: " ") }
    var ftsStems: String {
        names.flatMap { n in zip(n.key.words, n.key.stems).filter { $0 != $1 }.map(\.1) }.joined(separator: " ")
    }
}

/// Name-key makers by language, made when first needed: an item's `language` picks its rules, the
/// catalogue's locale serves the rest and every language the parser does not know.
final class KeyMakers: @unchecked Sendable {
    let defaultLocale: String
    let catalog: GrammarCatalog
    private var makers: [String: NameKeyMaker] = [:]
    private let lock = NSLock()

    init(defaultLocale: String, catalog: GrammarCatalog) {
        self.defaultLocale = defaultLocale
        self.catalog = catalog
    }

    /// The maker of `language` ("de", "en-GB"), else of the default locale.
    func maker(for language: String?) -> NameKeyMaker? {
        let name = language.map { !$0.isBlank } == true ? language! : defaultLocale
        lock.lock()
        defer { lock.unlock() }
        if let m = makers[name] { return m }
        let made = (try? NameKeyMaker(locale: name, catalog: catalog)) ?? (name == defaultLocale ? nil : makers[defaultLocale])
            ?? (try? NameKeyMaker(locale: defaultLocale, catalog: catalog))
        if let made { makers[name] = made }
        return made
    }

    /// `text` with a space wherever a capital follows a small letter inside a word ("FourFiveSeconds" ->
    /// "Four Five Seconds", "OneRepublic" -> "One Republic"), or nil when it has no such place.
    static func wordsInside(_ text: String) -> String? {
        // Most titles have no such place: found first on the bytes (ASCII) or scalars, without Characters.
        func isSmall(_ s: Unicode.Scalar) -> Bool { s.isASCII ? (s.value >= 0x61 && s.value <= 0x7A) : s.properties.isLowercase }
        func isCapital(_ s: Unicode.Scalar) -> Bool { s.isASCII ? (s.value >= 0x41 && s.value <= 0x5A) : s.properties.isUppercase }
        var places: [String.UnicodeScalarView.Index] = []
        var afterSmall = false
        let scalars = text.unicodeScalars
        for i in scalars.indices {
            let s = scalars[i]
            if afterSmall, isCapital(s) { places.append(i) }
            afterSmall = isSmall(s)
        }
        guard !places.isEmpty else { return nil }
        var out = String.UnicodeScalarView()
        var from = scalars.startIndex
        for at in places {
            out.append(contentsOf: scalars[from..<at])
            out.append(" ")
            from = at
        }
        out.append(contentsOf: scalars[from...])
        return String(out)
    }

    /// An episode's title without the code or number before it, or nil when it has none: the part after
    /// a colon or a dash whose part before holds a digit and is short ("GAG451: Die Tulpenmanie", "Folge 1:
    /// Der Anfang", "#2220 - Elon Musk", "Season One, Episode 1: The Alibi"), or after a first word that is
    /// a code of digits with letters, "#" or a dot ("#280 Die Kaffeemaschine", "LdN398 Haushalt", "4. Mar roto").
    static func withoutEpisodeCode(_ title: String) -> String? {
        func isCode(_ text: Substring) -> Bool {
            text.contains(where: \.isNumber) && text.split(separator: " ").count <= 4
        }
        for mark in [":", " - ", " – ", " | "] {
            if let r = title.range(of: mark), isCode(title[..<r.lowerBound]) {
                let rest = title[r.upperBound...].trimmedOfSpaces
                return rest.isEmpty ? nil : rest
            }
        }
        let words = title.split(separator: " ", maxSplits: 1)
        guard words.count == 2, let first = words.first, first.contains(where: \.isNumber),
              first.first == "#" || first.last == "." || first.contains(where: \.isLetter) else { return nil }
        let rest = words[1].trimmedOfSpaces
        return rest.isEmpty ? nil : rest
    }

    /// The code before an episode's title ("#100" of "#100 「象は鼻が長い」の謎"), given the title without it.
    static func episodeCode(_ title: String, rest: String) -> String? {
        guard title.hasSuffix(rest), case let code = String(title.dropLast(rest.count)), code.contains(where: \.isNumber) else { return nil }
        let trimmed = code.trimmingCharacters(in: CharacterSet(charactersIn: " :-–|"))
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A station's name without the frequency before or after it ("102.7 KIIS FM" -> "KIIS FM"), or nil
    /// when it has none or is nothing else.
    static func withoutFrequency(_ title: String) -> String? {
        func isFrequency(_ word: Substring) -> Bool {
            let parts = word.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let value = Double(word) else { return false }
            return (87.5...108).contains(value) || (150...30_000).contains(value) && parts.count == 1
        }
        var words = title.split(separator: " ")
        guard words.count > 1 else { return nil }
        if isFrequency(words[0]) { words.removeFirst() } else if isFrequency(words[words.count - 1]) { words.removeLast() } else { return nil }
        return words.joined(separator: " ")
    }

    /// The keys of `row`.
    /// - Parameter artistAliases: other names of artists and shows, by name folded: an artist's aliases
    ///   ("ビートルズ" for "The Beatles") are names of its items' artist too, a show's of its episodes' show.
    /// The dashes set off by spaces that part an artist from a title written after it.
    static let dashes = [" - ", " – ", " — "]

    func keys(for row: CatalogRow, artistAliases: [String: [String]] = [:]) -> ItemKeys {
        guard let m = maker(for: row.language) else { return ItemKeys(names: [], genres: []) }
        var names: [(NameField, NameKey)] = []
        // "Adele - Hello (Official Music Video)": a title that starts with its artist and a dash is the rest.
        var titleText = row.title
        // (Told first on the bytes: most titles hold no dash, and need no folded copies.)
        if let artist = row.artist, !artist.isEmpty,
           Self.dashes.contains(where: { NameKeyMaker.bytes(of: $0, occurIn: titleText) }) {
            let folded = titleText.lowercased(), foldedArtist = artist.lowercased()
            for dash in Self.dashes where folded.hasPrefix(foldedArtist + dash) {
                let rest = String(titleText.dropFirst(artist.count + dash.count))
                if !rest.isBlank { titleText = rest }
                break
            }
        }
        let title = m.title(titleText)
        names.append((.title, title.main))
        if let full = title.full { names.append((.full, full)) }
        if let short = title.short { names.append((.short, short)) }
        for sub in title.subtitles { names.append((.short, sub)) }
        for f in title.featured { names += m.names(f.words.joined(separator: " ")).map { (.featured, $0) } }
        // An item of another language is keyed by the catalogue's rules too, where they key it otherwise:
        // aliases are spoken forms, said in the app's language as often as in the item's ("昨日重现" of the
        // English "Yesterday Once More"), and a request in the app's language writes and hears a foreign
        // title or artist its own way ("Chakira", "Maikel Jackson" in Spanish).
        let home = row.language.map { !$0.isBlank } == true ? maker(for: nil).flatMap { $0 !== m ? $0 : nil } : nil
        func inHomeLanguageToo(_ field: NameField, _ key: (NameKeyMaker) -> NameKey) {
            guard let home, case let other = key(home), !names.contains(where: { $0.0 == field && $0.1 == other }) else { return }
            names.append((field, other))
        }
        for a in row.aliases ?? [] {
            names.append((.alias, m.name(a)))
            inHomeLanguageToo(.alias) { $0.name(a) }
        }
        // "GAG451: Die Tulpenmanie", "#280 Die Kaffeemaschine": an episode's number is not said with its title.
        if row.type == "podcastEpisode" || row.type == "tvShowEpisode", let said = Self.withoutEpisodeCode(titleText) {
            names.append((.alias, m.title(said).main))
            // …and is asked for by its number alone ("第100回" of "#100 「象は鼻が長い」の謎", with its show).
            if let code = Self.episodeCode(titleText, rest: said) { names.append((.short, m.title(code).main)) }
        }
        // "102.7 KIIS FM", "WNYC 93.9": a station is named without its frequency as often as with it.
        if Resolver.stationTypes.contains(row.type), let said = Self.withoutFrequency(titleText) {
            names.append((.alias, m.title(said).main))
        }
        // "FourFiveSeconds": a title written as one word with capitals inside is said as its words.
        if let said = Self.wordsInside(titleText) { names.append((.alias, m.title(said).main)) }
        if let artist = row.artist {
            // "Simon & Garfunkel" whole, and each of several artists ("Zedd & Alessia Cara") on its own.
            let whole = m.title(artist)  // (remembered: an artist's name is keyed once)
            names.append((.artist, whole.main))
            for f in whole.featured { names.append((.featured, f)) }
            for piece in m.names(artist).dropFirst() { names.append((.featured, piece)) }
            if let said = Self.wordsInside(artist) { names.append((.featured, m.title(said).main)) }  // "OneRepublic"
            if row.type != "artist", !artistAliases.isEmpty {
                for alias in artistAliases[Catalog.fold(artist)] ?? [] {
                    names.append((.featured, m.name(alias)))
                    inHomeLanguageToo(.featured) { $0.name(alias) }
                }
            }
        }
        if let album = row.album {
            names.append((.album, m.title(album).main))
            // An episode's show by its other names ("コテンラジオ の最新エピソード").
            if row.type == "podcastEpisode" {
                for alias in artistAliases[Catalog.fold(album)] ?? [] {
                    names.append((.album, m.name(alias)))
                    inHomeLanguageToo(.album) { $0.name(alias) }
                }
            }
        }
        inHomeLanguageToo(.title) { $0.title(titleText).main }
        if let artist = row.artist { inHomeLanguageToo(.artist) { $0.title(artist).main } }
        let genres = (row.genres ?? []).map { m.name($0).text }.filter { !$0.isEmpty }
        return ItemKeys(names: names.filter { !$0.1.isEmpty }, genres: genres, joinedSounds: m.hasSoundTransform || home?.hasSoundTransform == true)
    }
}

/// The keys of names as text, for `mediaparse catalog keys`.
public struct NameKeyPrinter: Sendable {
    let maker: NameKeyMaker

    public init(locale: String, catalog: GrammarCatalog = .builtIn) throws {
        maker = try NameKeyMaker(locale: locale, catalog: catalog)
    }

    /// "title: words [sounds]", then the other keys of the same text as a title would have them.
    public func describe(_ text: String) -> String {
        let t = maker.title(text)
        func show(_ k: NameKey) -> String { "\(k.text) [\(k.sounds.joined(separator: " "))]" + (k.whole != k.compact ? " whole: \(k.whole)" : "") }
        var out = "\(text)\n  main: \(show(t.main))"
        if let f = t.full { out += "\n  full: \(show(f))" }
        if let s = t.short { out += "\n  short: \(show(s))" }
        for f in t.featured { out += "\n  featured: \(show(f))" }
        let names = maker.names(text)
        if names.count > 1 { for n in names.dropFirst() { out += "\n  one of several: \(show(n))" } }
        return out
    }
}

/// A batch of an import as read: rows already made, or lines of JSON Lines still to decode.
enum ImportChunk: Sendable {
    case rows([CatalogRow])
    case jsonLines(Data, name: String, firstLine: Int)
}

/// One item ready to store: its keys and every column worked out, off the writer's thread.
struct PreparedItem: Sendable {
    let row: CatalogRow
    let releaseDay: String?
    let genres: String?
    let aliases: String?
    let encodedKeys: String
    let ftsWords: String
    let ftsSounds: String
    let ftsStems: String
    let ftsGenres: String
    /// The names exact lookups ask for (titles, aliases, artists): key text and field.
    let exactNames: [(key: String, field: String)]

    init(row: CatalogRow, keys: ItemKeys) {
        self.row = row
        releaseDay = row.releaseDate.flatMap(CatalogRow.releaseDay)
        genres = Catalog.joinList(row.genres)
        aliases = Catalog.joinList(row.aliases)
        encodedKeys = keys.encoded
        ftsWords = keys.ftsWords
        ftsSounds = keys.ftsSounds
        ftsStems = keys.ftsStems
        ftsGenres = keys.ftsGenres
        exactNames = keys.names.compactMap { field, key in
            !key.isEmpty && Catalog.exactFields.contains(field) ? (key.text, field.rawValue) : nil
        }
    }
}

/// A batch being decoded, keyed and prepared on other threads while the writer stores the batch before:
/// the writer's thread is the import's narrowest point, so it does nothing but write.
///
/// Keys are made without the aliases of artists (the writer alone can look them up); the writer makes
/// again the keys of the few items whose artist has aliases.
final class BatchInProgress: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var items: [PreparedItem] = []
    private var problems: [CatalogProblem] = []

    init(makers: KeyMakers, chunk: ImportChunk) {
        DispatchQueue.global().async {
            let rows: [CatalogRow]
            switch chunk {
            case .rows(let given): rows = given
            case .jsonLines(let data, let name, let firstLine):
                let lines = CatalogFile.lines(of: data)
                let decoded = Slots<CatalogFile.LineContent>(count: lines.count, empty: .blank)
                Self.onEveryCore(count: lines.count) { range in
                    let decoder = JSONDecoder()
                    for i in range { decoded.set(i, CatalogFile.decode(lines[i], lineNumber: firstLine + i, name: name, decoder: decoder)) }
                }
                var found: [CatalogRow] = []
                for content in decoded.values {
                    switch content {
                    case .row(let row): found.append(row)
                    case .problem(let problem): self.problems.append(problem)
                    case .blank: break
                    }
                }
                rows = found
            }
            for language in Set(rows.map { $0.language ?? "" }) { _ = makers.maker(for: language.isEmpty ? nil : language) }
            let prepared = Slots<PreparedItem?>(count: rows.count, empty: nil)
            Self.onEveryCore(count: rows.count) { range in
                for i in range { prepared.set(i, PreparedItem(row: rows[i], keys: makers.keys(for: rows[i]))) }
            }
            self.items = prepared.values.map { $0! }
            self.done.signal()
        }
    }

    /// Runs `body` on consecutive ranges of `0..<count`, one per core.
    private static func onEveryCore(count: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 64 + 1))
        let size = (count + workers - 1) / workers
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let range = min(count, w * size)..<min(count, (w + 1) * size)
            if !range.isEmpty { body(range) }
        }
    }

    /// The batch's items in the order read, and the problems of the lines that could not be read.
    func wait() -> (items: [PreparedItem], problems: [CatalogProblem]) {
        done.wait()
        done.signal()
        return (items, problems)
    }
}

/// Values of a batch, filled by several threads, each slot by one.
private final class Slots<Value>: @unchecked Sendable {
    private var slots: [Value]
    private let lock = NSLock()
    init(count: Int, empty: Value) { slots = Array(repeating: empty, count: count) }
    func set(_ i: Int, _ value: Value) { lock.lock(); slots[i] = value; lock.unlock() }
    var values: [Value] { lock.lock(); defer { lock.unlock() }; return slots }
}
