import Foundation
import GRDB
import MediaParse

/// Resolves parsed requests against a catalogue: the items the request may mean, best first, or
/// `notFound` with the closest items when none fits.
///
/// Candidates come from the catalogue's indexes (exact keys; the full-text index of words, sound-alike
/// keys, stems and genres); each is then scored on everything the parse gives: the name against titles,
/// aliases and (when no artist is said) artists; the artist and album; the media type; genres and moods;
/// the release date range; and the sort order (newest, oldest, popular) among the items that fit about
/// equally. A request is keyed by the rules of each item's own language, so "Mr Brightside" asked in
/// German meets the English title keyed by English rules.
public final class Resolver: Sendable {
    public let catalog: Catalog
    /// Below this score an item is not offered: the request is `notFound`.
    public let threshold: Double

    public init(catalog: Catalog, threshold: Double = 0.7) {
        self.catalog = catalog
        self.threshold = threshold
    }

    /// How many readings a parse should carry (`MediaParser.parse(_:alternatives:)`) for `resolve` to try
    /// the ones as likely as the first: "el episodio Corazón del Rincón del Cine" splits title from show at
    /// either "del", and only the catalogue can tell which.
    public static let readingsWanted = 2

    /// The resolution of `result`, or nil when the result asks for nothing a catalogue holds (a command,
    /// "play something", "like this song").
    ///
    /// The result's alternative readings that the parser ranked as high as the first (another split of
    /// the same words between name and artist) are resolved too; an item keeps its best score, and on a tie
    /// the first reading's items come first.
    ///
    /// - Parameter alternatives: how many items to give after the first.
    public func resolve(_ result: ParseResult, alternatives: Int = 4, nearMisses: Int = 3) throws -> Resolution? {
        guard let (query, first) = try scored(result) else { return nil }
        var scored = first
        for reading in Self.equallyLikely(result) {
            guard let (_, more) = try self.scored(reading) else { continue }
            var at = Dictionary(uniqueKeysWithValues: scored.enumerated().map { ($1.candidate.id, $0) })
            for s in more {
                if let i = at[s.candidate.id] {
                    if s.score > scored[i].score { scored[i] = s }
                } else {
                    at[s.candidate.id] = scored.count
                    scored.append(s)
                }
            }
        }
        var ranked = order(scored, query: query)
        // An artist alone that no item's artist answers may be a title the parse took for an artist ("pon A
        // QUIÉN LE IMPORTA": the "a" of the title read as the personal "a"): tried as the name, a little below.
        if !ranked.contains(where: { $0.score >= threshold }), let reading = Self.artistAsName(result),
           let (_, more) = try self.scored(reading) {
            var best = Dictionary(scored.map { ($0.candidate.id, $0) }, uniquingKeysWith: { a, b in a.score >= b.score ? a : b })
            for var s in more {
                s.score *= Self.artistAsNameFactor
                if s.score > best[s.candidate.id]?.score ?? -1 { best[s.candidate.id] = s }
            }
            ranked = order(Array(best.values), query: query)
        }
        let fitting = ranked.filter { $0.score >= threshold }
        if fitting.isEmpty {
            let near = ranked.filter { $0.score >= 0.3 }.prefix(nearMisses).map(\.resolved)
            return Resolution(items: [], notFound: true, nearMisses: near.isEmpty ? nil : Array(near))
        }
        return Resolution(items: fitting.prefix(1 + max(0, alternatives)).map(\.resolved))
    }

    /// The score of a title of one word one sound from the name said, with the item's artist said.
    static let oneSoundApartScore = 0.72

    /// The score of a title whose kanji the request writes in kana, with the item's artist said.
    static let kanaForKanjiScore = 0.75

    /// Whether the request's words are the title's with each run of kanji written as one to three kana a
    /// kanji, and the title has two words or more that are not kanji, which the request says as written
    /// ("秒 針 を か む" of "秒 針 を 噛 む"; not "し ろ" of "白 日", of kanji alone).
    static func kanaForKanji(_ q: [String], _ c: [String]) -> Bool {
        func isHan(_ w: String) -> Bool {
            guard w.unicodeScalars.count == 1, let u = w.unicodeScalars.first else { return false }
            return (0x4E00...0x9FFF).contains(u.value) || (0x3400...0x4DBF).contains(u.value)
        }
        guard q.count <= 60, c.count <= 40, c.contains(where: isHan), c.filter({ !isHan($0) }).count >= 2 else { return false }
        // Whether q[i...] matches c[j...], remembered per (i, j): each run of kanji tries several lengths of
        // kana, so without it the tries would multiply from run to run.
        var known = [Int8](repeating: -1, count: (q.count + 1) * (c.count + 1))
        func match(_ i: Int, _ j: Int) -> Bool {
            let slot = i * (c.count + 1) + j
            if known[slot] >= 0 { return known[slot] == 1 }
            let found = tryMatch(i, j)
            known[slot] = found ? 1 : 0
            return found
        }
        func tryMatch(_ i: Int, _ j: Int) -> Bool {
            if j == c.count { return i == q.count }
            guard isHan(c[j]) else { return i < q.count && q[i] == c[j] && match(i + 1, j + 1) }
            var h = j
            while h < c.count, isHan(c[h]) { h += 1 }
            let n = h - j
            if i + n <= q.count, q[i..<(i + n)].elementsEqual(c[j..<h]), match(i + n, h) { return true }
            for k in 1...(3 * n) where i + k <= q.count {
                guard NameKeyMaker.isKana(q[i + k - 1]) else { break }
                if k >= n, match(i + k, h) { return true }
            }
            return false
        }
        return match(0, 0)
    }

    /// What an artist read as a title keeps of its score.
    static let artistAsNameFactor = 0.95

    /// `result` with its artist, said alone (no name, album or genre), read as the name instead, or nil.
    static func artistAsName(_ result: ParseResult) -> ParseResult? {
        guard let search = result.mediaSearch, search.mediaName == nil, search.albumName == nil,
              (search.genreNames ?? []).isEmpty, let artist = search.artistName, !artist.isBlank else { return nil }
        var reading = result
        reading.mediaSearch?.mediaName = artist
        reading.mediaSearch?.artistName = nil
        if let spans = result.spans {
            reading.spans = Spans(spans.ranges.map { $0.key == "artistName" ? (key: "mediaName", range: $0.range) : $0 })
        }
        return reading
    }

    /// The alternative readings of `result` as likely as it (within a rounding of its score), of the same
    /// intent and asking for something else.
    static func equallyLikely(_ result: ParseResult) -> [ParseResult] {
        guard let score = result.score else { return [] }
        return (result.alternatives ?? []).filter { alt in
            alt.intent == result.intent && (alt.score ?? 0) >= score - 0.011 && alt.mediaSearch != nil
                && alt.mediaSearch != result.mediaSearch
        }.map { alt in
            var reading = alt
            reading.utterance = result.utterance
            reading.locale = result.locale
            return reading
        }
    }

