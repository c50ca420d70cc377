import Foundation

/// One item of an app's catalogue as it is imported: the contract's catalogue keys (docs/CONTRACT.md,
/// "Catalogue rows").
public struct CatalogRow: Codable, Sendable, Hashable {
    /// The app's identifier of the item; unique in a catalogue (a second row with it replaces the first).
    public var identifier: String
    /// One of the contract's media types (`song`, `album`, `podcastShow` …).
    public var type: String
    public var title: String
    /// The performer; for a podcast its publisher or host, for an audiobook its author.
    public var artist: String?
    /// The album of a song; the show of a podcast episode.
    public var album: String?
    public var genres: [String]?
    /// An ISO 8601 day ("2015-11-20") or a year ("2015").
    public var releaseDate: String?
    /// 0–1: how often the item is played, for "the most popular" and ties.
    public var popularity: Double?
    /// The language of the title (BCP 47 or a language code: "de", "en-GB"); its rules make the title's
    /// keys. Absent: the catalogue's locale.
    public var language: String?
    /// Other names people say for it ("a c d c" for "AC/DC").
    public var aliases: [String]?

    public init(identifier: String, type: String, title: String, artist: String? = nil, album: String? = nil,
                genres: [String]? = nil, releaseDate: String? = nil, popularity: Double? = nil, language: String? = nil,
                aliases: [String]? = nil) {
        self.identifier = identifier
        self.type = type
        self.title = title
        self.artist = artist
        self.album = album
        self.genres = genres
        self.releaseDate = releaseDate
        self.popularity = popularity
        self.language = language
        self.aliases = aliases
    }

    /// The media types a catalogue item may have: the contract's `mediaType` values.
    public static let mediaTypes: Set<String> = [
        "song", "album", "artist", "genre", "playlist", "podcastShow", "podcastEpisode", "podcastPlaylist",
        "musicStation", "audioBook", "movie", "tvShow", "tvShowEpisode", "musicVideo", "podcastStation",
        "radioStation", "station", "music", "algorithmicRadioStation", "news",
    ]

    /// What is wrong with the row, or nil: the message a bad row is reported with.
    public var problem: String? {
        // SQLite keeps a NUL inside a text, but a text read back ends at it: "s2\0x" would come back as "s2",
        // another item's identifier (fuzz finding F8).
        for (key, value) in [("identifier", identifier), ("type", type), ("title", title), ("artist", artist ?? ""),
                             ("album", album ?? ""), ("releaseDate", releaseDate ?? ""), ("language", language ?? "")]
            where value.utf8.contains(0) {
            return "`\(key)` holds a NUL character (U+0000)"
        }
        for (key, values) in [("genres", genres ?? []), ("aliases", aliases ?? [])] where values.contains(where: { $0.utf8.contains(0) }) {
            return "`\(key)` holds a NUL character (U+0000)"
        }
        if identifier.isBlank { return "`identifier` is empty" }
        if title.isBlank { return "`title` is empty" }
        if !Self.mediaTypes.contains(type) {
            return "`type` \"\(type)\" is not a media type of the contract (song, album, artist, playlist, podcastShow, podcastEpisode, audioBook, radioStation …)"
        }
        if let p = popularity, !(0...1).contains(p) { return "`popularity` \(p) is not between 0 and 1" }
        if let d = releaseDate, Self.releaseDay(d) == nil {
            return "`releaseDate` \"\(d)\" is neither an ISO day (2015-11-20) nor a year (2015)"
        }
        return nil
    }

    /// A release date as a sortable day ("2015" -> "2015-01-01"), or nil when it is neither form.
    static func releaseDay(_ text: String) -> String? {
        // Nearly every date is already bare ("2015", "2015-11-20"): no copy of it to trim.
        let bare = text.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } == true && text.utf8.last.map { $0 >= 0x30 && $0 <= 0x39 } == true
        let t = bare ? text : text.trimmedOfSpaces
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              parts[0].count == 4 else { return nil }
        if parts.count == 1 { return t + "-01-01" }
        guard let m = Int(parts[1]), (1...12).contains(m), parts[1].count == 2 else { return nil }
        if parts.count == 2 { return t + "-01" }
        guard let d = Int(parts[2]), (1...31).contains(d), parts[2].count == 2 else { return nil }
        return t
    }
}

