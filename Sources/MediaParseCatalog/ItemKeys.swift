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

    /// One line per name: field, words, sounds, separated by tabs.
    var encoded: String {
        (names.map { "\($0.field.rawValue)\t\($0.key.words.joined(separator: " "))\t\($0.key.sounds.joined(separator: " "))\t\($0.key.whole)\t\($0.key.stems == $0.key.words ? "" : $0.key.stems.joined(separator: " "))" }
            + genres.map { "genre\t\($0)\t" }).joined(separator: "\n")
    }

    init(names: [(field: NameField, key: NameKey)], genres: [String]) {
        self.names = names
        self.genres = genres
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

    var ftsSounds: String { names.flatMap(\.key.sounds).joined(separator: " ") }

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

    /// The keys of each row, made on every core.
    /// - Parameter artistAliases: other names of artists, by artist name folded: an artist's aliases
    ///   ("ビートルズ" for "The Beatles") are names of its items' artist too.
    func keys(for rows: [CatalogRow], artistAliases: [String: [String]] = [:]) -> [ItemKeys] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, rows.count / 64 + 1))
        // Makers first, so that the workers find them made.
        for language in Set(rows.map { $0.language ?? "" }) { _ = maker(for: language.isEmpty ? nil : language) }
        let slots = KeySlots(count: rows.count)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < rows.count {
                slots.set(i, keys(for: rows[i], artistAliases: artistAliases))
                i += workers
            }
        }
        return slots.values
    }

    func keys(for row: CatalogRow, artistAliases: [String: [String]] = [:]) -> ItemKeys {
        guard let m = maker(for: row.language) else { return ItemKeys(names: [], genres: []) }
        var names: [(NameField, NameKey)] = []
        // "Adele - Hello (Official Music Video)": a title that starts with its artist and a dash is the rest.
        var titleText = row.title
        if let artist = row.artist, !artist.isEmpty {
            for dash in [" - ", " – ", " — "] where titleText.lowercased().hasPrefix(artist.lowercased() + dash) {
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
        for a in row.aliases ?? [] { names.append((.alias, m.name(a))) }
        if let artist = row.artist {
            // "Simon & Garfunkel" whole, and each of several artists ("Zedd & Alessia Cara") on its own.
            let whole = m.title(artist)  // (remembered: an artist's name is keyed once)
            names.append((.artist, whole.main))
            for f in whole.featured { names.append((.featured, f)) }
            for piece in m.names(artist).dropFirst() { names.append((.featured, piece)) }
            if row.type != "artist" {
                for alias in artistAliases[Catalog.fold(artist)] ?? [] { names.append((.featured, m.name(alias))) }
            }
        }
        if let album = row.album { names.append((.album, m.title(album).main)) }
        let genres = (row.genres ?? []).map { m.name($0).text }.filter { !$0.isEmpty }
        return ItemKeys(names: names.filter { !$0.1.isEmpty }, genres: genres)
    }
}

/// Keys of a batch, filled by several threads, each slot by one.
private final class KeySlots: @unchecked Sendable {
    private var slots: [ItemKeys]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: ItemKeys(names: [], genres: []), count: count) }
    func set(_ i: Int, _ value: ItemKeys) { lock.lock(); slots[i] = value; lock.unlock() }
    var values: [ItemKeys] { lock.lock(); defer { lock.unlock() }; return slots }
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

/// The keys of a batch being made on other threads while the writer stores the batch before.
final class KeysInProgress: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var keys: [ItemKeys] = []

    init(makers: KeyMakers, rows: [CatalogRow], artistAliases: [String: [String]]) {
        DispatchQueue.global().async {
            self.keys = makers.keys(for: rows, artistAliases: artistAliases)
            self.done.signal()
        }
    }

    func wait() -> [ItemKeys] {
        done.wait()
        done.signal()
        return keys
    }
}