    /// The request of `result` and the catalogue's items scored against it, or nil when it asks for
    /// nothing a catalogue holds.
    private func scored(_ result: ParseResult) throws -> (Query, [Scored])? {
        guard let intent = result.intent, [.play, .add, .updateAffinity, .search].contains(intent),
              result.mediaSearch != nil, let maker = catalog.keys.maker(for: result.locale),
              var query = Query(result, maker: maker) else { return nil }
        var queries = QueryCache(result: result, first: query)
        var lookups = [query]
        if let home = catalog.keys.maker(for: nil), home.locale != maker.locale, let q = queries.query(for: home) { lookups.append(q) }
        let exact = try candidates(for: lookups, stage: .exact)
        if query.type == "playlist", let name = query.name?.main, exact.contains(where: { c in
            c.keys.names.contains { ($0.field == .artist || $0.field == .featured) && $0.key.words == name.words }
        }) {
            query.nameIsArtist = true
            queries.nameIsArtist = true
        }
        func scoreAll(_ cs: [Candidate]) -> [Scored] {
            cs.map { c -> Scored in
                // Keyed by the item's language, and by the request's: the better of the two ("fünfundzwanzig"
                // is read by German rules, "Mr" by English ones).
                guard let q = queries.query(forLanguage: c.language, makers: catalog.keys), q.locale != query.locale else {
                    return score(c, query: query)
                }
                let a = score(c, query: q), b = score(c, query: query)
                return a.score >= b.score ? a : b
            }
        }
        // Exact names first (an index lookup); the full-text search only when they do not settle it.
        var scored = scoreAll(exact)
        // Settled: an item that fits well, or, for an artist alone, the artist's own items found by name
        // (the full-text search would only add other artists of similar names).
        let artistAlone = query.name == nil && query.album == nil && query.artist != nil
        let settled = scored.contains { $0.score >= 0.9 } || (artistAlone && scored.contains { $0.matched.contains("artist") })
        if !settled {
            let seen = Set(scored.map(\.candidate.id))
            scored += scoreAll(try candidates(for: lookups, stage: .fullText).filter { !seen.contains($0.id) })
        }
        return (query, scored)
    }

    // MARK: - The request

    /// The request keyed by each language's rules, made when an item of that language is first scored.
    struct QueryCache {
        let result: ParseResult
        var byLocale: [String: Query]

        init(result: ParseResult, first: Query) {
            self.result = result
            byLocale = [first.locale: first]
        }

        /// Set on every query made (see `Query.nameIsArtist`).
        var nameIsArtist = false {
            didSet { for k in byLocale.keys { byLocale[k]?.nameIsArtist = nameIsArtist } }
        }

        /// The request keyed by the rules of an item's language (asked once per language of a request).
        var byLanguage: [String: Query?] = [:]

        mutating func query(forLanguage language: String?, makers: KeyMakers) -> Query? {
            if let known = byLanguage[language ?? ""] { return known }
            let q = makers.maker(for: language).flatMap { query(for: $0) }
            byLanguage[language ?? ""] = q
            return q
        }

        mutating func query(for maker: NameKeyMaker) -> Query? {
            if let q = byLocale[maker.locale] { return q }
            var q = Query(result, maker: maker)
            q?.nameIsArtist = nameIsArtist
            if let q { byLocale[maker.locale] = q }
            return q
        }
    }

    struct Query {
        var locale: String
        var name: TitleKeys?
        var artist: NameKey?
        /// The artists of a request naming several ("Maroon 5とChristina Aguilera", "Zedd y Alessia Cara"),
        /// each on its own: one may be the item's artist, the other featured.
        var artistPieces: [NameKey] = []
        /// Whether the name is the name of an artist of the catalogue (set once the exact lookup has found
        /// items by it): a playlist may then be named after it ("Esto es ROSALÍA").
        var nameIsArtist = false
        var album: NameKey?
        var genres: [NameKey] = []
        var type: String?
        /// Whether a word of the request said the type ("the song", "podcast"): a type the grammar gave
        /// without one ("播放X" is read as a song) is a preference among namesakes, not a requirement.
        var typeSaid = false
        var sortOrder: MediaSortOrder?
        var dates: (start: String, end: String)?
        /// A year said alone may be a title ("play 1989 by Taylor Swift", "2112"): its digits as a name.
        var yearTitle: NameKey?
        /// The name with a year said after it ("Sommerhits 2024", "Summer 2015"): the year may be part of the title.
        var nameWithYear: NameKey?
        /// The words from the name to the artist as said, when the title may hold the word the parser read
        /// as "by" ("Désolé de Sexion d'Assaut", "オードリーのオールナイトニッポン", "La Flaca de Jarabe de Palo").
        var nameThroughArtist: TitleKeys?
        /// The name with the words the parse read next to it as its type or genre, when they touch it: a
        /// title may hold them ("mambo number 5": genre "mambo", type "number", name "5"; "la symphonie
        /// numéro 5": type "symphonie", name "numéro 5").
        var nameInContext: TitleKeys?
        /// The name with the word after it, when the parse left that word in no field and more words follow
        /// ("spiel Das geht ab von den Atzen": "ab" read as the particle of "abspielen"): a title may hold it.
        var nameWithNextWord: TitleKeys?
        /// The name's words, to tell at once whether an item's artist is said inside the name.
        var nameWords: Set<String> = []

        init?(_ result: ParseResult, maker: NameKeyMaker) {
            guard let search = result.mediaSearch else { return nil }
            locale = maker.locale
            func text(_ s: String?) -> String? { s.flatMap { $0.isBlank ? nil : $0 } }
            name = text(search.mediaName).map(maker.title)
            artist = text(search.artistName).map(maker.name)
            if let a = text(search.artistName) { artistPieces = Array(maker.names(a).dropFirst()) }
            album = text(search.albumName).map { maker.title($0).main }
            genres = ((search.genreNames ?? []) + (search.moodNames ?? [])).map { maker.name($0) }.filter { !$0.isEmpty }
            type = search.mediaType?.rawValue
            typeSaid = result.spans?["mediaType"] != nil
            sortOrder = search.sortOrder
            dates = search.releaseDate.map { ($0.start, $0.end) }
            if name?.main.isEmpty ?? true { name = nil }
            nameWords = Set(name?.main.words ?? [])
            if let d = dates, d.start.hasSuffix("-01-01"), d.end.hasSuffix("-12-31"), d.start.prefix(4) == d.end.prefix(4) {
                let year = String(d.start.prefix(4))
                if let name {
                    nameWithYear = NameKey(words: name.main.words + [year], sounds: name.main.sounds + [year])
                } else {
                    yearTitle = NameKey(words: [year], sounds: [year])
                }
            }
            if name != nil, artist != nil, let u = result.utterance, let a = result.spans?["artistName"], let n = result.spans?["mediaName"],
               a.count == 2, n.count == 2 {
                let scalars = Array(u.unicodeScalars)
                let lo = min(a[0], n[0]), hi = max(a[1], n[1])
                if lo >= 0, hi <= scalars.count, lo < hi {
                    var text = String.UnicodeScalarView()
                    text.append(contentsOf: scalars[lo..<hi])
                    nameThroughArtist = maker.title(String(text))
                }
            }
            if name != nil, let u = result.utterance, let spans = result.spans {
                nameInContext = Self.context(of: spans, in: u).map(maker.title)
                nameWithNextWord = Self.withNextWord(of: spans, in: u).map(maker.title)
            }
            guard name != nil || artist != nil || album != nil || !genres.isEmpty || yearTitle != nil else { return nil }
        }

