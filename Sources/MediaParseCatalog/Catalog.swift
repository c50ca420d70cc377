import Foundation
import GRDB
import MediaParse

/// What can go wrong with a catalogue file, each with what to do next.
public enum CatalogError: Error, Sendable, CustomStringConvertible {
    case unreadable(String)
    case notSQLite(String)
    case notACatalogue(String)
    case newerSchema(String, [String])
    case readOnly(String)
    case diskFull(String)
    case database(String, String)

    public var description: String {
        switch self {
        case let .unreadable(p): return "\(p): cannot read the file"
        case let .notSQLite(p):
            return "\(p): not a SQLite catalogue; give a .jsonl or .csv file to read it in memory, or build the SQLite file with `mediaparse catalog import`"
        case let .notACatalogue(p): return "\(p): a SQLite file, but not a MediaParse catalogue (it has no catalogue tables); build one with `mediaparse catalog import`"
        case let .newerSchema(p, ids):
            return "\(p): made by a newer mediaparse (schema \(ids.joined(separator: ", "))); use that version, or import the items again into a new file"
        case let .readOnly(p): return "\(p): the catalogue cannot be written (read-only file or folder); import into a file you may write"
        case let .diskFull(p): return "\(p): the disk is full; the catalogue is as it was before this import"
        case let .database(p, m): return "\(p): \(m)"
        }
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Hashable {
    /// Rows read and stored (new or replacing an item of the same identifier).
    public var imported = 0
    /// Of those, rows that replaced an item already there.
    public var replaced = 0
    /// Rows that could not be read, each with file:line (skipped).
    public var problems: [CatalogProblem] = []

    public init() {}
}

/// Counts of a catalogue.
public struct CatalogStats: Sendable, Hashable, Codable {
    public var locale: String
    public var items: Int
    /// Items per media type.
    public var types: [String: Int]
    public var schema: String
}

/// An app's catalogue kept in SQLite (through GRDB): the items, the keys of every name they answer to,
/// and a full-text index (FTS5) of those keys and of the genres that finds candidates for a request.
///
/// The schema is versioned by GRDB's migrator ("v1" …); a file made by a newer version is refused with a
/// clear error. An import runs in one transaction: a process killed in the middle leaves the catalogue as
/// it was before.
public final class Catalog: Sendable {
    /// The locale whose rules make keys for items without a `language`, and for requests by default.
    public let locale: String
    /// Where the catalogue lives ("memory" for one read from a JSON Lines or CSV file).
    public let path: String
    let db: any DatabaseWriter
    let keys: KeyMakers
    /// Whether the name rows carry their item's type, release day and popularity (schema v2; a v1 file
    /// opened read-only does not).
    let namesHoldRanks: Bool

    private init(db: any DatabaseWriter, locale: String, path: String, catalog: GrammarCatalog, namesHoldRanks: Bool = true) {
        self.db = db
        self.locale = locale
        self.path = path
        self.namesHoldRanks = namesHoldRanks
        keys = KeyMakers(defaultLocale: locale, catalog: catalog)
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE info (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                -- One row per item, as imported, and its name keys (field TAB words TAB sounds, a line each).
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE,
                    type TEXT NOT NULL,
                    title TEXT NOT NULL,
                    artist TEXT,
                    album TEXT,
                    genres TEXT,
                    releaseDate TEXT,
                    releaseDay TEXT,
                    popularity REAL NOT NULL DEFAULT 0,
                    language TEXT,
                    aliases TEXT,
                    keys TEXT NOT NULL
                );
                -- Every name an item answers to, by its key: the exact lookups (an item's rows are found again
                -- by the keys kept in item.keys, so no second index is written).
                CREATE TABLE name (key TEXT NOT NULL, itemId INTEGER NOT NULL, field TEXT NOT NULL,
                                   PRIMARY KEY (key, itemId, field)) WITHOUT ROWID;
                -- Other names of artists (an artist item's aliases), by the artist's name folded: they serve its items.
                CREATE TABLE artist_alias (artist TEXT NOT NULL, alias TEXT NOT NULL, PRIMARY KEY (artist, alias)) WITHOUT ROWID;
                -- The words and sound-alike keys of all of an item's names: candidates for a request.
                CREATE VIRTUAL TABLE item_fts USING fts5(words, sounds, stems, genres, detail = column, tokenize = 'unicode61 remove_diacritics 0');
                -- How many items hold each term: the resolver leaves out terms too common to rank quickly.
                CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_fts, 'row');
                """)
        }
        // The fields an exact lookup orders by, copied onto each name row: the items of a title that
        // thousands of items share are ranked from one range of the name table, without reading each item.
        m.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE name ADD COLUMN type TEXT NOT NULL DEFAULT '';
                ALTER TABLE name ADD COLUMN releaseDay TEXT;
                ALTER TABLE name ADD COLUMN popularity REAL NOT NULL DEFAULT 0;
                UPDATE name SET (type, releaseDay, popularity) = (SELECT type, releaseDay, popularity FROM item WHERE item.id = name.itemId);
                """)
        }
        return m
    }