/// A row of a catalogue file that could not be imported.
public struct CatalogProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// file:line (the line a CSV record starts on).
    public var location: String
    public var message: String
    public var description: String { "\(location): \(message)" }
}

/// Reads catalogue files: JSON Lines (one object per line) or CSV with a header row of the contract's
/// keys (`genres` and `aliases` separated by `|` there). A bad row is reported and skipped; the others
/// are read.
public enum CatalogFile {
    public enum Format: String, Sendable { case jsonLines, csv }

    /// The format a file name says (`.csv`; anything else is JSON Lines).
    public static func format(of path: String) -> Format {
        path.lowercased().hasSuffix(".csv") ? .csv : .jsonLines
    }

    /// Every row of `data`, each with its line, and the problems of the rows that could not be read.
    public static func rows(_ data: Data, format: Format, name: String) -> (rows: [CatalogRow], problems: [CatalogProblem]) {
        switch format {
        case .jsonLines: return jsonLines(data, name: name)
        case .csv: return csv(data, name: name)
        }
    }

    /// Reads the file at `path`.
    ///
    /// - Throws: `CatalogError.unreadable` when the file cannot be read at all.
    public static func rows(path: String) throws -> (rows: [CatalogRow], problems: [CatalogProblem]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw CatalogError.unreadable(path) }
        return rows(data, format: format(of: path), name: path)
    }

    /// Reads a JSON Lines file a batch of rows at a time.
    public struct JSONLinesReader {
        let handle: FileHandle
        let name: String
        var buffer = Data()
        var lineNumber = 0
        var atEnd = false

        public init(path: String) throws {
            guard let h = FileHandle(forReadingAtPath: path) else { throw CatalogError.unreadable(path) }
            handle = h
            name = path
        }

        /// Up to `rows` lines read (fewer at the end of the file), nil when nothing is left.
        public mutating func next(rows wanted: Int) throws -> (rows: [CatalogRow], problems: [CatalogProblem])? {
            guard let chunk = nextChunk(lines: wanted) else { return nil }
            return CatalogFile.jsonLines(chunk.lines, name: name, firstLine: chunk.firstLine)
        }

        /// Up to `wanted` whole lines as read, not yet decoded (the importer decodes them on other threads),
        /// with the number of the first; nil when nothing is left.
        mutating func nextChunk(lines wanted: Int) -> (lines: Data, firstLine: Int)? {
            var lines = 0
            var end = buffer.startIndex
            while true {
                // Whole lines only: what follows the last line break waits for the next read.
                while lines < wanted, let nl = buffer[end...].firstIndex(of: 0x0A) { lines += 1; end = nl + 1 }
                if lines >= wanted || atEnd { break }
                let more = (try? handle.read(upToCount: 4 << 20)) ?? nil
                if let more, !more.isEmpty { buffer.append(more) } else { atEnd = true; end = buffer.endIndex }
            }
            if atEnd && end < buffer.endIndex { end = buffer.endIndex }
            guard end > buffer.startIndex else { return nil }
            let chunk = Data(buffer[buffer.startIndex..<end])
            let first = lineNumber + 1
            lineNumber += lines
            buffer = Data(buffer[end...])
            return (chunk, first)
        }
    }

    static func jsonLines(_ data: Data, name: String, firstLine: Int = 1) -> (rows: [CatalogRow], problems: [CatalogProblem]) {
        var rows: [CatalogRow] = [], problems: [CatalogProblem] = []
        let decoder = JSONDecoder()
        for (offset, line) in lines(of: data).enumerated() {
            switch decode(line, lineNumber: firstLine + offset, name: name, decoder: decoder) {
            case .row(let row): rows.append(row)
            case .problem(let problem): problems.append(problem)
            case .blank: break
            }
        }
        return (rows, problems)
    }

    /// The lines of `data`, without their line breaks (a last line without one included).
    static func lines(of data: Data) -> [Data.SubSequence] {
        var out: [Data.SubSequence] = []
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            out.append(data[start..<end])
            start = end < data.endIndex ? end + 1 : end
        }
        return out
    }

    /// What one line of JSON Lines holds.
    enum LineContent {
        case row(CatalogRow), problem(CatalogProblem), blank
    }

    /// Decodes line `lineNumber` of the file `name` (a byte-order mark on line 1 and a carriage return are
    /// dropped; an empty line is skipped).
    static func decode(_ text: Data.SubSequence, lineNumber: Int, name: String, decoder: JSONDecoder) -> LineContent {
        var line = text
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        do {
            let row = try decoder.decode(CatalogRow.self, from: line)
            if let p = row.problem { return .problem(CatalogProblem(location: "\(name):\(lineNumber)", message: p)) }
            return .row(row)
        } catch {
            return .problem(CatalogProblem(location: "\(name):\(lineNumber)", message: describe(error)))
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, _): return "the row has no `\(key.stringValue)` (every row needs identifier, type and title)"
        case let DecodingError.typeMismatch(_, c): return "`\(c.codingPath.map(\.stringValue).joined(separator: "."))` has the wrong kind of value (\(c.debugDescription))"
        case let DecodingError.valueNotFound(_, c): return "`\(c.codingPath.map(\.stringValue).joined(separator: "."))` is null"
        case DecodingError.dataCorrupted: return "not a JSON object (JSON Lines: one object per line)"
        default: return "\(error)"
        }
    }

    /// CSV as RFC 4180 writes it: fields separated by commas, quoted with `"` when they hold a comma, a
    /// quote (doubled) or a line break.
    private static func csv(_ data: Data, name: String) -> (rows: [CatalogRow], problems: [CatalogProblem]) {
        var rows: [CatalogRow] = [], problems: [CatalogProblem] = []
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records: [(line: Int, fields: [String], error: String?)] = []
        var fields: [String] = [], field: [UInt8] = []
        var quoted = false, line = 1, recordLine = 1, i = 0, error: String?
        func endRecord() {
            fields.append(String(decoding: field, as: UTF8.self))
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields, error)) }
            fields = []; field = []; error = nil
        }
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == 0x22 {
                    if i + 1 < bytes.count, bytes[i + 1] == 0x22 { field.append(0x22); i += 1 } else { quoted = false }
                } else {
                    if b == 0x0A { line += 1 }
                    field.append(b)
                }
            } else {
                switch b {
                case 0x22 where field.isEmpty: quoted = true
                case 0x22: error = "a quote inside an unquoted field (quote the whole field and double the quote)"; field.append(b)
                case 0x2C: fields.append(String(decoding: field, as: UTF8.self)); field = []
                case 0x0D: break
                case 0x0A: endRecord(); line += 1; recordLine = line
                default: field.append(b)
                }
            }
            i += 1
        }
        if quoted { error = "a quoted field is not closed before the end of the file" }
        if !field.isEmpty || !fields.isEmpty || error != nil { endRecord() }
        guard let header = records.first else { return ([], []) }
        let keys = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        let known: Set<String> = ["identifier", "type", "title", "artist", "album", "genres", "releaseDate", "popularity", "language", "aliases"]
        if let unknown = keys.first(where: { !known.contains($0) }) {
            return ([], [CatalogProblem(location: "\(name):\(header.line)", message: "the header names `\(unknown)`, which is not a catalogue key (\(known.sorted().joined(separator: ", ")))")])
        }
        for r in records.dropFirst() {
            let at = "\(name):\(r.line)"
            if let e = r.error { problems.append(CatalogProblem(location: at, message: e)); continue }
            guard r.fields.count == keys.count else {
                problems.append(CatalogProblem(location: at, message: "\(r.fields.count) fields where the header has \(keys.count)"))
                continue
            }
            var value: [String: String] = [:]
            for (k, v) in zip(keys, r.fields) where !v.isEmpty { value[k] = v }
            guard let id = value["identifier"], let type = value["type"], let title = value["title"] else {
                problems.append(CatalogProblem(location: at, message: "the row has no identifier, type or title (every row needs all three)"))
                continue
            }
            func list(_ k: String) -> [String]? {
                value[k].map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
            }
            var popularity: Double?
            if let p = value["popularity"] {
                guard let n = Double(p) else { problems.append(CatalogProblem(location: at, message: "`popularity` \"\(p)\" is not a number")); continue }
                popularity = n
            }
            let row = CatalogRow(identifier: id, type: type, title: title, artist: value["artist"], album: value["album"],
                                 genres: list("genres"), releaseDate: value["releaseDate"], popularity: popularity,
                                 language: value["language"], aliases: list("aliases"))
            if let p = row.problem { problems.append(CatalogProblem(location: at, message: p)); continue }
            rows.append(row)
        }
        return (rows, problems)
    }
}