        /// The text of the name's span widened by the type and genre spans that touch it (only spaces
        /// between), when there are any.
        static func context(of spans: Spans, in utterance: String) -> String? {
            guard let n = spans["mediaName"], n.count == 2 else { return nil }
            let scalars = Array(utterance.unicodeScalars)
            var lo = n[0], hi = n[1]
            let around = ["mediaType", "genreNames"].flatMap { key -> [(Int, Int)] in
                let v = spans[key] ?? []
                return stride(from: 0, to: v.count - 1, by: 2).map { (v[$0], v[$0 + 1]) }
            }
            func blank(_ a: Int, _ b: Int) -> Bool {
                a <= b && a >= 0 && b <= scalars.count && scalars[a..<b].allSatisfy { $0.properties.isWhitespace }
            }
            var widened = true
            while widened {
                widened = false
                for (a, b) in around where a < b {
                    if b <= lo, blank(b, lo) { lo = a; widened = true }
                    if a >= hi, blank(hi, a) { hi = b; widened = true }
                }
            }
            guard lo >= 0, hi <= scalars.count, lo < hi, (lo, hi) != (n[0], n[1]) else { return nil }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[lo..<hi])
            return String(text)
        }

        /// The text of the name's span and of the word after it, when that word is in no span and is not the
        /// utterance's last.
        static func withNextWord(of spans: Spans, in utterance: String) -> String? {
            guard let n = spans["mediaName"], n.count == 2 else { return nil }
            let scalars = Array(utterance.unicodeScalars)
            guard n[0] >= 0, n[1] < scalars.count else { return nil }
            var start = n[1]
            while start < scalars.count, scalars[start].properties.isWhitespace { start += 1 }
            var end = start
            while end < scalars.count, !scalars[end].properties.isWhitespace { end += 1 }
            guard end > start, start > n[1], end < scalars.count,
                  scalars[start..<end].allSatisfy({ $0.properties.isAlphabetic }) else { return nil }
            for (_, r) in spans.ranges {
                for k in stride(from: 0, to: r.count - 1, by: 2) where r[k] < end && r[k + 1] > start { return nil }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[n[0]..<end])
            return String(text)
        }

        /// The keys looked up exactly.
        var exactKeys: [String] {
            var keys: [String] = []
            if let name { keys.append(name.main.text); if let f = name.full { keys.append(f.text) } }
            for k in [artist, album, yearTitle, nameWithYear, nameWithNextWord?.main] { if let k { keys.append(k.text) } }
            return keys.filter { !$0.isEmpty }
        }