    /// A catalogue in memory, empty (import rows into it).
    public static func inMemory(locale: String, catalog: GrammarCatalog = .builtIn) throws -> Catalog {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        try queue.write { try $0.execute(sql: "INSERT INTO info VALUES ('locale', ?)", arguments: [locale]) }
        return Catalog(db: queue, locale: locale, path: "memory", catalog: catalog)
    }

    /// Opens the SQLite catalogue at `path`; creates it when `create` and it does not exist.
    ///
    /// - Parameter locale: the locale of a new catalogue (an existing one keeps its own).
    /// - Throws: `CatalogError` when the file is not SQLite, not a catalogue, of a newer schema, or cannot be
    ///   written where writing is needed.
    public static func open(path: String, create: Bool = false, locale: String = "en-US",
                            readOnly: Bool = false, catalog: GrammarCatalog = .builtIn) throws -> Catalog {
        try open(path: path, create: create, locale: locale, readOnly: readOnly, catalog: catalog, pageLimit: nil)
    }

    /// `open`, with the database file limited to `pageLimit` pages when given: past it SQLite fails a write
    /// with SQLITE_FULL, as it does on a full disk, so the tests reach that path on any machine.
    static func open(path: String, create: Bool, locale: String, readOnly: Bool, catalog: GrammarCatalog,
                     pageLimit: Int?) throws -> Catalog {
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && !create { throw CatalogError.unreadable(path) }
        if exists {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw CatalogError.unreadable(path) }
            let head = (try? handle.read(upToCount: 16)) ?? Data()
            try? handle.close()
            // An empty file is a new catalogue; anything else must start like SQLite.
            if !head.isEmpty, head != Data("SQLite format 3\0".utf8) { throw CatalogError.notSQLite(path) }
        }
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(5)
        // Pages read through a memory map of up to 128 MB (no copy per read) and a 16 MB cache per
        // connection: a request touches a few hundred pages of indexes that stay hot.
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = 134217728")
            try db.execute(sql: "PRAGMA cache_size = -16384")
            if let pageLimit { try db.execute(sql: "PRAGMA max_page_count = \(pageLimit)") }
        }
        do {
            let pool = try DatabasePool(path: path, configuration: config)
            let (completed, superseded, tables) = try pool.read { db in
                (try migrator.completedMigrations(db), try migrator.hasBeenSuperseded(db),
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") ?? 0)
            }
            if superseded { throw CatalogError.newerSchema(path, completed) }
            // Tables but none of ours: somebody else's database. No tables: a new catalogue, if asked for.
            if completed.isEmpty, tables > 0 || !create { throw CatalogError.notACatalogue(path) }
            if !readOnly { try migrator.migrate(pool) }
            let stored = try pool.read { try String.fetchOne($0, sql: "SELECT value FROM info WHERE name = 'locale'") }
            if stored == nil, !readOnly {
                try pool.write { try $0.execute(sql: "INSERT INTO info VALUES ('locale', ?)", arguments: [locale]) }
            }
            // Read-only, the file stays as it was found (`completed`); otherwise it has just been migrated.
            let ranks = readOnly ? completed.contains("v2") : true
            return Catalog(db: pool, locale: stored ?? locale, path: path, catalog: catalog, namesHoldRanks: ranks)
        } catch let error as DatabaseError {
            throw Self.translate(error, path: path)
        }
    }

    /// A JSON Lines or CSV file read into a catalogue in memory; bad rows are in `problems`.
    public static func load(file: String, locale: String, catalog: GrammarCatalog = .builtIn) throws -> (catalog: Catalog, summary: ImportSummary) {
        let c = try inMemory(locale: locale, catalog: catalog)
        return (c, try c.importFile(file))
    }

    static func translate(_ error: DatabaseError, path: String) -> CatalogError {
        switch error.resultCode {
        case .SQLITE_NOTADB: return .notSQLite(path)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return .readOnly(path)
        case .SQLITE_FULL: return .diskFull(path)
        default: return .database(path, error.message ?? "\(error)")
        }
    }

    // MARK: - Import

    /// Stores `rows`, each replacing an item of the same identifier, in one transaction: all or nothing.
    public func importRows(_ rows: [CatalogRow]) throws -> ImportSummary {
        var done = false
        return try importBatches {
            defer { done = true }
            return done ? nil : rows
        }
    }

    /// Imports the JSON Lines or CSV file at `path` in one transaction, JSON Lines read in batches (a
    /// million rows never in memory at once); bad rows are in the summary's problems, with file:line.
    public func importFile(_ path: String) throws -> ImportSummary {
        if CatalogFile.format(of: path) == .csv {
            let (rows, problems) = try CatalogFile.rows(path: path)
            var summary = try importRows(rows)
            summary.problems = problems
            return summary
        }
        var reader = try CatalogFile.JSONLinesReader(path: path)
        return try importChunks {
            reader.nextChunk(lines: 20_000).map { ImportChunk.jsonLines($0.lines, name: path, firstLine: $0.firstLine) }
        }
    }

    /// Imports the batches `next` gives until it gives nil, all in one transaction.
    public func importBatches(_ next: () throws -> [CatalogRow]?) throws -> ImportSummary {
        try importChunks { try next().map(ImportChunk.rows) }
    }

    /// Imports the chunks `next` gives until it gives nil, all in one transaction. A chunk is decoded and
    /// keyed on the other cores while the chunk before it is written.
    func importChunks(_ next: () throws -> ImportChunk?) throws -> ImportSummary {
        var summary = ImportSummary()
        do {
            // Earlier commits are copied into the database file first, so that the log then holds this import
            // alone: if the disk fills, the log can be emptied without writing anything (below).
            emptyWriteAheadLog()
            try db.write { db in
                // A larger page cache while a large import builds its indexes (256 MB).
                try db.execute(sql: "PRAGMA cache_size = -262144")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                var seenAliases: [String: [String]] = [:]
                var pending = try next().map { BatchInProgress(makers: keys, chunk: $0) }
                while let current = pending {
                    pending = try next().map { BatchInProgress(makers: keys, chunk: $0) }
                    var (items, problems) = current.wait()
                    summary.problems += problems
                    // The items of artists with other names get those names too (made here: only the writer
                    // knows the artists of earlier batches).
                    let aliases = try artistAliases(for: items.map(\.row), db: db, seen: &seenAliases)
                    if !aliases.isEmpty {
                        for (i, item) in items.enumerated() where item.row.type != "artist" {
                            let byArtist = item.row.artist.map { aliases[Self.fold($0)] != nil } ?? false
                            let byShow = item.row.type == "podcastEpisode" && item.row.album.map { aliases[Self.fold($0)] != nil } ?? false
                            guard byArtist || byShow else { continue }
                            items[i] = PreparedItem(row: item.row, keys: keys.keys(for: item.row, artistAliases: aliases))
                        }
                    }
                    try insert(items, into: db, summary: &summary)
                }
                try db.execute(sql: "INSERT OR REPLACE INTO info VALUES ('modified', ?)", arguments: [ISO8601DateFormatter().string(from: Date())])
            }
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_FULL {
                // The import is rolled back, but its pages still fill the write-ahead log, and so the disk:
                // a reader could not even rebuild the log's index (SQLite answers "disk I/O error") until
                // space is freed. Emptying the log gives the space back at once; it needs no space of its
                // own, since the log held nothing committed since the checkpoint before the import.
                emptyWriteAheadLog()
            }
            throw Self.translate(error, path: path)
        }
        return summary
    }

    /// Copies what the write-ahead log holds of committed transactions into the database file and truncates
    /// the log to nothing (a no-op for a catalogue in memory, which has no log). Best effort: an import goes
    /// on, or reports its own error, whether or not this succeeds.
    private func emptyWriteAheadLog() {
        try? db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// The other names of the artists of `rows`, and of the shows of its episodes ("コテンラジオ" of "歴史を面白く
    /// 学ぶコテンラジオ (COTEN RADIO)", said for its newest episode): from artist and show rows of this import
    /// (`seen`, updated), else from those already in the catalogue.
    private func artistAliases(for rows: [CatalogRow], db: Database, seen: inout [String: [String]]) throws -> [String: [String]] {
        for row in rows where Self.lendsAliases(row.type) && !(row.aliases ?? []).isEmpty {
            seen[Self.fold(row.title), default: []] += row.aliases!
        }
        var found: [String: [String]] = [:]
        let find = try db.cachedStatement(sql: "SELECT alias FROM artist_alias WHERE artist = ?")
        let shows = rows.compactMap { $0.type == "podcastEpisode" ? $0.album.map(Self.fold) : nil }
        for artist in Set(rows.compactMap { $0.artist.map(Self.fold) } + shows) {
            if let known = seen[artist] { found[artist] = known; continue }
            let aliases = try String.fetchAll(find, arguments: [artist])
            if !aliases.isEmpty { found[artist] = aliases }
        }
        return found
    }

    /// Whether an item's aliases are names of other items too: an artist's of its items' artist, a show's of
    /// its episodes' show.
    static func lendsAliases(_ type: String) -> Bool { type == "artist" || type == "podcastShow" }

    private func insert(_ items: [PreparedItem], into db: Database, summary: inout ImportSummary) throws {
        let keepAlias = try db.cachedStatement(sql: "INSERT OR IGNORE INTO artist_alias (artist, alias) VALUES (?, ?)")
        for item in items where Self.lendsAliases(item.row.type) {
            for alias in item.row.aliases ?? [] { try keepAlias.execute(arguments: [Self.fold(item.row.title), alias]) }
        }
        let findItem = try db.cachedStatement(sql: "SELECT id, keys FROM item WHERE identifier = ?")
        let insertItem = try db.cachedStatement(sql: """
            INSERT INTO item (identifier, type, title, artist, album, genres, releaseDate, releaseDay, popularity, language, aliases, keys)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (identifier) DO NOTHING
            """)
        let insertName = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO name (key, itemId, field, type, releaseDay, popularity) VALUES (?, ?, ?, ?, ?, ?)
            """)
        let insertText = try db.cachedStatement(sql: "INSERT INTO item_fts (rowid, words, sounds, stems, genres) VALUES (?, ?, ?, ?, ?)")
        for item in items {
            let row = item.row
            let values: StatementArguments = [
                row.identifier, row.type, row.title, row.artist, row.album, item.genres,
                row.releaseDate, item.releaseDay, row.popularity ?? 0, row.language, item.aliases, item.encodedKeys,
            ]
            // New identifiers (nearly all of a first import) go in at once; one already there is replaced.
            try insertItem.execute(arguments: values)
            if db.changesCount == 0, let oldRow = try Row.fetchOne(findItem, arguments: [row.identifier]) {
                let old: Int64 = oldRow[0], oldKeys = ItemKeys(encoded: oldRow[1])
                let deleteName = try db.cachedStatement(sql: "DELETE FROM name WHERE key = ? AND itemId = ?")
                for (_, key) in oldKeys.names { try deleteName.execute(arguments: [key.words.joined(separator: " "), old]) }
                try db.execute(sql: "DELETE FROM item WHERE id = ?; DELETE FROM item_fts WHERE rowid = ?", arguments: [old, old])
                summary.replaced += 1
                try insertItem.execute(arguments: values)
            }
            let id = db.lastInsertedRowID
            // Exact lookups ask for titles, aliases and artists; the other names are found by the full-text index.
            for (key, field) in item.exactNames {
                try insertName.execute(arguments: [key, id, field, row.type, item.releaseDay, row.popularity ?? 0])
            }
            try insertText.execute(arguments: [id, item.ftsWords, item.ftsSounds, item.ftsStems, item.ftsGenres])
            summary.imported += 1
        }
    }

    static let exactFields: Set<NameField> = [.title, .full, .alias, .artist, .featured]

    /// A name folded for finding an artist's row: case and surrounding spaces.
    static func fold(_ name: String) -> String { name.trimmedOfSpaces.lowercased() }

    static func joinList(_ list: [String]?) -> String? {
        guard let list, !list.isEmpty else { return nil }
        return list.joined(separator: "\u{1F}")
    }

    // MARK: - Reading

    /// Counts of the catalogue.
    public func stats() throws -> CatalogStats {
        do {
            return try db.read { db in
                var types: [String: Int] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT type, count(*) AS n FROM item GROUP BY type") {
                    types[row["type"]] = row["n"]
                }
                let schema = try Self.migrator.completedMigrations(db).last ?? "none"
                return CatalogStats(locale: locale, items: types.values.reduce(0, +), types: types, schema: schema)
            }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: path)
        }
    }
}