        var allKeys: [NameKey] {
            [name?.main, name?.full, artist, album, yearTitle, nameWithNextWord?.main].compactMap { $0 }
        }
    }

    // MARK: - Candidates

    struct Candidate {
        var id: Int64
        var identifier: String
        var type: String
        var title: String
        var artist: String?
        var releaseDay: String?
        var popularity: Double
        var language: String?
        var keys: ItemKeys
    }

    /// FTS5 terms: each one token of the index's tokenizer (a phrase would need positions, which the
    /// index does not keep), so words are cut where it cuts them.
    private static func tokens(_ words: Set<String>) -> Set<String> {
        var pieces = Set<String>()
        for word in words {
            for piece in word.split(whereSeparator: { c in !c.isLetter && !c.isNumber }) { pieces.insert(String(piece)) }
        }
        return pieces
    }

    private static func terms(_ words: Set<String>, prefix: Bool = false) -> String {
        let quoted: [String] = tokens(words).sorted().map { p in "\"" + p + "\"" + (prefix ? "*" : "") }
        return quoted.joined(separator: " OR ")
    }

    enum Stage { case exact, fullText }

    private func candidates(for queries: [Query], stage: Stage) throws -> [Candidate] {
        try catalog.db.read { db in
            var ids = Set<Int64>()
            let exact = Array(Set(queries.flatMap(\.exactKeys)))
            if stage == .exact, !exact.isEmpty {
                ids.formUnion(try exactLookup(db, queries: queries))
            }
            var words = Set<String>(), sounds = Set<String>(), stems = Set<String>()
            if stage == .fullText {
            for k in queries.flatMap(\.allKeys) {
                words.formUnion(k.words)
                if k.words.count > 1 { words.insert(k.compact) }
                if k.whole != k.compact { words.insert(k.whole) }
                sounds.formUnion(k.sounds.filter { !$0.isEmpty })
                if k.sounds.count > 1 { sounds.insert(Self.collapsed(k.sounds.joined())) }
                stems.formUnion(zip(k.words, k.stems).map { $0 == $1 ? $0 : $1 })
                words.formUnion(zip(k.words, k.stems).compactMap { $0 == $1 ? nil : $1 })
            }
            var columns: [(column: String, terms: Set<String>)] = []
            // A station's or playlist's name may be a genre ("play jazz radio": a station of jazz named "Jazz24").
            let namedByGenre = queries[0].type.map { Self.stationTypes.contains($0) || ["playlist", "genre", "music"].contains($0) } ?? false
            let genreNamed = namedByGenre ? Set(queries.compactMap { $0.name?.main.words }.flatMap { $0 }) : []
            for (column, set) in [("words", words), ("sounds", sounds), ("stems", stems), ("genres", genreNamed)] {
                let t = Self.tokens(set)
                if !t.isEmpty { columns.append((column, t)) }
            }
            ids.formUnion(try fullText(db, columns: columns))
            }
            let query = queries[0]
            if stage == .fullText, !query.genres.isEmpty, query.name == nil, query.artist == nil, query.album == nil {
                // Genres and moods alone: items of the genre (its words as prefixes: "entspann" finds
                // "entspannt"), and items named after it.
                let genreWords = Set(query.genres.flatMap { zip($0.words, $0.stems).map { w, s in s.count >= 4 ? s : w } })
                let named = Set(query.genres.flatMap(\.words))
                // A long word by its first seven letters too, the shared start `sameGenre` accepts ("konzentrieren":
                // the genre "Konzentration").
                let starts = Set(genreWords.filter { $0.count >= 9 }.map { String($0.prefix(7)) })
                let match = "genres : (" + Self.terms(genreWords.union(starts), prefix: true) + ") OR words : (" + Self.terms(named) + ")"
                ids.formUnion(try Int64.fetchAll(db, sql: """
                    SELECT f.rowid FROM item_fts f JOIN item i ON i.id = f.rowid WHERE item_fts MATCH ?
                    ORDER BY i.popularity DESC LIMIT 500
                    """, arguments: [match]))
            }
            guard !ids.isEmpty else { return [] }
            var out: [Candidate] = []
            let all = Array(ids)
            for start in stride(from: 0, to: all.count, by: 900) {
                let chunk = Array(all[start..<min(all.count, start + 900)])
                let marks = chunk.map { _ in "?" }.joined(separator: ",")
                for row in try Row.fetchAll(db, sql: """
                    SELECT id, identifier, type, title, artist, releaseDay, popularity, language, keys FROM item WHERE id IN (\(marks))
                    """, arguments: StatementArguments(chunk)) {
                    // By position (the columns named above, in order): no column lookup by name per row.
                    out.append(Candidate(id: row[0], identifier: row[1], type: row[2], title: row[3], artist: row[4],
                                         releaseDay: row[5], popularity: row[6], language: row[7], keys: ItemKeys(encoded: row[8])))
                }
            }
            return out
        }
    }

    /// Candidates by exact keys. A name said with its artist: the items answering to both first (a join);
    /// then items answering to any key, the most popular first (or, for an artist's newest or oldest, by
    /// date), as many as the request's other fields could still tell apart: a title alone is settled by
    /// popularity among its namesakes, so a few suffice.
    private func exactLookup(_ db: Database, queries: [Query]) throws -> [Int64] {
        var ids: [Int64] = []
        for q in queries {
            let names = [q.name?.main, q.name?.full, q.nameWithYear, q.yearTitle].compactMap { $0?.text }.filter { !$0.isEmpty }
            if let artist = q.artist?.text, !names.isEmpty {
                let marks = names.map { _ in "?" }.joined(separator: ",")
                ids += try Int64.fetchAll(db, sql: """
                    SELECT DISTINCT a.itemId FROM name a JOIN name b ON b.itemId = a.itemId
                    WHERE a.key IN (\(marks)) AND b.key = ? LIMIT 200
                    """, arguments: StatementArguments(names + [artist]))
            }
        }
        // Name and artist met together: those are the candidates (a title shared by thousands of items
        // need not be read).
        if !ids.isEmpty { return ids }
        let exact = Array(Set(queries.flatMap(\.exactKeys)))
        let q = queries[0]
        // The items that fit what else was said come first: the type, the dates, the sort order, then
        // popularity; a handful is enough for a title alone.
        // Those fields are on the name rows themselves (schema v2): the items of a title thousands of items
        // share ("Dream") are ranked from one range of the name table; a v1 file opened read-only reads each item.
        let ranked = catalog.namesHoldRanks
        let t = ranked ? "n" : "i"
        var order: [String] = []
        var arguments: [DatabaseValueConvertible?] = exact
        if let type = q.type { order.append("(\(t).type = ?) DESC"); arguments.append(type) }
        if let d = q.dates { order.append("(\(t).releaseDay BETWEEN ? AND ?) DESC"); arguments += [d.start, d.end] }
        switch q.sortOrder {
        case .newest?: order.append("\(t).releaseDay DESC")
        case .oldest?: order.append("\(t).releaseDay IS NULL, \(t).releaseDay ASC")
        default: break
        }
        order.append("\(t).popularity DESC")
        // A title with an artist, album or genre said may be one of many namesakes: more rows. An artist
        // alone: the rows are already in the order the type and sort ask for.
        let narrowing = q.name != nil && (q.artist != nil || q.album != nil || !q.genres.isEmpty)
        let marks = exact.map { _ in "?" }.joined(separator: ",")
        ids += try Int64.fetchAll(db, sql: """
            SELECT DISTINCT n.itemId FROM name n \(ranked ? "" : "JOIN item i ON i.id = n.itemId ")WHERE n.key IN (\(marks))
            ORDER BY \(order.joined(separator: ", ")) LIMIT \(narrowing ? 200 : q.name == nil ? 60 : 40)
            """, arguments: StatementArguments(arguments))
        return ids
    }

    /// Candidates from the full-text index: the items holding every word first (a cheap intersection),
    /// then, when those are few, the best-ranked items holding any of the rarer words, sounds or stems.
    /// Terms that many items hold ("love", "the") are left out of that ranking: ranking reads every item
    /// a term has, and they add little to what the rare ones find.
    private func fullText(_ db: Database, columns: [(column: String, terms: Set<String>)]) throws -> [Int64] {
        var ids: [Int64] = []
        let words = columns.first { $0.column == "words" }?.terms ?? []
        if words.count > 1 {
            let all = words.sorted().map { "\"" + $0 + "\"" }.joined(separator: " AND ")
            ids = try Int64.fetchAll(db, sql: "SELECT rowid FROM item_fts WHERE item_fts MATCH ? ORDER BY rank LIMIT 40", arguments: ["words : (" + all + ")"])
        }
        guard ids.count < 20 else { return ids }
        let every = Set(columns.flatMap(\.terms))
        guard !every.isEmpty else { return ids }
        // How many items hold each term, counted only as far as the ranking below could use: the vocabulary
        // table (`item_vocab`) would count the whole list of a common term, tens of thousands of entries.
        var counts: [String: Int] = [:]
        let count = try db.cachedStatement(sql: """
            SELECT count(*) FROM (SELECT 1 FROM item_fts WHERE item_fts MATCH ? LIMIT \(Self.rankingBudget * 4 + 1))
            """)
        for term in every {
            let n = try Int.fetchOne(count, arguments: ["\"" + term + "\""]) ?? 0
            if n > 0 { counts[term] = n }
        }
        var budget = Self.rankingBudget
        var chosen = Set<String>()
        for term in every.filter({ counts[$0] != nil }).sorted(by: { (counts[$0]!, $0) < (counts[$1]!, $1) }) {
            let n = counts[term]!
            if n > budget, !chosen.isEmpty { break }
            if n > Self.rankingBudget * 4 { break }
            chosen.insert(term)
            budget -= n
        }
        // Each chosen term's items, counted: the items holding the most of the request's rare terms (in
        // words, sounds or stems) are the candidates. Reading posting lists is cheap; bm25's ranking would
        // read every matched item's size as well.
        var hits: [Int64: Int] = [:]
        let lookup = try db.cachedStatement(sql: "SELECT rowid FROM item_fts WHERE item_fts MATCH ?")
        for (column, terms) in columns {
            for term in terms.intersection(chosen).sorted() {
                for id in try Int64.fetchAll(lookup, arguments: [column + " : \"" + term + "\""]) { hits[id, default: 0] += 1 }
            }
        }
        ids += hits.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(80).map(\.key)
        return ids
    }

    /// How many item entries the search by rare terms may read, about.
    static let rankingBudget = 600

    // MARK: - Scoring

    struct Scored {
        var candidate: Candidate
        var score: Double
        var matched: [String]
        var resolved: ResolvedItem {
            ResolvedItem(identifier: candidate.identifier, type: candidate.type, title: candidate.title, artist: candidate.artist,
                         score: (min(1, score) * 1000).rounded() / 1000, matched: matched.isEmpty ? nil : matched)
        }
    }

    static let stationTypes: Set<String> = ["radioStation", "musicStation", "station", "podcastStation", "algorithmicRadioStation"]

    private func score(_ c: Candidate, query q: Query) -> Scored {
        var matched: [String] = []
        let titles = c.keys.names.filter { [.title, .full, .alias, .short].contains($0.field) }
        let artists = c.keys.names.filter { $0.field == .artist || $0.field == .featured }
        let albums = c.keys.names.filter { $0.field == .album }
        let genreFit = q.genres.contains { g in c.keys.genres.contains { Self.sameGenre(g, $0) } }

        // The name decides; the artist and album said with it confirm it (an item by another artist keeps
        // less than half its score).
        var score = 0.0
        var primary = false
        var yearInName = false
        var throughArtist = false
        var inContext = false
        var needsArtist = false
        if let name = q.name {
            var best = 0.0, how = "name"
            for t in titles {
                for qk in [name.main, name.full].compactMap({ $0 }) {
                    // An artist item's title is a person's or band's name, said in part as often as whole.
                    var s = c.type == "artist" ? Self.artistSimilarity(qk, t.key) : Self.similarity(qk, t.key)
                    if t.field == .short { s *= 0.96 }
                    if s > best { best = s; how = t.field == .alias ? "alias" : (s < 0.9 && s >= 0.7 ? "soundAlike" : "name") }
                }
                if let withYear = q.nameWithYear, case let s = Self.similarity(withYear, t.key), s > best {
                    best = s
                    how = "name"
                    yearInName = true
                }
            }
            // The name and artist said as one title: the title holds the word read as "by". Scored as the
            // name alone; the artist's factor below then does not apply.
            if let whole = q.nameThroughArtist {
                for t in titles {
                    let s = Self.similarity(whole.main, t.key)
                    guard s > max(best, 0.9) else { continue }
                    best = s
                    how = "name"
                    throughArtist = true
                }
            }
            /// The best score of `key` against the titles (a short title a little below), when it beats
            /// `best` and reaches `floor`.
            func beatsBest(_ key: NameKey, floor: Double) -> Double? {
                var found: Double?
                for t in titles {
                    let s = Self.similarity(key, t.key) * (t.field == .short ? 0.96 : 1)
                    if s > (found ?? best), s >= floor { found = s }
                }
                return found
            }
            // The name with the words the parse took for its type or genre ("mambo number 5"): scored as
            // the name when a title holds them; the genre is then no requirement.
            if let context = q.nameInContext, let s = beatsBest(context.main, floor: 0.7) {
                best = s
                how = "name"
                inContext = true
            }
            // The name with the word after it that the parse left out ("Das geht" + "ab"): as the name, when
            // a title is that nearly exactly.
            if let next = q.nameWithNextWord, let s = beatsBest(next.main, floor: 0.9) {
                best = s
                how = "name"
            }
            // The artist or show said inside the name, with no word for "by" ("the elon musk joe rogan episode"):
            // the name against a title and an artist said together, in either order, a little below ("hello adele").
            if q.artist == nil, best < 0.9, name.main.words.count >= 2 {
                for t in titles where t.field == .title || t.field == .alias {
                    for a in artists where a.field == .artist && a.key.words.contains(where: q.nameWords.contains) {
                        for k in [Self.joined(t.key, a.key), Self.joined(a.key, t.key)] {
                            let s = Self.similarity(name.main, k) * 0.95
                            guard s > best else { continue }
                            best = s
                            how = "name"
                        }
                    }
                }
            }
            // A playlist asked for by what it plays ("pon la lista de Rosalía": "Esto es ROSALÍA", "Rosalía
            // Essentials"): the name as the first or last words of a playlist's title.
            if q.type == "playlist", c.type == "playlist", q.nameIsArtist {
                for t in titles {
                    let s = Self.namedAfter(name.main, t.key)
                    guard s > best else { continue }
                    best = s
                    how = "name"
                }
            }
            // A name that is the item's genre or mood ("play jazz radio": a jazz station).
            if best < 0.85, c.keys.genres.contains(where: { Self.sameGenre(name.main, $0) }) {
                best = 0.85
                how = "genre"
            }
            // The show of an episode, the album of a song, said as the name ("the latest episode of The Daily").
            if c.type == "podcastEpisode" || (q.type == "album" && c.type == "song") {
                for a in albums {
                    let s = Self.similarity(name.main, a.key) * 0.9
                    guard s > best else { continue }
                    best = s
                    how = "album"
                }
            }
            // A name may be an artist ("play Adele", "the Adele album from 2008"): the artist's own items,
            // a little below an item that is the artist or is so titled.
            if q.artist == nil, c.type != "artist" {
                for a in artists {
                    let s = Self.artistSimilarity(name.main, a.key) * 0.88
                    guard s > best else { continue }
                    best = s
                    how = "artist"
                }
            }
            // A title of one word misheard by one sound ("Augenblick" for "Augenbling"), said with its artist:
            // just found, and kept only when the artist said is the item's (below).
            if best < Self.oneSoundApartScore, q.artist != nil, name.main.words.count == 1, name.main.words[0].count >= 6,
               let said = name.main.sounds.first {
                for t in titles where t.key.words.count == 1 && t.key.words[0].count >= 6 && Self.soundsOneApart(said, t.key.sounds[0]) {
                    best = Self.oneSoundApartScore
                    how = "soundAlike"
                    needsArtist = true
                    break
                }
            }
            // A title with kanji that the request writes in kana, as speech recognition may ("秒針をかむ" for
            // "秒針を噛む", "よるにかける" for "夜に駆ける"), said with its artist: kept only when the artist
            // said is the item's (below).
            if best < Self.kanaForKanjiScore, q.artist != nil, name.main.words.contains(where: NameKeyMaker.isKana) {
                for t in titles where (t.field == .title || t.field == .alias) && Self.kanaForKanji(name.main.words, t.key.words) {
                    best = Self.kanaForKanjiScore
                    how = "soundAlike"
                    needsArtist = true
                    break
                }
            }
            // A number said that none of the item's names has is another item ("Part III" of a catalogue
            // with Part II, "Zimmer 484" for "Zimmer 483"), unless the year it may be was read apart.
            if best < 1, best >= 0.5, !yearInName {
                let said = Set(name.main.words.filter { $0.first?.isNumber == true })
                let has = Set(titles.flatMap { $0.key.words.filter { $0.first?.isNumber == true } })
                if !said.isEmpty, !said.isSubset(of: has) { best *= has.isEmpty ? 0.85 : 0.75 }
            }
            score = best
            primary = true
            if best >= 0.7 { matched.append(how) }
        }
        if let year = q.yearTitle, titles.contains(where: { $0.key.words == year.words }) {
            score = 1
            primary = true
            yearInName = true
            matched.append("name")
        }
        if let album = q.album {
            let pool = c.type == "album" ? titles : albums
            let s = pool.map { Self.similarity(album, $0.key) }.max() ?? 0.2
            if primary { score *= 0.7 + 0.3 * s } else { score = s; primary = true }
            if s >= 0.7 { matched.append("album") }
        }
        if let artist = q.artist, !throughArtist {
            // An episode is said with its show as often as with its host ("… from Science Club").
            let pool = c.type == "artist" ? titles : c.type == "podcastEpisode" ? artists + albums : artists
            let none = c.type == "playlist" || Self.stationTypes.contains(c.type) ? 0.5 : 0.2
            var s = pool.map { Self.artistSimilarity(artist, $0.key) }.max() ?? none
            if q.artistPieces.count > 1, c.type != "artist" {
                let each = q.artistPieces.map { piece in pool.map { Self.artistSimilarity(piece, $0.key) }.max() ?? 0 }
                s = max(s, each.min() ?? 0)
            }
            if primary { score *= 0.4 + 0.6 * s } else { score = s; primary = true }
            if s >= 0.7 { matched.append("artist") }
            if needsArtist, s < 0.9 { score = 0 }
            if q.name == nil, q.album == nil, q.type == nil {
                // The artist alone: the artist item first; with a sort order, the artist's works.
                if c.type == "artist" { score *= q.sortOrder == nil ? 1 : 0.9 } else { score *= q.sortOrder == nil ? 0.97 : 1 }
            }
        }
        if primary {
            if !q.genres.isEmpty, !inContext {
                score *= genreFit ? 1 : 0.9
                if genreFit { matched.append("genre") }
            }
        } else {
            // Genres or moods alone ("play some jazz", "music to sleep"): an item of that genre; a station,
            // playlist or genre item named after it first.
            var named = 0.0
            for g in q.genres { for t in titles { named = max(named, Self.similarity(g, t.key), Self.titleHead(g, t.key)) } }
            score = genreFit ? 0.8 + 0.15 * named : 0.85 * named
            if ["playlist", "genre"].contains(c.type) || Self.stationTypes.contains(c.type) { score += 0.03 } else { score *= 0.92 }
            if genreFit { matched.append("genre") }
        }
        // "The Beatles' Yesterday": a name said with its artist is not the artist.
        if q.name != nil, q.artist != nil, c.type == "artist", q.type != "artist" { score *= 0.8 }
        // "Play some sad songs": a type said with a genre or mood alone asks for music of it, not one song.
        let genreAlone = q.name == nil && q.artist == nil && q.album == nil && !q.genres.isEmpty
        var typeFactor = Self.typeFactor(requested: genreAlone && q.type == "song" ? "music" : q.type, item: c.type)
        if !q.typeSaid, q.type == "song", q.name != nil { typeFactor = max(typeFactor, Self.unsaidTypeFactor) }
        score *= typeFactor
        if q.type != nil, typeFactor == 1 { matched.append("type") }
        if let d = q.dates, !yearInName {
            if let day = c.releaseDay {
                if day >= d.start && day <= d.end { matched.append("releaseDate") } else { score *= 0.6 }
            } else {
                score *= 0.9
            }
        }
        // Popularity breaks ties; the score shown stays within 0–1.
        return Scored(candidate: c, score: score + 0.02 * c.popularity, matched: matched)
    }

    /// Best first; with a sort order, the items that fit about as well as the best are put in its order.
    private func order(_ items: [Scored], query: Query) -> [Scored] {
        var sorted = items.sorted { ($0.score, $1.candidate.identifier) > ($1.score, $0.candidate.identifier) }
        guard let top = sorted.first, top.score >= threshold, let sort = query.sortOrder else { return sorted }
        let band = sorted.prefix { $0.score >= max(threshold, top.score - 0.08) }
        let rest = sorted.dropFirst(band.count)
        let reordered: [Scored]
        switch sort {
        case .newest, .oldest:
            let newest = sort == .newest
            reordered = band.sorted { a, b in
                switch (a.candidate.releaseDay, b.candidate.releaseDay) {
                case let (x?, y?): return x != y ? (newest ? x > y : x < y) : a.score > b.score
                case (_?, nil): return true
                case (nil, _?): return false
                default: return a.score > b.score
                }
            }
        case .popular, .best, .trending:
            reordered = band.sorted { ($0.candidate.popularity, $0.score) > ($1.candidate.popularity, $1.score) }
        case .unpopular, .worst:
            reordered = band.sorted { ($0.candidate.popularity, -$0.score) < ($1.candidate.popularity, -$1.score) }
        default:
            return sorted
        }
        // "The newest episode of X": the items of the type said first, the show after its episodes.
        var ordered = reordered
        if query.typeSaid, let type = query.type, reordered.contains(where: { $0.candidate.type == type }) {
            ordered = reordered.filter { $0.candidate.type == type } + reordered.filter { $0.candidate.type != type }
        }
        sorted = ordered.enumerated().map { i, s in
            var s = s
            if i == 0 { s.matched.append("sortOrder") }
            return s
        } + rest
        return sorted
    }

    /// The least an item of another type keeps when the request's type is a song no word said, given by the
    /// grammar to a name after a verb of playing ("播放X"): enough to stay above an absent name's score.
    /// (A type given by a word inside the name, "kiss fm", still counts.)
    static let unsaidTypeFactor = 0.9

    /// How well an item of type `item` answers a request for `requested` (1: the same).
    static func typeFactor(requested: String?, item: String) -> Double {
        guard let requested else {
            // Said without a type, a title is first the song (an album of the same name comes second).
            if item == "album" { return 0.985 }
            return ["podcastEpisode", "musicVideo", "tvShowEpisode"].contains(item) ? 0.96 : 1
        }
        if requested == item { return 1 }
        let music: Set<String> = ["song", "album", "artist", "playlist", "musicVideo", "genre"]
        switch requested {
        case "music": return music.contains(item) ? 1 : (stationTypes.contains(item) ? 0.9 : 0.7)
        case "song": return item == "musicVideo" ? 0.85 : (item == "album" ? 0.75 : 0.65)
        case "album": return item == "song" ? 0.7 : (item == "playlist" ? 0.75 : 0.65)
        case "artist": return music.contains(item) ? 0.9 : 0.65
        case "playlist", "podcastPlaylist": return item == "album" || stationTypes.contains(item) ? 0.8 : 0.65
        case "podcastShow": return item == "podcastEpisode" ? 0.85 : 0.6
        case "podcastEpisode": return item == "podcastShow" ? 0.88 : 0.6
        case "genre": return stationTypes.contains(item) || item == "playlist" ? 0.95 : 0.8
        default:
            if stationTypes.contains(requested) { return stationTypes.contains(item) ? 0.97 : (item == "playlist" ? 0.8 : 0.65) }
            return 0.65
        }
    }

    // MARK: - Comparing names

    /// Whether two genre or mood keys are one: the same words or stems, or one the start of the other
    /// ("entspannt", "entspanntes").
    static func sameGenre(_ a: NameKey, _ b: String) -> Bool {
        let x = a.text
        if x == b || a.stems.joined(separator: " ") == b { return true }
        let (short, long) = x.count <= b.count ? (x, b) : (b, x)
        if short.count >= 5 && long.hasPrefix(short) && Double(short.count) >= 0.7 * Double(long.count) { return true }
        // One stem, two endings ("konzentrieren", "konzentriert"): a long shared start.
        let common = zip(short, long).prefix { $0 == $1 }.count
        return common >= 7 && Double(common) >= 0.6 * Double(short.count) && !short.contains(" ") && !long.contains(" ")
    }

    /// The request's words are the first words of a longer title ("Don Quijote" for "Don Quijote de la
    /// Mancha"): how well, 0 when they are not.
    static func titleHead(_ q: NameKey, _ c: NameKey) -> Double {
        titlePart(q, c, atEnd: false, base: 0.78)
    }

    /// The request's words are the last words of a longer title, its distinctive end ("Monte Cristo" for
    /// "Le Comte de Monte-Cristo", "Bugaled Breizh" for "Le mystère du Bugaled Breizh"): how well, 0 when
    /// they are not. A little below a head of the same length.
    static func titleTail(_ q: NameKey, _ c: NameKey) -> Double {
        titlePart(q, c, atEnd: true, base: 0.76)
    }

    /// Two or more words of the request that are the first (or last) words of a longer title, at least
    /// two fifths of it, or a third for a head of words of three letters or more ("sergeant peppers" of "Sgt.
    /// Pepper's Lonely Hearts Club Band"; a Japanese title is cut one character a word, and two of six say
    /// little): `base` plus a fifth of the share they are; else 0.
    private static func titlePart(_ q: NameKey, _ c: NameKey, atEnd: Bool, base: Double) -> Double {
        let n = q.words.count
        guard n >= 2, n < c.words.count, (atEnd ? Array(c.words.suffix(n)) : Array(c.words.prefix(n))) == q.words else { return 0 }
        let r = Double(n) / Double(c.words.count)
        let floor = !atEnd && q.words.allSatisfy { $0.count >= 3 } ? 0.33 : 0.4
        return r >= floor ? base + 0.2 * r : 0
    }

    /// Names of people and bands are often said in part: "Grönemeyer" for "Herbert Grönemeyer", "Red Hot"
    /// for "Red Hot Chili Peppers". The request's words at the start or end of the artist's count.
    static func artistSimilarity(_ q: NameKey, _ c: NameKey) -> Double {
        let s = similarity(q, c)
        guard s < 0.95, q.words.count < c.words.count else { return s }
        let n = q.words.count
        let atStart = Array(c.stems.prefix(n)) == q.stems, atEnd = Array(c.stems.suffix(n)) == q.stems
        // A family name alone names a person ("Grönemeyer"); a first name alone does not ("Amaia" is not
        // "Amaia Montero"); a band is said by its first words ("Red Hot").
        let part = 0.8 + 0.15 * Double(n) / Double(c.words.count)
        guard atEnd || (atStart && n > 1) else {
            // The family name alone, misheard or mistyped ("Grönemaier", "Gainsbour"): as alike as its sound.
            let tail = NameKey(words: Array(c.words.suffix(n)), sounds: Array(c.sounds.suffix(n)), stems: Array(c.stems.suffix(n)))
            let t = similarity(q, tail)
            return t >= 0.7 ? max(s, part * t) : s
        }
        return max(s, part)
    }

    /// How alike two spellings are, 0–1: one less the share of letters to change (Levenshtein), so that a
    /// short sound key shared by two names ("sd": Seed, Seeed, Sido) can tell the close spelling apart.
    static func spellingCloseness(_ a: String, _ b: String) -> Double {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard !x.isEmpty, !y.isEmpty else { return x.isEmpty && y.isEmpty ? 1 : 0 }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var previous = row[0]
            row[0] = i
            for j in 1...y.count {
                let was = row[j]
                row[j] = x[i - 1] == y[j - 1] ? previous : 1 + min(previous, row[j], row[j - 1])
                previous = was
            }
        }
        return 1 - Double(row[y.count]) / Double(max(x.count, y.count))
    }

    /// The consonants of a sound key, each said once ("mariigoorudo" -> "mrgrd").
    static func consonants(_ key: String) -> String {
        collapsed(String(String.UnicodeScalarView(key.unicodeScalars.filter { !"aeiouy".unicodeScalars.contains($0) })))
    }

    /// A sound key with letters repeated across word joins said once ("king" + "gnu" -> "kngn").
    static func collapsed(_ key: String) -> String {
        var out = String.UnicodeScalarView()
        var last: Unicode.Scalar?
        for u in key.unicodeScalars where u != last { out.append(u); last = u }
        return String(out)
    }

    /// How alike two names are, 0–1: 1 the same words; 0.97 the same letters ("AC/DC", "acdc"); below, the
    /// share of words that meet (the same, the same stem, the same sound, one letter apart), as an
    /// F-measure to the power 1.5, so that one word of two wrong ("blinding nights") is far from a match.
    static func similarity(_ q: NameKey, _ c: NameKey) -> Double {
        if q.words == c.words { return 1 }
        if q.words.isEmpty || c.words.isEmpty { return 0 }
        if q.compact == c.compact || q.whole == c.whole || q.whole == c.compact || q.compact == c.whole { return 0.97 }
        if q.stems == c.stems { return 0.94 }
        let qs = q.sounds.joined(), cs = c.sounds.joined()
        // The same sounds: a misheard name; a short key ("hl": halo, hello) says little.
        // A short key shared by close spellings ("Renault", "Renaud"; "Seed", "Seeed") is a misheard name.
        if qs.count >= 2, qs == cs {
            guard qs.count <= 2 && qs.allSatisfy(\.isASCII) else { return 0.85 }
            return spellingCloseness(q.compact, c.compact) >= 0.7 ? 0.75 : 0.6
        }
        // The same sounds but for a letter said twice across words ("king" + "gnu" = "kngn").
        let qc = collapsed(qs), cc = collapsed(cs)
        if qc.count >= 3, qc == cc { return 0.85 }
        // A name in kana and one in Latin letters ("キングヌー", "King Gnu"; "ミセスグリーンアップル", "Mrs. GREEN
        // APPLE"): katakana spells the sounds of a foreign name, with vowels of its own, so only the
        // consonants can meet, approximately (one apart in a long key).
        let qKana = q.words.contains(where: NameKeyMaker.isKana), cKana = c.words.contains(where: NameKeyMaker.isKana)
        if qKana != cKana, (qKana ? c : q).compact.utf8.allSatisfy({ $0 < 0x80 }) {
            let a = consonants(qs), b = consonants(cs)
            if a.count >= 3, a == b { return 0.85 }
            // Two consonants ("サン" = "SUN", "バター" = "Butter"): a short name said alike, just found (0.72).
            if a.count == 2, a == b { return 0.72 }
            if min(a.count, b.count) >= 5, editDistanceAtMostOne(a, b) { return 0.76 }
        }
        var used = [Bool](repeating: false, count: c.words.count)
        var matched = 0.0
        let several = q.words.count >= 2 && c.words.count >= 2
        for (i, w) in q.words.enumerated() {
            var best = 0.0, at = -1
            for (j, v) in c.words.enumerated() where !used[j] {
                var s = 0.0
                if w == v {
                    s = 1
                } else if i < q.stems.count, j < c.stems.count, q.stems[i] == c.stems[j] || q.stems[i] == v || w == c.stems[j] {
                    s = 0.9
                } else if i < q.sounds.count, j < c.sounds.count, q.sounds[i] == c.sounds[j],
                          q.sounds[i].count >= 2 || (!q.sounds[i].isEmpty && !q.sounds[i].allSatisfy(\.isASCII)) {
                    s = 0.85
                } else if w.count >= 4, v.count >= 4, editDistanceAtMostOne(w, v) {
                    // One letter apart: a typing slip when the word starts the same, else another word
                    // ("nights", "lights").
                    s = w.first == v.first ? 0.8 : 0.4
                } else if min(w.count, v.count) >= 3, w.hasPrefix(v) || v.hasPrefix(w) {
                    s = 0.5
                }
                // A word misheard by one sound in a name of several words ("Maikel Jackson", "Leonard Skinner",
                // "Pumped Up Kids"): the other words hold the name; a name of one word stays itself.
                if s < 0.7, several, i < q.sounds.count, j < c.sounds.count, Self.soundsOneApart(q.sounds[i], c.sounds[j]),
                   w.utf8.count >= 4, v.utf8.count >= 4 {
                    s = 0.7
                }
                if s > best { best = s; at = j }
                if s == 1 { break }
            }
            if at >= 0 { used[at] = true; matched += best }
        }
        let p = matched / Double(q.words.count), r = matched / Double(c.words.count)
        guard p + r > 0 else { return 0 }
        // A word said that the title lacks makes another title ("nadie sabe casi nada" is not "Nadie Sabe
        // Nada"), more than a word of the title left unsaid (titles are said in part): when the request says
        // more than the title, precision weighs more (an F-measure with beta squared `extraWordWeight`).
        let b2 = p < r ? extraWordWeight : 1
        let f = (1 + b2) * p * r / (b2 * p + r)
        return max(0.92 * f * f.squareRoot(), titleHead(q, c), titleTail(q, c), numberedHead(q, c))
    }

    /// How much a word the request says beyond the title weighs against a word of the title left unsaid
    /// (the squared beta of the F-measure when precision is the lower): "nadie sabe casi nada" falls below
    /// the threshold for "Nadie Sabe Nada" (0.67), while a title said in part is scored as before.
    static let extraWordWeight = 0.3

    /// Two sound keys one letter apart, long enough to say something: three letters or more from the same
    /// first one; or five or more, one with a sound before the other ("ienifer", "enifer": the y of "Yenifer"
    /// where "Jennifer" has a j that Spanish keys leave silent). Another first consonant is another name
    /// ("Herbert", "Norbert").
    static func soundsOneApart(_ a: String, _ b: String) -> Bool {
        // Lengths first: most pairs of words compared are rejected here, at no cost.
        let x = a.utf8, y = b.utf8, n = min(x.count, y.count)
        guard n >= 3, abs(x.count - y.count) <= 1, a != b, x.allSatisfy({ $0 < 0x80 }), y.allSatisfy({ $0 < 0x80 }) else { return false }
        if a.first != b.first { return n >= 5 && (a.dropFirst() == b[...] || b.dropFirst() == a[...]) }
        return editDistanceAtMostOne(a, b)
    }

    /// A numbered work said by its kind and number, in either order ("5e symphonie", "symphonie numéro 5",
    /// "neuvième symphonie" for "Symphonie n° 5 en ut mineur, op. 67"): the request's words are the title's
    /// words up to its first number, a head that names the work however long the rest is. 0 when not.
    static func numberedHead(_ q: NameKey, _ c: NameKey) -> Double {
        // Numbers are keyed as ASCII digits: a byte test rejects the titles and requests without one.
        func isNumber(_ w: String) -> Bool { w.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        guard q.words.count >= 2, q.words.contains(where: isNumber), let k = c.words.firstIndex(where: isNumber), k >= 1,
              k + 1 < c.words.count, k + 1 == q.words.count, c.words[...k].sorted() == q.words.sorted() else { return 0 }
        return 0.86
    }

    /// Two names said one after the other, as one key.
    static func joined(_ a: NameKey, _ b: NameKey) -> NameKey {
        NameKey(words: a.words + b.words, sounds: a.sounds + b.sounds, stems: a.stems + b.stems)
    }

    /// The name as the first or last words of a longer title ("Rosalía" of "Esto es ROSALÍA"): 0.8, else 0.
    static func namedAfter(_ q: NameKey, _ c: NameKey) -> Double {
        let n = q.words.count
        guard n >= 1, n < c.words.count, Array(c.words.suffix(n)) == q.words || Array(c.words.prefix(n)) == q.words else { return 0 }
        return 0.8
    }

    static func editDistanceAtMostOne(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        if abs(x.count - y.count) > 1 { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else {
                // A swap of two neighbours counts as one edit too ("teh").
                if i + 1 < x.count, j + 1 < y.count, x[i] == y[j + 1], x[i + 1] == y[j] { i += 2; j += 2; continue }
                i += 1; j += 1
            }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }
}
